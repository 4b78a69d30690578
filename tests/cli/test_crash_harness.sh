# The crash and power-cut harness (bench/crash_harness.sh), a few rounds: no corrupt piece and no
# lost acknowledged piece where durability is promised; and the harness itself: a round where
# verify gives no verdict is counted apart (never as "0 pieces found"), a verify that loses pieces
# or misreports them fails the run. Needs root and loop devices.
. "$TESTS_DIR/cli/lib.sh"

# The judge on a hand-made store (no root needed): pieces whose bytes differ from the live store's
# must be the ones verify calls corrupt; an acknowledged piece that is gone is lost.
judge=$TESTS_DIR/../bench/crash_judge.py
mkdir -p live/blobs/ns/ab cut/blobs/ns/ab
echo data-x >live/blobs/ns/ab/x.sj1 && echo data-y >live/blobs/ns/ab/y.sj1 && echo data-z >live/blobs/ns/ab/z.sj1
echo stale >cut/blobs/ns/ab/x.sj1 && cp live/blobs/ns/ab/y.sj1 cut/blobs/ns/ab/
printf 'blobs/ns/ab/x.sj1\nblobs/ns/ab/y.sj1\nblobs/ns/ab/z.sj1\n' >acked
: >verify.err
verdict() { # JSON RC [CHECKED]: the judge's line for that verify output
	echo "$1" >verify.json
	python3 "$judge" files "$PWD/live" "${3:-$PWD/cut}" verify.json verify.err "$2" 3 0 acked
}
x=$PWD/cut/blobs/ns/ab/x.sj1 y=$PWD/cut/blobs/ns/ab/y.sj1
v=$(verdict "{\"pieces\": 2, \"corrupt\": 1, \"missing\": 0, \"sound\": false, \"findings\": [{\"kind\": \"corrupt\", \"path\": \"$x\", \"why\": \"hash mismatch\"}]}" 1)
check "judge: the damaged piece reported corrupt is a right verdict; the piece gone is lost ($v)" \
	test "${v% }" = "verdict 2 1 1 0"
v=$(verdict '{"pieces": 2, "corrupt": 0, "missing": 0, "sound": true, "findings": []}' 0)
check "judge: a damaged piece not reported is a wrong verdict ($v)" grep -q "^verdict 2 0 1 1 1 damaged pieces not reported" <<<"$v"
v=$(verdict "{\"pieces\": 2, \"corrupt\": 2, \"missing\": 0, \"sound\": false, \"findings\": [{\"kind\": \"corrupt\", \"path\": \"$x\", \"why\": \"-\"}, {\"kind\": \"corrupt\", \"path\": \"$y\", \"why\": \"-\"}]}" 1)
check "judge: an intact piece reported corrupt is a wrong verdict ($v)" grep -q "^verdict 2 2 1 1 1 intact pieces reported corrupt" <<<"$v"
v=$(verdict '{"pieces": 2, "corrupt": 0, "missing": 0, "sound": false, "findings": []}' 0)
check "judge: exit 0 for a store verify calls unsound is a wrong verdict ($v)" grep -q "exit 0 but sound=False" <<<"$v"
v=$(verdict 'Segmentation fault' 139)
check "judge: no JSON is no verdict ($v)" grep -q "^noverdict verify's JSON cannot be read (exit 139)" <<<"$v"
echo "nodemark: pieces: verify: /x: not a piece store (no PIECES file)" >verify.err
v=$(verdict '' 2 "$PWD/gone")
check "judge: no store at all is a verdict: nothing found, every acknowledged piece lost ($v)" \
	test "${v% }" = "verdict 0 0 3 0"
v=$(verdict '' 2)
check "judge: a store with pieces that verify refuses is a wrong verdict ($v)" \
	grep -q "^verdict 0 0 3 1 2 piece files, verify counted 0" <<<"$v"

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null ||
	! losetup -f >/dev/null 2>&1; then
	skip "crash harness" "needs root, loop devices and mkfs.ext4"
	exit 0
fi
harness=$TESTS_DIR/../bench/crash_harness.sh
rows() { grep '^\(files\|log\)-' <<<"$1"; }
col() { awk -v c="$2" -v k="$1" '$1 " " $2 == k { print $c }' <<<"$3"; } # "CONFIG KIND" COLUMN OUTPUT

out=$(NODEMARK=$NM CRASH_KEEP=$PWD/kept "$harness" 2 files-sync-dirsync log-sync-batch 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$(rows "$out" | wc -l)" -eq 4 ]; then
	ok "crash harness: 2 rounds of kill and power cut, 2 configurations: 0 corrupt, 0 lost"
else
	not_ok "crash harness: 2 rounds of kill and power cut, 2 configurations: 0 corrupt, 0 lost" "exit $rc: $out"
fi
awk '$5 != 0 || $7 != 0 || $8 != 0 || $9 != 0 { bad = 1 } END { exit bad }' <<<"$(rows "$out")" &&
	ok "crash harness: no-verdict, corrupt, lost and wrong are 0 in every row" ||
	not_ok "crash harness: no-verdict, corrupt, lost and wrong are 0 in every row" "$out"
check "crash harness: every power cut is judged as promising durability" \
	test "$(col "log-sync-batch powercut" 3 "$out")" = durable

# A fake nodemark whose `pieces verify` is changed by $1 (crash, drop, unnamed); the rest is real.
cat >fake.sh <<EOF
#!/usr/bin/env bash
[ "\$FAKE \$1" = "runfail pieces" ] && [ "\$2" != verify ] && exit 1
[ "\$1 \$2" = "pieces verify" ] || exec "$NM" "\$@"
case \$FAKE in
crash) kill -SEGV \$\$ ;;
drop) "$NM" "\$@" | python3 -c 'import json,sys; j=json.load(sys.stdin); j["pieces"]=0; j["ok"]=0; print(json.dumps(j))' ;;
unnamed) "$NM" "\$@" | python3 -c 'import json,sys; j=json.load(sys.stdin); j["corrupt"]+=1; print(json.dumps(j))' ;;
esac
EOF
chmod +x fake.sh

out=$(FAKE=crash NODEMARK=$PWD/fake.sh CRASH_KEEP=$PWD/kept-crash CRASH_KINDS=kill "$harness" 1 files-nosync 2>&1)
rc=$?
check "crash harness: a verify that crashes fails the run" test "$rc" -eq 1
check "crash harness: its round is counted as without a verdict" test "$(col "files-nosync kill" 5 "$out")" = 1
check "crash harness: and not as pieces lost" test "$(col "files-nosync kill" 8 "$out")" = 0
check "crash harness: the row says NO VERDICT" grep -q "NO VERDICT (1 rounds)" <<<"$out"
check "crash harness: the round's logs are kept, with why" grep -q "no verdict" kept-crash/files-nosync-kill-1/why

out=$(FAKE=drop NODEMARK=$PWD/fake.sh CRASH_KEEP=$PWD/kept-drop CRASH_KINDS=kill "$harness" 1 files-nosync 2>&1)
rc=$?
check "crash harness: a verify that finds no piece of a kill round fails it" test "$rc" -eq 1
check "crash harness: the pieces count as lost" test "$(col "files-nosync kill" 8 "$out")" -gt 0
check "crash harness: the round is kept, with a copy of the store" test -d kept-drop/files-nosync-kill-1/store

out=$(FAKE=unnamed NODEMARK=$PWD/fake.sh CRASH_KEEP=$PWD/kept-unnamed CRASH_KINDS=kill "$harness" 1 files-nosync 2>&1)
rc=$?
check "crash harness: a corrupt count with no corrupt piece named is a wrong verdict" \
	test "$rc" -eq 1 -a "$(col "files-nosync kill" 9 "$out")" = 1

out=$(FAKE=runfail NODEMARK=$PWD/fake.sh CRASH_KEEP=$PWD/kept-runfail CRASH_KINDS=kill "$harness" 1 files-nosync 2>&1)
rc=$?
check "crash harness: a run that fails by itself is a round without a verdict" \
	test "$rc" -eq 1 -a "$(col "files-nosync kill" 5 "$out")" = 1
check "crash harness: and says so" grep -q "the run exited 1 by itself" kept-runfail/files-nosync-kill-1/why
