# nodemark info's hw.sh block (issue 31 item 4): VENDOR, MEMORY, CPUs and DISKS as lsblk's tree
# with TYPE and REV in aligned columns, on three fixture machines and on this one with a loop
# device; the kernel's command line only under --verbose and --json; ZFS properties by name.
. "$TESTS_DIR/cli/lib.sh"
FX="$TESTS_DIR/fixtures"
scratch_dir

# disks_check NAME TYPES: the DISKS table in $out has every column of its header line up (a
# cell starts where its heading starts, SIZE ends where its heading ends, a blank before each)
# and TYPE reads TYPES (space-separated, row by row).
disks_check() {
    printf '%s\n' "$out" >disks.txt
    python3 - "$T" "$1" "$2" disks.txt <<'EOF'
import sys
t, name, types, path = sys.argv[1:]
lines = open(path, encoding="utf-8").read().split("\n")
i = lines.index("DISKS")
head = lines[i + 1]
rows = []
for l in lines[i + 2:]:
    if not l.startswith("  "):
        break
    rows.append(l)
cols = ["NAME", "SIZE", "TYPE", "FSTYPE", "MOUNTPOINT", "VENDOR", "MODEL", "REV"]
start = {c: head.index(c) for c in cols}
bad = []
if [c for c in cols if start[c] < 0] or sorted(start.values()) != [start[c] for c in cols]:
    bad.append("header " + head)
size_end = start["SIZE"] + len("SIZE")
got = []
for r in rows:
    if len(r) > size_end and (r[size_end - 1] == " " or r[size_end] != " "):
        bad.append("SIZE not right-aligned: " + r)
    for c in cols[2:]:
        s = start[c]
        if len(r) > s and r[s - 1] != " ":
            bad.append("%s not at column %d: %s" % (c, s, r))
    got.append(r[start["TYPE"]:start["FSTYPE"]].strip())
if " ".join(got) != types:
    bad.append("TYPE column %s, expected %s" % (" ".join(got), types))
print(("PASS: %s: %s: DISKS has TYPE (%s) and aligned columns" if not bad else
       "FAIL: %s: %s: DISKS has TYPE (%s) and aligned columns\n    " + "\n    ".join(bad)) % (t, name, types))
EOF
}

# --- three machines: LUKS root on NVMe beside md raid1; two disks in md raid1; GCE PD ----------
run_nm info --sysroot "$FX/sysroot-desktop-md-raid1-luks"
expect_rc 0 "desktop: info exits 0"
disks_check "desktop (LUKS on NVMe, md raid1)" "disk part part part crypt disk part raid1 disk part raid1"
expect_out_matches '^  NAME +SIZE TYPE +FSTYPE +MOUNTPOINT VENDOR MODEL +REV$' "desktop: lsblk's headings and REV"
expect_out_matches '^    └─root +930G crypt ext4 +/$' "desktop: the LUKS root by its mapper name, TYPE crypt"
expect_out_matches '^    └─md0 +3\.6T raid1 ext4 +/data$' "desktop: md0 is TYPE raid1 (its level)"
expect_out_matches '^  nvme0n1 +932G disk .*Samsung SSD 970 EVO Plus 1TB 2B2QEXM7$' "desktop: NVMe firmware revision (firmware_rev)"
expect_out_matches '^  sda .*ATA +WDC WD40EFRX-68N32N0 +82\.00A82$' "desktop: SATA firmware revision (rev)"
expect_out_has "MEMORY   62 GiB, 4 x DDR4, rated 3600 MT/s, configured 3600 MT/s" "desktop: modules, rated and configured speed"
expect_out_has "CPUs     AMD Ryzen 9 5950X 16-Core Processor, max 3500 MHz, 16 cores, 32 threads" "desktop: CPUs with max speed, cores, threads"

run_nm info --sysroot "$FX/sysroot-server-md-raid1-toshiba"
disks_check "server (two disks in md raid1)" "disk part raid1 disk part raid1"
expect_out_matches '^    └─md0 +14\.6T raid1 ext4 +/$' "server: md0 raid1 on / under both disks"
expect_out_matches '^MEMORY   31 GiB, modules unknown: ' "server: no SMBIOS table: modules unknown, no speed invented"

run_nm info --sysroot "$FX/sysroot-gce-vm"
disks_check "GCE persistent disk" "disk part part"
expect_out_matches '^  sda +100G disk +Google PersistentDisk 1$' "gce: vendor, model and rev of the persistent disk"
expect_out_matches '^MEMORY   15 GiB, modules unknown: ' "gce: modules unknown"

# DIMMs whose configured speed is below their rating (udev's record)
run_nm info --sysroot "$FX/sysroot-nvme-pcie4"
expect_out_has "2 x DDR4, rated 3200 MT/s, configured 2933 MT/s" "nvme-pcie4: rated 3200, configured 2933"

# a long mount point widens its column; the rest of each row stays in line
cp -a "$FX/sysroot-gce-vm" gce
sed -i 's| /boot/efi | /srv/a/rather/long/mount/point/for/piece/storage/shard-0001 |' gce/proc/self/mountinfo
run_nm info --sysroot "$PWD/gce"
disks_check "GCE with a long mount point" "disk part part"
expect_out_has "/srv/a/rather/long/mount/point/for/piece/storage/shard-0001" "the long mount point is printed whole"

# --- the kernel: one line; the command line under --verbose and --json ----------------------
run_nm info --sysroot "$FX/sysroot-gce-vm"
expect_out_matches '^  kernel +6\.5\.0-1017-gcp, command line of 4 words$' "kernel: one line, the release and the command line's length"
[[ $out != *"console=ttyS0"* ]] && ok "the command line is left out by default" || not_ok "the command line is left out by default"
run_nm info --sysroot "$FX/sysroot-gce-vm" --verbose
expect_out_matches '^  command line +BOOT_IMAGE=/boot/vmlinuz-6\.5\.0-1017-gcp root=PARTUUID=9a2b ro console=ttyS0$' "--verbose prints the whole command line"
run_nm info --sysroot "$FX/sysroot-gce-vm" --json
[ "$(json_get 'j["os"]["cmdline"]')" = "BOOT_IMAGE=/boot/vmlinuz-6.5.0-1017-gcp root=PARTUUID=9a2b ro console=ttyS0" ] &&
    ok "--json has the whole command line" || not_ok "--json has the whole command line" "${out:0:300}"
cp -a "$FX/sysroot-gce-vm" tuned
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro mitigations=off isolcpus=2-3 quiet" >tuned/proc/cmdline
run_nm info --sysroot "$PWD/tuned"
expect_out_matches '^  kernel +6\.5\.0-1017-gcp, command line of 6 words: mitigations=off isolcpus=2-3$' "kernel line names the parameters that change a benchmark"

# --- ZFS properties by name --------------------------------------------------------------
run_nm info --sysroot "$FX/sysroot-zfs-990pro" --path /tank/db
expect_out_matches '^  ZFS dataset +tank/db: recordsize 32\.0 KiB, compression lz4, atime off, sync standard, primarycache all ' "ZFS dataset: each property by its name"
expect_out_matches '^  ZFS pool +tank: health ONLINE, layout 1 disk, ashift 12$' "ZFS pool: health, layout, ashift by name"
# the pool's partition: nothing mounts it by its number, so FSTYPE is udev's probe (lsblk's)
disks_check "ZFS on a 990 PRO" "disk part part part"
expect_out_matches '^  └─nvme0n1p3 +1\.7T part zfs_member *($| )' "ZFS: the pool's partition is FSTYPE zfs_member (udev's ID_FS_TYPE)"
expect_out_matches '^  ├─nvme0n1p1 +512M part vfat +/boot/efi' "ZFS: a mounted partition keeps its mount's fstype"

# --- this machine: a loop device shows its backing file -----------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
    skip "loop device's backing file" "needs root and losetup"
else
    truncate -s 16M "$PWD/backing file.img"
    loopdev=$(losetup -f --show "$PWD/backing file.img" 2>/dev/null)
    if [ -z "$loopdev" ]; then
        skip "loop device's backing file" "losetup could not attach a file"
    else
        at_exit "losetup -d $loopdev"
        name=${loopdev#/dev/}
        run_nm info
        expect_out_matches "^  $name +16M loop .* file $PWD/backing file\\.img\$" "$name: TYPE loop, its backing file in MODEL"
        run_nm info --json
        [ "$(json_get "[d.get('backing_file') for d in j['storage']['devices'] if d['name'] == '$name'][0]")" = "$PWD/backing file.img" ] &&
            ok "--json: backing_file of $name" || not_ok "--json: backing_file of $name" "${out:0:300}"
    fi
fi
