# serial: four ranks and their processes
# The MPI build: 4 ranks on this machine. Needs Open MPI (scripts/deps.sh installs it), so a
# missing mpirun or nodemark-mpi is a failure, not a skip.
. "$TESTS_DIR/cli/lib.sh"

MPI=${NODEMARK_MPI:-}
if [ -z "$MPI" ] || [ ! -x "$MPI" ] || ! command -v mpirun >/dev/null; then
    not_ok "Open MPI and build/nodemark-mpi are there" "NODEMARK_MPI='$MPI', mpirun: $(command -v mpirun)"
    exit 0
fi

# run_mpi NP ARGS...: like run_nm, under mpirun, never longer than 120 s (a hang is a failure).
# Open MPI 4.1's mpirun looks "localhost" up about 20 times a start; where /etc/hosts is missing
# (CI's fresh Debian chroot) each goes to DNS, and a lost reply cost the resolver's default 5 s
# in about half of the starts (test_mpi took 110 s there against 15 s here): one try of 1 s.
run_mpi() {
    local np=$1
    shift
    run_cmd timeout -k 5 120 env RES_OPTIONS="timeout:1 attempts:1" \
        mpirun --oversubscribe --allow-run-as-root -np "$np" "$MPI" "$@"
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

# The help is written from the same tables the parser reads: every workload option it lists is
# the plain command's option of the same name (--numjobs, fio's name for --jobs, aside), and the
# driver's own follow.
for w in disk pieces hash; do
    mhelp=$("$MPI" "$w" --help 2>&1)
    phelp=$("$NM" "$w" --help 2>&1)
    names=$(sed -n '/^Options:/,/^MPI options/p' <<<"$mhelp" | grep -oE '^  (-[a-zA-Z], )?--[a-z-]+' | sed 's/.*--//' | grep -vx numjobs)
    missing=""
    for o in $names; do grep -qE -- "--$o([ =[]|$)" <<<"$phelp" || missing="$missing --$o"; done
    if [ -n "$names" ] && [ -z "$missing" ]; then ok "nodemark-mpi $w takes nodemark $w's option names"; else not_ok "nodemark-mpi $w takes nodemark $w's option names" "not in nodemark $w --help:$missing (listed: $names)"; fi
    grep -q -- "--repeat N" <<<"$mhelp" && grep -q -- "--no-save" <<<"$mhelp" && ok "nodemark-mpi $w --help lists the MPI and run options" ||
        not_ok "nodemark-mpi $w --help lists the MPI and run options" "$mhelp"
done

run_mpi 2 hash --algo blake3 --size 0
expect_rc 2 "a bad value is a usage error on every rank"
n=$(grep -c 'nodemark: hash: --size' <<<"$err")
if [ "$n" -eq 1 ]; then ok "only rank 0 prints the usage error"; else not_ok "only rank 0 prints the usage error" "$err"; fi

d=$(mktemp -d "$PWD/mpi.XXXXXX")
no_leftovers() { [ -z "$(ls -A "$d")" ]; }

run_mpi 4 disk "$d" --size 4M --bs 64k --no-save --json
expect_rc 0 "disk on 4 ranks exits 0"
check_aggregate "disk: 4 ranks' results and the aggregate is their reduction" 4
names=$(json_get '",".join(a["name"] for a in j["extra"]["mpi"]["aggregate"])' 2>&1)
if [ "$names" = "write 64KiB,read 64KiB" ]; then ok "disk runs write then read"; else not_ok "disk runs write then read" "$names"; fi
check "disk removes every rank's directory" no_leftovers
# The option names are nodemark disk's: --jobs (fio's --numjobs is the same).
run_mpi 2 disk "$d" --size 1M --bs 64k --jobs 2 --no-save --json
expect_rc 0 "disk takes --jobs, as nodemark disk does"
run_mpi 2 disk "$d" --size 1M --bs 64k --jobs 0 --no-save
if [ "$rc" -eq 2 ] && grep -q -- '--jobs' <<<"$err"; then ok "disk --jobs 0 is refused naming --jobs"; else not_ok "disk --jobs 0 is refused naming --jobs" "exit $rc: ${err:0:300}"; fi

run_mpi 4 disk "$d" --size 2M --bs 64k --shared-file --no-save --json
expect_rc 0 "disk --shared-file on 4 ranks exits 0"
check_aggregate "disk --shared-file: the aggregate is the reduction" 4
check "disk --shared-file removes the shared file" no_leftovers

run_mpi 4 pieces "$d" --count 4 --size 256k --hash blake3,sha256 --no-save --json
expect_rc 0 "pieces on 4 ranks exits 0"
check_aggregate "pieces: 4 ranks' results and the aggregate is their reduction" 4
ops=$(json_get 'sum(p["ops"] for r in j["extra"]["mpi"]["per_rank"] for p in r["phases"] if "blake3" in p["name"])' 2>&1)
if [ "$ops" = "16.0" ]; then ok "pieces: 4 ranks wrote 4 pieces each"; else not_ok "pieces: 4 ranks wrote 4 pieces each" "$ops"; fi
check "pieces removes every rank's store" no_leftovers

run_mpi 4 disk "$d" --size 4M --bs 64k --stonewall --no-save --json
expect_rc 0 "disk --stonewall on 4 ranks exits 0"
check_aggregate "disk --stonewall: the aggregate is the reduction" 4
res=$(json_get '
all(max(p["bytes"] for r in j["extra"]["mpi"]["per_rank"] for p in r["phases"] if p["name"] == n) == 4 * 2**20
    and all(p["bytes"] % 65536 == 0 and 0 < p["bytes"] <= 4 * 2**20 for r in j["extra"]["mpi"]["per_rank"] for p in r["phases"])
    for n in ("write 64KiB", "read 64KiB"))' 2>&1)
if [ "$res" = True ]; then ok "stonewall: the first rank did all its work, the others whole blocks of theirs"; else not_ok "stonewall: the first rank did all its work, the others whole blocks of theirs" "$res"; fi

run_mpi 2 hash --stonewall --size 1M
expect_rc 2 "--stonewall with hash is a usage error"

# rank 2 cannot make its directory: the job stops on every rank, saying which rank and why
: >"$d/rank-2"
run_mpi 4 disk "$d" --size 2M --no-save
expect_rc 1 "a failing rank ends the job with exit 1 (and no rank hangs)"
expect_err_has "rank 2 (" "the error names the failing rank and its host"
expect_err_has "rank-2: not a directory" "the error says what went wrong on that rank"
n=$(grep -c '^nodemark: disk: rank ' <<<"$err")
if [ "$n" -eq 1 ]; then ok "only the failing rank is reported"; else not_ok "only the failing rank is reported" "$err"; fi
rm -f "$d/rank-2"
check "the other ranks removed their directories" no_leftovers
rm -rf "$d"
