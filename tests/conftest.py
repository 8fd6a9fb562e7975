# SPDX-License-Identifier: GPL-2.0-only
"""Shared pytest setup: the guest-boot helper is importable as pclguest,
a failed test names the logs of the guests that were running, and the
run ends with the stress summary (tests/tally.py)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "vm", "guest"))

import pclguest  # noqa: E402
import tally  # noqa: E402

pclguest.Guest.problem_listeners.append(tally.reports)


def _result(report):
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    return report.outcome


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and pclguest.live_guests:
        report.sections.append(
            ("guest logs", "\n".join(g.logdir for g in pclguest.live_guests)))
    # a test's end for the stress summary (tests/tally.py): its call, or a
    # setup that did not get that far, or a teardown that failed after it
    if report.when == "call" or (report.when == "setup" and not report.passed) or \
            (report.when == "teardown" and report.failed):
        tally.outcome(report.nodeid, _result(report))


def pytest_terminal_summary(terminalreporter, config):
    """The run ends with what the stress tests did and found."""
    path = os.environ.get(tally.TALLY)
    if path and os.path.exists(path) and not hasattr(config, "workerinput"):
        terminalreporter.write_sep("=", "stress summary")
        terminalreporter.write(tally.table(tally.load(path)))
        terminalreporter.write("(records: %s)\n" % path)


# Parallel runs (tests/run with PCL_TEST_JOBS > 1, pytest-xdist's
# --dist loadgroup): the tests of one file stay together, since they share
# module-scoped fixtures (a guest, a build); a file that sets
# XDIST_SPLIT = "<fixture>" is split further by that fixture's parameter
# (one guest kernel per worker).
def pytest_configure(config):
    config.addinivalue_line("markers", "xdist_group(name): tests that "
                            "run in the same pytest-xdist worker")


# tryfirst: xdist reads the groups in its own hook of the same name.  A
# file that sets XDIST_EARLY = True (its tests are the longest) comes
# first, so that its worker starts on it at once.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not getattr(item.module, "XDIST_EARLY", False))
    for item in items:
        group = item.module.__name__
        split = getattr(item.module, "XDIST_SPLIT", None)
        callspec = getattr(item, "callspec", None)
        if split and callspec and split in callspec.indices:
            group += "-%d" % callspec.indices[split]
        item.add_marker(pytest.mark.xdist_group(group))
