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
