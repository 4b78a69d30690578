#!/usr/bin/env bash
# serial: log samples come at set intervals
# fio's log files (write_lat_log, write_bw_log, write_iops_log, write_hist_log): fio's names
# and columns, line counts and values checked against the run's own JSON figures, the same
# file names as real fio for the same job, and fio's own tools reading them (fiologparser.py
# and fiologparser_hist.py from a fio checkout in $FIO_TOOLS, fio2gnuplot and
# fio_generate_plots from the fio package).
. "$(dirname "$0")/lib.sh"
scratch_dir
FIO_TOOLS=${FIO_TOOLS:-/var/tmp/fio-src/tools}

# py EXPR FILES...: a Python expression over the log files' rows (rows[i] is file i's list of
# integer lists; j is the JSON in out.json when there is one)
py() {
    python3 - "$@" <<'PY'
import json, os, sys
expr, files = sys.argv[1], sys.argv[2:]
rows = [[[int(x, 0) for x in l.split(",")] for l in open(f) if l.strip()] for f in files]
j = json.load(open("out.json")) if os.path.exists("out.json") else None
K = os.environ.get("K")
r = eval(expr)
print(r)
sys.exit(0 if r is not False else 1)
PY
}
nmfio() { run_nm fio --no-save --output-format=json "$@"; printf '%s' "$out" >out.json; }

# --- per-I/O latency logs, psync ------------------------------------------------------------
nmfio --name=j --filename=f --size=1m --rw=randread --ioengine=psync --write_lat_log=lg --write_bw_log=lg
expect_rc 0 "write_lat_log runs"
if [ -s lg_lat.1.log ] && [ -s lg_clat.1.log ] && [ -e lg_slat.1.log ] && [ ! -s lg_slat.1.log ]; then
    ok "write_lat_log=lg: lg_lat.1.log and lg_clat.1.log, and an empty lg_slat.1.log (psync has no submission step)"
else
    not_ok "write_lat_log=lg writes fio's three files" "$(ls -l)"
fi
check "one clat line per I/O, 5 columns: time, ns, direction 0, bs 4096, priority 0" \
    py "len(rows[0]) == j['jobs'][0]['read']['total_ios'] == 256 and all(len(r) == 5 and r[2:] == [0, 4096, 0] for r in rows[0])" lg_clat.1.log
check "the clat lines' mean and maximum are the JSON's" \
    py "abs(sum(r[1] for r in rows[0]) / len(rows[0]) - j['jobs'][0]['read']['clat_ns']['mean']) < 1 and max(r[1] for r in rows[0]) == j['jobs'][0]['read']['clat_ns']['max']" lg_clat.1.log
check "a per-I/O bw line is the I/O's KB/s: bs * 1e6 / clat (ns), as fio's" \
    py "len(rows[0]) == 256 and all(b[1] == 4096 * 10**6 // c[1] and b[2:] == c[2:] for b, c in zip(*rows))" lg_bw.1.log lg_clat.1.log
check "times are ms since the start, in order, within the run" \
    py "all(a[0] <= b[0] for a, b in zip(rows[0], rows[0][1:])) and rows[0][-1][0] <= j['jobs'][0]['read']['runtime'] + 1" lg_lat.1.log

# --- io_uring: slat, offsets, priorities -----------------------------------------------------
rm -f ./*.log
nmfio --name=u --filename=f --size=1m --rw=randwrite --ioengine=io_uring --iodepth=4 --write_lat_log --log_offset=1 --log_prio=1
expect_rc 0 "write_lat_log bare, log_offset, log_prio run"
check "a bare write_lat_log names the files after the job (u_slat.1.log), one slat line per I/O" \
    py "len(rows[0]) == j['jobs'][0]['write']['total_ios'] == 256" u_slat.1.log
check "log_offset=1, log_prio=1: 6 columns, every 4 KiB block of the file once (the random map), priority 0x0000" \
    py "sorted(r[4] for r in rows[0]) == list(range(0, 1 << 20, 4096)) and all(len(r) == 6 and r[2] == 1 and r[5] == 0 for r in rows[0])" u_clat.1.log
check "lat = slat + clat for each I/O (to a ns of rounding)" \
    py "all(abs(a[1] - (b[1] + c[1])) <= 2 for a, b, c in zip(*rows))" u_lat.1.log u_slat.1.log u_clat.1.log
if grep -q ', 0x0000$' u_clat.1.log; then ok "log_prio prints fio's hex priority"; else not_ok "log_prio prints fio's hex priority" "$(head -2 u_clat.1.log)"; fi

# --- names: threads numbered over the run; per_job_logs=0 shares one file ---------------------
rm -f ./*.log
cat >names.fio <<'EOF'
[global]
filename=f
size=256k
ioengine=psync
write_bw_log
write_iops_log
[a]
numjobs=2
[b]
write_bw_log=bb
[c]
numjobs=2
per_job_logs=0
EOF
nmfio names.fio
expect_rc 0 "three jobs with bw and iops logs run"
names=$(ls ./*.log | sed 's|^\./||' | sort | tr '\n' ' ')
want="a_bw.1.log a_bw.2.log a_iops.1.log a_iops.2.log b_iops.3.log bb_bw.3.log c_bw.log c_iops.log "
if [ "$names" = "$want" ]; then ok "fio's names: thread numbers run over the jobs, write_bw_log=bb renames, per_job_logs=0 drops .N"
else not_ok "fio's log file names" "got: $names want: $want"; fi
check "per_job_logs=0: both threads' lines in c_iops.log, value 1 each, bs 4096" \
    py "len(rows[0]) == 2 * 64 and all(r[1] == 1 and r[3] == 4096 for r in rows[0])" c_iops.log
check "one bw line per I/O of thread 1 of job a" py "len(rows[0]) == 64" a_bw.1.log
if [ $HAVE_FIO = 1 ]; then
    mkdir -p fio && (cd fio && fio --output-format=json ../names.fio >/dev/null 2>&1)
    fnames=$(cd fio && ls ./*.log 2>/dev/null | sed 's|^\./||' | sort | tr '\n' ' ')
    if [ "$fnames" = "$names" ]; then ok "real fio writes the same log files for the same job file"
    else not_ok "real fio writes the same log files" "fio: $fnames nodemark: $names"; fi
    rm -rf fio
else
    skip "names beside real fio" "fio is missing"
fi

# --- per_job_logs=0 appends, as fio's: to what an earlier run left, and each thread's lines ------
# fio opens PREFIX_TYPE.log with "a" when per_job_logs=0; nodemark copies what the file holds
# and renames the whole into place (an append that a failure cannot truncate).
rm -f ./*.log
printf '[a]\nfilename=f\nsize=256k\nioengine=psync\nnumjobs=2\nwrite_iops_log=p\nper_job_logs=0\n' >app.fio
append_runs() { # TOOL: "marker" in p_iops.log, then two runs of app.fio; the line counts after each
    rm -f p_iops.log; echo marker >p_iops.log
    local n=""
    for _ in 1 2; do
        if [ "$1" = fio ]; then fio --output-format=json app.fio >/dev/null 2>&1; else "$NM" fio --no-save app.fio >/dev/null 2>&1; fi
        n+="$(wc -l <p_iops.log) "
    done
    printf '%s%s' "$n" "$(head -1 p_iops.log)"
}
nm_app=$(append_runs nm)
check "per_job_logs=0: each run appends both threads' 64 lines to p_iops.log, after the line already there" \
    test "$nm_app" = "129 257 marker"
if [ $HAVE_FIO = 1 ]; then
    fio_app=$(append_runs fio)
    if [ "$fio_app" = "$nm_app" ]; then ok "real fio appends the same: line counts $fio_app"
    else not_ok "per_job_logs=0 appends as real fio's" "fio: $fio_app nodemark: $nm_app"; fi
else
    skip "per_job_logs=0 beside real fio" "fio is missing"
fi
sed 's/^write_iops_log=p$/write_bw_log=p/' app.fio >link.fio
ln -sf p_iops.log p_bw.log
before=$(wc -l <p_iops.log)
run_nm fio --no-save link.fio
check "per_job_logs=0 onto a symbolic link: not followed, refused naming the file; the link and its target kept" \
    eval '[ $rc = 1 ] && [[ $err == *p_bw.log*symbolic* ]] && [ -L p_bw.log ] && [ "$(wc -l <p_iops.log)" = "$before" ]'
rm -f p_bw.log p_iops.log

# --- log_compression: fio compresses in memory and writes the same text; .fz files refused ------
rm -f ./*.log
C="--name=c --filename=f --size=256k --ioengine=psync --write_iops_log=c --write_lat_log=c --log_compression=1m --log_compression_cpus=0"
nmfio $C
expect_rc 0 "log_compression=1m log_compression_cpus=0 run"
nm_c=$(wc -l ./c_*.log | sed 's|\./||' | tr -s ' ' | tr '\n' ' ')
check "log_compression: the same text logs, one line per I/O (64 of 4 KiB)" \
    py "len(rows[0]) == 64 and all(len(r) == 5 for r in rows[0])" c_iops.1.log
if [ $HAVE_FIO = 1 ]; then
    mkdir -p fio && (cd fio && fio --output-format=json $C >/dev/null 2>&1)
    fio_c=$(cd fio && wc -l ./c_*.log | sed 's|\./||' | tr -s ' ' | tr '\n' ' ')
    if [ "$fio_c" = "$nm_c" ]; then ok "real fio writes the same files and line counts with log_compression: $fio_c"
    else not_ok "log_compression beside real fio" "fio: $fio_c nodemark: $nm_c"; fi
    rm -rf fio
else
    skip "log_compression beside real fio" "fio is missing"
fi
run_nm fio --no-save --name=c --filename=f --size=64k --write_bw_log=c --log_compression=512
expect_rc 2 "log_compression=512 is refused (fio's minimum is 1024)"
run_nm fio --no-save --name=c --filename=f --size=64k --write_bw_log=c --log_compression=1m --log_store_compressed=1
expect_rc 2 "log_store_compressed=1 is refused (no zlib)"
one_line_error "... in one line"
expect_err_has "zlib" "... saying why"
run_nm fio --no-save --name=c --filename=f --size=64k --write_bw_log=c --log_compression=1m --log_store_compressed=0
expect_rc 0 "log_store_compressed=0 runs"
rm -f ./*.log

# --- --bandwidth-log: fio's agg-{read,write,trim}_bw.log -----------------------------------------
# fio samples the run's bandwidth with its status line (every 250 ms look, once more than 500 ms
# passed), and once more when the report is JSON; with no status line and normal output the
# three files are empty. Line counts beside fio for the two cases that do not hang on timing.
rm -f ./*.log
B="--name=b --filename=f --size=1m --rw=randrw --ioengine=psync --time_based --runtime=1 --rate_iops=400,200"
agg_shape() { # the three files' line counts, then each line's direction and whether its value is 0
    for f in agg-read_bw.log agg-write_bw.log agg-trim_bw.log; do printf '%s:' "$(wc -l <$f)"; done
    awk -F', ' '{printf " %s%s/%s/%s", $3, ($2 > 0 ? "+" : "0"), $4, $5}' agg-read_bw.log agg-write_bw.log agg-trim_bw.log
}
agg_cases() { # TOOL: the shape with JSON on stdout, then with normal output into a pipe
    local r=""
    for fmt in json normal; do
        rm -f agg-*_bw.log
        if [ "$1" = fio ]; then fio --bandwidth-log --output-format=$fmt $B 2>&1 | cat >/dev/null
        else "$NM" fio --no-save -b --output-format=$fmt $B 2>&1 | cat >/dev/null; fi
        r+="$fmt $(agg_shape); "
    done
    echo "$r"
}
nm_agg=$(agg_cases nm)
check "--bandwidth-log (-b): one sample per file with JSON (read and write moving, trim 0, bs and priority 0); empty files without the status line" \
    test "$nm_agg" = "json 1:1:1: 0+/0/0 1+/0/0 20/0/0; normal 0:0:0:; "
if [ $HAVE_FIO = 1 ]; then
    fio_agg=$(agg_cases fio)
    if [ "$fio_agg" = "$nm_agg" ]; then ok "real fio writes the same agg-*_bw.log files and lines: $fio_agg"
    else not_ok "--bandwidth-log beside real fio" "fio: $fio_agg nodemark: $nm_agg"; fi
else
    skip "--bandwidth-log beside real fio" "fio is missing"
fi
rm -f agg-*_bw.log
run_nm fio --no-save --bandwidth-log --eta=always --output=o.txt $B
check "--eta=always: a sample every ~0.5-0.75 s while the line is drawn, ms since the start in order, KiB/s near the rate" \
    py "len(rows[0]) >= 1 and all(a[0] < b[0] for a, b in zip(rows[0], rows[0][1:])) and all(len(r) == 5 and r[2] == 1 for r in rows[1]) and all(r[1] == 0 for r in rows[2]) and 1200 <= max(r[1] for r in rows[0]) <= 2000" agg-read_bw.log agg-write_bw.log agg-trim_bw.log
rm -f agg-*_bw.log o.txt

# --- windows: log_avg_msec, log_max_value ------------------------------------------------------
rm -f ./*.log
W="--name=w --filename=f --size=1m --rw=randrw --ioengine=psync --time_based --runtime=2 --rate_iops=400,200"
nmfio $W --write_bw_log=w --write_iops_log=w --write_lat_log=w --log_avg_msec=250
expect_rc 0 "log_avg_msec=250 over a 2 s run"
check "about runtime / 250 ms lines per direction, times at the windows' ends, bs and priority 0" \
    py "all(7 <= sum(r[2] == d for r in rows[0]) <= 9 for d in (0, 1)) and all(r[0] % 250 == 0 and r[3] == 0 and r[4] == 0 for r in rows[0][:-2])" w_iops.1.log
# the mean of a direction's values against the JSON's figure K of that direction, within 10 %
M="all(abs(sum(r[1] for r in rows[0] if r[2] == d) / sum(r[2] == d for r in rows[0]) - j['jobs'][0][dn][K]) <= 0.1 * j['jobs'][0][dn][K] for d, dn in ((0, 'read'), (1, 'write')))"
K=iops check "the iops windows average the JSON's iops (rate_iops=400,200)" py "$M" w_iops.1.log
K=bw check "the bw windows (KiB/s) average the JSON's bw" py "$M" w_bw.1.log
check "the clat windows' means (count-weighted) average the JSON's clat mean" \
    py "abs(sum(a[1] * b[1] for a, b in zip(rows[0], rows[1]) if a[2] == 0) / sum(b[1] for b in rows[1] if b[2] == 0) - j['jobs'][0]['read']['clat_ns']['mean']) <= 0.2 * j['jobs'][0]['read']['clat_ns']['mean']" w_clat.1.log w_iops.1.log
check "with a bw log, the JSON's bw samples are taken every log_avg_msec (fio's rule): ~8 of them" \
    py "7 <= j['jobs'][0]['read']['bw_samples'] <= 9" w_bw.1.log
rm -f ./*.log
nmfio $W --write_lat_log=m --log_avg_msec=250 --log_max_value=1
check "log_max_value=1: the largest window maximum is the JSON's clat max" \
    py "max(r[1] for r in rows[0] if r[2] == 0) == j['jobs'][0]['read']['clat_ns']['max']" m_clat.1.log

# --- histogram logs -------------------------------------------------------------------------------
rm -f ./*.log
H="--name=h --filename=f --size=1m --rw=randread --ioengine=psync --time_based --runtime=2 --rate_iops=500 --write_hist_log=h --log_hist_msec=200"
nmfio $H
expect_rc 0 "write_hist_log with log_hist_msec=200"
check "h_clat_hist.1.log: ~10 lines of time, direction, bs and fio's 1856 buckets" \
    py "8 <= len(rows[0]) <= 10 and all(len(r) == 3 + 1856 and r[1] == 0 and r[2] == 4096 for r in rows[0])" h_clat_hist.1.log
check "the histograms count the run's I/Os but the last, unclosed window's (as fio's)" \
    py "0.8 * j['jobs'][0]['read']['total_ios'] <= sum(sum(r[3:]) for r in rows[0]) < j['jobs'][0]['read']['total_ios']" h_clat_hist.1.log
rm -f ./h_*.log
nmfio $H --log_hist_coarseness=3
check "log_hist_coarseness=3: 1856 / 8 = 232 buckets" \
    py "all(len(r) == 3 + 232 for r in rows[0])" h_clat_hist.1.log
nmfio --name=e --filename=f --size=64k --ioengine=psync --write_hist_log=e
check "write_hist_log without log_hist_msec: an empty file, as fio's" test -e e_clat_hist.1.log -a ! -s e_clat_hist.1.log

# --- bad input -------------------------------------------------------------------------------
run_nm fio --no-save --name=x --filename=f --size=64k --write_bw_log=no/such/dir/x
expect_rc 2 "a log in a missing directory is refused before the run"
one_line_error "... in one line"
expect_err_has "write_bw_log" "... naming the option"
run_nm fio --no-save --name=x --filename=f --size=64k --write_hist_log=x --log_hist_coarseness=7
expect_rc 2 "log_hist_coarseness=7 is refused (fio's range is 0-6)"

# --- fio's tools on nodemark's logs --------------------------------------------------------------
rm -f ./*.log out.json
nmfio --name=t --filename=f --size=1m --rw=randread --ioengine=psync --time_based --runtime=2 \
    --rate_iops=500 --write_bw_log=t --write_lat_log=t --write_iops_log=t --log_avg_msec=100 \
    --write_hist_log=t --log_hist_msec=100
expect_rc 0 "a job with every log for the tools"
# fiologparser.py of some checkouts (fio 3.33's own) splits a line into 4 columns and fails on
# the 5 or 6 that fio 3.33 itself writes: then it reads neither tool's logs, and is skipped
parser_reads_fio() {
    command -v fio >/dev/null || return 0
    mkdir -p fiolog && (cd fiolog && fio --name=t --ioengine=null --size=1m --write_lat_log=t >/dev/null 2>&1 &&
        python3 "$FIO_TOOLS/fiologparser.py" -a t_clat.1.log >/dev/null 2>&1)
}
if [ -f "$FIO_TOOLS/fiologparser.py" ] && ! parser_reads_fio; then
    skip "fiologparser.py on nodemark's logs" "the one in $FIO_TOOLS fails on fio $(fio --version)'s own logs"
elif [ -f "$FIO_TOOLS/fiologparser.py" ]; then
    if o=$(python3 "$FIO_TOOLS/fiologparser.py" -i 500 -a t_clat.1.log 2>&1) && [ "$(grep -cE '^[0-9]+, [0-9.]+$' <<<"$o")" -ge 3 ]; then
        ok "fiologparser.py -a averages the clat log per 500 ms"
    else not_ok "fiologparser.py -a on t_clat.1.log" "${o:0:300}"; fi
    if o=$(python3 "$FIO_TOOLS/fiologparser.py" -i 500 -s t_iops.1.log 2>&1) &&
        python3 -c 'import json, sys
v = [float(l.split(",")[1]) for l in sys.argv[1].splitlines() if "," in l][:-1]
iops = 500  # rate_iops: the JSON'"'"'s figure also holds the run'"'"'s first and last moments
sys.exit(not (len(v) >= 2 and abs(sum(v) / len(v) - iops) <= 0.2 * iops))' "$o"; then
        ok "fiologparser.py -s sums the iops log per 500 ms to the job's rate (500 IOPS)"
    else not_ok "fiologparser.py -s on t_iops.1.log" "${o:0:300}"; fi
else
    skip "fiologparser.py on nodemark's logs" "no fio checkout at \$FIO_TOOLS ($FIO_TOOLS)"
fi
if [ -f "$FIO_TOOLS/hist/fiologparser_hist.py" ] && python3 -c 'import numpy, pandas' 2>/dev/null; then
    if o=$(python3 "$FIO_TOOLS/hist/fiologparser_hist.py" --interval 500 t_clat_hist.1.log 2>&1) &&
        python3 -c 'import sys
rows = [[float(x) for x in l.split(",")] for l in sys.argv[1].splitlines()[1:] if l.strip()]
sys.exit(not (len(rows) >= 3 and all(r[1] > 0 and r[2] <= r[4] <= r[8] for r in rows)))' "$o"; then
        ok "fiologparser_hist.py gives percentiles per 500 ms from the histogram log (min <= median <= max)"
    else not_ok "fiologparser_hist.py on t_clat_hist.1.log" "${o:0:300}"; fi
else
    skip "fiologparser_hist.py on nodemark's histogram log" "needs $FIO_TOOLS/hist and python3-numpy, python3-pandas"
fi
if command -v fio2gnuplot >/dev/null; then
    mkdir -p g
    if o=$(fio2gnuplot -p 't_bw*.log' -d g 2>&1) && [ -s g/mygraph ] && grep -q '^values_count=[1-9]' g/t_bw.global; then
        ok "fio2gnuplot reads the bw log: its data, statistics and gnuplot scripts"
    else not_ok "fio2gnuplot -p 't_bw*.log'" "${o:0:300} $(ls g)"; fi
else
    skip "fio2gnuplot on nodemark's logs" "fio's tools are missing"
fi
if command -v fio_generate_plots >/dev/null && command -v gnuplot >/dev/null; then
    if o=$(fio_generate_plots nm 2>&1) && [ -s nm-clat.svg ] && [ -s nm-bw.svg ] && [ -s nm-iops.svg ]; then
        ok "fio_generate_plots draws the lat, clat, bw and iops plots (SVG)"
    else not_ok "fio_generate_plots on nodemark's logs" "${o:0:300}"; fi
else
    skip "fio_generate_plots on nodemark's logs" "gnuplot is missing (scripts/deps.sh installs gnuplot-nox)"
fi

# --- a log named after the job stays in the current directory --------------------------------
# A log option without a value takes the job's name as its prefix. A name is no path: fio writes
# [../../x]'s log two directories up and [/abs/x]'s at /abs/x_bw.1.log; nodemark makes each
# '/' a '_' (as in the job's test file names) and writes them here. A file already in the place
# fio would write is left as it was.
mkdir -p names/a/b names/abs
echo keep >names/x_bw.1.log
echo keep >names/abs/x_bw.1.log
abs=$PWD/names/abs/x
printf '[../../x]\nioengine=null\nsize=64k\nrw=read\nwrite_bw_log\n[%s]\nioengine=null\nsize=64k\nrw=read\nwrite_iops_log\n' \
    "$abs" >names/a/b/j.fio
(cd names/a/b && "$NM" fio --no-save j.fio >/dev/null 2>&1)
check "[../../x] write_bw_log: .._.._x_bw.1.log in the current directory" test -s names/a/b/.._.._x_bw.1.log
check "[/abs/x] write_iops_log: the path with '_' for '/', in the current directory" \
    test -s "names/a/b/${abs//\//_}_iops.2.log"
check "nothing written where the job's name points: the files there are as they were" \
    test "$(cat names/x_bw.1.log names/abs/x_bw.1.log)" = "$(printf 'keep\nkeep')" -a ! -e names/abs/x_iops.2.log
if [ "$HAVE_FIO" = 1 ]; then
    # fio's own behaviour, for the record: it follows the name out of the directory.
    rm -f names/x_bw.1.log
    (cd names/a/b && fio j.fio >/dev/null 2>&1)
    check "fio itself writes [../../x]'s log two directories up (what nodemark does not)" test -s names/x_bw.1.log
else
    skip "fio's own log names for [../../x]" "fio is not installed"
fi

# --- per-I/O records stream out: memory stays bounded -----------------------------------------
# A per-I/O log keeps IO_LOG_SPILL_CHUNKS chunks of records in memory (3 MiB of 48-byte
# records) and writes the rest to an unnamed file as the job runs. Two jobs of 250k and 1M I/Os
# on the null engine: 36 MiB more records, and the peak RSS (getrusage of the child) grows by far
# less; every I/O still has its line, in order.
rss_kib() { # IOS: peak RSS of nodemark fio logging IOS I/Os, in KiB
    python3 - "$NM" "$1" <<'PY'
import resource, subprocess, sys
nm, ios = sys.argv[1], sys.argv[2]
subprocess.run([nm, "fio", "--no-save", "--name=m", "--ioengine=null", "--rw=read", "--bs=4k", "--size=64g",
                "--number_ios=" + ios, "--write_lat_log=mem", "--output-format=json"],
               stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
small=$(rss_kib 250000) big=$(rss_kib 1000000)
if [ -n "$small" ] && [ -n "$big" ]; then
    check "1M I/Os logged: the peak RSS grows by less than 12 MiB over 250k (${small} -> ${big} KiB; the records are 36 MiB more)" \
        test $((big - small)) -lt 12288
    check "every I/O has its clat line, their times in order" \
        python3 -c 'import sys; t=[int(l.split(",")[0]) for l in open("mem_clat.1.log")]; sys.exit(0 if len(t) == 1000000 and t == sorted(t) else 1)'
else
    not_ok "nodemark fio with a per-I/O log of 1M I/Os runs"
fi
rm -f mem_*.log

# The records written out keep the file system's reserve free, as test files do: on a 24 MiB
# tmpfs a 1M-I/O log stops (said on stderr), the run still ends well, and the lines it has are
# written.
mkdir -p small
if mount -t tmpfs -o size=24m tmpfs small 2>/dev/null; then
    at_exit 'umount small 2>/dev/null'
    (cd small && "$NM" fio --no-save --name=f --ioengine=null --rw=read --bs=4k --size=64g --number_ios=1000000 \
        --write_lat_log=l --write_bw_log=l >/dev/null 2>../small.err)
    rc=$?
    n=$(wc -l <small/l_clat.1.log 2>/dev/null || echo 0)
    check "a full disk: the log stops, the run exits 0 and says so (exit $rc: $(head -c 200 small.err))" \
        test "$rc" = 0 -a -n "$(grep "log records stopped: the file system" small.err)"
    check "a full disk: the lines logged before it are written ($n of 1000000)" test "$n" -gt 0 -a "$n" -lt 1000000
    umount small 2>/dev/null
else
    skip "a per-I/O log on a full disk" "cannot mount a tmpfs here"
fi
