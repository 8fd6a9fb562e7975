# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated New Media Ethernet PC Card (pcmcia-nmclan, an
Am79C940 MACE behind the Am2150 glue) with the driver written for the
real hardware: upstream nmclan_cs from Debian's 6.12 (Linux 7.1 removed
it), behind the emulated 82092 driven by upstream's i82092.

The card gets a guest boot of its own in socket A (upstream's i82092
drives one bridge only, and the other upstream tests' boots fill theirs),
on its own network rig (tests/netrig.py) at its line rate, 10 Mbit/s,
through the rig's scenarios (tests/nic_scenarios.py); then what the model
must show this driver in particular: the probe's report (the MAC from the
CIS's vendor tuple 0x80, the MACE's chip ID), the transmit status it reads
after every frame (FIFOFC's transmit frame count, XMTRC, XMTFS: a count
of 0 is an error to it), the MACE's missed packet counter behind
rx_missed_errors, and a burst without pacing.

Known bugs of upstream's nmclan_cs, expected failures or skips here: it
never loads the logical address filter, so no multicast group's frames
pass; it never reads the link state, so neither the log nor the carrier
follows the link.

CI cost: one 6.12 boot and the scenarios, 80 s on a busy 2-core machine
under TCG.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import check_without_pacing, upstream_guest

BRIDGE = "pcc"
KERNEL = "6.12"

# card name -> (QEMU device, socket, MAC, upstream driver)
CARDS = {"nmclan": ("pcmcia-nmclan", 0, "02:4e:4d:35:00:01", "nmclan_cs")}
LINE_RATE = {"nmclan": 10000000}
UNPACED_TCP_BYTES = 512 << 10


@pytest.fixture(scope="module")
def rig():
    with upstream_guest("nic-nmclan-" + KERNEL, KERNEL, BRIDGE, CARDS,
                        wire_rates=LINE_RATE, load=["i82092"]) as rigs:
        yield rigs


@pytest.fixture
def nic(rig):
    return rig.g, rig.rigs["nmclan"], CARDS["nmclan"][3]


def test_probe_report(rig):
    """nmclan_cs takes the MAC from the CIS's tuple 0x80 and accepts the
    MACE's chip ID (0x40, 0x?9)."""
    g, r = rig.g, rig.rigs["nmclan"]
    log = g.check("dmesg | grep 'nmclan: port'")
    assert "Auto port, hw_addr %s" % r.mac in log, log
    # up to the first report: the scenarios that eject a card while
    # nmclan_cs still probes it (test_reset_never_completes) make it read
    # all ones there
    boot = g.dmesg()
    assert "mace id not found" not in boot[:boot.index("nmclan: port")]


def test_statistics(rig):
    """Frames sent complete with a valid transmit status (no tx_errors:
    the transmit frame count is still 1 when the driver reads it), frames
    received are counted."""
    g, r = rig.g, rig.rigs["nmclan"]
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == 0
    assert r.sysfs(g, "statistics/tx_carrier_errors") == 0


def test_without_pacing(rig):
    """With wire-rate 0 a burst overflows the glue's 12 receive buffers:
    the MACE counts the frames it missed, which the driver reports as
    rx_missed_errors (the burst's check fails if frames are lost
    uncounted), and TCP into the guest still completes."""
    g, r = rig.g, rig.rigs["nmclan"]
    check_without_pacing(g, r, CARDS["nmclan"][3], UNPACED_TCP_BYTES)


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
