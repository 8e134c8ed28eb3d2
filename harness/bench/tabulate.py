#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the BENCH lines of one pair of `make bench` boots into a table and CSV rows.

usage: tabulate.py BOOT OURS_LOG UPSTREAM_LOG SIZES_FILE CSV_OUT

OURS_LOG is the guest log of the kernel with our kernel::debugfs,
UPSTREAM_LOG that of the pristine base; each measured its Rust files
against the same C files. Ratios against C are taken in one boot; ours/up
is the quotient of the two. The rows are appended to CSV_OUT (with a header
if it is new), tagged with BOOT.
"""

import csv
import os
import statistics
import sys
from collections import defaultdict

LATENCY = ("open_read_close_u64", "pread_u64", "write_u64", "open_read_close_show",
           "pread_show", "pread_blob_4k", "pread_blob_1m", "open_read_close_x64",
           "write_x64", "open_read_close_records", "slurp_records", "slurp_records_by_hand",
           "open_read_close_regs")
# The floor rows: the same system calls on debugfs_bench_c/null.
FLOORS = ("floor_open_read_close", "floor_pread", "floor_write")
NOTES = {"pread_u64": "C integer files are not seekable",
         "slurp_records_by_hand": "each record put together by hand, not with writeln!",
         "floor_open_read_close": "C file whose operations return a constant",
         "floor_pread": "C file whose operations return a constant",
         "floor_write": "C file whose operations return a constant"}
MEMORY = (("alloc_text", "file"), ("alloc_callback", "file"), ("alloc_binary", "file"),
          ("alloc_scoped", "file"), ("open_u64", "open"), ("open_show", "open"),
          ("open_records", "open"))


def parse(console):
    """runs[metric][variant] = one list of numbers per BENCH line."""
    runs = defaultdict(lambda: defaultdict(list))
    with open(console, errors="replace") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4 and parts[0] == "BENCH":
                runs[parts[1]][parts[2]].append([float(x) for x in parts[3:]])
    return runs


def med(values):
    return statistics.median(values) if values else None


def paired(runs, metric, column=0, per=1):
    """(Rust, C, Rust/C): medians, and the median of the ratios round by round.

    Each round measures Rust and C back to back, where the state of the
    machine is most alike, so the ratio is taken round by round.
    """
    r, c = runs[metric]["rust"], runs[metric]["c"]
    if not r:
        return None, None, None
    rust = med([x[column] / per for x in r])
    if not c:
        return rust, None, None
    ratio = med([a[column] / b[column] for a, b in zip(r, c)])
    return rust, med([x[column] / per for x in c]), ratio


def solo(runs, metric, column=0):
    """The median of a row measured on C alone (a floor)."""
    return med([x[column] for x in runs[metric]["c"]])


def per_unit(runs, metric, variant):
    """(allocations, bytes) per file or descriptor of a "hold" measurement."""
    # The first round warms caches up; it is left out.
    samples = runs[metric][variant][1:] or runs[metric][variant]
    if not samples:
        return None, None
    n = samples[0][0]
    return (med([(s[3] - s[1]) / n for s in samples]),
            med([(s[4] - s[2]) / n for s in samples]))


def quotient(a, b):
    return a / b if a is not None and b else None


def main():
    boot, ours_log, upstream_log, sizes_file, csv_out = sys.argv[1:6]
    ours, upstream = parse(ours_log), parse(upstream_log)
    # (group, metric, unit, ours, upstream, C, ours/C, upstream/C, note)
    rows = []

    for metric in LATENCY:
        o, c, o_c = paired(ours, metric)
        u, _, u_c = paired(upstream, metric)
        if o is None and u is None:
            continue
        if metric == "pread_u64":
            # simple_attr files cannot be read at an offset: no C, no ratio.
            c = o_c = u_c = None
        rows.append(("latency", metric, "ns/op", o, u, c, o_c, u_c, NOTES.get(metric, "")))
    for metric in FLOORS:
        c = solo(ours, metric)
        if c is not None:
            rows.append(("floor", metric, "ns/op", None, None, c, None, None, NOTES[metric]))

    for metric, unit in MEMORY:
        o, u, c = (per_unit(ours, metric, "rust"), per_unit(upstream, metric, "rust"),
                   per_unit(ours, metric, "c"))
        if o[0] is None and u[0] is None:
            continue
        # Counts, not times: their ratios need no common boot.
        for i, what in ((0, "objects"), (1, "bytes")):
            rows.append(("memory", "%s %s" % (metric, what),
                         ("allocs/" if i == 0 else "bytes/") + unit, o[i], u[i], c[i],
                         quotient(o[i], c[i]), quotient(u[i], c[i]), ""))

    def churn_kind(metric):
        kind, n = metric.rsplit("_", 1)
        return kind, int(n)

    churns = sorted({m for runs in (ours, upstream) for m in runs if m.startswith("churn_")},
                    key=churn_kind)
    for metric in churns:
        kind, n = churn_kind(metric)
        o, c, o_c = paired(ours, metric, per=n)
        u, _, u_c = paired(upstream, metric, per=n)
        if kind == "churn":
            what, note = "create+remove %d files" % n, "Scope owning n counters vs C directory"
        else:
            what, note = "... %d, shared value" % n, "Scope over one static, as C"
        rows.append(("scale", what, "ns/file", o, u, c, o_c, u_c, note))

    with open(sizes_file) as f:
        for line in f:
            group, metric, o, u, c = line.rstrip("\n").split(",")
            o, u, c = float(o), float(u), float(c)
            rows.append((group, metric, "bytes", o, u, c, quotient(o, c), quotient(u, c), ""))

    def num(x, unit):
        if x is None:
            return "-"
        small = unit.startswith(("allocs/", "bytes/")) and abs(x) < 100
        return "%.2f" % x if small else "%.0f" % x

    def ratio(x):
        return "-" if x is None else "%.2f" % x

    new = not os.path.exists(csv_out)
    with open(csv_out, "a", newline="") as f:
        out = csv.writer(f)
        if new:
            out.writerow(["boot", "group", "metric", "unit", "ours", "upstream", "c", "ours/c",
                          "upstream/c", "ours/upstream"])
        print("%-7s %-34s %-11s %9s %9s %9s %6s %6s %6s" % (
            "group", "metric", "unit", "ours", "upstream", "C", "ours/C", "up/C", "ours/up"))
        for group, metric, unit, o, u, c, o_c, u_c, note in rows:
            o_u = quotient(o_c, u_c) if o_c is not None else quotient(o, u)
            if group == "latency" and o_c is None:
                o_u = None  # no common anchor
            print("%-7s %-34s %-11s %9s %9s %9s %6s %6s %6s  %s" % (
                group, metric, unit, num(o, unit), num(u, unit), num(c, unit), ratio(o_c),
                ratio(u_c), ratio(o_u), note))
            out.writerow([boot, group, metric, unit] +
                         ["" if x is None else "%.3f" % x for x in (o, u, c, o_c, u_c, o_u)])


if __name__ == "__main__":
    main()
