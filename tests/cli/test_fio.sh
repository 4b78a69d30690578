# nodemark fio: its output formats, fio's option rules, errors, and what it leaves behind.
. "$TESTS_DIR/cli/lib.sh"

mkdir d
J="--directory=d --size=256k"

# --- bad input: one line, exit 2 ------------------------------------------------------------

run_nm fio --no-save --name=a $J --verify=crc64
expect_rc 2 "an unsupported option exits 2"
one_line_error "an unsupported option is one line"
expect_err_has "--verify" "the message names the unsupported option"

run_nm fio --no-save --name=a $J --no_such_thing=1
expect_rc 2 "an unknown option exits 2"
expect_err_has "no_such_thing" "the message names the unknown option"

run_nm fio --no-save --name=a $J --bs=4q
expect_rc 2 "a bad size exits 2"
one_line_error "a bad size is one line"
expect_err_has "bs" "the message names the option"

run_nm fio --no-save --size=1m
expect_rc 2 "no job exits 2"

run_nm fio --no-save missing.fio
expect_rc 2 "a missing job file exits 2"
expect_err_has "missing.fio" "the message names the job file"

printf '[a]\nsize=1m\nverify=crc64\n' >bad.fio
run_nm fio --no-save bad.fio
expect_rc 2 "an unsupported option in a job file exits 2"
expect_err_has "bad.fio:3" "the message names the file and line"

run_nm fio --no-save --readonly --name=w $J --rw=write
expect_rc 2 "--readonly refuses a writing job"

run_nm fio --no-save --output-format=xml --name=a $J
expect_rc 2 "an unknown output format exits 2"

# --- bookkeeping-only options: a warning, and the run goes on --------------------------------

run_nm fio --no-save --output-format=json --name=a $J --gtod_reduce=1 --iodepth_low=4
expect_rc 0 "a bookkeeping-only option runs"
expect_err_has "gtod_reduce" "the warning names it"
expect_err_has "iodepth_low" "every ignored option is named"
check "the JSON on stdout stays valid with warnings on stderr" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out"

run_nm fio --no-save --output-format=json --ioengine=posixaio --name=a $J
if [ "$rc" -eq 2 ] && grep -q "not available" <<<"$err"; then
    ok "ioengine=posixaio runs (io_uring is off on this kernel: refused in one line)"
else
    expect_rc 0 "ioengine=posixaio runs"
fi
expect_err_has "posixaio runs on nodemark's uring engine" "the engine mapping is said"
run_nm fio --no-save --output-format=json --ioengine=libaio --name=a $J
if [ "$rc" -eq 2 ] && grep -q "not available" <<<"$err"; then
    ok "ioengine=libaio runs (AIO is off on this kernel: refused in one line)"
else
    expect_rc 0 "ioengine=libaio runs"
fi
grep -q "runs on nodemark" <<<"$err" && not_ok "ioengine=libaio is its own engine: no mapping said" "$err" ||
    ok "ioengine=libaio is its own engine: no mapping said"

run_nm fio --no-save --parse-only --name=a $J --rw=randread
expect_rc 0 "--parse-only exits 0"
check "--parse-only prints no report" test -z "$out"

# --- formats -------------------------------------------------------------------------------

run_nm fio --no-save --kb_base=1000 --name=sizes --directory=d --size=256k --bs=4k --output-format=json
expect_rc 0 "kb_base=1000 runs"
check "kb_base=1000 reads 256k as 256000 bytes" test "$(json_get 'j["jobs"][0]["read"]["io_bytes"]')" = 256000
check "kb_base=1000 reads 4k blocks as 4000 bytes" test "$(json_get 'j["jobs"][0]["read"]["total_ios"]')" = 64

run_nm fio --no-save --output-format=json --name=pl $J --rw=randread --percentile_list=50:99.9
expect_rc 0 "percentile_list runs"
check "percentile keys are fio's strings" test "$(json_get 'sorted(j["jobs"][0]["read"]["clat_ns"]["percentile"])')" = "['50.000000', '99.900000']"
check "bw is KiB/s of bw_bytes" test "$(json_get 'j["jobs"][0]["read"]["bw"] == j["jobs"][0]["read"]["bw_bytes"] // 1024')" = True

run_nm fio --no-save --name=txt $J --rw=randrw --numjobs=2 --group_reporting
expect_rc 0 "normal output runs"
expect_out_has "txt: (groupid=0, jobs=2): err= 0:" "normal output has the job line with jobs=2"
expect_out_matches '^  read: IOPS=[0-9.k]+, BW=' "normal output has the read line"
expect_out_has "clat percentiles (" "normal output has the percentile block"
expect_out_has "Run status group 0 (all jobs):" "normal output has the group line"
expect_out_matches '^  WRITE: bw=.*, io=.*, run=[0-9]+-[0-9]+msec$' "the group line has fio's fields"

run_nm fio --no-save --minimal --name=t1 $J --name=t2 $J --rw=write
expect_rc 0 "terse output runs"
check "terse prints one line per job" test "$(printf '%s\n' "$out" | grep -c '^3;')" = 2
# fio's 121 fields, and 9 per disk under the files (as many as real fio finds for the same jobs)
nm_nf=$(printf '%s\n' "$out" | awk -F';' '{print NF}' | sort -u)
mkdir -p fio-terse
fio_nf=$(cd fio-terse && fio --minimal --name=t1 --directory=. --size=256k --name=t2 --directory=. --size=256k --rw=write \
    2>/dev/null | awk -F';' '{print NF}' | sort -u)
rm -rf fio-terse
check "terse lines have fio's field count ($nm_nf; fio $fio_nf)" test "$nm_nf" = "$fio_nf" -a $(( (nm_nf - 121) % 9 )) = 0
check "terse read io is 256 KiB" test "$(printf '%s\n' "$out" | head -1 | cut -d';' -f6)" = 256

run_nm fio --no-save --output-format=json --output=out.json --name=o $J
expect_rc 0 "--output runs"
check "--output leaves stdout empty" test -z "$out"
check "--output writes the JSON" python3 -c 'import json; json.load(open("out.json"))'

# json+ is read by fio's own fio_jsonplus_clat2csv (Debian's fio package)
run_nm fio --no-save --output-format=json+ --name=p1 $J --rw=randread --name=p2 $J --rw=randwrite
expect_rc 0 "json+ runs"
printf '%s\n' "$out" >plus.json
check "json+ has clat_ns.bins" python3 -c 'import json; j=json.load(open("plus.json")); assert sum(j["jobs"][0]["read"]["clat_ns"]["bins"].values()) == j["jobs"][0]["read"]["total_ios"]'
if command -v fio_jsonplus_clat2csv >/dev/null; then
    if fio_jsonplus_clat2csv plus.json lat.csv >/dev/null 2>clat.err &&
        fio_jsonplus_clat2csv plus.json lat.csv --validate >/dev/null 2>>clat.err; then
        ok "fio_jsonplus_clat2csv reads and validates our json+"
    else
        not_ok "fio_jsonplus_clat2csv reads our json+" "$(head -c 300 clat.err)"
    fi
    check "fio_jsonplus_clat2csv wrote one CSV per job" test -s lat_job0.csv -a -s lat_job1.csv
else
    not_ok "fio_jsonplus_clat2csv is installed (Debian's fio package)"
fi

# --- --status-interval: a full report of the figures so far, every interval -------------------

run_nm fio --no-save --name=si --directory=d --size=1m --rw=randread --bs=4k --time_based --runtime=2500ms \
    --status-interval=1 --output-format=json
expect_rc 0 "--status-interval: exit 0"
si_check=$(python3 -c '
import json, sys
t = sys.argv[1]; dec = json.JSONDecoder(); i = 0; docs = []
while i < len(t):
    while i < len(t) and t[i].isspace(): i += 1
    if i >= len(t): break
    o, i = dec.raw_decode(t, i); docs.append(o)
if len(docs) < 2: sys.exit("%d JSON documents" % len(docs))
b = [d["jobs"][0]["read"]["io_bytes"] for d in docs]
r = [d["jobs"][0]["job_runtime"] for d in docs]
if b != sorted(b) or r != sorted(r) or b[0] <= 0: sys.exit("not cumulative: bytes %s runtime %s" % (b, r))
if r[0] >= r[-1]: sys.exit("the first report is not interim: runtime %s" % r)
if set(docs[0]["jobs"][0]) != set(docs[-1]["jobs"][0]): sys.exit("interim keys differ")
print(len(docs))
' "$out" 2>&1)
check "--status-interval=1 prints interim JSON reports, cumulative, then the final one ($si_check)" \
    test "$si_check" -ge 2 2>/dev/null
run_nm fio --no-save --name=si --directory=d --size=1m --status-interval=0
expect_rc 2 "--status-interval=0: exit 2"
one_line_error "--status-interval=0: one line"
run_nm fio --no-save --name=si --directory=d --size=1m --status-interval=soon
expect_err_has "--status-interval:" "a bad --status-interval names the option"

# --- disk_util: the devices under the files, over the run ------------------------------------

# A filename= nodemark creates stays (fio's unlink=0); unlink=1 removes it at the end.
run_nm fio --no-save --name=created --filename=d/made-here --size=256k --rw=write --bs=64k
expect_rc 0 "a missing filename= is created: exit 0"
check "the file it created stays after the run (unlink=0)" test -f d/made-here
rm -f d/made-here
run_nm fio --no-save --name=created --filename=d/made-here --size=256k --rw=write --bs=64k --unlink=1
check "unlink=1: the file it created is removed at the end" test ! -e d/made-here

# Real fio says whether this directory has a disk under it (tmpfs and overlays have none): the
# same job through both tools must then give the same device list, with fio's keys.
mkdir -p fio-du
fio_du=$(cd fio-du && fio --name=du --directory=. --size=1m --bs=4k --rw=read --direct=1 --output-format=json 2>/dev/null |
    python3 -c 'import json,sys; print(" ".join(d["name"] for d in json.load(sys.stdin).get("disk_util", [])))' 2>/dev/null)
rm -rf fio-du
run_nm fio --no-save --name=du --directory=d --size=1m --bs=4k --rw=read --direct=1 --output-format=json
if [ "$rc" -ne 0 ]; then
    not_ok "disk_util job: exit 0" "exit $rc: ${err:0:200}"
elif [ -z "$fio_du" ]; then
    check "no disk under this directory for fio, none for nodemark" \
        python3 -c 'import json,sys; sys.exit("disk_util" in json.loads(sys.argv[1]))' "$out"
else
    du_check=$(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
d = j.get("disk_util")
if not d: sys.exit("no disk_util array")
keys = ["name", "read_ios", "write_ios", "read_merges", "write_merges", "read_ticks", "write_ticks", "in_queue", "util"]
for e in d:
    if list(e)[:9] != keys: sys.exit("keys %s" % list(e))
    if not 0 <= e["util"] <= 100: sys.exit("util %s" % e["util"])
# 256 O_DIRECT reads of 4 KiB: at least that many reached the disk (others may add more)
if d[0]["read_ios"] + d[0]["read_merges"] < 256: sys.exit("read_ios %d" % d[0]["read_ios"])
print(" ".join(e["name"] for e in d))
' "$out" 2>&1)
    check "disk_util: the devices fio names ($fio_du), fio's keys, the direct reads counted ($du_check)" \
        test "$du_check" = "$fio_du"
    first=${fio_du%% *}
    run_nm fio --no-save --name=du --directory=d --size=1m --bs=4k --rw=read --direct=1
    expect_out_has "Disk stats (read/write):" "normal output ends with Disk stats"
    expect_out_has "$first: ios=" "Disk stats has the device's line"
    run_nm fio --no-save --name=du --directory=d --size=1m --bs=4k --rw=read --direct=1 --disk_util=0 --output-format=json
    check "disk_util=0 leaves the array out" python3 -c 'import json,sys; sys.exit("disk_util" in json.loads(sys.argv[1]))' "$out"
fi

# --- what it leaves behind -----------------------------------------------------------------

check "nothing is left in the directory" test -z "$(ls -A d)"


# --- the saved run -------------------------------------------------------------------------

run_nm fio --output-format=json --name=saved $J --rw=randread --label fio-test
expect_rc 0 "a saved run exits 0"
expect_err_has "saved run" "the run is saved"
check "the JSON stays valid when the run is saved" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out"
run_nm show fio-test
expect_rc 0 "the saved run can be shown"
expect_out_matches '^    read IOPS +[0-9]' "the saved run has the job's IOPS, named as compare names it"
expect_out_matches '^    job_options\.rw +randread$' "the saved run keeps the job options, key by key"

# An existing file is the user's data: a writing job leaves it alone unless --allow-write names it.
head -c 262144 /dev/urandom > users.dat
before=$(md5sum < users.dat)
run_nm fio --name=w --rw=write --bs=4k --size=256k --filename="$PWD/users.dat" --no-save
expect_rc 2 "fio: writing an existing file without --allow-write exits 2"
if [ "$(md5sum < users.dat)" = "$before" ]; then ok "fio: the existing file is unchanged"; else not_ok "fio: the existing file is unchanged"; fi
run_nm fio --name=w --rw=write --bs=4k --size=256k --filename="$PWD/users.dat" --allow-write="$PWD/users.dat" --no-save
expect_rc 0 "fio: --allow-write lets the job write the existing file"
if [ "$(md5sum < users.dat)" != "$before" ] && [ -f users.dat ]; then ok "fio: --allow-write wrote it and kept it"; else not_ok "fio: --allow-write wrote it and kept it"; fi

# --- the option table: --cmdhelp and docs/fio-compat.md come from the same table ----------------

run_nm fio --cmdhelp
expect_rc 0 "--cmdhelp exits 0"
expect_out_matches '^bs +size +supported default 4k \(alias blocksize\)' "--cmdhelp shows type, default and alias"
expect_out_matches '^exec_prerun +str +refused' "--cmdhelp shows what is refused"
printf '%s\n' "$out" > cmdhelp.txt
if why=$(python3 "$TESTS_DIR/cli/helpers/fio_doc_check.py" cmdhelp.txt "$TESTS_DIR/../docs/fio-compat.md"); then
    ok "docs/fio-compat.md lists every option of the table under its status"
else
    not_ok "docs/fio-compat.md lists every option of the table under its status" "$why"
fi
run_nm fio --cmdhelp=blocksize
expect_out_matches '^bs ' "--cmdhelp=ALIAS shows the option"
run_nm fio --cmdhelp=no_such_option
expect_rc 2 "--cmdhelp of an unknown option exits 2"
one_line_error "--cmdhelp of an unknown option is one line"

# --- fio's default target: NAME.THREAD.0 in the current directory, kept (unlink=0) -------------

mkdir -p empty
(
    cd empty || exit 1
    "$NM" fio --no-save --loops=1 --size=2m --runtime=200ms --time_based=1 --stonewall --direct=1 \
        --group_reporting --output-format=json \
        --name=SeqQ8T1read --bs=1048576 --iodepth=8 --rw=read --name=SeqQ8T1write --bs=1048576 --iodepth=8 --rw=write \
        --name=SeqQ1T1read --bs=1048576 --iodepth=1 --rw=read --name=SeqQ1T1write --bs=1048576 --iodepth=1 --rw=write \
        --name=RND4KQ32T1read --bs=4096 --iodepth=32 --rw=randread --name=RND4KQ32T1write --bs=4096 --iodepth=32 --rw=randwrite \
        --name=RND4KQ1T1read --bs=4096 --iodepth=1 --rw=randread --name=RND4KQ1T1write --bs=4096 --iodepth=1 --rw=randwrite \
        >../seed.json 2>../seed.err
    echo $? >../seed.rc
)
rc=$(cat seed.rc) err=$(cat seed.err) out=$(cat seed.json)
expect_rc 0 "the seed's 8-job line without a target runs"
check "the seed's line gives 8 jobs in groups 0..7" test "$(json_get '[(x["jobname"][:3], x["groupid"]) for x in j["jobs"]]')" = \
    "[('Seq', 0), ('Seq', 1), ('Seq', 2), ('Seq', 3), ('RND', 4), ('RND', 5), ('RND', 6), ('RND', 7)]"
check "the seed's line leaves its 8 files (unlink=0), as fio" test "$(LC_ALL=C ls -A empty | tr '\n' ' ')" = \
    "RND4KQ1T1read.0.0 RND4KQ1T1write.0.0 RND4KQ32T1read.0.0 RND4KQ32T1write.0.0 SeqQ1T1read.0.0 SeqQ1T1write.0.0 SeqQ8T1read.0.0 SeqQ8T1write.0.0 "
rm -f empty/*

# the files are fio's names in the current directory while the job runs; a signal removes them
( cd empty && exec "$NM" fio --no-save --name=dflt --size=64k --numjobs=2 --startdelay=30 >/dev/null 2>&1 ) &
pid=$!
for _ in $(seq 100); do [ -e empty/dflt.1.0 ] && break; sleep 0.1; done
check "no target: the job's files are NAME.THREAD.0 in the current directory" test -e empty/dflt.0.0 -a -e empty/dflt.1.0
kill -INT $pid; wait $pid
check "no target: Ctrl-C removes them" test -z "$(ls -A empty)"

# --- fio's rules that the front end once got wrong ------------------------------------------------

printf '[global]\nname=glob\nsize=64k\ndirectory=d\n[one]\n[two]\nwait_for=one\n' > gname.fio
run_nm fio --no-save --output-format=json gname.fio
expect_rc 0 "name= in [global] with wait_for runs"
check "name= in [global] does not rename the jobs" test "$(json_get '[x["jobname"] for x in j["jobs"]]')" = "['one', 'two']"

timeout 60 "$NM" fio --no-save --output-format=json --name=lp $J --loops=100000 --runtime=1 >lp.json 2>lp.err
rc=$? out=$(cat lp.json)
expect_rc 0 "loops=100000 with runtime=1 ends by itself"
check "loops=100000 with runtime=1: the job ran no longer than its runtime" \
    test "$(json_get 'j["jobs"][0]["read"]["runtime"] <= 1100')" = True
timeout 60 "$NM" fio --no-save --output-format=json --name=lt $J --loops=5 --time_based --runtime=1 >lt.json 2>lt.err
rc=$? out=$(cat lt.json)
expect_rc 0 "time_based with loops ends by itself"
check "time_based with loops=5 runs its runtime once" test "$(json_get 'j["jobs"][0]["read"]["runtime"] <= 1100')" = True

# --- values that mean "off" run; other values of the same options stop in one line -------------

run_nm fio --no-save --output-format=json --name=off $J --verify=0 --rate=0 --rate_iops=0 --thinktime=0 \
    --bsrange=8k-8k --random_distribution=random --buffer_compress_percentage=0 --threads=1
expect_rc 0 "verify=0, rate=0, thinktime=0, bsrange=8k-8k and friends run"
check "bsrange=8k-8k is bs=8k" test "$(json_get 'j["jobs"][0]["read"]["io_bytes"] // j["jobs"][0]["read"]["total_ios"]')" = 8192
run_nm fio --no-save --parse-only --name=mix $J --bssplit=4k/50:64k/50
expect_rc 0 "a block-size mix is taken (tests/cli/test_fio_features.sh checks what it does)"
run_nm fio --no-save --parse-only --name=mix $J --bssplit=4k/60:8k/50:16k/:32k/
expect_rc 2 "a block-size mix over 100 % exits 2"
one_line_error "a block-size mix over 100 % is one line"
expect_err_has "bssplit" "the message names bssplit"
run_nm fio --no-save --parse-only --name=r $J --rate=10m,bad
expect_rc 2 "a bad rate exits 2"
expect_err_has "rate" "the message names rate"

# --- description=: terse's field after the disks, "desc" in JSON, a line in normal output --------

run_nm fio --no-save --output-format=terse --name=dsc $J --description="my job"
expect_rc 0 "description= runs"
check "terse: description= is the last field" test "$(awk -F';' '{print $NF}' <<<"$out")" = "my job"
if command -v fio >/dev/null; then
    nm_fields=$(awk -F';' '{print NF}' <<<"$out")
    fio_fields=$(cd d && fio --output-format=terse --name=dsc --size=256k --description="my job" 2>/dev/null | awk -F';' '{print NF}'; rm -f dsc.0.0)
    check "terse with description= has as many fields as fio's ($fio_fields)" test "$nm_fields" = "$fio_fields"
fi
run_nm fio --no-save --output-format=json --name=dsc $J --description="my job"
check "json: description= is \"desc\"" test "$(json_get 'j["jobs"][0]["desc"]')" = "my job"
run_nm fio --no-save --name=dsc $J --description="my job"
expect_out_has "  Description  : [my job]" "normal: description= is fio's Description line"
