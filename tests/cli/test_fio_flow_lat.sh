#!/usr/bin/env bash
# serial: flow ratios and latency targets follow the rates the machine allows
# fio's flow control between jobs (flow, flow_id, flow_sleep) and latency targets
# (latency_target, latency_window, latency_percentile, latency_run) under `nodemark fio`, each
# next to real fio on the same job: the ratio of the jobs' I/O counts, the depth the search
# finds and the JSON keys it reports. Only loose bounds on figures; no timings.
. "$(dirname "$0")/lib.sh"
scratch_dir
# both TAG ARGS...: nodemark's JSON in TAG.nm.json and, with fio, fio's in TAG.fio.json
both() {
    local tag=$1
    shift
    run_nm fio --no-save --output-format=json "$@"
    printf '%s\n' "$out" >"$tag.nm.json"
    nm_rc=$rc nm_err=$err
    fio_rc=0
    if [ $HAVE_FIO = 1 ]; then
        fio --output-format=json "$@" >"$tag.fio.json" 2>"$tag.fio.err"
        fio_rc=$?
    fi
}
# field TAG TOOL EXPR: EXPR on the JSON (j) of TOOL (nm or fio)
field() { json_file "$1.$2.json" "$3"; }
ios='sum(x[d]["total_ios"] for d in ("read", "write"))'
# ratio TAG TOOL A B: job B's I/O count over job A's
ratio() { field "$1" "$2" "(lambda c: round(c['$4'] / max(c['$3'], 1), 2))({x['jobname']: $ios for x in j['jobs']})"; }
# within X LO HI: LO <= X <= HI (decimals)
within() { py 'import sys; x, lo, hi = map(float, sys.argv[1:]); sys.exit(0 if lo <= x <= hi else 1)' "$1" "$2" "$3" 2>/dev/null; }

# --- flow: the ratio of the weights ---------------------------------------------------------------
# fio's flow.fio: weights 1 and 8 in one flow give 1:8 I/Os. Each job is capped (rate_iops: a
# at 5000, b at 20000, so alone they do 1:4). The held job (a) must not outlive its flow-mate:
# once b is done nothing holds a, and a is behind its rate by what the flow held back, so it
# makes all of that up at once (a null engine does 2,500 I/Os in a millisecond) and ends at 1:4.
# Which of two threads started together ends first is a coin toss (in fio too), so b runs 100 ms
# longer: then b alone adds 2,000 I/Os at its rate, 1:8.8.
N="--ioengine=null --size=1g --time_based --runtime=1"
both w18 $N --flow_sleep=100 --name=a --rw=write --flow=1 --rate_iops=5000 --name=b --rw=randread --flow=8 --rate_iops=20000 --runtime=1100ms
r_nm=$(ratio w18 nm a b)
if [ $nm_rc = 0 ] && within "$r_nm" 6.5 9.5; then ok "flow=1 and flow=8: 1:$r_nm I/Os (their rates alone: 1:4)"; else
    not_ok "flow=1 and flow=8: 1:8 I/Os" "rc $nm_rc, ratio $r_nm ${nm_err:0:300}"; fi
if [ $HAVE_FIO = 1 ]; then
    r_fio=$(ratio w18 fio a b)
    [ $fio_rc = 0 ] && within "$r_fio" 6.5 9.5 && ok "flow=1 and flow=8: fio gives 1:$r_fio too" ||
        not_ok "flow=1 and flow=8: fio's ratio" "rc $fio_rc, ratio $r_fio"
fi

# Equal weights (the butterfly example) hold a fast job to a slow one's pace, here without
# flow_sleep (a held thread tries again at once): 5000 and 1000 I/Os a second alone. The slow
# job runs 100 ms longer, for the reason above (the fast one, held, must not outlive it): with
# flow 1000 and 1100 I/Os, without 5000 and 1100.
S="--time_based --runtime=1 --ioengine=null --size=1g --name=fast --rate_iops=5000"
L="--name=slow --rate_iops=1000 --runtime=1100ms"
both free $S $L
both eq $S --flow=2 $L --flow=2
r_free=$(ratio free nm slow fast) r_eq=$(ratio eq nm slow fast)
if within "$r_eq" 0.8 1.25 && within "$r_free" 3 1e12; then
    ok "flow=2 twice: the fast job does the slow one's I/Os ($r_eq x; $r_free x without flow)"
else
    not_ok "flow=2 twice: the fast job does the slow one's I/Os" "ratio $r_eq with flow, $r_free without; ${nm_err:0:300}"
fi
if [ $HAVE_FIO = 1 ]; then
    # fio's own ratio is a reference, wider than nodemark's bound: on a loaded machine it gave
    # 0.79 once (its held thread retries without sleeping); without flow it is 4.5
    r_fio=$(ratio eq fio slow fast)
    within "$r_fio" 0.7 1.4 && ok "flow=2 twice: fio gives $r_fio x too" || not_ok "flow=2 twice: fio's ratio" "$r_fio"
fi

# fio checks flow=-1 as signed and keeps it unsigned: a total weight no thread is held by.
both neg $S --flow=2 $L --flow=-1
r_neg=$(ratio neg nm slow fast)
within "$r_neg" 3 1e12 && ok "flow=-1 beside flow=2: nobody is held, as in fio ($r_neg x)" ||
    not_ok "flow=-1 beside flow=2: nobody is held" "ratio $r_neg; ${nm_err:0:300}"
if [ $HAVE_FIO = 1 ]; then
    r_fio=$(ratio neg fio slow fast)
    within "$r_fio" 3 1e12 && ok "flow=-1 beside flow=2: fio holds nobody either ($r_fio x)" ||
        not_ok "flow=-1 beside flow=2: fio's ratio" "$r_fio"
fi

# Alone in its flow a job is never held: all 256 I/Os of its size. A job whose flow-mate starts
# only after it (stonewall) waits for it, as fio's, until its runtime.
both alone --name=a --ioengine=null --size=1m --flow=5 --flow_id=3
[ $nm_rc = 0 ] && [ "$(field alone nm "[$ios for x in j['jobs']][0]")" = 256 ] &&
    ok "flow alone: never held (256 of 256 I/Os)" || not_ok "flow alone: never held" "rc $nm_rc ${nm_err:0:300}"
both later --name=a $N --flow=1 --name=b $N --stonewall --flow=8
a_nm=$(field later nm "[$ios for x in j['jobs']][0]") b_nm=$(field later nm "[$ios for x in j['jobs']][1]")
[ $nm_rc = 0 ] && [ "$a_nm" -le 2 ] && [ "$b_nm" -gt 1000 ] &&
    ok "flow: a job waits for a flow-mate that starts after it ($a_nm I/Os), as fio's" ||
    not_ok "flow: a job waits for a flow-mate that starts after it" "rc $nm_rc: $a_nm, $b_nm ${nm_err:0:300}"
if [ $HAVE_FIO = 1 ]; then
    a_fio=$(field later fio "[$ios for x in j['jobs']][0]")
    [ "$a_fio" -le 2 ] && ok "flow: fio's job waits the same ($a_fio I/Os)" || not_ok "flow: fio's job waits" "$a_fio"
fi
grep -q "job 'a': flow: 'b' of its flow_id 0 starts only after it ends: it is held until its runtime" <<<"$nm_err" &&
    ok "flow: stderr says why such a job is held" || not_ok "flow: stderr says why the job is held" "${nm_err:0:300}"
# without a runtime it would wait for ever (fio's does): refused before anything runs
run_nm fio --no-save --name=a --ioengine=null --size=1m --flow=1 --name=b --ioengine=null --size=1m --flow=8 --stonewall
expect_refused "flow: a job that would wait for ever is refused in one line" "would wait for ever"
run_nm fio --no-save --name=a --ioengine=null --size=1m --flow=1001
expect_refused "flow=1001: refused in one line (fio's maximum is 1000)"

# --- latency target: the depth found, fio's keys ---------------------------------------------------
lat='[(x["latency_depth"], x["latency_target"], x["latency_percentile"], x["latency_window"]) for x in j["jobs"]][0]'
# A target every depth meets: 1, 2, 4, 8, then 8 again, one more window, and the job ends by
# itself long before its runtime, its figures those of the last window (io_uring, so the depth is real).
head -c 4194304 /dev/urandom >data
U="--name=u --ioengine=io_uring --filename=$d/data --bs=64k --time_based --runtime=20 --iodepth=8"
both met $U --latency_target=10s --latency_window=100ms
got=$(field met nm "$lat") rt=$(field met nm 'j["jobs"][0]["job_runtime"]') d8=$(field met nm 'j["jobs"][0]["iodepth_level"]["8"]')
if [ $nm_rc = 0 ] && [ "$got" = "(8, 10000000000, 100.0, 100000)" ] && [ "$rt" -lt 5000 ] && within "$d8" 50 100; then
    ok "latency_target met at every depth: depth 8 found, the job ends by itself (last window: $rt ms, ${d8}% at depth 8)"
else
    not_ok "latency_target met at every depth: depth 8 found, the job ends by itself" "rc $nm_rc: $got, $rt ms, depth 8 $d8%; ${nm_err:0:300}"
fi
if [ $HAVE_FIO = 1 ]; then
    f=$(field met fio "$lat") frt=$(field met fio 'j["jobs"][0]["job_runtime"]')
    [ "$f" = "$got" ] && [ "$frt" -lt 5000 ] && ok "latency_target met at every depth: fio finds $f too" ||
        not_ok "latency_target met at every depth: as fio" "fio $f ($frt ms), nodemark $got"
fi
# latency_run keeps adjusting: the job runs to its runtime, at depth 8.
run_nm fio --no-save --output-format=json $U --runtime=1 --latency_target=10s --latency_window=100ms --latency_run=1
[ "$(json_get 'j["jobs"][0]["latency_depth"], j["jobs"][0]["job_runtime"] >= 900')" = "(8, True)" ] &&
    ok "latency_run=1: the search goes on to the runtime" || not_ok "latency_run=1: runs to the runtime" "$(json_get 'j["jobs"][0]["job_runtime"]' 2>&1) ${err:0:200}"

# A target no I/O meets (1 us for 64 KiB), below percentile 100: depth 1 all along (never more
# than one I/O in flight although iodepth is 8), to the runtime.
both unmet $U --runtime=1 --latency_target=1 --latency_window=50ms --latency_percentile=50
got=$(field unmet nm "$lat") d1=$(field unmet nm 'j["jobs"][0]["iodepth_level"]["1"]') rt=$(field unmet nm 'j["jobs"][0]["job_runtime"]')
if [ $nm_rc = 0 ] && [ "$got" = "(1, 1000, 50.0, 50000)" ] && within "$d1" 100 100 && [ "$rt" -ge 900 ]; then
    ok "latency_target never met: depth 1 all along (100% of I/Os alone in flight), to the runtime"
else
    not_ok "latency_target never met: depth 1 all along" "rc $nm_rc: $got, depth 1 $d1%, $rt ms; ${nm_err:0:300}"
fi
if [ $HAVE_FIO = 1 ]; then
    f=$(field unmet fio "$lat") fd1=$(field unmet fio 'j["jobs"][0]["iodepth_level"]["1"]')
    [ "$f" = "$got" ] && within "$fd1" 100 100 && ok "latency_target never met: fio stays at depth 1 too" ||
        not_ok "latency_target never met: as fio" "fio $f ($fd1% at 1), nodemark $got"
fi
# At percentile 100 (the default) one I/O over the target at depth 1 fails the job: ETIMEDOUT.
both fatal $U --runtime=1 --latency_target=1
e=$(field fatal nm '[j["jobs"][0][k] for k in ("error", "latency_depth")] + [j["jobs"][0]["read"]["total_ios"]]')
if [ $nm_rc = 1 ] && [ "$e" = "[110, 1, 1]" ] && grep -q "latency of .* over latency_target" <<<"$nm_err"; then
    ok "latency_target at percentile 100: the first I/O over it fails the job (error 110)"
else
    not_ok "latency_target at percentile 100: the job fails" "rc $nm_rc: $e; ${nm_err:0:300}"
fi
if [ $HAVE_FIO = 1 ]; then
    f=$(field fatal fio '[j["jobs"][0][k] for k in ("error", "latency_depth")] + [j["jobs"][0]["read"]["total_ios"]]')
    [ $fio_rc = 1 ] && [ "$f" = "$e" ] && ok "latency_target at percentile 100: fio fails the same ($f)" ||
        not_ok "latency_target at percentile 100: as fio" "fio rc $fio_rc: $f"
fi
# fio's line in the normal output
run_nm fio --no-save --name=n --ioengine=null --size=1g --time_based --runtime=5 --iodepth=4 \
    --latency_target=1s --latency_window=20ms --latency_percentile=99.5
want="     latency   : target=1000000000, window=20000, percentile=99.50%, depth=4"
grep -qxF "$want" <<<"$out" && ok "latency_target: fio's line in the normal output" ||
    not_ok "latency_target: fio's line in the normal output" "$(grep 'latency   :' <<<"$out")"
if [ $HAVE_FIO = 1 ]; then
    fio --name=n --ioengine=null --size=1g --time_based --runtime=5 --iodepth=4 --latency_target=1s \
        --latency_window=20ms --latency_percentile=99.5 2>/dev/null | grep -qxF "$want" &&
        ok "latency_target: fio prints that line" || not_ok "latency_target: fio prints that line"
fi
