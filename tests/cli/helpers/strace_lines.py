"""The calls of an `strace -f` log, one (thread id, call text) pair each: a call another thread
interrupted is printed in two lines ("... <unfinished ...>" and "<... NAME resumed> ..."), and
is given here whole, where it returned."""
import re


def strace_calls(path):
    pending = {}
    for line in open(path):
        m = re.match(r"(\d+) +(.*)", line.rstrip("\n"))
        if not m:
            continue
        tid, call = m.groups()
        if call.endswith("<unfinished ...>"):
            pending[tid] = call[: -len("<unfinished ...>")].rstrip()
            continue
        r = re.match(r"<\.\.\. [a-z_0-9]+ resumed>(.*)", call)
        if r:
            call = pending.pop(tid, "") + r.group(1)
        yield tid, call
