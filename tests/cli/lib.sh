# Helpers for CLI tests; every tests/cli/*.sh sources this first.
#
#   run_nm ARGS...            run nodemark; sets $rc, $out (stdout), $err (stderr)
#   run_cmd CMD...            the same for any command
#   run_interrupted SECS CMD...   CMD sent SIGINT (Ctrl-C) after SECS seconds; sets the same
#   expect_rc N "what"        PASS when the last run exited N
#   expect_out_has TEXT "what" / expect_err_has TEXT "what" / expect_out_matches REGEX "what"
#   ok "what" / not_ok "what" / check "what" CMD...  (PASS when CMD succeeds)
#   skip "what" "why"         SKIP: a check this machine cannot make (counted apart, never a PASS)
#   one_line_error "what"     stderr is exactly one line starting "nodemark: "
#   expect_refused "what" [TEXT]  exit 2 and that one line (holding TEXT)
#   scratch_dir / at_exit CMD a fresh working directory $d, removed (after CMD) on exit
#   $HAVE_FIO $HAVE_STRACE    1 where fio / strace is installed; require_fio, skip_without
#   py CODE ARGS...           python3 -c; json_get EXPR / json_file FILE EXPR: a value of JSON
set -u
T=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
NM=${NODEMARK:?}
rc=0 out="" err=""

ok() { echo "PASS: $T: $1"; }
skip() { echo "SKIP: $T: $1 (${2:-not possible here})"; }
not_ok() { echo "FAIL: $T: $1"; [ -n "${2:-}" ] && echo "    $2"; return 0; }

# run_cmd CMD...: run any command; sets $rc, $out (stdout), $err (stderr)
run_cmd() {
    local o e
    o=$(mktemp) e=$(mktemp)
    "$@" >"$o" 2>"$e"
    rc=$?
    out=$(cat "$o") err=$(cat "$e")
    rm -f "$o" "$e"
}
run_nm() { run_cmd "$NM" "$@"; }
# sigint_after SECS CMD...: CMD in the background, sent SIGINT (Ctrl-C) after SECS seconds;
# returns its exit status
sigint_after() {
    local secs=$1 pid
    shift
    "$@" &
    pid=$!
    sleep "$secs"
    kill -INT $pid
    wait $pid
}
run_interrupted() { run_cmd sigint_after "$@"; }

expect_rc() {
    if [ "$rc" -eq "$1" ]; then ok "$2"; else not_ok "$2" "exit $rc, expected $1; stderr: ${err:0:400}"; fi
}
expect_out_has() {
    if grep -qF -- "$1" <<<"$out"; then ok "$2"; else not_ok "$2" "stdout lacks '$1': ${out:0:400}"; fi
}
expect_err_has() {
    if grep -qF -- "$1" <<<"$err"; then ok "$2"; else not_ok "$2" "stderr lacks '$1': ${err:0:400}"; fi
}
expect_out_matches() {
    if grep -qE -- "$1" <<<"$out"; then ok "$2"; else not_ok "$2" "stdout does not match /$1/: ${out:0:400}"; fi
}
check() {
    local what=$1
    shift
    if "$@" >/dev/null 2>&1; then ok "$what"; else not_ok "$what" "command failed: $*"; fi
}
is_one_line_error() { [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] && [[ $err == nodemark:* ]]; }
one_line_error() {
    if is_one_line_error; then ok "$1"; else not_ok "$1" "stderr: ${err:0:400}"; fi
}
# expect_refused "what" [TEXT]: the last run exited 2 with one line "nodemark: ..." on stderr
# (that holds TEXT, when given): how bad input is refused
expect_refused() {
    if [ "$rc" -eq 2 ] && is_one_line_error && [[ $err == *"${2:-}"* ]]; then
        ok "$1"
    else
        not_ok "$1" "exit $rc${2:+, expected a line with '$2'}; stderr: ${err:0:400}"
    fi
}
# json_get FILTER: evaluate a Python expression on the JSON in $out (j is the parsed object)
json_get() {
    python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(eval(sys.argv[1]))' "$1" <<<"$out"
}

# json_file FILE EXPR: EXPR on the JSON in FILE (j), from its first "{" (fio may print a note
# before its JSON); a Python error is printed in place of the value, so a FAIL line shows it
json_file() {
    python3 -c 'import json,sys; t=open(sys.argv[1]).read(); j=json.loads(t[t.find("{"):]); print(eval(sys.argv[2]))' \
        "$1" "$2" 2>&1
}
py() { python3 -c "$@"; }

HAVE_FIO=0 HAVE_STRACE=0
command -v fio >/dev/null && HAVE_FIO=1
command -v strace >/dev/null && HAVE_STRACE=1
# require_fio: a script whose every check is beside real fio FAILs without it, and stops
require_fio() {
    [ $HAVE_FIO = 1 ] && return 0
    not_ok "fio is installed (scripts/deps.sh installs it)"
    exit 0
}
# fio_same_verify_counts WHAT ARGS...: fio and nodemark each write and verify a new file in $d
# with ARGS; PASS when both exit 0 with the same bytes and I/Os written and read back (and error)
fio_same_verify_counts() {
    local what=$1 frc fr nr
    local fig='j["jobs"][0]["write"]["io_bytes"], j["jobs"][0]["write"]["total_ios"], j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["error"]'
    shift
    rm -f "$d/f" "$d/g"
    fio --output-format=json --name=v --filename="$d/f" "$@" >fio.json 2>fio.err
    frc=$? fr=$(json_file fio.json "$fig")
    run_nm fio --no-save --output-format=json --name=v --filename="$d/g" "$@"
    printf '%s\n' "$out" >nm.json
    nr=$(json_file nm.json "$fig")
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$fr" = "$nr" ]; then
        ok "$what: written and verified as fio's $nr"
    else
        not_ok "$what" "fio rc $frc: $fr; nodemark rc $rc: $nr ${err:0:300}"
    fi
}
# skip_without TOOL "what": a script that needs TOOL for all it checks SKIPs without it, and stops
skip_without() {
    command -v "$1" >/dev/null && return 0
    skip "$2" "$1 is missing (scripts/deps.sh installs it)"
    exit 0
}

# scratch_dir: a fresh directory $d for the script's files (also when a script runs outside
# tests/run.sh), made the working directory and removed when the script exits; a script may call
# it more than once, and every directory it made is removed (test_hygiene's first one was left)
_at_exit=""
_scratch=()
scratch_dir() {
    d=$(mktemp -d "${TMPDIR:-/tmp}/nm-$T.XXXXXX") || exit 1
    _scratch+=("$d")
    trap 'eval "$_at_exit"; rm -rf "${_scratch[@]}"' EXIT
    cd "$d" || exit 1
}
# at_exit CMD: run CMD (one string, evaluated then) when the script exits, before $d goes
at_exit() { _at_exit+="$1"$'\n'; }
