# Where disk and fio may write: only inside a private .nodemark-* directory they create (removed
# at the end, the user's files beside it untouched), or to a file or block device named again in
# --allow-write; never to a mounted device. Free space is checked first.
. "$TESTS_DIR/cli/lib.sh"

quick=(--size 1m --bs 4k --no-save)

# A directory target: the test files live in .nodemark-*, which goes away; the rest is untouched.
mkdir d
head -c 100000 /dev/urandom >d/user.dat
ln -s user.dat d/link
sum_before=$(md5sum d/user.dat)
for rw in write randwrite randread; do
	run_nm disk d --rw $rw "${quick[@]}"
	if [ "$rc" -eq 0 ] && [ "$(ls -A d | tr '\n' ' ')" = "link user.dat " ] && [ "$(md5sum d/user.dat)" = "$sum_before" ]; then
		ok "disk DIR --rw $rw: writes only its private directory, removed at the end"
	else
		not_ok "disk DIR --rw $rw: writes only its private directory" "exit $rc, left $(ls -A d): $err"
	fi
done
run_nm fio --name=j --directory=d --rw=randwrite --size=1m --bs=4k --no-save
if [ "$rc" -eq 0 ] && [ "$(ls -A d | tr '\n' ' ')" = "link user.dat " ] && [ "$(md5sum d/user.dat)" = "$sum_before" ]; then
	ok "fio --directory: writes only its private directory, removed at the end"
else
	not_ok "fio --directory: writes only its private directory" "exit $rc, left $(ls -A d): $err"
fi

# An existing file: read freely, written only when named again in --allow-write.
head -c 2000000 /dev/urandom >f.bin
sum=$(md5sum <f.bin)
for rw in write randwrite rw; do
	run_nm disk f.bin --rw $rw "${quick[@]}"
	expect_rc 2 "disk FILE --rw $rw without --allow-write is refused"
	one_line_error "disk FILE --rw $rw: one line"
	expect_err_has "--allow-write" "disk FILE --rw $rw: the error says how to allow it"
done
run_nm fio --name=j --filename=f.bin --rw=randrw --size=1m --bs=4k --no-save
expect_rc 2 "fio FILE --rw=randrw without --allow-write is refused"
one_line_error "fio FILE: one line"
expect_err_has "--allow-write=f.bin" "fio FILE: the error says how to allow it"
check "the refused file is untouched" test "$(md5sum <f.bin)" = "$sum"
run_nm disk f.bin --rw randread "${quick[@]}"
expect_rc 0 "disk FILE --rw randread needs no --allow-write"
check "reading leaves the file untouched" test "$(md5sum <f.bin)" = "$sum"
run_nm disk f.bin --rw write --allow-write other.bin "${quick[@]}"
expect_rc 2 "--allow-write of another path does not allow the target"
ln -s f.bin link-to-f
run_nm disk link-to-f --rw write "${quick[@]}"
expect_rc 2 "a symlink to an existing file is not written without --allow-write"
check "the file behind the symlink is untouched" test "$(md5sum <f.bin)" = "$sum"
run_nm disk f.bin --rw write --allow-write f.bin "${quick[@]}"
expect_rc 0 "disk FILE --rw write --allow-write FILE writes it"

# Free space: a run that would leave less than the reserve is refused with the amounts.
run_nm disk d --rw write --size 1EiB --bs 4k --no-save
expect_rc 2 "disk: a size beyond the free space is refused"
expect_err_has "not enough free space: needs 1.00 EiB plus" "disk: the refusal says what is needed"
check "disk: the refusal leaves nothing" test "$(ls -A d | tr '\n' ' ')" = "link user.dat "

# Block devices, on a loop device where the machine allows one.
truncate -s 64M img
dev=$(losetup -f --show img 2>/dev/null)
if [ -z "$dev" ]; then
	skip "block devices" "no loop device here"
	exit 0
fi
trap 'umount mnt 2>/dev/null; losetup -d "$dev" 2>/dev/null' EXIT
head -c 4M /dev/urandom | dd of="$dev" bs=1M conv=notrunc,fsync 2>/dev/null
sum=$(head -c 4M "$dev" | md5sum)
run_nm disk "$dev" --rw write "${quick[@]}"
expect_rc 2 "a block device is not written without --allow-write"
run_nm disk "$dev" --rw randwrite --allow-write /dev/null "${quick[@]}"
expect_rc 2 "--allow-write must name the device itself"
run_nm fio --name=j --filename="$dev" --rw=write --size=1m --bs=4k --no-save
expect_rc 2 "fio: a block device is not written without --allow-write"
expect_err_has "only read" "fio: the refusal says why"
expect_err_has "--allow-write=$dev" "fio: and how to allow it"
one_line_error "fio: the block device refusal is one line"
check "the refused device is untouched" test "$(head -c 4M "$dev" | md5sum)" = "$sum"
run_nm disk "$dev" --rw randread "${quick[@]}"
expect_rc 0 "a block device is read without --allow-write"
run_nm disk "$dev" --rw write --allow-write "$dev" "${quick[@]}"
expect_rc 0 "disk DEV --allow-write DEV writes it"
check "and it was written" test "$(head -c 4M "$dev" | md5sum)" != "$sum"

if mkfs.ext4 -q "$dev" 2>/dev/null && mkdir -p mnt && mount "$dev" mnt 2>/dev/null; then
	echo precious >mnt/data.txt
	sync
	run_nm disk "$dev" --rw write --allow-write "$dev" "${quick[@]}"
	expect_rc 2 "a mounted device is never written, even with --allow-write"
	expect_err_has "mounted" "the refusal says it is mounted"
	run_nm fio --name=j --filename="$dev" --rw=write --size=1m --bs=4k --no-save --allow-write="$dev"
	expect_rc 2 "fio: a mounted device is never written"
	expect_err_has "mounted" "fio: the refusal says it is mounted"
	check "the mounted file system is intact" grep -qx precious mnt/data.txt
else
	skip "mounted device" "cannot mount here"
fi
