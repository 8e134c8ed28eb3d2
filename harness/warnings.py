#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Track compiler warnings in our files across incremental builds.

Kbuild only recompiles what changed: for each of our crates (and C
modules) this keeps the warnings of its last compilation in
STATE_DIR/<log>/<crate>, replaced when the log shows it compiled. The check
fails while any crate of this log's build has a warning on record.

usage: warnings.py BUILD_LOG OBJ_DIR STATE_DIR
"""

import os
import re
import sys


def sample(name):
    return "samples/rust/%s.o" % name, lambda p: p.endswith("samples/rust/%s.rs" % name)


def module(source):
    name = os.path.splitext(source)[0]
    return name + ".o", lambda p: os.path.basename(p) == source


# crate -> (object in the build log, predicate on the warning's source path)
CRATES = {
    "kernel": ("rust/kernel.o",
               lambda p: "rust/kernel/debugfs" in p or p.endswith("rust/kernel/seq_file.rs")),
    "doctests": ("rust/doctests_kernel_generated.o",
                 lambda p: p.endswith("doctests_kernel_generated.rs")),
}
CRATES.update((n, sample(n)) for n in ("rust_debugfs", "rust_debugfs_scoped",
                                        "rust_debugfs_extras", "rust_debugfs_pci"))
CRATES.update((os.path.splitext(f)[0], module(f)) for f in (
    "rust_debugfs_bench.rs", "c_debugfs_bench.c", "rust_debugfs_size.rs", "c_debugfs_size.c",
    "rust_debugfs_test_module.rs", "rust_debugfs_leak.rs", "rust_debugfs_fixes.rs"))

LOCATION = re.compile(r"^\s*--> (\S+?):(\d+):\d+")
CLANG = re.compile(r"^(\S+\.c):(\d+):\d+: warning: ")
SUMMARY = re.compile(r"warning: \d+ warnings? emitted")
DOCTEST_FN = re.compile(r'^pub extern "C" fn (rust_doctest_\w+)\(')


def diagnostics(lines):
    """Yields (text, path, line) for each rustc or clang warning in a log."""
    for i, line in enumerate(lines):
        m = CLANG.match(line)
        if m:
            yield "".join(lines[i:i + 3]), m.group(1), int(m.group(2))
            continue
        if not line.startswith("warning") or SUMMARY.match(line):
            continue
        for follow in lines[i + 1:i + 4]:
            m = LOCATION.match(follow)
            if m:
                yield "".join(lines[i:i + 8]), m.group(1), int(m.group(2))
                break


def doctest_of(obj_dir, line):
    """Names the doctest function that line `line` of the generated file belongs to."""
    name = None
    path = os.path.join(obj_dir, "rust/doctests_kernel_generated.rs")
    with open(path, errors="replace") as f:
        for number, text in enumerate(f, 1):
            if number > line:
                break
            m = DOCTEST_FN.match(text)
            if m:
                name = m.group(1)
    return name or ""


def warnings_in(text):
    """How many warnings a record holds: the first line of each."""
    return sum(1 for line in text.splitlines()
               if (line.startswith("warning") and not SUMMARY.match(line)) or CLANG.match(line))


def main():
    log, obj_dir, state_dir = sys.argv[1:4]
    state_dir = os.path.join(state_dir, os.path.basename(log))
    os.makedirs(state_dir, exist_ok=True)
    with open(log, errors="replace") as f:
        lines = f.readlines()
    # Kbuild names the object last on its line: "CLIPPY [M] <obj>", where an
    # external module's object has no directory.
    last = {l.split()[-1] for l in lines if l.strip()}
    compiled = {crate for crate, (obj, _) in CRATES.items()
                if any(t == obj or t.endswith("/" + obj) for t in last)}

    found = {crate: [] for crate in compiled}
    for text, path, line in diagnostics(lines):
        for crate, (_, ours) in CRATES.items():
            if crate in compiled and ours(path):
                if crate == "doctests" and "debugfs" not in doctest_of(obj_dir, line):
                    continue
                found[crate].append(text)
    for crate, texts in found.items():
        with open(os.path.join(state_dir, crate), "w") as f:
            f.writelines(texts)

    total = 0
    for crate in sorted(os.listdir(state_dir)):
        with open(os.path.join(state_dir, crate)) as f:
            text = f.read()
        count = warnings_in(text)
        if count:
            print(f"{crate}: {count} warning(s) on record from its last compilation:")
            print(text)
            total += count
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
