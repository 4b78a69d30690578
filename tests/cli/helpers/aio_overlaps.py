# aio_overlaps.py LOG: from an `strace -f -s 8 -e trace=io_submit,io_getevents` log of a libaio
# job, the I/Os submitted, how many of them overlapped the bytes of one still in flight on the
# same descriptor (submitted, its completion not yet reaped: aio_data names it both ways), and
# the most in flight at once.  Prints "SUBMITTED OVERLAPPING MOST".
import re
import sys

busy, submitted, overlapping, most = {}, 0, 0, 0
for line in open(sys.argv[1]):
    if " io_submit(" in line:
        for m in re.finditer(r"aio_data=(0x[0-9a-f]+|0),.*?aio_fildes=(\d+).*?aio_nbytes=(\d+), aio_offset=(\d+)", line):
            data, fd, n, off = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
            submitted += 1
            if any(bfd == fd and boff < off + n and off < boff + bn for bfd, boff, bn in busy.values()):
                overlapping += 1
            busy[data] = (fd, off, n)
            most = max(most, len(busy))
    elif " io_getevents(" in line:
        for m in re.finditer(r"\{data=(0x[0-9a-f]+|0),", line):
            busy.pop(m.group(1), None)
print(submitted, overlapping, most)
