# SPDX-License-Identifier: GPL-2.0-only
"""The stress summary's bookkeeping (tests/tally.py), on the host: counts
add up per driver and kind of work across tests and parallel writers, a
report seen by two log checks of one test counts once, and each row says
how its tests ended."""

import json

import tally

T1 = "tests/test_a.py::test_x[7.3]"
T2 = "tests/test_b.py::test_y"


def rows(text):
    """{(driver, work): (count, reports, tests)} of a printed table."""
    out = {}
    for line in text.splitlines()[3:]:
        cells = [c for c in line.split("  ") if c.strip()]
        out[(cells[0].strip(), cells[1].strip())] = tuple(c.strip() for c in cells[2:])
    return out


def test_records_add_up_per_driver_and_work(tmp_path, monkeypatch):
    path = tmp_path / "tally.jsonl"
    monkeypatch.setenv(tally.TALLY, str(path))
    monkeypatch.setenv("PYTEST_CURRENT_TEST", T1 + " (call)")
    tally.count("i82092", "surprise ejects on 7.3", 4)
    tally.count("i82092", "surprise ejects on 7.3", 6)
    tally.reports(["[ 1.0] WARNING: x", "[ 2.0] BUG: y"])
    tally.reports(["[ 1.0] WARNING: x"])            # the same report again
    tally.outcome(T1, "failed")
    monkeypatch.setenv("PYTEST_CURRENT_TEST", T2 + " (call)")
    tally.count("i82092", "surprise ejects on 7.3", 5)
    tally.count("tcic", "suspends", 0)
    tally.outcome(T2, "passed")
    records = tally.load(str(path))
    assert all(json.loads(json.dumps(r)) == r for r in records)
    got = rows(tally.table(records))
    assert got[("i82092", "surprise ejects on 7.3")] == ("15", "2", "1 failed, 1 passed")
    assert got[("tcic", "suspends")] == ("0", "0", "1 passed")


def test_a_test_without_an_end_is_unfinished(tmp_path, monkeypatch):
    path = tmp_path / "tally.jsonl"
    monkeypatch.setenv(tally.TALLY, str(path))
    monkeypatch.setenv("PYTEST_CURRENT_TEST", T1 + " (setup)")
    tally.count("axnet_cs", "system calls", 1250)
    got = rows(tally.table(tally.load(str(path))))
    assert got[("axnet_cs", "system calls")] == ("1250", "0", "1 unfinished")


def test_nothing_is_recorded_without_the_file(monkeypatch):
    monkeypatch.delenv(tally.TALLY, raising=False)
    tally.count("i82092", "surprise ejects", 1)     # must not raise
    assert "no test counted any work" in tally.table([])


def test_rounds_count_what_finished(tmp_path, monkeypatch):
    """A round that fails is not counted, the ones before it are, and
    the failure goes on to the test."""
    path = tmp_path / "tally.jsonl"
    monkeypatch.setenv(tally.TALLY, str(path))
    monkeypatch.setenv("PYTEST_CURRENT_TEST", T1 + " (call)")

    def step(i):
        assert i < 3, "round %d failed" % i

    try:
        tally.rounds(10, step, ["i82092", "tcic"], "suspends")
    except AssertionError as e:
        assert "round 3 failed" in str(e)
    else:
        raise AssertionError("the failing round was swallowed")
    got = rows(tally.table(tally.load(str(path))))
    assert got[("i82092", "suspends")][0] == "3"
    assert got[("tcic", "suspends")][0] == "3"
