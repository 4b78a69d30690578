# serial: two quick runs compared: their verdicts depend on a quiet machine
# nodemark run: the whole-machine suite. The full quick suite runs twice (the second compares
# against the first); the rest uses the short phases to stay fast.
. "$TESTS_DIR/cli/lib.sh"

d=$(mktemp -d "$PWD/run.XXXXXX")
no_workdirs() { ! ls -a "$d" | grep -q '^\.nodemark-'; }

run_nm run "$d" --quick --label first
expect_rc 0 "run --quick exits 0"
expect_out_matches '^  memory/memcpy/[0-9]+t +[0-9.]+ [kMG]?B/s' "the memory table has the copy bandwidth"
expect_out_matches '^  memory/pagecache-read +[0-9.]+ [kMG]?B/s' "the memory table has the page-cache read"
expect_out_matches '^  hash/blake3/1t +[0-9.]+ [kMG]?B/s' "the hash table has BLAKE3 on one thread"
expect_out_matches '^  (SEQ1M Q8T1|RND4K Q1T1) read +[0-9.]+ [kMG]?B/s' "the disk table has CrystalDiskMark tests"
expect_out_matches '^  pieces/files/sha256/sync/write +[0-9.]+ [kMG]?B/s' "the pieces table has SHA-256 with fsync"
expect_err_has "[5/5] pieces" "plain progress lines name each phase when stderr is not a terminal"
first=$(sed -n 's/^run \([0-9a-f]*\) (quick mode.*/\1/p' <<<"$out")
if [ -n "$first" ]; then ok "the run id is printed"; else not_ok "the run id is printed" "$out"; fi
expect_out_has "no earlier quick run of this host in $(cd "$d" && pwd -P): this run ($first) is the baseline." \
    "a first run says it is the baseline, and the next run's comparison is explained"
check "no .nodemark-* directory is left behind" no_workdirs
check "nodemark-report.html is written" test -s nodemark-report.html

run_nm runs --command run
expect_out_has "$first" "the saved run is listed"

run_nm export "$first"
res=$(python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
b = {x["name"]: x for x in j["benches"]}
phases = {x["settings"].get("phase") for x in j["benches"]}
ok = {"memory", "hash", "disk", "pieces"} <= phases
ok = ok and all(m["samples"] for x in j["benches"] for m in x["metrics"])
ok = ok and set(j["extra"]["noise"]) >= {"memory", "hash", "disk", "pieces"}
ok = ok and j["extra"]["run"]["mode"] == "quick" and j["extra"]["run"]["disk"]["profile"] in ("cdm", "cdm-nvme")
ok = ok and "pieces/files/blake3/nosync/write" in b
# adaptive sample counts: each figure says how many samples it took and why it stopped
smp = j["extra"]["sampling"]
ok = ok and all(smp[x["name"]]["samples"] == len(x["metrics"][0]["samples"]) and
                smp[x["name"]]["stopped"] in ("interval", "max", "budget")
                for x in j["benches"] if x["settings"].get("phase") in ("memory", "hash", "disk", "pieces"))
ok = ok and all(f["bytes_per_sec"]["pct"] > 0 for f in j["extra"]["noise_floor"].values())
print(ok)' <<<"$out" 2>&1)
if [ "$res" = True ]; then ok "the record holds every phase, its samples, sample counts, noise figures and floors"; else not_ok "the record holds every phase, its samples, sample counts, noise figures and floors" "$res"; fi

# run's figures and the commands' are built by the same converters (pieces/record.c,
# disk/record.c): a bench of the same name carries the same setting keys and metrics (the suite
# adds its phase and mode), so the two compare key for key.
run_json=$out
run_nm pieces "$d" --count 2 --size 8k --label keys-pieces
run_nm disk "$d" --profile cdm --size 1MiB --runtime 0.1s --loops 1 --interval 0 --label keys-disk
cmd_json=$(for l in keys-pieces keys-disk; do "$NM" export "$l"; done)
res=$(RUN="$run_json" CMD="$cmd_json" python3 -c '
import json, os
def docs(text):
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        o, i = dec.raw_decode(text, i)
        out.append(o)
run = {b["name"]: b for b in json.loads(os.environ["RUN"])["benches"]}
cmd = {b["name"]: b for d in docs(os.environ["CMD"]) for b in d["benches"]}
keys = lambda b: (sorted(set(b["settings"]) - {"phase", "mode"}), sorted(m["name"] for m in b["metrics"]))
want = {"pieces/files/blake3/nosync/write", "SEQ1M Q8T1 read"}
both = want & set(run) & set(cmd)
bad = [(n, keys(run[n]), keys(cmd[n])) for n in sorted(both) if keys(run[n]) != keys(cmd[n])]
print(True if both == want and not bad else (sorted(want - both), bad))' 2>&1)
what="run's pieces and disk benches carry the same setting keys and metrics as pieces' and disk's"
if [ "$res" = True ]; then ok "$what"; else not_ok "$what" "$res"; fi

run_nm run "$d" --quick --no-report --phases inventory,hash
expect_rc 0 "a second run exits 0"
expect_out_has "compared with run $first first" "the second run compares against the first of this directory"
expect_out_matches '^hash/blake3/1t +[0-9.]+' "the comparison has a row per figure in common"
expect_out_matches '^bandwidth \([^)]*B/s\), this run [0-9a-f]{8} vs baseline [0-9a-f]{8} first: [0-9]+ called, [0-9]+ unchanged, [0-9]+ not compared' \
    "the comparison ends with the calls"
expect_out_matches '^What changed from baseline [0-9a-f]{8} first to this run [0-9a-f]{8}$' \
    "the comparison says what changed between the two runs' machines and settings"
second=$(sed -n 's/^run \([0-9a-f]*\) (quick mode.*/\1/p' <<<"$out")
# run, compare and report make the same calls about the same two runs (the text groups rows
# of a phase not compared for one reason, in run and compare alike)
text_calls() { sed -n '/^calls:/,$p' | awk '/^[^ ]/{f = ($1 == "bandwidth")} f' |
    sed -nE 's/^(bandwidth \([^)]*\)), .*: ([0-9]+ called.*)/\1 \2/p
              s/^  ([^ ].*[^ ]) +(regression|improvement|changed|not compared|withdrawn)[: ].*/\1 \2/p' | sed -E 's/ +/ /g' | sort; }
calls_of_run=$(text_calls <<<"$out")
calls_of_compare=$("$NM" compare "$first" "$second" 2>/dev/null | text_calls)
if [ -n "$calls_of_run" ] && [ "$calls_of_run" = "$calls_of_compare" ]; then ok "compare makes the calls run made"
else not_ok "compare makes the calls run made" "run: $calls_of_run / compare: $calls_of_compare"; fi
run_nm compare "$first" "$second" --format json
rows_of_compare=$(json_get '"\n".join(sorted(c["name"] + " " + c["call"] for c in j["calls"] if c["metric"] == "bytes_per_sec" and c["call"] != "unchanged"))' 2>&1)
"$NM" report "$first" "$second" -o "$d.html" 2>/dev/null
calls_of_report=$(grep -oE '<td class="call-[a-z-]+" data-metric="bytes_per_sec" data-row="[^"]+"' "$d.html" |
    sed -E 's/<td class="call-([a-z-]+)" data-metric="[^"]*" data-row="([^"]+)"/\2 \1/; s/not-compared$/not compared/' | grep -v ' unchanged$' | sort)
if [ "$calls_of_report" = "$rows_of_compare" ]; then ok "report makes the calls run made"
else not_ok "report makes the calls run made" "compare: $rows_of_compare / report: $calls_of_report"; fi
rm -f "$d.html"

other=$(mktemp -d "$PWD/other.XXXXXX")
run_nm run "$other" --quick --no-report --no-save --phases inventory,hash
if grep -q "compared with" <<<"$out"; then not_ok "another directory has no baseline" "$out"; else ok "another directory has no baseline"; fi
expect_out_has "no earlier quick run of this host in $(cd "$other" && pwd -P) (and this one is not saved: --no-save)" \
    "a first run that is not saved does not call itself the baseline"
run_nm run "$other" --quick --no-report --no-save --phases inventory,hash --baseline first --json="$other.json"
expect_out_has "compared with run $first first" "--baseline names the run to compare with"
# --json=FILE: the record (show --json's), the baseline and the calls; the tables stay on stdout
res=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
bad = [k for k in ("format", "id", "host", "command", "benches", "baseline", "calls", "inventory") if k not in j]
hashes = [b for b in j["benches"] if b["name"].startswith("hash/")]
bad += [] if j["format"] == "nodemark-record" and j["command"] == "run" else ["format/command"]
bad += [] if hashes and all(m["samples"] for b in hashes for m in b["metrics"] if m["name"] == "bytes_per_sec") else ["hash samples"]
bad += [] if j["baseline"]["id"] == sys.argv[2] and j["baseline"]["label"] == "first" else ["baseline"]
names = {b["name"] for b in hashes}
bad += [] if j["calls"] and all(c["call"] in ("regression", "improvement", "changed", "unchanged", "not compared") for c in j["calls"]) else ["calls"]
bad += [] if {c["name"] for c in j["calls"] if c["metric"] == "bytes_per_sec"} == names else ["a call per hash row"]
print(" ".join(bad) or "ok")' "$other.json" "$first" 2>&1)
[ "$res" = ok ] && ok "run --json=FILE: the record, its baseline and a call per figure" || not_ok "run --json=FILE" "$res"
run_nm import "$other.json"
expect_rc 0 "run's JSON is a record import reads back"
run_nm run "$other" --quick --no-report --no-save --phases hash --json
imported=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$other.json")
res=$(python3 -c 'import json, sys; j = json.loads(sys.stdin.read()); print(j["command"], j["baseline"]["id"], len(j["benches"]) > 0)' <<<"$out" 2>&1)
[ "$res" = "run $imported True" ] && ok "run --json: stdout is the JSON alone, the imported run its baseline" || not_ok "run --json on stdout" "$res / ${out:0:200}"
expect_err_has "hash/blake3/1t" "run --json: the tables go to stderr"
run_nm run "$other" --quick --phases hash --json="$other/nodir/x.json"
expect_rc 2 "run --json into a missing directory is a usage error, before measuring"
run_nm run "$other" --quick --no-report --no-save --phases hash --baseline nosuchlabel
expect_rc 2 "a --baseline that does not exist is a usage error, found before measuring"
if grep -q "hash/" <<<"$out"; then not_ok "nothing is measured for a bad --baseline"; else ok "nothing is measured for a bad --baseline"; fi
expect_err_has "--baseline" "and says so"
rm -rf "$other" "$other.json"

run_nm run "$d" --quick --full
expect_rc 2 "--quick with --full is a usage error"
one_line_error "--quick with --full is one line"

run_nm run "$d/nonexistent"
expect_rc 2 "a missing directory is a usage error"
expect_err_has "nonexistent" "the error names the directory"

run_nm run "$d" --phases memory,bogus
expect_rc 2 "an unknown phase is a usage error"
expect_err_has '"bogus"' "the error names the unknown phase"

# Ctrl-C: 130, the finished phases saved, nothing left behind
"$NM" run "$d" --quick --no-report --label interrupted --phases inventory,hash,memory,pieces >"$d.out" 2>"$d.err" &
pid=$!
for _ in $(seq 100); do grep -q '^\[3/4\]' "$d.err" && break; sleep 0.1; done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
expect_rc 130 "SIGINT during the suite exits 130"
check "SIGINT leaves no .nodemark-* directory" no_workdirs
run_nm export interrupted
res=$(json_get '"hash" in {x["settings"].get("phase") for x in j["benches"]}' 2>&1)
if [ "$res" = True ]; then ok "SIGINT: the finished phases are saved"; else not_ok "SIGINT: the finished phases are saved" "$res $(cat "$d.err")"; fi
rm -rf "$d" "$d.out" "$d.err"
