# SPDX-License-Identifier: GPL-2.0-only
"""Our i82092 (src/bridges/) on the emulated Intel 82092AA, with Debian's
pata_pcmcia and a CompactFlash card, on trixie-backports' 7.x, which has
no i82092 of its own, and under make soak also on bookworm's 6.1 and 6.12
(which ship upstream's i82092: it is left out of the guest, ours is
inserted by path).

One guest boot per kernel; the scenarios run in order and each puts the
slots in the state it needs.  Every card is backed by a host image of
deterministic random bytes whose sha256 the guest must read back.

Stress counts: PCL_STRESS=soak (make soak) runs the issues' full counts
(200 ejects, 1000 ejects during reads, 100 reloads) on every kernel.
CI runs 10 eject/insert and 10 unload/reload cycles, and one eject with
reads in flight: each of those costs about 50 s of libata error handling
in the guest (it revalidates the vanished drive with IDENTIFY timeouts of
5, 10 and 30 s; upstream's bridge driver the same), 20 of them would be
17 minutes per kernel.  (CI ran
20/3/20 until the check stage neared its 45 minutes; the i82365, tcic and
debug-kernel runs of the same scenarios cover the rest.)
PCL_I82092_EJECTS, PCL_I82092_READ_EJECTS and PCL_I82092_RELOADS override
the counts.
"""

import os

import pytest

import bridge_scenarios
import pclkernels as pk
from cfrig import CfRig, bridge_guest

SOAK = os.environ.get("PCL_STRESS") == "soak"
# (guest kernel, kernels.matrix line whose headers build the module).
# CI runs ours where DKMS installs it (7.x); on 6.1 and 6.12, which still
# ship upstream's driver, it is a cross-kernel run: make soak.
KERNELS = ([("6.1", "bookworm-6.1"), ("6.12", "bookworm-6.12")] if SOAK
           else []) + [("7.3", "trixie-bpo")]
MODULE = "i82092"
# parallel test runs: one worker per guest kernel (tests/conftest.py)
XDIST_SPLIT = "rig"
EJECT_CYCLES = int(os.environ.get("PCL_I82092_EJECTS", 200 if SOAK else 10))
READ_EJECT_CYCLES = int(os.environ.get("PCL_I82092_READ_EJECTS",
                                       1000 if SOAK else 1))
RELOAD_CYCLES = int(os.environ.get("PCL_I82092_RELOADS", 100 if SOAK else 10))


def build_module(matrix_name, out=None):
    """Our module for that kernel, built like `make modules` does, into
    `out` (a directory of the caller's, which parallel test workers'
    builds leave alone) or the cache."""
    return pk.our_modules(matrix_name, [MODULE], out)[0]


class Rig(CfRig):
    """The CompactFlash rig with our bridge module."""

    module = MODULE

    # cycles of the stress tests; a test file that runs these tests on
    # another kernel (test_debug_kernel.py) may choose its own
    eject_cycles = EJECT_CYCLES
    read_eject_cycles = READ_EJECT_CYCLES
    reload_cycles = RELOAD_CYCLES

    def load(self):
        self.g.check("pcl-insmod %s && pcl-socket-startup" % MODULE)

    load_module = load

    def unload_module(self):
        self.g.check("rmmod %s" % MODULE)

    def ensure(self, slot, present):
        # any test may run alone (pytest -k): then it brings the driver
        if self.g.run("[ -d /sys/module/%s ]" % MODULE)[1] != 0:
            self.load()
        super().ensure(slot, present)


@pytest.fixture(scope="module", params=KERNELS, ids=[k for k, _ in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name = request.param
    with bridge_guest(Rig, "i82092-" + kernel, kernel, matrix_name, MODULE,
                      tmp_path_factory.mktemp("cf-images-" + kernel)) as r:
        yield r


def test_ours_drives_the_bridge(rig):
    g = rig.g
    assert g.check("uname -r").strip() == rig.ko_release, \
        "the module was built for another kernel than the guest runs"
    # upstream's module (where the kernel has one) is not in the guest
    assert g.run("[ -d /sys/module/%s ]" % MODULE)[1] != 0
    rig.load()
    out = g.check("for d in /sys/bus/pci/devices/*; do "
                  "[ \"$(cat $d/vendor $d/device)\" = \"$(printf '0x8086\\n0x1221')\" ] && "
                  "basename $(readlink -f $d/driver/module); done; true")
    assert out.split() == [MODULE]
    assert "O" in g.check("cat /sys/module/%s/taint" % MODULE), \
        "the bridge is not driven by our out-of-tree module"
    assert g.check("ls /sys/class/pcmcia_socket").split() == \
        ["pcmcia_socket0", "pcmcia_socket1"]
    rig.assert_reads_back(0)
    g.assert_clean_kernel_log()


def test_hot_insert_and_surprise_eject(rig):
    rig.ensure(1, False)
    rig.insert(1)
    rig.assert_reads_back(1)
    rig.eject(1)
    assert rig.disk(1) is None
    rig.insert(1)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def test_both_sockets_at_once(rig):
    rig.ensure(0, True)
    rig.ensure(1, True)
    disks = {slot: rig.wait_disk(slot) for slot in (0, 1)}
    assert disks[0] != disks[1]
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.g.assert_clean_kernel_log()


def test_socket_power_state_in_sysfs(rig):
    rig.ensure(0, True)
    rig.wait_disk(0)
    state = "/sys/class/pcmcia_socket/pcmcia_socket0/card_pm_state"
    rig.g.check("echo off > %s" % state)
    assert rig.g.wait_for("[ \"$(cat %s)\" = off ]" % state, 30)
    rig.g.check("echo on > %s" % state)
    assert rig.g.wait_for("[ \"$(cat %s)\" = on ]" % state, 30)
    rig.assert_reads_back(0)
    rig.g.assert_clean_kernel_log()


def test_suspend_to_ram_rtc_wakeup(rig):
    # QEMU resets the bridge when it wakes from S3: our resume must bring
    # back its interrupt routing before the core resumes the sockets.
    rig.ensure(0, True)
    rig.wait_disk(0)
    rig.sleep_and_wake("deep")
    rig.assert_reads_back(0)
    rig.g.assert_clean_kernel_log()


def test_suspend_to_idle_rtc_wakeup(rig):
    # An RTC alarm ends suspend-to-idle through the ACPI RTC event (PM1
    # RTC_STS, an SCI); QEMU needs vm/qemu/patches/acpi-rtc-alarm-in-s0.patch
    # for it, or the guest sleeps until the command times out.
    rig.ensure(0, True)
    rig.wait_disk(0)
    sci = rig.g.check("awk -F: '/ acpi$/ { print $1 + 0 }' /proc/interrupts").strip()
    rig.sleep_and_wake("s2idle")
    assert rig.g.check("cat /sys/power/pm_wakeup_irq").strip() == sci, \
        "suspend-to-idle did not end with the ACPI interrupt (SCI %s)" % sci
    assert rig.g.check("cat /sys/class/rtc/rtc0/wakealarm").strip() == "", \
        "the RTC alarm is still armed: something else woke the guest"
    rig.assert_reads_back(0)
    rig.g.assert_clean_kernel_log()


# the stress scenarios every bridge runs, last
test_eject_insert_cycles = bridge_scenarios.eject_insert_cycles
test_eject_insert_cycles_during_reads = bridge_scenarios.eject_insert_cycles_during_reads
test_unload_reload_with_cards_present = bridge_scenarios.unload_reload_with_cards_present
