# SPDX-License-Identifier: GPL-2.0-only
"""What the stress tests did and found, for the table a test run ends
with (make check and make soak): per driver and kind of work, how much
of it ran (ejects, suspends, CIS images, system calls, ...), the kernel
checkers' reports found meanwhile, and how the tests that did it ended.

A test counts its work with count(driver, what, n).  The kernel log
checks (pclguest's kernel_log_problems) count the reports they find
against the test that is running; the test's outcome comes from the
pytest hook in conftest.py.  Records are JSON lines appended to the file
PCL_TALLY names (tests/run sets it; without it nothing is recorded), so
the parallel workers of one run share it.

    python3 tests/tally.py FILE      prints the table of a run
"""

import json
import os
import sys

TALLY = "PCL_TALLY"


def _current_test():
    # "tests/test_x.py::test_y[param] (call)"
    return os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]


def _append(record):
    path = os.environ.get(TALLY)
    if not path:
        return
    record.setdefault("test", _current_test())
    # one short write in append mode: records of parallel workers do not mix
    with open(path, "a") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")


def count(driver, what, n):
    """The running test did n of `what` to `driver` (a module name)."""
    _append({"driver": driver, "what": what, "n": int(n)})


def rounds(n, step, drivers, what):
    """step(0) ... step(n - 1), counting the rounds that finished as
    `what` for each of drivers, also when one of them fails."""
    done = 0
    try:
        for i in range(n):
            step(i)
            done += 1
    finally:
        for driver in drivers:
            count(driver, what, done)


def reports(problems):
    """A kernel log check of the running test found these problems (a
    report seen by two checks of one test counts once)."""
    if problems:
        _append({"reports": list(problems[:50])})


def outcome(test, result):
    """How a test ended: passed, failed, skipped, xfailed, xpassed."""
    _append({"test": test, "outcome": result})


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def table(records):
    """The summary: a row per (driver, what), with the count summed over
    the tests that did it, the reports found in those tests and their
    outcomes."""
    seen, ends = {}, {}
    for r in records:
        if "reports" in r:
            seen.setdefault(r["test"], set()).update(r["reports"])
        elif "outcome" in r:
            ends[r["test"]] = r["outcome"]
    rows = {}
    for r in records:
        if "what" not in r:
            continue
        row = rows.setdefault((r["driver"], r["what"]), {"n": 0, "tests": set()})
        row["n"] += r["n"]
        row["tests"].add(r["test"])
    if not rows:
        return "stress summary: no test counted any work\n"
    head = ("driver", "work", "count", "reports", "tests")
    lines = []
    for (driver, what), row in sorted(rows.items()):
        results = {}
        for t in row["tests"]:
            end = ends.get(t, "unfinished")
            results[end] = results.get(end, 0) + 1
        lines.append((driver, what, str(row["n"]),
                      str(sum(len(seen.get(t, ())) for t in row["tests"])),
                      ", ".join("%d %s" % (n, e) for e, n in sorted(results.items()))))
    widths = [max(len(x[i]) for x in lines + [head]) for i in range(len(head))]
    fmt = "  ".join("%%-%ds" % w for w in widths[:-1]) + "  %s"
    out = ["stress summary (reports: kernel checker findings in those tests)",
           fmt % head, fmt % tuple("-" * w for w in widths)]
    out += [fmt % line for line in lines]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tally.py FILE")
    sys.stdout.write(table(load(sys.argv[1])))
