#!/usr/bin/env bash
# `nodemark time` and `nodemark track` against hyperfine, side by side in one run, ratios printed
# (issue 6's speed goals).
#
#   bench/vs-hyperfine.sh [ROUNDS]          ROUNDS per case (default 5), tools taking turns
#   LINES=10000000 bench/vs-hyperfine.sh    lines in the generated log for the track case
#
# Cases:
#   1 true      300 runs of `true` without a shell (hyperfine -N, nodemark time -- true):
#               reported mean, nodemark / hyperfine              goal <= 1.0
#               whole run's wall time, nodemark / hyperfine      goal <= 1.0
#   1b spawner  the same 300 runs of `true` by nodemark through its spawner (the default) and with
#               NODEMARK_SPAWNER=off (posix_spawn from nodemark, as before): mean, spawner / direct
#               goal <= 1.0; and the peak memory each reports, beside GNU time's (/usr/bin/time)
#   2 sleep     20 runs of `sleep 0.05`: the median's distance from 50 ms   goal <= 1.5 ms,
#               and nodemark's median / hyperfine's              goal <= 1.0
#   2b          (reference) the same for a static program that only sleeps 50 ms: the
#               machine's floor for any process, whatever times it
#   3 track     a generated log of LINES progress lines, `track --log`: lines/s   goal >= 1 M/s
#               (the hand-matched pattern; a pattern that needs regexec is shown on 1/10 the lines)
# Every figure is the median over the rounds; the per-round ratios are printed too.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
lines=${LINES:-10000000}
nm=${NODEMARK:-$here/build/nodemark}
[ -x "$nm" ] || { echo "build nodemark first (make)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vs-hyperfine.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
jget() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["results"][0]; print(eval(sys.argv[2]))' "$@"; }
median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
ratio() { python3 -c 'import sys; print("%.3f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }

hf() { hyperfine -N --style none "$@" >/dev/null 2>&1; }
nmt() { "$nm" time --no-save "$@" >/dev/null 2>&1; }

echo "# nodemark time/track vs $(hyperfine --version) on $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $rounds rounds per case, the tools taking turns (hyperfine first on odd rounds)"

echo
echo "## 1: true, 300 runs (mean as reported; whole run = wall time of the tool)"
printf '%-6s %12s %12s %8s %12s %12s %8s\n' round "hf mean" "nm mean" ratio "hf whole" "nm whole" ratio
hm=() nmm=() hw=() nw=() rm_=() rw=()
for r in $(seq "$rounds"); do
    run_h() { local t0; t0=$(now); hf -r 300 --export-json "$work/h.json" true; hw_s=$(python3 -c "print($(now) - $t0)"); }
    run_n() { local t0; t0=$(now); nmt -r 300 --export-json "$work/n.json" -- true; nw_s=$(python3 -c "print($(now) - $t0)"); }
    if [ $((r % 2)) = 1 ]; then run_h; run_n; else run_n; run_h; fi
    h=$(jget "$work/h.json" 'j["mean"]') n=$(jget "$work/n.json" 'j["mean"]')
    hm+=("$h") nmm+=("$n") hw+=("$hw_s") nw+=("$nw_s")
    rm_+=("$(ratio "$n" "$h")") rw+=("$(ratio "$nw_s" "$hw_s")")
    printf '%-6s %10.3fms %10.3fms %8s %11.2fs %11.2fs %8s\n' "$r" "$(python3 -c "print($h*1e3)")" \
        "$(python3 -c "print($n*1e3)")" "${rm_[-1]}" "$hw_s" "$nw_s" "${rw[-1]}"
done
printf '%-6s %10.3fms %10.3fms %8s %11.2fs %11.2fs %8s\n' median "$(python3 -c "print($(median "${hm[@]}")*1e3)")" \
    "$(python3 -c "print($(median "${nmm[@]}")*1e3)")" "$(median "${rm_[@]}")" "$(median "${hw[@]}")" \
    "$(median "${nw[@]}")" "$(median "${rw[@]}")"

echo
echo "## 1b: true, 300 runs by nodemark: through the spawner / posix_spawn from nodemark (NODEMARK_SPAWNER=off)"
gnu=$( { /usr/bin/time -f %M true; } 2>&1 >/dev/null || echo "?")
printf '%-6s %12s %12s %8s %10s %10s %10s\n' round "spawner" "direct" ratio "rss spawn" "rss direct" "GNU time"
sm=() dm=() rsp=()
for r in $(seq "$rounds"); do
    run_s() { nmt -r 300 --export-json "$work/s.json" -- true; }
    run_d() { NODEMARK_SPAWNER=off nmt -r 300 --export-json "$work/d.json" -- true; }
    if [ $((r % 2)) = 1 ]; then run_s; run_d; else run_d; run_s; fi
    a=$(jget "$work/s.json" 'j["mean"]') b=$(jget "$work/d.json" 'j["mean"]')
    sm+=("$a") dm+=("$b") rsp+=("$(ratio "$a" "$b")")
    printf '%-6s %10.3fms %10.3fms %8s %8sKB %8sKB %8sKB\n' "$r" "$(python3 -c "print($a*1e3)")" "$(python3 -c "print($b*1e3)")" \
        "${rsp[-1]}" "$(jget "$work/s.json" 'max(j["memory_usage_byte"]) // 1024')" \
        "$(jget "$work/d.json" 'max(j["memory_usage_byte"]) // 1024')" "$gnu"
done
printf '%-6s %10.3fms %10.3fms %8s\n' median "$(python3 -c "print($(median "${sm[@]}")*1e3)")" \
    "$(python3 -c "print($(median "${dm[@]}")*1e3)")" "$(median "${rsp[@]}")"

echo
echo "## 2: sleep 0.05, 20 runs (median; distance from 50 ms)"
printf '%-6s %12s %12s %8s %12s\n' round "hf median" "nm median" ratio "nm - 50ms"
hs=() ns=() rs=() ds=()
for r in $(seq "$rounds"); do
    if [ $((r % 2)) = 1 ]; then
        hf -r 20 --export-json "$work/h.json" 'sleep 0.05'; nmt -r 20 --export-json "$work/n.json" -- sleep 0.05
    else
        nmt -r 20 --export-json "$work/n.json" -- sleep 0.05; hf -r 20 --export-json "$work/h.json" 'sleep 0.05'
    fi
    h=$(jget "$work/h.json" 'j["median"]') n=$(jget "$work/n.json" 'j["median"]')
    hs+=("$h") ns+=("$n") rs+=("$(ratio "$n" "$h")") ds+=("$(python3 -c "print(($n - 0.05) * 1e3)")")
    printf '%-6s %10.3fms %10.3fms %8s %10.3fms\n' "$r" "$(python3 -c "print($h*1e3)")" \
        "$(python3 -c "print($n*1e3)")" "${rs[-1]}" "${ds[-1]}"
done
printf '%-6s %10.3fms %10.3fms %8s %10.3fms\n' median "$(python3 -c "print($(median "${hs[@]}")*1e3)")" \
    "$(python3 -c "print($(median "${ns[@]}")*1e3)")" "$(median "${rs[@]}")" "$(median "${ds[@]}")"

# The floor under case 2 on this machine: a program that does nothing but sleep 50 ms, built
# static here (no dynamic loader, no locale), timed by both tools. What stays above 50 ms is
# the cost of creating, starting and reaping any process, which no harness can take away.
if command -v cc >/dev/null && printf '#include <time.h>\nint main(void){struct timespec t={0,50000000};return nanosleep(&t,0);}\n' \
    >"$work/sleep50.c" && cc -O2 -static -o "$work/sleep50" "$work/sleep50.c" 2>/dev/null; then
    echo
    echo "## 2b (reference): a static program that only sleeps 50 ms, 20 runs (median; distance from 50 ms)"
    printf '%-6s %12s %12s %12s\n' round "hf median" "nm median" "nm - 50ms"
    fs=() fh=()
    for r in $(seq "$rounds"); do
        if [ $((r % 2)) = 1 ]; then
            hf -r 20 --export-json "$work/h.json" "$work/sleep50"; nmt -r 20 --export-json "$work/n.json" -- "$work/sleep50"
        else
            nmt -r 20 --export-json "$work/n.json" -- "$work/sleep50"; hf -r 20 --export-json "$work/h.json" "$work/sleep50"
        fi
        h=$(jget "$work/h.json" 'j["median"]') n=$(jget "$work/n.json" 'j["median"]')
        fh+=("$h") fs+=("$n")
        printf '%-6s %10.3fms %10.3fms %10.3fms\n' "$r" "$(python3 -c "print($h*1e3)")" "$(python3 -c "print($n*1e3)")" \
            "$(python3 -c "print(($n - 0.05) * 1e3)")"
    done
    printf '%-6s %10.3fms %10.3fms %10.3fms\n' median "$(python3 -c "print($(median "${fh[@]}")*1e3)")" \
        "$(python3 -c "print($(median "${fs[@]}")*1e3)")" "$(python3 -c "print(($(median "${fs[@]}") - 0.05) * 1e3)")"
fi

echo
echo "## 3: track --log on $lines generated progress lines"
awk -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) printf "2024-01-01T00:00:%02d INFO Imported #%d (0x%x) peers=12 txs=%d\n", i % 60, i, i, i % 7 }' >"$work/big.log"
awk -v n="$((lines / 10))" 'BEGIN { for (i = 0; i < n; i++) printf "2024-01-01T00:00:%02d INFO Imported #%d (0x%x) peers=12 txs=%d\n", i % 60, i, i, i % 7 }' >"$work/small.log"
cat "$work/big.log" >/dev/null # in the page cache before the first round
printf '%-6s %12s %14s\n' round "lines/s" "regexec path"
lr=() sr=()
for r in $(seq "$rounds"); do
    t0=$(now)
    "$nm" track --no-save --log "$work/big.log" --pattern 'Imported #(\d+)' --total "$lines" --every 10% >/dev/null
    l=$(python3 -c "print($lines / ($(now) - $t0))")
    t0=$(now)
    "$nm" track --no-save --log "$work/small.log" --pattern 'INFO +Imported #([0-9]+) \(' --total "$((lines / 10))" \
        --every 10% >/dev/null
    s=$(python3 -c "print($lines / 10 / ($(now) - $t0))")
    lr+=("$l") sr+=("$s")
    printf '%-6s %10.2fM/s %12.2fM/s\n' "$r" "$(python3 -c "print($l/1e6)")" "$(python3 -c "print($s/1e6)")"
done
printf '%-6s %10.2fM/s %12.2fM/s\n' median "$(python3 -c "print($(median "${lr[@]}")/1e6)")" \
    "$(python3 -c "print($(median "${sr[@]}")/1e6)")"
