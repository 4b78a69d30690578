"""The shape of fio's normal output: one label per line, with what each tool measures on its
own side taken out, so fio's and nodemark's outputs for the same job can be diffed.

    fio_text_shape.py FILE [--exact]

Prints the labels, one a line. Numbers become N, except in lines whose content follows from the
job alone (job lines, "Starting", "Laying out", group headers); with --exact (a size-based job on
a synchronous engine, one direction) the IO depths, submit, complete and issued rows keep their
figures too. Measured-only lines are reduced to their label: the percentile rows to the list of
percentiles, consecutive "lat (unit)" bucket lines to one "lat buckets" (after checking fio's
rule: 5 entries a line, a new line for each unit), bw/iops sample lines dropped (they exist only
when a run lasts past a sample interval, which the two tools reach at different moments).
Exit 1, with a message on stderr, when a lat bucket line breaks fio's rule."""
import re
import sys

NUM = re.compile(r"\d+(\.\d+)?([kMGTP]i?)?")


def norm(s):
    return NUM.sub("N", s)


def shape(lines, exact):
    out, bad = [], []
    lat_units = []          # the units of the current run of bucket lines, one per line
    lat_counts = []

    def flush_lat():
        if not lat_units:
            return
        # fio's show_lat: 5 entries a line; only the last line of a unit may hold fewer
        for i, (u, n) in enumerate(zip(lat_units, lat_counts)):
            last_of_unit = i + 1 == len(lat_units) or lat_units[i + 1] != u
            if n > 5 or (n < 5 and not last_of_unit):
                bad.append(f"lat ({u}) line {i + 1} has {n} entries")
        out.append("lat buckets")
        lat_units.clear()
        lat_counts.clear()

    for line in lines:
        line = line.rstrip("\n")
        m = re.match(r"^  lat \((\w+)\)\s+: (.*)$", line)
        if m:
            lat_units.append(m.group(1))
            lat_counts.append(len(m.group(2).split(", ")))
            continue
        flush_lat()
        if re.match(r"^(fio|nodemark)-\S+$", line):
            out.append("VERSION")
        elif re.match(r"^\S+: \(g=\d+\): rw=", line) or line.startswith("Starting ") or line == "...":
            out.append(line)
        elif re.match(r"^\S+: Laying out IO file", line):
            out.append(line)
        elif m := re.match(r"^(\S+: \(groupid=\d+, jobs=\d+\): err=\s*\d+)", line):
            out.append(m.group(1))
        elif m := re.match(r"^  (read|write|trim): ", line):
            out.append(m.group(1) + ":" + ("; zone resets" if "zone resets" in line else ""))
        elif m := re.match(r"^ +(slat|clat|lat|sync) \((\w+)\): min=", line):
            out.append(m.group(1))
        elif m := re.match(r"^ +(slat|clat| lat|lat) percentiles \(\w+\):$", line):
            out.append(m.group(1).strip() + " percentiles")
        elif line.startswith("     |"):
            keys = re.findall(r"(\d+\.\d+)th=", line)
            if out and out[-1].startswith("  at "):
                out[-1] += "," + ",".join(keys)
            else:
                out.append("  at " + ",".join(keys))
        elif re.match(r"^   (bw \(|iops +:)", line):
            continue
        elif line.startswith("  fsync/fdatasync/sync_file_range:"):
            out.append(line.strip())
        elif line.startswith("  cpu          :"):
            out.append("cpu")
        elif m := re.match(r"^ +(IO depths|submit|complete|issued rwts) *: ?(.*)$", line):
            rest = m.group(2)
            if not exact:  # the buckets' names stay, their shares and the counts go
                rest = norm(rest) if m.group(1) == "issued rwts" else re.sub(r"=[\d.]+%", "=N%", rest)
            out.append(m.group(1) + ": " + rest)
        elif line.startswith("     latency   :"):
            out.append("latency")
        elif re.match(r"^Run status group \d+ \(all jobs\):$", line) or line == "Disk stats (read/write):":
            out.append(line)
        elif m := re.match(r"^ +(READ|WRITE|TRIM): bw=", line):
            out.append(m.group(1) + ":")
        elif m := re.match(r"^ +(\S+): ios=\d+/\d+, merge=\d+/\d+, ticks=\d+/\d+, in_queue=\d+, util=[\d.]+%(.*)$", line):
            out.append(m.group(1) + ": ios merge ticks in_queue util" + (" aggr" if m.group(2) else ""))
        elif line == "":
            out.append("")
        else:
            out.append("OTHER: " + norm(line))
    flush_lat()
    return out, bad


def main():
    exact = "--exact" in sys.argv[2:]
    with open(sys.argv[1]) as f:
        out, bad = shape(f, exact)
    for b in bad:
        print(f"{sys.argv[1]}: {b}", file=sys.stderr)
    print("\n".join(out))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
