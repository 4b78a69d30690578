# "What changed" between two saved runs (issue 27 item 6): every benchmark setting that differs
# (fio's global and per-job options, disk's settings), before the machine facts, one line per
# fact; a path on another device is one "storage" line, not a line per field of its stack.
. "$TESTS_DIR/cli/lib.sh"
. "$TESTS_DIR/cli/helpers/json_checks.sh"
export NODEMARK_DB="$PWD/store.db"
FX="$TESTS_DIR/fixtures"

# Saved records: fio runs of one job file, the second with direct=0 in [global] and bs=8k in
# one job, on a newer kernel; disk runs at --bs 4k and --bs 8k (so no test name is shared),
# --size 4m and 8m; a disk run of 2m for 100 ms, one a byte and a nanosecond past disk-a.
python3 - <<'PY'
import json
def rec(rid, label, command, kernel, benches):
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000000000 + int(rid[-1]) * 1000,
            "time": "", "host": "lab", "version": "0.1.0", "command": command, "cmdline": "nodemark " + command,
            "label": label, "tags": {}, "inventory": {"os": {"kernel": kernel}, "path": {"fstype": "ext4"}},
            "extra": {}, "benches": benches}
def bench(name, settings, v):
    return {"name": name, "settings": settings, "series": [], "hists": [],
            "metrics": [{"name": "iops", "unit": "op/s", "direction": "higher", "samples": [v]}]}
def fio(direct, bs):
    g = {"direct": direct, "ioengine": "psync", "size": "1m"}
    return [bench("seqread (group 0, entry 0)", {"job_options": {"rw": "read", "bs": "64k"}, "global_options": g,
                  "groupid": 0, "threads": 1, "engine": "psync"}, 100),
            bench("randw (group 0, entry 1)", {"job_options": {"rw": "randwrite", "bs": bs}, "global_options": g,
                  "groupid": 0, "threads": 1, "engine": "psync"}, 200)]
def disk(bs, size, runtime_ns=200000000):
    s = lambda rw: {"rw": rw, "bs": bs, "iodepth": 1, "numjobs": 1, "size": size, "runtime_ns": runtime_ns,
                    "engine": "psync", "direct": True, "targets": ["/data/.nodemark-1a2b3c4d"]}
    return [bench("randread %dk Q1T1" % (bs // 1024), s("randread"), 300),
            bench("randwrite %dk Q1T1" % (bs // 1024), s("randwrite"), 400)]
for f, r in [("fio1.json", rec("6c0e000000000001", "fio-a", "fio", "6.1.0", fio("1", "4k"))),
             ("fio2.json", rec("6c0e000000000002", "fio-b", "fio", "6.5.0", fio("0", "8k"))),
             ("disk1.json", rec("6c0e000000000003", "disk-a", "disk", "6.1.0", disk(4096, 4 << 20))),
             ("disk2.json", rec("6c0e000000000004", "disk-b", "disk", "6.1.0", disk(8192, 8 << 20))),
             ("disk3.json", rec("6c0e000000000005", "disk-c", "disk", "6.1.0", disk(4096, 2 << 20, 100000000))),
             ("disk4.json", rec("6c0e000000000006", "disk-d", "disk", "6.1.0", disk(4096, (4 << 20) + 1, 200000001)))]:
    json.dump(r, open(f, "w"))
PY
for f in fio1 fio2 disk1 disk2 disk3 disk4; do "$NM" import $f.json >/dev/null 2>&1 || not_ok "import $f.json"; done

changes_block() { sed -n '/^What changed from /,$p' <<<"$out" | sed 1d; }
once() { # TEXT WHAT: exactly one line of the changes matches the regex
    local n
    n=$(grep -cE -- "$1" <<<"$block")
    [ "$n" = 1 ] && ok "$2" || not_ok "$2" "$n lines match /$1/: $block"
}
before() { # REGEX1 REGEX2 WHAT: the first line matching REGEX1 comes before the first matching REGEX2
    local a b
    a=$(grep -nE -- "$1" <<<"$block" | head -1 | cut -d: -f1)
    b=$(grep -nE -- "$2" <<<"$block" | head -1 | cut -d: -f1)
    [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && ok "$3" || not_ok "$3" "$block"
}

# --- fio: a global option and one job's option ----------------------------------------------
run_nm compare fio-a fio-b
expect_rc 0 "compare of two fio runs exits 0"
block=$(changes_block)
once '^  \[global\] direct +1 -> 0$' "text: the global direct=1 -> 0 is one line"
once '^  randw: bs +4k -> 8k$' "text: the one job's bs, named as the user named it"
once '^  kernel +6\.1\.0 -> 6\.5\.0$' "text: the kernel"
before 'direct' 'kernel' "text: the settings before the machine facts"
before 'randw: bs' 'kernel' "text: the job's option before the machine facts"
[ "$(grep -c ' -> ' <<<"$block")" = 3 ] && ok "text: three changes, no more" || not_ok "text: three changes, no more" "$block"
if grep -qE 'seqread|entry [0-9]|job_options|global_options' <<<"$block"; then not_ok "text: no unchanged job, no fio places or record keys" "$block"
else ok "text: no unchanged job, no fio places or record keys"; fi

run_nm compare fio-a fio-b --format markdown
block=$(sed -n '/^## What changed from fio-a to fio-b/,$p' <<<"$out")
once '^  \[global\] direct +1 -> 0$' "Markdown: the global direct=1 -> 0"
once '^  randw: bs +4k -> 8k$' "Markdown: the job's bs"
before 'direct' 'kernel' "Markdown: the settings before the machine facts"

run_nm compare fio-a fio-b --format json
json_checks \
    '[c["what"] for c in j["changes"]] == ["[global] direct", "randw: bs", "kernel"]' "JSON: the changes, settings first, one per fact" \
    '[(c["a"], c["b"]) for c in j["changes"]][:2] == [("1", "0"), ("4k", "8k")]' "JSON: before and after"

run_nm report fio-a fio-b --format markdown -o -
block=$(sed -n '/^## What changed from/,$p' <<<"$out")
once '^  \[global\] direct +1 -> 0$' "report (Markdown): the global direct"
before 'direct' 'kernel' "report (Markdown): the settings before the machine facts"
run_nm report fio-a fio-b -o r.html
if grep -q '<tr><td>\[global\] direct</td><td>1</td><td>0</td></tr>' r.html; then ok "report (HTML): the global direct in the What changed table"
else not_ok "report (HTML): the global direct in the What changed table" "$(grep -o '<h2>What changed.*' r.html | head -c 600)"; fi

# a global option is a key of the comparison too
run_nm compare fio-a fio-b --col direct
expect_out_matches '^IOPS( \(.*\))? +1 +0 +vs 1$' "--col direct: a column per value of the global option"

# --- disk: settings that changed in every test are one line each ------------------------------
run_nm compare disk-a disk-b
block=$(changes_block)
once '^  bs +4 KiB -> 8 KiB$' "disk: bs once, though every test changed it (and none shares a name), in KiB"
once '^  size +4 MiB -> 8 MiB$' "disk: size once, in MiB"
[ "$(grep -c ' -> ' <<<"$block")" = 2 ] && ok "disk: two changes; the same target in its new private directory is no change" ||
    not_ok "disk: two changes; the same target in its new private directory is no change" "$block"

# --- settings with a unit read with it: runtime_ns is "runtime 200 ms" (the record keeps ns) ---
run_nm compare disk-a disk-c
block=$(changes_block)
once '^  runtime +200 ms -> 100 ms$' "text: runtime in ms, its _ns dropped from the name"
once '^  size +4 MiB -> 2 MiB$' "text: size in MiB"
if grep -qE 'runtime_ns|[0-9]{6}' <<<"$block"; then not_ok "text: no raw key, no raw number" "$block"
else ok "text: no raw key, no raw number"; fi
run_nm compare disk-a disk-c --format markdown
block=$(sed -n '/^## What changed from disk-a to disk-c/,$p' <<<"$out")
once '^  runtime +200 ms -> 100 ms$' "Markdown: runtime in ms"
once '^  size +4 MiB -> 2 MiB$' "Markdown: size in MiB"
run_nm report disk-a disk-c -o d.html
for row in '<tr><td>runtime</td><td>200 ms</td><td>100 ms</td></tr>' '<tr><td>size</td><td>4 MiB</td><td>2 MiB</td></tr>'; do
    if grep -qF "$row" d.html; then ok "report (HTML): $row"
    else not_ok "report (HTML): $row" "$(grep -o '<h2>What changed.*' d.html | head -c 600)"; fi
done
run_nm info --diff disk-a disk-c
block=$out
once '^  runtime +200 ms -> 100 ms$' "info --diff: runtime in ms"
# JSON keeps the raw numbers and the record's key; the unit and the short name are added
run_nm compare disk-a disk-c --format json
json_checks \
    '[(c["what"], c["a"], c["b"]) for c in j["changes"]] == [("size", 4194304, 2097152), ("runtime_ns", 200000000, 100000000)]' "JSON: raw numbers under the record's names" \
    '[(c["unit"], c["name"]) for c in j["changes"]] == [("B", "size"), ("ns", "runtime")]' "JSON: each value's unit, the name without its suffix"
# values the unit's text would round alike are shown as they are: no "200 ms -> 200 ms"
run_nm compare disk-a disk-d
block=$(changes_block)
once '^  runtime_ns +200000000 -> 200000001$' "a nanosecond's change shown raw, not as 200 ms -> 200 ms"
once '^  size +4 MiB -> 4194305 B$' "a size one byte past 4 MiB, exactly"

# --- the same machine, the path on another file system and device ------------------------------
cp -a "$FX/sysroot-md-raid0-nvme" m
printf '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n' >m/proc/self/mountinfo
NODEMARK_SYSROOT="$PWD/m" "$NM" time -r 2 --label fs-a -- true >/dev/null 2>&1
printf '22 1 9:0 / / rw,noatime shared:9 - xfs /dev/md0 rw,attr2,inode64\n' >m/proc/self/mountinfo
NODEMARK_SYSROOT="$PWD/m" "$NM" time -r 2 --label fs-b -- true >/dev/null 2>&1
run_nm compare fs-a fs-b
block=$(changes_block)
once '^  file system +ext4 -> xfs$' "fs: the file system, once"
once '^  storage +sda1: SATA HDD 447 GiB -> md0: 16x NVMe RAID0 56 TiB$' "fs: the device under the path, one line"
if grep -qE 'path\.|stack|slaves|nvme[0-9]+n1 ' <<<"$block"; then not_ok "fs: no path.stack.* padding" "$block"
else ok "fs: no path.stack.* padding"; fi
n=$(grep -c ' -> ' <<<"$block")
[ "$n" -le 4 ] && ok "fs: a few lines, one per fact ($n)" || not_ok "fs: a few lines, one per fact ($n)" "$block"
run_nm info --diff fs-a fs-b --json
json_checks \
    '[c["key"] for c in j["changes"] if c["key"].startswith("path.stack") or c["key"] in ("path.size", "path.transport", "path.physical")] == []' "info --diff JSON: the stack collapsed" \
    '[c["b"] for c in j["changes"] if c["key"] == "path.storage"] == ["md0: 16x NVMe RAID0 56 TiB"]' "info --diff JSON: the storage fact"

# --- a real fio run keeps its global options in the record --------------------------------------
mkdir -p fiodir
printf '[global]\nioengine=psync\nsize=64k\ndirect=0\ndirectory=%s\n[j1]\nrw=read\nbs=8k\n' "$PWD/fiodir" >g.fio
run_nm fio g.fio --label fio-real
expect_rc 0 "nodemark fio of a job file with [global] runs"
run_nm show fio-real --json
json_checks \
    'j["benches"][0]["settings"]["global_options"]["direct"] == "0"' "the record has the job's global options" \
    'j["benches"][0]["settings"]["job_options"] == {"rw": "read", "bs": "8k"}' "and its own apart"

# --- a name with a dot is not a nesting (issue 29) ---------------------------------------------
# Imported records: the first's inventory has a member "a.b", a list item named "1" and a setting
# named "job_options.bs"; the second has a -> b, the item named "1" changed and fio's job option
# bs. Each flattened to the other's key before (a.b, x[1].v, job_options.bs): nothing changed.
python3 - <<'PY'
import json
def rec(rid, label, inv, settings):
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000100000 + int(rid[-1]) * 1000,
            "time": "", "host": "lab", "version": "0.1.0", "command": "fio", "cmdline": "nodemark fio",
            "label": label, "tags": {}, "inventory": inv, "extra": {},
            "benches": [{"name": "j", "settings": settings, "series": [], "hists": [],
                         "metrics": [{"name": "iops", "unit": "op/s", "direction": "higher", "samples": [1]}]}]}
json.dump(rec("6c0f000000000001", "dot-a", {"os": {"kernel": "6.1.0"}, "a.b": 1,
                                            "x": [{"name": "1", "v": 1}, {"v": 2}]}, {"job_options.bs": "4k"}), open("dot1.json", "w"))
json.dump(rec("6c0f000000000002", "dot-b", {"os": {"kernel": "6.1.0"}, "a": {"b": 1},
                                            "x": [{"name": "1", "v": 3}, {"v": 2}]}, {"job_options": {"bs": "4k"}}), open("dot2.json", "w"))
PY
for f in dot1 dot2; do "$NM" import $f.json >/dev/null 2>&1 || not_ok "import $f.json"; done
run_nm info --diff dot-a dot-b --json
expect_rc 0 "info --diff of dotted names exits 0"
json_checks \
    '[c["key"] for c in j["changes"]] == ["settings.\"job_options.bs\"", "settings.job_options.bs", "\"a.b\"", "x[\"1\"].v", "a.b"]' "info --diff: a dotted name and its nesting are two facts, an item named 1 is not the second" \
    '[(c["a"], c["b"]) for c in j["changes"] if c["key"] == "x[\"1\"].v"] == [(1, 3)]' "info --diff: the named item's change, before and after"
run_nm info --diff dot-a dot-b
expect_out_matches '^  "a\.b" +1 -> \(none\)$' "info --diff text: the dotted name, quoted"
run_nm info --diff dot-a dot-a --json
json_checks 'j["changes"] == []' "info --diff of a run with dotted names against itself: nothing"

# --- two benchmarks of one name; the inventory's members named as the run's keys --------------
# Imported records: disk --turns' way, each test once per target under one name, the second
# run on other targets and bs 8k on the second target only; the inventory has top-level
# members settings, nodemark and cpus_allowed (an imported record may) and two disks named sda.
python3 - <<'PY'
import json
def rec(rid, label, inv, benches, version):
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000300000 + int(rid[-1]) * 1000,
            "time": "", "host": "lab", "version": version, "command": "disk", "cmdline": "nodemark disk",
            "label": label, "tags": {}, "inventory": inv, "extra": {}, "benches": benches}
def bench(name, settings):
    return {"name": name, "settings": settings, "series": [], "hists": [],
            "metrics": [{"name": "iops", "unit": "op/s", "direction": "higher", "samples": [1]}]}
def run(s):
    benches = [bench("randread", {"target": t, "bs": 8192 if s and i else 4096}) for i, t in enumerate(("/c", "/d") if s else ("/a", "/b"))]
    inv = {"os": {"kernel": "6.1.0"}, "settings": {"bs": 1 + s}, "nodemark": {"version": "v%d" % s}, "cpus_allowed": "0-%d" % (1 + s),
           "disks": [{"name": "sda", "model": "M%d" % s}, {"name": "sda", "model": "N"}]}
    return rec("6c1100000000000%d" % (s + 1), "dup-%s" % "ab"[s], inv, benches, "0.%d" % (1 + s))
json.dump(run(0), open("dup1.json", "w"))
json.dump(run(1), open("dup2.json", "w"))
PY
for f in dup1 dup2; do "$NM" import $f.json >/dev/null 2>&1 || not_ok "import $f.json"; done
run_nm info --diff dup-a dup-b --json
expect_rc 0 "info --diff of runs with two benchmarks of one name exits 0"
json_checks \
    'len(set(c["key"] for c in j["changes"])) == len(j["changes"])' "no two changes share a key" \
    '[(c["key"], c["what"], c["b"]) for c in j["changes"] if c["key"].startswith("settings[")] == [("settings[0].target", "randread #1: target", "/c"), ("settings[1].target", "randread #2: target", "/d"), ("settings[1].bs", "randread #2: bs", 8192)]' "each benchmark of the name has its own key and line" \
    '[(c["a"], c["b"]) for c in j["changes"] if c["key"] == "inventory.settings.bs"] == [(1, 2)]' "the inventory's settings.bs is keyed under inventory." \
    '[c["key"] for c in j["changes"] if c["key"].startswith("inventory.")] == ["inventory.settings.bs", "inventory.nodemark.version", "inventory.cpus_allowed"]' "... and so are its nodemark and cpus_allowed" \
    '[(c["a"], c["b"]) for c in j["changes"] if c["key"] == "nodemark.version"] == [("0.1", "0.2")]' "nodemark.version is the run's own" \
    '[(c["a"], c["b"]) for c in j["changes"] if c["key"] == "disks[0].model"] == [("M0", "M1")]' "two disks named sda: the first one's change is keyed by its place"
run_nm compare dup-a dup-b
block=$(changes_block)
once '^  randread #1: target +/a -> /c$' "text: the first randread's target"
once '^  randread #2: target +/b -> /d$' "text: the second randread's target, a line of its own"
once '^  randread #2: bs +4 KiB -> 8 KiB$' "text: the second randread's block size"
run_nm info --diff dup-a dup-a --json
json_checks 'j["changes"] == []' "a run with two benchmarks of one name against itself: nothing"
