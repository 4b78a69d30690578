#!/usr/bin/env python3
"""Write a blktrace binary (what `blktrace -d DEV` writes, one CPU's file or blkparse -d's dump)
from a list of records, for tests of read_iolog's blktrace replay where tracing is not
permitted.

    mkblktrace.py OUT [--big] [--version N] [--dev MAJ:MIN] [--cut N] RECORD...

A record is ACT/CATS/SECTOR/BYTES[/TIME_NS[/MAJ:MIN[/CPU[/PDU_LEN]]]]:
  ACT   Q queue, M back merge, I issue, C complete, N process notify, T timestamp notify
  CATS  categories, any of R read, W write, D discard, F flush, S sync, P pc, A ahead; - none
Each record is the kernel's struct blk_io_trace (include/uapi/linux/blktrace_api.h): 48 bytes
of magic|version, sequence, time (ns), sector, bytes, action, pid, device, cpu, error, pdu_len,
then pdu_len bytes of payload (a notify's process name, a pc command). Times default to
1000 ns apart; the device to 8:0 (the kernel's dev_t: major << 20 | minor). --big writes the
fields big-endian (a trace from a big-endian host); --cut N drops the last N bytes (a
truncated file)."""
import struct
import sys

MAGIC = 0x65617400
ACTS = {"Q": 1, "M": 2, "I": 7, "C": 8, "N": 0, "T": 1}
CATS = {"R": 1 << 0, "W": 1 << 1, "F": 1 << 2, "S": 1 << 3, "P": 1 << 9, "A": 1 << 11,
        "D": 1 << 13}
CAT_OF_ACT = {"Q": 1 << 4, "M": 1 << 4, "I": 1 << 6, "C": 1 << 7, "N": 1 << 10, "T": 1 << 10}


def dev_t(text):
    major, minor = (int(x) for x in text.split(":"))
    return major << 20 | minor


def record(fields, seq, order, version, default_dev):
    act, cats, sector, nbytes = fields[0], fields[1], int(fields[2]), int(fields[3])
    time_ns = int(fields[4]) if len(fields) > 4 else 1000 * (seq + 1)
    device = dev_t(fields[5]) if len(fields) > 5 else default_dev
    cpu = int(fields[6]) if len(fields) > 6 else 0
    pdu_len = int(fields[7]) if len(fields) > 7 else (8 if act == "N" else 0)
    bits = CAT_OF_ACT[act]
    for c in cats.replace("-", ""):
        bits |= CATS[c]
    action = ACTS[act] | bits << 16
    head = struct.pack(order + "IIQQIIIIIHH", MAGIC | version, seq, time_ns, sector, nbytes,
                       action, 4242, device, cpu, 0, pdu_len)
    assert len(head) == 48
    return head + (b"fio\0\0\0\0\0" * (pdu_len // 8 + 1))[:pdu_len]


def main(argv):
    out, order, version, dev, cut, recs = None, "<", 7, dev_t("8:0"), 0, []
    args = iter(argv)
    for a in args:
        if a == "--big":
            order = ">"
        elif a == "--version":
            version = int(next(args))
        elif a == "--dev":
            dev = dev_t(next(args))
        elif a == "--cut":
            cut = int(next(args))
        elif out is None:
            out = a
        else:
            recs.append(a.split("/"))
    if out is None:
        sys.exit(__doc__)
    data = b"".join(record(r, i, order, version, dev) for i, r in enumerate(recs))
    with open(out, "wb") as f:
        f.write(data[:len(data) - cut] if cut else data)


if __name__ == "__main__":
    main(sys.argv[1:])
