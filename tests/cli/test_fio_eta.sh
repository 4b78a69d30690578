#!/usr/bin/env bash
# serial: fio's status lines come at set times
# nodemark fio's status line (issue 32 item 3), as fio's: on a terminal "Jobs: 1 (f=1):
# [r(1)][45.0%][r=...][r=... IOPS][eta 00m:11s]" redrawn in place ('\r') and blanked before the
# report; none into a pipe unless --eta=always, none with --eta=never, none when stdout takes
# JSON; bad --eta values refused. The job is paced (rate_iops) so it runs its whole time.
. "$(dirname "$0")/lib.sh"
scratch_dir
export NODEMARK_DB="$PWD/store.db"
JOB=(--name=a --rw=randread --size=1m --runtime=5s --time_based --ioengine=psync --rate_iops=200
     --filename="$PWD/f" --eta-interval=250ms)
LINE='Jobs: 1 \(f=1\), 0-200 IOPS: \[r\(1\)\]\[[0-9]+\.[0-9]%\]\[r=[0-9.]+[KM]iB/s\]\[r=[0-9.]+k? IOPS\]\[eta 00m:0[0-9]s\]'

if ! command -v script >/dev/null; then
    skip "the status line on a terminal" "script(1) is missing"
else
    # a terminal: script(1) runs nodemark on a pseudo-terminal
    script -qec "$(printf '%q ' "$NM" fio "${JOB[@]}")" /dev/null </dev/null >tty.out 2>&1
    check "a terminal: fio's status line" grep -qaE "$LINE" tty.out
    check "a terminal: redrawn in place (carriage returns, no newline between lines)" \
        grep -qaE "Jobs: .*"$'\r'"Jobs: " tty.out
    # the last drawn line is blanked (as wide as it) before the report's first line
    check "a terminal: the line is blanked before the report" python3 -c '
import re, sys
t = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()
head, _, report = t.partition("a: (groupid=0")
assert report, "no report"
draws = head.split("\r")
blank = [i for i, d in enumerate(draws) if d and set(d) == {" "}]
last = max(i for i, d in enumerate(draws) if "Jobs:" in d)
assert blank and blank[-1] > last, draws[-4:]
assert len(draws[blank[-1]]) >= len(draws[last].rstrip()), draws[-4:]
' tty.out

    script -qec "$(printf '%q ' "$NM" fio "${JOB[@]}" --eta=never)" /dev/null </dev/null >never.out 2>&1
    check "a terminal with --eta=never: no status line" bash -c '! grep -qa "Jobs:" never.out'
    check "a terminal with --eta=never: the report is there" grep -qa "a: (groupid=0" never.out

    script -qec "$(printf '%q ' "$NM" fio "${JOB[@]}" --output-format=json)" /dev/null </dev/null >json.out 2>&1
    check "a terminal taking JSON: no status line" bash -c '! grep -qa "Jobs:" json.out'
fi

# a pipe: nothing unless --eta=always
"$NM" fio "${JOB[@]}" 2>pipe.err | cat >pipe.out
check "a pipe: no status line" bash -c '! grep -qa "Jobs:" pipe.out pipe.err'
check "a pipe: the report" grep -qa "a: (groupid=0" pipe.out
"$NM" fio "${JOB[@]}" --eta=always 2>/dev/null | cat >always.out
check "a pipe with --eta=always: the status line" grep -qaE "$LINE" always.out

# a paced size-based job that waits (b, after a's stonewall) counts its bytes at its rate, as
# fio's estimate does: 8 MiB at 128 KiB/s is 64 s, so while a runs (4 s) the ETA is past 50 s
# (it said a's own second or two). Interrupted once a's lines are in: the rest is not needed.
WAIT=(--eta=always --eta-interval=250ms --name=a --ioengine=null --size=1g --time_based --runtime=4s
      --rate_iops=100 --name=b --stonewall --ioengine=null --size=8m --rate=128k)
timeout -s INT 4 "$NM" fio "${WAIT[@]}" 2>/dev/null | tr '\r' '\n' >wait.out
check "a waiting paced job: the ETA while the first runs counts its bytes at its rate" \
    grep -qaE '\[R\(1\),P\(1\)\].*\[eta 01m:0[0-9]s\]|\[R\(1\),P\(1\)\].*\[eta 00m:5[0-9]s\]' wait.out
no_eta_before=$(grep -acE '\[R\(1\),P\(1\)\].*\[eta 00m:0[0-9]s\]' wait.out)
check "a waiting paced job: no ETA of seconds while it waits" test "$no_eta_before" = 0

# bad values: one line, exit 2, before anything runs
run_nm fio "${JOB[@]}" --eta=sometimes
expect_refused "--eta with another value" "expected auto, always or never"
run_nm fio "${JOB[@]}" --eta-interval=100ms
expect_refused "--eta-interval under 250ms (fio's floor)" "at least 250ms"
