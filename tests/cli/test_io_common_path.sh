#!/usr/bin/env bash
# The loop's common path (src/io/loop.c's next_io_simple: one direction of one size, chosen
# once per run) issues the I/Os the full path issues. number_ios above the pass's I/Os changes
# nothing a job does but keeps it on the full path, so each job runs both ways and the per-I/O
# latency logs (direction, size, offset of every I/O, in order) must be the same.
. "$(dirname "$0")/lib.sh"
scratch_dir
head -c 1M /dev/zero >f
for n in a b c; do head -c 64k /dev/zero >$n; done

# ios NAME OPTIONS...: each I/O's direction, size and offset, one line each (sorted with
# iodepth above 1, where completions come in any order)
ios() {
    local name=$1
    shift
    rm -f ./*_clat.*.log
    run_nm fio --no-save --name=j --ioengine=psync --bs=4k --write_lat_log --log_offset=1 "$@"
    if [ "$rc" != 0 ]; then
        echo "rc $rc: $err"
        return
    fi
    cut -d, -f3- j_clat.1.log | tr -d ' ' >"$name"
    [[ " $* " == *" --iodepth=4 "* ]] && sort -o "$name" "$name"
    wc -l <"$name"
}

# same WHAT OPTIONS...: the job's I/Os on the common path and on the full path agree
same() {
    local what=$1
    shift
    local n_common n_full
    n_common=$(ios common "$@")
    n_full=$(ios full "$@" --number_ios=1000000)
    if [[ $n_common =~ ^[0-9]+$ ]] && [ "$n_common" -gt 1 ] && cmp -s common full; then
        ok "$what: the same $n_common I/Os on the common path as on the full one"
    else
        not_ok "$what: the same I/Os on both paths" "$n_common / $n_full: $(diff common full 2>&1 | head -4 | tr '\n' ' ')"
    fi
}

same "read, 2 loops" --filename=f --rw=read --size=256k --loops=2
same "read of a size that is no multiple of bs" --filename=f --rw=read --size=100000
same "randread (random map)" --filename=f --rw=randread --size=256k
same "randwrite, norandommap" --filename=w --rw=randwrite --norandommap --size=256k
same "read of 3 files, round robin" --filename=a:b:c --rw=read --size=192k --file_service_type=roundrobin
same "randread of 3 files, random service" --filename=a:b:c --rw=randread --size=192k --file_service_type=random
same "strided zones" --filename=f --rw=read --bs=16k --size=1m --zonemode=strided --zonesize=64k --zoneskip=192k
same "rw at rwmix_read=100 (one direction)" --filename=f --rw=rw --rwmixread=100 --size=128k
same "io_uring at depth 4" --filename=f --rw=randread --ioengine=io_uring --iodepth=4 --size=256k
