# pieces verify on hand-made damage: one row per kind of damage, both backends. Each row damages
# a copy of a small kept store, then checks verify's verdict (exit code and the JSON counts),
# that --repair fixes what it can, and that nothing outside the store is ever touched: the
# user's directory U (the target of the planted links) is the same after every row.
. "$TESTS_DIR/cli/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/nm-damage.XXXXXX")
mkfifo "$work/fifo-probe" 2>/dev/null
trap 'rm -rf "$work"' EXIT
U=$work/U
mkdir -p "$U/sub" && echo "the user's data" >"$U/keep.txt" && echo more >"$U/sub/more.txt"
u_sum() { (cd "$U" && find . -printf '%p %s %y\n' | sort && cat keep.txt sub/more.txt) | md5sum; }
u_before=$(u_sum)

make_store() { # NAME BACKEND HASH: a kept store of 6 pieces in $work/NAME.orig
	mkdir -p "$work/$1.orig"
	"$NM" pieces "$work/$1.orig" --backend "$2" --hash "$3" --count 6 --size 20000 --block 4096 --sync \
		--keep --no-save >/dev/null 2>&1 || not_ok "a $2 store is made" "pieces exited $?"
}
make_store files files blake3
make_store log log blake3
make_store none files none
make_store lognone log none

# Python helpers on a store S: pieces (sorted), index records (slot, bytes), CRC-32C.
py() { python3 - "$S" "$@" <<'PY'
import glob, os, struct, sys
S, op, args = sys.argv[1], sys.argv[2], sys.argv[3:]
def crc32c(b):
    c = 0xffffffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    return c ^ 0xffffffff
blobs = sorted(glob.glob(S + "/blobs/*/*/*.sj1"))
idx = S + "/log/w000/index.tbl"
def records():
    out = []
    with open(idx, "rb") as f:
        data = f.read()
    for off in range(64, len(data), 64):
        if any(data[off:off + 64]):
            out.append(off)
    return data, out
if op == "blob":
    print(blobs[int(args[0])])
elif op == "swap-names":
    a, b = blobs[0], blobs[1]
    os.rename(a, a + ".x"); os.rename(b, a); os.rename(a + ".x", b)
elif op == "zero-record" or op == "swap-ids":
    data, recs = records()
    data = bytearray(data)
    if op == "zero-record":
        o = recs[int(args[0])] if args[0] != "last" else max(recs, key=lambda r: data[r + 40:r + 48][::-1])
        data[o:o + 64] = bytes(64)
    else:
        a, b = recs[0], recs[1]
        ida, idb = data[a:a + 32], data[b:b + 32]
        data[a:a + 32], data[b:b + 32] = idb, ida
        for o in (a, b):
            data[o + 60:o + 64] = struct.pack("<I", crc32c(bytes(data[o:o + 60])))
    with open(idx, "r+b") as f:
        f.write(data)
elif op == "flip":
    path, off = args[0], int(args[1])
    with open(path, "r+b") as f:
        f.seek(off); b = f.read(1); f.seek(off); f.write(bytes([b[0] ^ 0x55]))
PY
}
flip() { py flip "$1" "$2"; }
LOG=log/w000/log-00000000.log

# Row: NAME | STORE | DAMAGE (shell, in the store S) | EXIT | CHECK on verify's JSON j | EXIT after --repair
rows=$(cat <<'ROWS'
sound files store | files | : | 0 | j["ok"] == 6 and j["sound"] | 0
flipped data byte | files | flip "$(py blob 0)" 3000 | 1 | j["corrupt"] == 1 and j["ok"] == 5 | 1
flipped header byte | files | flip "$(py blob 1)" 30 | 1 | j["corrupt"] == 1 | 1
zeroed header | files | dd if=/dev/zero of="$(py blob 2)" bs=512 count=1 conv=notrunc status=none | 1 | j["corrupt"] == 1 | 1
truncated piece | files | truncate -s 10000 "$(py blob 0)" | 1 | j["corrupt"] == 1 | 1
a byte appended to a piece | files | printf x >>"$(py blob 0)" | 1 | j["corrupt"] == 1 | 1
empty piece file | files | : >"$(py blob 3)" | 1 | j["corrupt"] == 1 | 1
deleted piece | files | rm "$(py blob 0)" | 1 | j["missing"] == 1 and j["ok"] == 5 | 1
two swapped piece names | files | py swap-names | 1 | j["corrupt"] == 2 and j["ok"] == 4 | 1
piece renamed out of base32 | files | b=$(py blob 0); mv "$b" "${b%/*}/0000000000000000000000000000000000000000000000000.sj1" | 1 | j["corrupt"] == 1 | 1
leftover temp file | files | echo x >temp/blob-0123.partial | 0 | j["temp_files"] == 1 and j["sound"] | 0
temp/ is a link to the user's directory | files | rm -r temp && ln -s "$U" temp | 1 | j["left_alone"] == 1 and j["temp_files"] == 0 | 1
a temp link to the user's file | files | ln -s "$U/keep.txt" temp/blob-1.partial | 1 | j["left_alone"] == 1 and j["temp_files"] == 0 | 1
a FIFO in temp/ | files | mkfifo temp/blob-2.partial | 1 | j["left_alone"] == 1 | 1
a piece replaced by a link to the user's file | files | b=$(py blob 0); rm "$b"; ln -s "$U/keep.txt" "$b" | 1 | j["left_alone"] == 1 and j["missing"] == 1 | 1
a piece directory linked to the user's | files | d=$(dirname "$(py blob 0)"); mv "$d" "$d.gone"; ln -s "$U" "$d"; rm -r "$d.gone" | 1 | j["left_alone"] >= 1 and j["missing"] >= 1 | 1
no hash, data damaged | none | flip "$(py blob 0)" 3000 | 0 | j["unverified"] == 6 and j["ok"] == 0 | 0
no hash, piece truncated | none | truncate -s 10000 "$(py blob 0)" | 1 | j["corrupt"] == 1 and j["unverified"] == 5 | 1
sound log store | log | : | 0 | j["ok"] == 6 and j["sound"] | 0
flipped log data byte | log | flip $LOG 3000 | 1 | j["corrupt"] == 1 and j["ok"] == 5 | 1
flipped footer byte | log | flip $LOG 20010 | 1 | j["corrupt"] == 1 | 1
zeroed index record | log | py zero-record 2 | 1 | j["unindexed"] == 1 and j["ok"] == 6 and j["corrupt"] == 0 | 0
zeroed index record of the last piece | log | py zero-record last | 1 | j["unindexed"] == 1 and j["ok"] == 6 | 0
index deleted | log | rm log/w000/index.tbl | 1 | j["unindexed"] == 6 and j["ok"] == 6 | 0
index header damaged | log | flip log/w000/index.tbl 9 | 1 | j["unindexed"] == 6 and j["bad_index_records"] == 1 | 0
two swapped ids in the index | log | py swap-ids | 1 | j["corrupt"] == 2 | 1
garbage appended to the log | log | printf garbage >>$LOG | 0 | j["tail_bytes"] == 7 and j["sound"] | 0
log cut inside the last piece | log | truncate -s 110000 $LOG | 1 | j["corrupt"] == 1 and j["ok"] == 5 | 1
log deleted | log | rm $LOG | 1 | j["corrupt"] == 6 | 1
log is a link to the user's file | log | rm $LOG && ln -s "$U/keep.txt" $LOG | 1 | j["left_alone"] == 1 and j["corrupt"] == 6 | 1
shard is a link to the user's directory | log | rm -r log/w000 && ln -s "$U" log/w000 | 1 | j["left_alone"] == 1 | 1
no hash, log data damaged | lognone | flip $LOG 3000 | 0 | j["unverified"] == 6 and j["ok"] == 0 | 0
a copied log file (every piece twice) | log | cp $LOG log/w000/log-00000001.log | 1 | j["duplicates"] == 6 and j["ok"] == 6 and j["unindexed"] == 0 and j["reindexed"] == 0 | 1
PIECES marker deleted | files | rm PIECES | 1 | j["no_marker_stores"] == 1 and j["stores"] == 1 and j["ok"] == 6 | 1
PIECES marker deleted and a piece damaged | files | rm PIECES; flip "$(py blob 0)" 3000 | 1 | j["no_marker_stores"] == 1 and j["corrupt"] == 1 and j["ok"] == 5 | 1
PIECES marker deleted | log | rm PIECES | 1 | j["no_marker_stores"] == 1 and j["ok"] == 6 | 1
ROWS
)

n=0
while IFS='|' read -r name store damage want check want_repaired; do
	name=$(echo $name) store=$(echo $store) want=$(echo $want) want_repaired=$(echo $want_repaired)
	n=$((n + 1))
	copy=$work/case$n
	cp -a "$work/$store.orig" "$copy"
	S=$(ls -d "$copy"/.nodemark-*)
	(cd "$S" && eval "$damage") || not_ok "$name: the damage is made" "$damage"
	run_nm pieces verify "$S" --json
	if [ "$rc" -ne "$want" ]; then
		not_ok "$name: verify exits $want" "exit $rc: ${out:0:600} ${err:0:300}"
	elif ! python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); sys.exit(0 if eval(sys.argv[1]) else 1)' \
		"$check" <<<"$out"; then
		not_ok "$name: verify says $check" "${out:0:800}"
	else
		ok "$name: verify exits $want and says $check"
	fi
	run_nm pieces verify "$S" --repair --json
	run_nm pieces verify "$S" --json
	if [ "$rc" -ne "$want_repaired" ]; then
		not_ok "$name: after --repair verify exits $want_repaired" "exit $rc: ${out:0:600} ${err:0:300}"
	elif [ "$want_repaired" = 0 ] && [ "$(json_get 'j["temp_files"] + j["tail_bytes"]')" != 0 ]; then
		not_ok "$name: --repair removes the leftovers" "${out:0:400}"
	else
		ok "$name: after --repair verify exits $want_repaired"
	fi
	[ "$(u_sum)" = "$u_before" ] || not_ok "$name: the user's directory is untouched" "$(ls -lR "$U")"
	rm -rf "$copy"
done <<<"$rows"
check "every damage case ran ($n)" test "$n" -ge 28
[ "$(u_sum)" = "$u_before" ] && ok "the user's directory the links point at is untouched by every row"
