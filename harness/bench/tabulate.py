#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the BENCH lines of one pair of `make bench` boots into a table and CSV rows.

usage: tabulate.py BOOT OURS_LOG UPSTREAM_LOG SIZES_FILE CSV_OUT
       tabulate.py --instructions RUN OURS_LOG UPSTREAM_LOG CSV_OUT
       tabulate.py --compare CSV

The logs are the guest logs of our kernel and of the pristine base; ratios
against C are taken in one boot, ours/up is their quotient. Rows are
appended to CSV_OUT, tagged with BOOT. --instructions: boots that counted
instructions (UPSTREAM_LOG "-": ours only), plain quotients, and ours over C
with the floor (a C file that does nothing) taken off both; the spin rows
must prove the counting. --compare: how much the runs in CSV differ.
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
# The floor of a row: the same system calls on debugfs_bench_c/null.
FLOORS = ("floor_open_read_close", "floor_pread", "floor_write", "floor_open_close")
# Rows of the counting boots only: open and release alone.
OPEN_CLOSE = ("open_close_u64", "open_close_show", "open_close_records")
NOTES = {"pread_u64": "C integer files are not seekable",
         "slurp_records_by_hand": "each record put together by hand, not with writeln!"}
NOTES.update((f, "C file whose operations return a constant") for f in FLOORS)
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


def floor_of(runs, metric):
    """The floor of a row (the C null file under the same calls), if it has one."""
    for floor in FLOORS:
        if metric.startswith(floor[len("floor_"):] + "_"):
            return solo(runs, floor)
    return None


def append_csv(path, header, rows):
    """rows appended to the CSV file path, with header first if it is new."""
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        out = csv.writer(f)
        if new:
            out.writerow(header)
        out.writerows(rows)


def churns(*logs):
    """The churn metrics of the logs, by kind and then size."""
    def kind(metric):
        what, n = metric.rsplit("_", 1)
        return what, int(n)
    return sorted({m for runs in logs for m in runs if m.startswith("churn_")}, key=kind)


def churn_row(metric):
    """(what, n, note) of a churn metric."""
    kind, n = metric.rsplit("_", 1)
    n = int(n)
    if kind == "churn":
        return "create+remove %d files" % n, n, "Scope owning n counters vs C directory"
    return "... %d, shared value" % n, n, "Scope over one static, as C"


def instructions(run, ours_log, upstream_log, csv_out):
    """The table of a pair of boots that counted instructions."""
    # UPSTREAM_LOG "-": upstream's kernel was not booted; its columns stay empty.
    ours = parse(ours_log)
    upstream = parse(upstream_log) if upstream_log != "-" else parse(os.devnull)
    logs = ((ours_log, ours),) + (((upstream_log, upstream),) if upstream_log != "-" else ())

    # The clock must have counted instructions: spin_2000 runs exactly
    # 2 * 1000 more than spin_1000 (see dfsbench.c).
    for log, runs in logs:
        short, long_ = solo(runs, "spin_1000"), solo(runs, "spin_2000")
        if short is None or long_ is None or abs(long_ - short - 2000) > 20:
            sys.exit("%s: 1000 more iterations of a 2-instruction loop took %s, not 2000: "
                     "the clock did not count instructions" %
                     (log, None if short is None or long_ is None else long_ - short))

    # (group, metric, unit, ours, upstream, C, C in upstream's boot, floor, note)
    rows = []
    for metric in LATENCY + OPEN_CLOSE:
        o, c = paired(ours, metric)[:2]
        u, cu = paired(upstream, metric)[:2]
        if o is None and u is None:
            continue
        if metric == "pread_u64":
            c = cu = None
        rows.append(("latency", metric, "insns/op", o, u, c, cu, floor_of(ours, metric),
                     NOTES.get(metric, "")))
    for metric in FLOORS:
        c, cu = solo(ours, metric), solo(upstream, metric)
        if c is not None:
            rows.append(("floor", metric, "insns/op", None, None, c, cu, None, NOTES[metric]))
    for metric in churns(ours, upstream):
        what, n, note = churn_row(metric)
        o, c = paired(ours, metric, per=n)[:2]
        u, cu = paired(upstream, metric, per=n)[:2]
        rows.append(("scale", what, "insns/file", o, u, c, cu, None, note))
    for n in (1000, 2000):
        rows.append(("check", "spin %d" % n, "insns/op", None, None, solo(ours, "spin_%d" % n),
                     solo(upstream, "spin_%d" % n), None,
                     "a loop of %d instructions and the timing loop's own" % (2 * n)))

    def num(x):
        return "-" if x is None else "%.0f" % x

    def ratio(a, b):
        return "-" if a is None or not b else "%.3f" % (a / b)

    def above(o, c, floor):
        """ours over C with the floor taken off both."""
        if o is None or c is None or floor is None or c <= floor:
            return "-"
        return "%.3f" % ((o - floor) / (c - floor))

    # C(up): C in upstream's boot; o/C-fl: ours/C with the floor taken off both.
    print("%-7s %-27s %-10s %9s %9s %9s %9s %6s %6s %7s %7s" % (
        "group", "metric", "unit", "ours", "upstream", "C", "C(up)", "ours/C", "up/C",
        "ours/up", "o/C-fl"))
    out = []
    for group, metric, unit, o, u, c, cu, floor, note in rows:
        cells = (ratio(o, c), ratio(u, cu), ratio(o, u), above(o, c, floor))
        print("%-7s %-27s %-10s %9s %9s %9s %9s %6s %6s %7s %7s  %s" % (
            (group, metric, unit, num(o), num(u), num(c), num(cu)) + cells + (note,)))
        out.append([run, group, metric, unit] +
                   ["" if x is None else "%.0f" % x for x in (o, u, c, cu, floor)] +
                   ["" if x == "-" else x for x in cells])
    append_csv(csv_out, ["run", "group", "metric", "unit", "ours", "upstream", "c",
                         "c_in_upstream_boot", "floor", "ours/c", "upstream/c", "ours/upstream",
                         "ours/c_above_floor"], out)


def compare(csv_in):
    """How much the instruction figures of the runs in csv_in differ."""
    values = defaultdict(lambda: defaultdict(dict))
    with open(csv_in) as f:
        for row in csv.DictReader(f):
            for column in ("ours", "upstream", "c", "c_in_upstream_boot"):
                if row[column]:
                    values[(row["group"], row["metric"])][column][row["run"]] = float(row[column])
    runs = sorted({r for m in values.values() for c in m.values() for r in c})
    worst = (0.0, None, None)
    print("Instruction counts of runs %s: the rows that differ between runs" % ", ".join(runs))
    for (group, metric), columns in values.items():
        for column, by_run in columns.items():
            low, high = min(by_run.values()), max(by_run.values())
            if len(by_run) < 2 or low <= 0:
                continue
            diff = (high - low) / low
            if diff > worst[0]:
                worst = (diff, metric, column)
            if high != low:
                print("  %-27s %-18s %s  (%.3f%%)" % (
                    metric, column, " ".join("%.0f" % by_run[r] for r in runs if r in by_run),
                    100 * diff))
    if worst[1] is None:
        print("Largest difference between runs: none, every figure is the same")
    else:
        print("Largest difference between runs: %.3f%% (%s, %s)" % (100 * worst[0], worst[1],
                                                                  worst[2]))


def main():
    if sys.argv[1] == "--instructions":
        instructions(*sys.argv[2:6])
        return
    if sys.argv[1] == "--compare":
        compare(sys.argv[2])
        return
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

    for metric in churns(ours, upstream):
        what, n, note = churn_row(metric)
        o, c, o_c = paired(ours, metric, per=n)
        u, _, u_c = paired(upstream, metric, per=n)
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

    print("%-7s %-34s %-11s %9s %9s %9s %6s %6s %6s" % (
        "group", "metric", "unit", "ours", "upstream", "C", "ours/C", "up/C", "ours/up"))
    out = []
    for group, metric, unit, o, u, c, o_c, u_c, note in rows:
        o_u = quotient(o_c, u_c) if o_c is not None else quotient(o, u)
        if group == "latency" and o_c is None:
            o_u = None  # no common anchor
        print("%-7s %-34s %-11s %9s %9s %9s %6s %6s %6s  %s" % (
            group, metric, unit, num(o, unit), num(u, unit), num(c, unit), ratio(o_c),
            ratio(u_c), ratio(o_u), note))
        out.append([boot, group, metric, unit] +
                   ["" if x is None else "%.3f" % x for x in (o, u, c, o_c, u_c, o_u)])
    append_csv(csv_out, ["boot", "group", "metric", "unit", "ours", "upstream", "c", "ours/c",
                         "upstream/c", "ours/upstream"], out)


if __name__ == "__main__":
    main()
