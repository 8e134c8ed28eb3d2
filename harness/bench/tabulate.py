#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the BENCH lines of a `make bench` console log into a table and a CSV.

usage: tabulate.py CONSOLE_LOG SIZES_FILE CSV_OUT
"""

import statistics
import sys
from collections import defaultdict


def main():
    console, sizes_file, csv_out = sys.argv[1:4]
    runs = defaultdict(lambda: defaultdict(list))
    for line in open(console, errors="replace"):
        parts = line.split()
        if len(parts) >= 4 and parts[0] == "BENCH":
            runs[parts[1]][parts[2]].append([int(float(x)) for x in parts[3:]])

    rows = []  # (group, metric, unit, rust, c, note[, ratio])

    def med(values):
        return statistics.median(values)

    for metric in ("open_read_close_u64", "pread_u64", "write_u64", "open_read_close_show",
                   "pread_show", "pread_blob_4k", "pread_blob_1m", "open_read_close_x64",
                   "write_x64", "open_read_close_records", "slurp_records",
                   "open_read_close_regs"):
        r, c = runs[metric]["rust"], runs[metric]["c"]
        if not r or not c:
            continue
        spread = "rust p10-p90 %d-%d, C %d-%d" % (
            med([x[1] for x in r]), med([x[2] for x in r]),
            med([x[1] for x in c]), med([x[2] for x in c]))
        if metric == "pread_u64":
            # No C counterpart: simple_attr files cannot be read at an offset.
            rows.append(("latency", metric, "ns/op", med([x[0] for x in r]), None,
                         "C integer files are not seekable"))
            continue
        # Each round measures Rust and then C back to back, so the ratio is
        # taken round by round, where the state of the machine is most alike.
        ratio = med([a[0] / b[0] for a, b in zip(r, c)])
        rows.append(("latency", metric, "ns/op", med([x[0] for x in r]),
                     med([x[0] for x in c]), spread, ratio))

    for metric, unit in (("alloc_text", "file"), ("alloc_callback", "file"),
                         ("alloc_binary", "file"), ("alloc_scoped", "file"),
                         ("open_u64", "open"), ("open_show", "open"),
                         ("open_records", "open")):
        per_file = {}
        for variant in ("rust", "c"):
            # The first round warms caches up; it is left out.
            samples = runs[metric][variant][1:] or runs[metric][variant]
            if samples:
                n = samples[0][0]
                objs = med([(s[3] - s[1]) / n for s in samples])
                size = med([(s[4] - s[2]) / n for s in samples])
                per_file[variant] = (objs, size)
        if "rust" in per_file:
            c = per_file.get("c", (None, None))
            rows.append(("memory", metric + " objects", "allocs/" + unit,
                         per_file["rust"][0], c[0], ""))
            rows.append(("memory", metric + " bytes", "bytes/" + unit,
                         per_file["rust"][1], c[1], ""))

    churns = sorted((m for m in runs if m.startswith("churn_")), key=lambda m: int(m[6:]))
    for metric in churns:
        n = int(metric[6:])
        r = med([x[0] for x in runs[metric]["rust"]]) / n
        c = med([x[0] for x in runs[metric]["c"]]) / n
        rows.append(("scale", "create+remove %d files" % n, "ns/file", r, c,
                     "Scope vs C directory"))

    for line in open(sizes_file):
        group, metric, rust, c = line.rstrip("\n").split(",")
        rows.append((group, metric, "bytes", float(rust), float(c) if c else None, ""))

    with open(csv_out, "w") as f:
        f.write("group,metric,unit,rust,c,ratio\n")
        print("%-8s %-38s %-14s %10s %10s %7s" % ("group", "metric", "unit", "Rust", "C",
                                                  "Rust/C"))
        for group, metric, unit, r, c, note, *paired in rows:
            ratio = "%.2f" % (paired[0] if paired else r / c) if c else "-"
            c_text = "%.0f" % c if c is not None else "-"
            if unit.startswith(("allocs/", "bytes/")) and r < 100:
                c_text = "%.2f" % c if c is not None else "-"
                r_text = "%.2f" % r
            else:
                r_text = "%.0f" % r
            print("%-8s %-38s %-14s %10s %10s %7s  %s" % (group, metric, unit, r_text, c_text,
                                                           ratio, note))
            f.write("%s,%s,%s,%.1f,%s,%s\n" % (group, metric, unit, r,
                                              "" if c is None else "%.1f" % c,
                                              "" if ratio == "-" else ratio))


if __name__ == "__main__":
    main()
