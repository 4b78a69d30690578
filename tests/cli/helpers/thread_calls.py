# thread_calls.py LOG BS: from an `strace -f -y -s 16` log (16: a node mask's words whole), what
# each I/O thread of a fio job set for itself: the threads that read or write BS bytes at a time
# (the job's; not the main thread's layout, not fio's clock threads), each named by the file it
# did I/O on (NAME.N, fio's and nodemark's file names), with the CPU mask of its last
# sched_setaffinity ("-": none) and its set_mempolicy and mbind calls.  One line per thread,
# sorted, so two tools' lines compare as text.
import collections
import re
import sys

from strace_lines import strace_calls

log, bs = sys.argv[1], sys.argv[2]
io_file, mask, mem = {}, {}, collections.defaultdict(list)
for tid, rest in strace_calls(log):
    c = re.match(r"([a-z_0-9]+)\((.*)\) += (-?\d+)", rest)
    if not c:
        continue
    call, args, ret = c.groups()
    if call in ("pread64", "pwrite64", "read", "write") and re.search(r", %s(, |$)" % bs, args):
        f = re.match(r"\d+<([^>]*)>", args)
        if f and tid not in io_file:
            io_file[tid] = ".".join(f.group(1).rsplit("/", 1)[-1].split(".")[:2])
    elif call == "sched_setaffinity":
        mask[tid] = re.search(r"\[[^\]]*\]", args).group(0)
    elif call in ("set_mempolicy", "mbind"):
        # the node mask's words up to its last set one, so both tools' arrays read alike
        words = [int(w, 16) for w in re.findall(r"0x[0-9a-f]+|\b0{4,}\b", args)]
        while words and words[-1] == 0:
            words.pop()
        mem[tid].append("%s(%s,%s,%s)=%s" % (call, args.split(",")[0], words, args.rsplit(",", 1)[-1].strip(), ret))
for line in sorted("%s %s %s" % (io_file[t], mask.get(t, "-"), " ".join(mem[t]) or "-") for t in io_file):
    print(line)
