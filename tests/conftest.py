# SPDX-License-Identifier: GPL-2.0-only
"""Shared pytest setup: the guest-boot helper is importable as pclguest,
and a failed test names the logs of the guests that were running."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "vm", "guest"))

import pclguest  # noqa: E402


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and pclguest.live_guests:
        report.sections.append(
            ("guest logs", "\n".join(g.logdir for g in pclguest.live_guests)))


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
