# SPDX-License-Identifier: GPL-2.0-only
"""The pcsc-lite driver for the CardMan readers (userspace/ifd-cm40xx):
it builds with -Wall -Wextra -Werror against Debian's pcsc-lite headers,
exports the IFDH* entry points pcscd looks up, and passes its C unit
tests (tests/unit.c there: ATR parsing, the T=0 APDU cases, the T=1
engine against scripted cards, the handler against fake /dev/cmmN and
/dev/cmxN).  Host only, no guest: a few seconds."""

import os
import re

import pytest

import pclkernels as pk

IFD = os.path.join(pk.TOP, "userspace", "ifd-cm40xx")
ENTRY_POINTS = {"IFDHCreateChannel", "IFDHCreateChannelByName",
                "IFDHCloseChannel", "IFDHGetCapabilities",
                "IFDHSetCapabilities", "IFDHSetProtocolParameters",
                "IFDHPowerICC", "IFDHTransmitToICC", "IFDHICCPresence",
                "IFDHControl"}


def unit_names():
    with open(os.path.join(IFD, "tests", "unit.c")) as f:
        return re.findall(r"^TEST\((\w+)\)$", f.read(), re.M)


NAMES = unit_names()


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    out = tmp_path_factory.mktemp("ifd")
    pk.bash("need_host_packages gcc make pkg-config libpcsclite-dev")
    proc = pk.run(["make", "-C", IFD, "OUT=%s" % out, "all",
                   "%s/unit-tests" % out])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning:" not in proc.stderr, proc.stderr
    return out


def test_unit_tests_are_found():
    assert len(NAMES) >= 40, NAMES


def test_every_unit_test_is_registered(build):
    listed = pk.run([str(build / "unit-tests"), "-l"], check=True).stdout.split()
    assert sorted(listed) == sorted(NAMES)


def test_driver_exports_the_entry_points(build):
    syms = pk.run(["nm", "-D", "--defined-only", str(build / "libifd-cm40xx.so")],
                  check=True).stdout
    exported = {line.split()[-1] for line in syms.splitlines()
                if line.split()[1] == "T"}
    assert exported == ENTRY_POINTS


@pytest.mark.parametrize("name", NAMES)
def test_unit(build, name):
    proc = pk.run([str(build / "unit-tests"), name])
    assert proc.returncode == 0 and "ok %s\n" % name in proc.stdout, (
        proc.stdout + proc.stderr)
