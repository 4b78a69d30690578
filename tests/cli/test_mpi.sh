# The MPI build: 4 ranks on this machine. Needs Open MPI (scripts/deps.sh installs it), so a
# missing mpirun or nodemark-mpi is a failure, not a skip.
. "$TESTS_DIR/cli/lib.sh"

MPI=${NODEMARK_MPI:-}
if [ -z "$MPI" ] || [ ! -x "$MPI" ] || ! command -v mpirun >/dev/null; then
    not_ok "Open MPI and build/nodemark-mpi are there" "NODEMARK_MPI='$MPI', mpirun: $(command -v mpirun)"
    exit 0
fi

# run_mpi NP ARGS...: like run_nm, under mpirun, never longer than 120 s (a hang is a failure)
run_mpi() {
    local np=$1 o e
    shift
    o=$(mktemp) e=$(mktemp)
    timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root -np "$np" "$MPI" "$@" >"$o" 2>"$e"
    rc=$?
    out=$(cat "$o") err=$(cat "$e")
    rm -f "$o" "$e"
}

# check_aggregate: every rank's phases are there, and each aggregate is the reduction of them
check_aggregate() {
    local what=$1 nranks=$2 res
    res=$(python3 -c '
import json, sys
j = json.loads(sys.stdin.read())["extra"]["mpi"]
n = int(sys.argv[1])
assert j["ranks"] == n, "ranks %d" % j["ranks"]
assert len(j["per_rank"]) == n and sorted(r["rank"] for r in j["per_rank"]) == list(range(n))
assert j["aggregate"], "no aggregate"
for a in j["aggregate"]:
    ph = [p for r in j["per_rank"] for p in r["phases"] if p["name"] == a["name"] and p["repeat"] == a["repeat"]]
    assert len(ph) == n, "%s: %d ranks" % (a["name"], len(ph))
    total = sum(p["bytes"] for p in ph)
    span = max(p["end_s"] for p in ph) - min(p["start_s"] for p in ph)
    assert total > 0 and abs(a["bytes"] - total) < 1e-6 * total, "bytes"
    assert abs(a["bytes_per_sec"] - total / span) <= 1e-6 * a["bytes_per_sec"], "rate %g vs %g" % (a["bytes_per_sec"], total / span)
    assert a["first_done_bytes_per_sec"] > 0
print("ok")
' "$nranks" <<<"$out" 2>&1)
    if [ "$res" = ok ]; then ok "$what"; else not_ok "$what" "$res"; fi
}

run_mpi 4 hash --algo blake3 --size 8M --no-save --json
expect_rc 0 "hash on 4 ranks exits 0"
check_aggregate "hash: 4 ranks' results and the aggregate is their reduction" 4

run_mpi 4 hash --algo blake3 --size 8M --no-save
expect_rc 0 "hash tables exit 0"
expect_out_has "hash on 4 ranks, 1 host" "rank 0 prints the aggregate line"
n=$(grep -cE '^[0-3] +[^ ]+ +[0-9.]+ [kMG]?B/s' <<<"$out")
if [ "$n" -eq 4 ]; then ok "the per-rank table has 4 rows"; else not_ok "the per-rank table has 4 rows" "$out"; fi

# alone, without mpirun: a job of one rank
o=$(timeout 60 "$MPI" hash --algo blake3 --size 4M --no-save --json 2>/dev/null)
rc=$?
out=$o
expect_rc 0 "nodemark-mpi alone runs as one rank"
check_aggregate "alone: one rank's result and its aggregate" 1

run_mpi 2 hash --algo blake3 --size 0
expect_rc 2 "a bad value is a usage error on every rank"
n=$(grep -c 'nodemark: hash: --size' <<<"$err")
if [ "$n" -eq 1 ]; then ok "only rank 0 prints the usage error"; else not_ok "only rank 0 prints the usage error" "$err"; fi
