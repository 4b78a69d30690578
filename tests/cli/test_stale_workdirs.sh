#!/usr/bin/env bash
# serial: it looks for other runs' working directories
# Work directories left by a killed run (SIGKILL: no cleanup ran) are reported by the next run
# in the same place: which directory, whose (the command and pid, which has ended) and how to
# remove it; never removed by nodemark. One still in use by a running nodemark, and a store
# kept with pieces --keep, are not reported. (issue 29)
. "$(dirname "$0")/lib.sh"
scratch_dir
mkdir "$d/t"
disk=(disk "$d/t" --rw randread --size 4m --engine psync --no-save)

# A run in progress: its directory is locked and holds its owner record.
"$NM" "${disk[@]}" --runtime 60s >/dev/null 2>"$d/err1" &
pid=$!
for _ in $(seq 100); do
    ls "$d"/t/.nodemark-*/OWNER >/dev/null 2>&1 && break
    sleep 0.1
done
left=$(ls -d "$d"/t/.nodemark-* 2>/dev/null)
check "a run's work directory holds its owner record (its pid)" grep -qx "pid $pid" "$left/OWNER"
run_nm "${disk[@]}" --runtime 200ms
expect_rc 0 "a second run beside a running one"
case $err in *"was left by"*) not_ok "a directory in use is not reported" "${err:0:300}" ;;
*) ok "a directory in use by a running nodemark is not reported" ;; esac

# Killed: no cleanup, the directory stays.
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL leaves the work directory behind" test -d "$left"
run_nm "${disk[@]}" --runtime 200ms
expect_rc 0 "the next run in the same place runs"
expect_err_has "warning: $left was left by nodemark disk (pid $pid, started " "it names the directory, the command and the pid"
expect_err_has "which has ended (killed?): nothing uses it; remove it with: rm -r '$left'" "it says the run has ended and how to remove it"
[ "$(grep -c 'was left by' <<<"$err")" = 1 ] && ok "one line for the one directory" ||
    not_ok "one line for the one directory" "${err:0:400}"
check "the directory is left where it was (reported, not removed)" test -f "$left/OWNER"
[ "$(ls -d "$d"/t/.nodemark-* | wc -l)" = 1 ] && ok "the reporting run removed only its own directory" ||
    not_ok "the reporting run removed only its own directory" "$(ls -a "$d/t")"

# A directory without an owner record (an older nodemark's) is reported as such; a link or a
# file by such a name is not one of ours.
mkdir "$d/t/.nodemark-0000beef"
ln -s "$d" "$d/t/.nodemark-link"
: >"$d/t/.nodemark-file"
run_nm "${disk[@]}" --runtime 200ms
expect_err_has "$d/t/.nodemark-0000beef was left by an earlier run (no owner recorded" "a directory with no owner record is reported"
case $err in *nodemark-link*|*nodemark-file*) not_ok "a link or a file by the name is not reported" "${err:0:400}" ;;
*) ok "a link or a file named .nodemark-* is not reported" ;; esac
rm -rf "$left" "$d/t/.nodemark-0000beef" "$d/t/.nodemark-link" "$d/t/.nodemark-file"

# pieces --keep keeps its store on purpose: not a leftover.
mkdir "$d/p"
run_nm pieces "$d/p" --count 4 --size 4k --keep --no-save
expect_rc 0 "pieces --keep"
kept=$(ls -d "$d"/p/.nodemark-*)
check "a kept store has no owner record" test ! -e "$kept/OWNER"
run_nm pieces "$d/p" --count 4 --size 4k --no-save
case $err in *"was left by"*) not_ok "a store kept with --keep is not reported" "${err:0:300}" ;;
*) ok "a store kept with --keep is not reported" ;; esac
