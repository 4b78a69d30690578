# nodemark info: the real machine, bad input, --output, and the fixture machines.
. "$TESTS_DIR/cli/lib.sh"
FX="$TESTS_DIR/fixtures"

# json_checks: reads "what<TAB>python expression on j" lines on stdin and checks them all
# against the JSON in $out with one python process (python starts slowly on a loaded machine).
json_checks() {
    local f
    f=$(mktemp)
    printf '%s' "$out" >"$f"
    python3 -c '
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    j = None
for line in sys.stdin:
    what, _, expr = line.rstrip("\n").partition("\t")
    try:
        good = j is not None and eval(expr) is True
    except Exception as e:
        good = False
    print(("PASS: %s: %s" if good else "FAIL: %s: %s\n    " + expr) % (sys.argv[2], what))
' "$f" "$T"
    rm -f "$f"
}

# --- the real machine ---------------------------------------------------------------
run_nm info
expect_rc 0 "info exits 0"
expect_out_matches '^[0-9]+(x [0-9]+)?-core.*, [0-9]+ [GM]iB RAM, .*Linux [0-9]+\.[0-9]+$' "first line is the summary"
for s in CPU Memory OS Storage "Path ."; do expect_out_has "$s" "text has the $s section"; done

run_nm info --json
expect_rc 0 "info --json exits 0"
memkb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
# "." is on the device stat names; in a chroot no line of our mountinfo has it (the chroot's
# root is no mount point in its own view), and PID 1's view names its file system.
devno=$(stat -c '%Hd:%Ld' .)
fs_of() { awk -v d="$devno" '$3 == d { for (i = 7; $i != "-"; i++); print $(i + 1); exit }' "$1"; }
if [ -n "$(fs_of /proc/self/mountinfo)" ]; then
    fstype=$(findmnt -n -o FSTYPE -T . 2>/dev/null || stat -f -c %T .)
    target=$(findmnt -n -o TARGET -T . 2>/dev/null || df --output=target . | tail -1)
    mount_checks="path fstype = findmnt	j['path']['fstype'] == '$fstype'
path mount point = findmnt	j['path']['mountpoint'] == '$target'
path mount listed	'note' not in j['path']"
else
    mount_checks="unlisted mount: a note, no error	j['path']['mount_visible'] is False and 'error' not in j['path'] and '$devno' in j['path']['note']
unlisted mount: point = stat %m	j['path']['mountpoint'] == '$(stat -c %m .)'
unlisted mount: fstype = PID 1's mountinfo	j['path']['fstype'] == '$(fs_of /proc/1/mountinfo 2>/dev/null || stat -f -c %T .)'
unlisted mount: device = /sys/dev/block/$devno	j['path'].get('device', '') == '$(basename "$(readlink /sys/dev/block/"$devno" 2>/dev/null)" 2>/dev/null)'"
fi
json_checks <<EOT
--json has every section	all(k in j for k in ("cpu", "memory", "os", "storage", "path", "summary"))
cpu threads = nproc --all	j["cpu"]["threads"] == $(nproc --all)
memory total = /proc/meminfo	j["memory"]["total"] == $((memkb * 1024))
kernel = uname -r	j["os"]["kernel"] == "$(uname -r)"
$mount_checks
device sizes = /sys/block/*/size	all(d["size"] == int(open("/sys/block/%s/size" % d["name"]).read()) * 512 for d in j["storage"]["devices"])
vda (when present) is virtio	all(d["transport"] == "virtio" for d in j["storage"]["devices"] if d["name"].startswith("vd"))
no serials by default	'"serial"' not in json.dumps(j)
every section says its source	all("source" in j[k] for k in ("cpu", "memory", "os", "storage", "path"))
EOT

# --- bad input: one line, exit 2 ----------------------------------------------------
run_nm info --path /definitely/not/here
expect_rc 2 "--path that does not exist exits 2"
one_line_error "--path that does not exist is one line"
expect_err_has "/definitely/not/here" "the message names the path"
run_nm info --jsn
expect_rc 2 "unknown option exits 2"
one_line_error "unknown option is one line"
expect_err_has "--json" "unknown option suggests --json"
run_nm info somewhere
expect_rc 2 "a stray argument exits 2"
one_line_error "a stray argument is one line"
run_nm info --sysroot /definitely/not/here
expect_rc 2 "--sysroot that does not exist exits 2"
one_line_error "--sysroot that does not exist is one line"
run_nm info --path
expect_rc 2 "--path without a value exits 2"
run_nm info --help
expect_rc 0 "--help exits 0"
for o in --json --path --serials --sysroot --output; do expect_out_has "$o" "usage names $o"; done

# --- --output -------------------------------------------------------------------------
run_nm info --json --output inv.json
expect_rc 0 "--output exits 0"
[ -z "$out" ] && ok "--output leaves stdout empty" || not_ok "--output leaves stdout empty"
out=$(cat inv.json)
json_checks <<EOT
--output wrote the inventory JSON	j["summary"].startswith(j["summary"].split("-core")[0]) and "path" in j
EOT
ls -a | grep -q '\.tmp\|~' && not_ok "no temp file left" "$(ls -a)" || ok "no temp file left"
run_nm info --output no/such/dir/inv.txt
expect_rc 2 "--output into a missing directory is refused while reading the options (exit 2)"
one_line_error "--output failure is one line"

# --- the fixture machines --------------------------------------------------------------
summary_is() { # fixture path expected
    run_nm info --sysroot "$FX/sysroot-$1" --path "$2"
    local first=${out%%$'\n'*}
    [ "$rc" -eq 0 ] && [ "$first" = "$3" ] && ok "$1: summary" || not_ok "$1: summary" "rc=$rc got: $first"
}
summary_is nvme-pcie4 / "4-core/8-thread Intel Xeon E-2388G, 62 GiB RAM, NVMe 1.8 TiB ext4, Ubuntu 22.04, Linux 5.15"
summary_is md-raid0-nvme /data/chain "2x 4-core AMD EPYC 7543, 251 GiB RAM, 16x NVMe RAID0 56 TiB xfs, Debian 12, Linux 6.1"
summary_is dm-crypt-nvme /home/me "4-core/8-thread 11th Gen Intel Core i7-1165G7, 15 GiB RAM, NVMe dm-crypt 475 GiB ext4, Fedora 39, Linux 6.5"
summary_is sata-md-raid1 /srv "4-core/8-thread Intel Xeon E3-1230 v6, 31 GiB RAM, 2x SATA HDD RAID1 3.6 TiB ext4, Rocky 9.3, Linux 5.14"

# (a) NVMe on PCIe 4.0 x4
run_nm info --json --sysroot "$FX/sysroot-nvme-pcie4"
json_checks <<EOT
a: PCIe 4.0 x4 of max 4.0 x4	j["storage"]["devices"][0]["pcie"] == {"gen": 4, "width": 4, "max_gen": 4, "max_width": 4}
a: model and firmware	(j["storage"]["devices"][0]["model"], j["storage"]["devices"][0]["firmware"]) == ("Samsung SSD 980 PRO 2TB", "5B2QGXA7")
a: stack is the partition	j["path"]["stack"]["name"] == "nvme0n1p2" and j["path"]["physical"] == ["nvme0n1"]
a: NUMA node of the disk	j["path"]["numa_node"] == 0
a: DIMMs from udev	j["memory"]["dimms"] == {"type": "DDR4", "speed_mts": 3200, "configured_mts": 2933, "modules": 2, "source": "/run/udev/data/+dmi:id"}
a: caches per level with sharing	[(c["level"], c["type"], c["size"], c["shared_by"]) for c in j["cpu"]["caches"]][3] == (3, "Unified", 12582912, 8)
a: ISA flags	j["cpu"]["isa"] == ["sse4.2", "avx2", "avx512f", "sha_ni", "aes"]
a: governor and SMT	j["cpu"]["frequency"]["governor"] == "performance" and j["cpu"]["smt"] == "on"
a: bare metal, DMI vendor	j["os"]["virtualization"]["type"] == "none" and j["os"]["dmi"]["sys_vendor"] == "Supermicro"
a: no serial without --serials	"serial" not in j["storage"]["devices"][0]
EOT
run_nm info --json --serials --sysroot "$FX/sysroot-nvme-pcie4"
json_checks <<EOT
a: --serials shows the serial	j["storage"]["devices"][0]["serial"] == "S6B0NL0T912345"
EOT
# (b) md RAID0 of 16 NVMe, 128 KiB chunk, xfs
run_nm info --json --sysroot "$FX/sysroot-md-raid0-nvme" --path /data
json_checks <<EOT
b: xfs on md0	j["path"]["fstype"] == "xfs" and j["path"]["device"] == "md0"
b: raid0, 128 KiB chunk, 16 members	(j["path"]["stack"]["level"], j["path"]["stack"]["chunk"], j["path"]["stack"]["raid_disks"], len(j["path"]["stack"]["slaves"])) == ("raid0", 131072, 16, 16)
b: members are NVMe disks	all(m["transport"] == "nvme" and m["type"] == "disk" for m in j["path"]["stack"]["slaves"])
b: two NUMA nodes	[n["cpus"] for n in j["memory"]["numa_nodes"]] == ["0-3", "4-7"]
b: members on both nodes: no single node	"numa_node" not in j["path"]
b: DIMMs from SMBIOS	(j["memory"]["dimms"]["modules"], j["memory"]["dimms"]["type"]) == (4, "DDR4")
b: 2 sockets, 8 cores	(j["cpu"]["sockets"], j["cpu"]["cores"], j["cpu"]["threads"]) == (2, 8, 8)
EOT
# (c) dm-crypt over an NVMe partition, ext4
run_nm info --json --sysroot "$FX/sysroot-dm-crypt-nvme"
json_checks <<EOT
c: crypt named by its uuid prefix	j["path"]["stack"]["type"] == "crypt" and j["path"]["stack"]["dm_name"].startswith("luks-")
c: over nvme0n1p3 of nvme0n1	(j["path"]["stack"]["slaves"][0]["name"], j["path"]["stack"]["slaves"][0]["disk"]) == ("nvme0n1p3", "nvme0n1")
c: PCIe 3.0	[d["pcie"]["gen"] for d in j["storage"]["devices"] if d["name"] == "nvme0n1"] == [3]
c: no uuid without --serials	"uuid" not in j["path"]["stack"]
EOT
# (d) SATA HDDs in md RAID1
run_nm info --json --sysroot "$FX/sysroot-sata-md-raid1" --path /srv
json_checks <<EOT
d: raid1 of sda1 and sdb1	j["path"]["stack"]["level"] == "raid1" and [m["name"] for m in j["path"]["stack"]["slaves"]] == ["sda1", "sdb1"]
d: rotational SATA	j["path"]["rotational"] is True and j["path"]["transport"] == "sata"
d: physical disks	j["path"]["physical"] == ["sda", "sdb"]
EOT
# (e) a chroot whose root is not in its own mountinfo: a note, not a failure
run_nm info --sysroot "$FX/sysroot-chroot-virtio" --path /root/project
expect_rc 0 "chroot fixture: a mount that cannot be seen is no failure"
expect_out_has "note             no mount in /proc/self/mountinfo holds this path" "chroot fixture: the text says the mount cannot be seen"
# the environment variable does what --sysroot does
out=$(NODEMARK_SYSROOT="$FX/sysroot-sata-md-raid1" "$NM" info | head -1)
[[ $out == *"2x SATA HDD RAID1"* ]] && ok "NODEMARK_SYSROOT selects the fake machine" ||
    not_ok "NODEMARK_SYSROOT selects the fake machine" "$out"
# the text shows the stack
run_nm info --sysroot "$FX/sysroot-md-raid0-nvme" --path /data
expect_out_has "md raid0, chunk 128 KiB, 16 disks" "text shows the md layer"
expect_out_has "PCIe 4.0 x4 (max 4.0 x4)" "text shows the PCIe link"

# --- info --diff: two runs saved on a fixture machine, the second after a change ----------
# The ZFS machine, its dataset tank/db mounted on "/" (where "." lies under a sysroot).
cp -a "$FX/sysroot-zfs-990pro" m
printf '22 1 0:53 / / rw,noatime shared:1 - zfs tank/db rw,xattr,noacl\n' >m/proc/self/mountinfo
NODEMARK_SYSROOT="$PWD/m" "$NM" time -r 2 --label diff-a -- true >/dev/null 2>&1
# a kernel update, an NVMe firmware update, recordsize 32k -> 128k
echo 6.5.0-9-generic >m/proc/sys/kernel/osrelease
echo 5B2QJXD7 >m/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/firmware_rev
sed -i 's/recordsize\t32768/recordsize\t131072/' m/usr/sbin/zfs
NODEMARK_SYSROOT="$PWD/m" "$NM" time -r 2 --label diff-b -- true >/dev/null 2>&1
id_of() { "$NM" runs --label "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])'; }
a=$(id_of diff-a) b=$(id_of diff-b)
run_nm info --diff "$a" "$b" --json
expect_rc 0 "--diff exits 0"
json_checks <<EOT
--diff names exactly the kernel, the firmware and the recordsize	sorted(c["key"] for c in j["changes"]) == ["os.kernel", "path.zfs.recordsize", "storage.devices[nvme0n1].firmware"]
--diff: kernel before and after	[(c["a"], c["b"]) for c in j["changes"] if c["key"] == "os.kernel"] == [("5.15.0-91-generic", "6.5.0-9-generic")]
--diff: firmware before and after	[(c["what"], c["a"], c["b"]) for c in j["changes"] if "firmware" in c["key"]] == [("nvme0n1 firmware", "4B2QJXD7", "5B2QJXD7")]
--diff: recordsize before and after	[(c["what"], c["a"], c["b"]) for c in j["changes"] if "recordsize" in c["key"]] == [("ZFS recordsize", 32768, 131072)]
--diff: the runs	(j["a"], j["b"]) == ("$a", "$b")
EOT
run_nm info --diff "$a" "$b"
expect_rc 0 "--diff text exits 0"
expect_out_has "What changed from $a to $b" "--diff text names the runs"
expect_out_matches '^  kernel +5\.15\.0-91-generic -> 6\.5\.0-9-generic$' "--diff text: the kernel"
expect_out_matches '^  nvme0n1 firmware +4B2QJXD7 -> 5B2QJXD7$' "--diff text: the firmware"
expect_out_matches '^  ZFS recordsize +32768 -> 131072$' "--diff text: the recordsize"
[ "$(grep -c ' -> ' <<<"$out")" -eq 3 ] && ok "--diff text: three changes, no more" || not_ok "--diff text: three changes, no more" "$out"
run_nm info --diff "$a" "$a"
expect_out_has "  (none)" "--diff of a run with itself: nothing changed"
run_nm compare "$a" "$b"
expect_rc 0 "compare of the two runs exits 0"
expect_out_has "What changed from diff-a to diff-b" "compare shows what changed, by the runs' names"
expect_out_matches '^  ZFS recordsize +32768 -> 131072$' "compare: the recordsize change"
# the report shows the same changes: a "What changed" table in HTML, a block in Markdown
run_nm report "$a" "$b" --output diff.html
expect_rc 0 "report of the two runs exits 0"
if grep -q '<h2>What changed</h2>' diff.html && grep -q '<td>ZFS recordsize</td><td>32768</td><td>131072</td>' diff.html &&
    grep -q '<td>kernel</td><td>5.15.0-91-generic</td><td>6.5.0-9-generic</td>' diff.html; then
    ok "report (HTML) shows what changed: kernel and recordsize, before and after"
else
    not_ok "report (HTML) shows what changed: kernel and recordsize, before and after" "$(grep -o '<h2>What changed.*' diff.html | head -c 600)"
fi
# each machine's hw.sh block (DISKS with TYPE) above its JSON
if grep -q '^<pre class="inventory">VENDOR ' diff.html && grep -qE '^  nvme0n1 +1\.8T disk ' diff.html; then
    ok "report (HTML) shows the machine's hw.sh block"
else
    not_ok "report (HTML) shows the machine's hw.sh block" "$(grep -A8 'class="inventory"' diff.html | head -c 600)"
fi
run_nm report "$a" "$b" --format markdown -o -
grep -qE '^  NAME +SIZE TYPE ' <<<"$out" && grep -q '^  ````$' <<<"$out" && ok "report (Markdown) shows the hw.sh block in a code block" ||
    not_ok "report (Markdown) shows the hw.sh block in a code block" "${out:0:800}"
if grep -q '^## What changed from diff-a to diff-b' <<<"$out" && grep -qE '^  ZFS recordsize +32768 -> 131072$' <<<"$out"; then
    ok "report (Markdown) shows what changed"
else
    not_ok "report (Markdown) shows what changed" "${out: -600}"
fi
run_nm info --diff "$a"
expect_rc 2 "--diff with one run exits 2"
one_line_error "--diff with one run is one line"
run_nm info --diff "$a" nosuchrun
expect_rc 2 "--diff with an unknown run exits 2"
one_line_error "--diff with an unknown run is one line"
run_nm info --db x.db
expect_rc 2 "--db without --diff exits 2"

# --- several targets on one disk say so (disk, pieces) ------------------------------------
mkdir -p t1 t2
run_nm pieces t1 t2 --no-save --count 2
expect_rc 0 "pieces over two directories of one file system exits 0"
expect_err_has "t1 and t2 are on " "pieces says two directories share a disk"
run_nm pieces t1 --no-save --count 2
[[ $err != *"not independent"* ]] && ok "pieces over one directory says nothing of it" || not_ok "pieces over one directory says nothing of it" "$err"
