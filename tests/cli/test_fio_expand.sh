#!/usr/bin/env bash
# fio's job-file expansion beside real fio: ${VAR} from the environment (an unset one becomes
# nothing), the keywords $pagesize, $mb_memory and $ncpus with the arithmetic fio computes on
# them. The same job file, run by both on the null engine, must show the same job options and
# move the same amount of I/O. And "(...)" expressions in numbers, beside fio where fio was
# built with its arithmetic (the Debian/Ubuntu fio 3.33 is not: it fails to parse them).
. "$(dirname "$0")/lib.sh"
scratch_dir
export NM_T_SIZE=3m NM_T_RW=read
unset NM_T_UNSET

cat >exp.fio <<'EOF'
[global]
ioengine=null
size=${NM_T_SIZE}
bs=$pagesize
description=a${NM_T_UNSET}b

[e1]
rw=${NM_T_RW}
iodepth=$ncpus*2
; fio computes a value a keyword went into (whole numbers, as bc does)
io_size=$mb_memory/$mb_memory*2097152
numjobs=$ncpus/$ncpus
EOF
cat >arith.fio <<'EOF'
[e2]
ioengine=null
rw=read
size=(1+1)m
bs=(2*2k)
EOF

summary() { # FILE: each job's name, options and KiB moved, one JSON line
    python3 - "$1" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
out = {"global": j.get("global options", {})}
for x in j["jobs"]:
    out[x["jobname"]] = [x.get("job options", {}), x["read"]["io_kbytes"]]
print(json.dumps(out, sort_keys=True))
EOF
}

ncpus=$(getconf _NPROCESSORS_CONF)
run_nm fio --no-save --output-format=json exp.fio
printf '%s\n' "$out" >nm.json
nm_sum=$(summary nm.json 2>&1)
want_e1="\"iodepth\": \"$((ncpus * 2))\""
if [ "$rc" -eq 0 ] && [[ $nm_sum == *'"size": "3m"'* ]] && [[ $nm_sum == *'"bs": "'"$(getconf PAGESIZE)"'"'* ]] &&
    [[ $nm_sum == *'"description": "ab"'* ]] && [[ $nm_sum == *"$want_e1"* ]]; then
    ok "nodemark: \${VAR}, an unset one, \$pagesize and \$ncpus*2 expand in the job options"
else
    not_ok "nodemark: \${VAR} and keywords expand in the job options" "rc $rc: $nm_sum ${err:0:300}"
fi
kib=$(json_get '[x["read"]["io_kbytes"] for x in j["jobs"]]' 2>&1)
[ "$kib" = "[2048]" ] && ok "nodemark: io_size=\$mb_memory/\$mb_memory*2097152 is 2 MiB of I/O" ||
    not_ok "nodemark: a computed size" "io_kbytes $kib"

run_nm fio --no-save --output-format=json arith.fio
printf '%s\n' "$out" >nm_arith.json
r=$(json_get '(j["jobs"][0]["read"]["io_kbytes"], j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["job options"]["size"])' 2>&1)
[ "$rc" -eq 0 ] && [ "$r" = "(2048, 512, '(1+1)m')" ] &&
    ok "nodemark: size=(1+1)m, bs=(2*2k) are 2 MiB in 4 KiB I/Os; the options show them as typed" ||
    not_ok "nodemark: (...) arithmetic" "rc $rc: $r ${err:0:300}"

# fio has bc compute a value a keyword went into: without bc it cannot parse exp.fio at all
if [ $HAVE_FIO = 1 ] && ! command -v bc >/dev/null; then
    skip "expansion beside real fio" "bc is missing (fio runs bc for \$mb_memory/\$ncpus arithmetic)"
elif [ $HAVE_FIO = 1 ]; then
    fio --output-format=json exp.fio >fio.json 2>fio.err
    fio_sum=$(summary fio.json 2>&1)
    [ "$fio_sum" = "$nm_sum" ] && ok "the job options and I/O amounts equal fio's for the same file and environment" ||
        not_ok "the job options and I/O amounts equal fio's" "fio $fio_sum / nodemark $nm_sum $(head -c 200 fio.err)"
    if fio --output-format=json arith.fio >fio_arith.json 2>fio_arith.err; then
        a=$(summary fio_arith.json 2>&1) b=$(summary nm_arith.json 2>&1)
        [ "$a" = "$b" ] && ok "(...) arithmetic equals fio's" || not_ok "(...) arithmetic equals fio's" "fio $a / nodemark $b"
    else
        skip "(...) arithmetic beside real fio" "this fio fails to parse it: $(head -1 fio_arith.err)"
    fi
else
    skip "expansion beside real fio" "fio is missing"
fi

# bad arithmetic is one line naming the file and line
printf '[a]\nioengine=null\nsize=$mb_memory*2m\n' >bad.fio
run_nm fio --no-save bad.fio
expect_refused "a keyword value bc cannot compute: one line naming file:line" bad.fio:3
