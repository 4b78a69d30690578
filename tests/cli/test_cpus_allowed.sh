# The CPUs a run may use are a fact of the run (issue 27 item 9): every record keeps the set the
# process was allowed as it started (sched_getaffinity: taskset, a cgroup's cpuset), What changed
# names a changed set, and a busy pair whose sets differ is not judged on CPU time (bytes per
# CPU-second do not see that a 2-thread figure lost a CPU).  Two real `run --phases hash`, the
# second under `taskset -c FIRST`; the noise monitor reads a quiet fake /proc, and the busy case
# is the saved records with a busy hash phase written in.  Mechanisms only, never timings.
. "$TESTS_DIR/cli/lib.sh"
skip_without taskset "a run pinned with taskset"
scratch_dir
export NODEMARK_DB=$d/results.db NODEMARK_PROCROOT=$d/proc
mkdir -p dir-a dir-b proc/self
printf 'cpu  100 0 100 1000 0 0 0 0\ncpu0 100 0 100 1000 0 0 0 0\n' >proc/stat
printf '1 (nodemark) R 0 0 0 0 0 0 0 0 0 0 10 10 0 0 20 0 1 0 0 0 0\n' >proc/self/stat
printf 'MemTotal: 1000000 kB\nCached: 0 kB\nDirty: 0 kB\nWriteback: 0 kB\n' >proc/meminfo

# what the kernel says this shell may use, the oracle for the record
mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
count=$(py 'import sys
n = 0
for r in sys.argv[1].split(","):
    a, _, b = r.partition("-"); n += int(b or a) - int(a) + 1
print(n)' "$mine")
first=${mine%%[-,]*}
if [ "${count:-0}" -lt 2 ]; then
    skip "a run pinned to fewer CPUs than its baseline" "this process may use one CPU ($mine)"
    exit 0
fi

run_nm run dir-a --quick --no-report --phases hash --label base
expect_rc 0 "the baseline run (all its CPUs) exits 0"
run_cmd taskset -c "$first" "$NM" run dir-b --quick --no-report --phases hash --label pinned
expect_rc 0 "the run under taskset -c $first exits 0"
run_nm export base && printf '%s\n' "$out" >base.json
run_nm export pinned && printf '%s\n' "$out" >pinned.json

res=$(json_file base.json 'j["extra"]["cpus_allowed"]')
[ "$res" = "{'list': '$mine', 'count': $count}" ] && ok "the record keeps the CPUs it was allowed (Cpus_allowed_list $mine)" ||
    not_ok "the record keeps the CPUs it was allowed (Cpus_allowed_list $mine)" "$res"
res=$(json_file pinned.json 'j["extra"]["cpus_allowed"]')
[ "$res" = "{'list': '$first', 'count': 1}" ] && ok "a run under taskset -c $first records that one CPU" ||
    not_ok "a run under taskset -c $first records that one CPU" "$res"
res=$(json_file pinned.json 'sorted(b["name"] for b in j["benches"] if int(b["name"].split("/")[2][:-1]) > 1)')
case $res in "['hash/"*) ok "the pinned run has multi-thread figures ($res)" ;;
*) not_ok "the pinned run has multi-thread figures" "$res" ;; esac

run_nm compare base pinned
expect_rc 0 "compare of the two runs exits 0"
block=$(sed -n '/^What changed from /,$p' <<<"$out")
n=$(grep -cE "^  CPUs allowed +$mine -> $first\$" <<<"$block")
[ "$n" = 1 ] && ok "What changed: one line 'CPUs allowed $mine -> $first'" ||
    not_ok "What changed: one line 'CPUs allowed $mine -> $first'" "$block"

# the same records with the pinned run's hash phase busy from other processes; and a control
# whose CPU set is the baseline's
py 'import json
p = json.load(open("pinned.json"))
p["id"] = p["id"][:-4] + "b001"; p["label"] = "pinned-busy"
p["extra"]["noise"]["hash"] = {"busy": True, "other_busy_pct": 93.0, "steal_pct": 0.0,
                              "why": "other processes used 93% of the CPUs"}
json.dump(p, open("pinned_busy.json", "w"))
b = json.load(open("base.json"))
p["id"] = p["id"][:-4] + "b002"; p["label"] = "same-busy"; p["extra"]["cpus_allowed"] = b["extra"]["cpus_allowed"]
json.dump(p, open("same_busy.json", "w"))'
run_nm compare base.json pinned_busy.json --format json
expect_rc 0 "compare with the busy pinned run exits 0"
res=$(json_get 'sorted(set((int(c["name"].split("/")[2][:-1]) > 1, c["basis"], c.get("basis_note", "")) for c in j["calls"] if c["metric"] == "bytes_per_sec"))' 2>&1)
want="[(False, 'cpu_time', 'judged on CPU time: busy 93%'), (True, 'wall', 'not judged on CPU time: CPUs allowed $count -> 1')]"
[ "$res" = "$want" ] && ok "busy, CPUs $count -> 1: multi-thread rows are not judged on CPU time and say so; 1-thread rows still are" ||
    not_ok "busy, CPUs $count -> 1: multi-thread rows are not judged on CPU time and say so; 1-thread rows still are" "$res"
res=$(json_get 'sorted(set(c["call"] for c in j["calls"] if c["metric"] == "bytes_per_sec" and c["basis"] == "wall"))' 2>&1)
[ "$res" = "['not compared']" ] && ok "on wall-clock time a busy run is not compared, as always" ||
    not_ok "on wall-clock time a busy run is not compared, as always" "$res"
res=$(json_get '[c["why"] for c in j["calls"] if c["basis"] == "wall"][0]' 2>&1)
case $res in
"not compared: pinned_busy.json: the hash phase ran on a busy machine (other processes used 93% of the CPUs); not judged on CPU time: CPUs allowed $count -> 1 (bytes per CPU-second do not see how many CPUs the threads could use)")
    ok "the why names the busy run and why CPU time was not used" ;;
*) not_ok "the why names the busy run and why CPU time was not used" "$res" ;;
esac
run_nm compare base.json pinned_busy.json
expect_out_has "(not judged on CPU time: CPUs allowed $count -> 1)" "the text verdict says so too"
run_nm compare base.json same_busy.json --format json
res=$(json_get 'sorted(set(c["basis"] for c in j["calls"] if c["metric"] == "bytes_per_sec"))' 2>&1)
[ "$res" = "['cpu_time']" ] && ok "the same busy record with the baseline's CPUs: every hash row on CPU time" ||
    not_ok "the same busy record with the baseline's CPUs: every hash row on CPU time" "$res"
