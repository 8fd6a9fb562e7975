# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated Fujitsu FMV-J181 (pcmcia-fmvj18x: an MBH10302
card with an MB86960A) with the driver written for the real hardware:
upstream fmvj18x_cs from Debian's 6.12 (Linux 7.1 removed it), behind
the emulated 82092 driven by upstream's i82092.

The card gets a guest boot of its own (test_upstream_nics' boot fills
both sockets of the one bridge upstream's i82092 drives), in socket A on
the network rig (tests/netrig.py) at its line rate, 10 Mbit/s, and runs
the rig's scenarios (tests/nic_scenarios.py); then what the model must
show fmvj18x_cs in particular: the probe's report (an MBH10302 without
a LAN node ID tuple: the MAC address from the card's PROM at I/O 0x1a,
4 KB x 2 TX buffers) and the frames it counts as sent (on the chip's
"transmit done" interrupt, for every frame of a TX buffer).

The MB86960A has no link status and no reset to wait for: those
scenarios do not apply (skipped with the reason).  Known bugs of
upstream's fmvj18x_cs, expected failures here whenever they show:
frames the RX buffer had no room for (RX status overflow bit) are not
counted anywhere; a burst without wire pacing always shows it, the paced
burst when the machine is busy (the driver takes at most 10 frames an
interrupt).

CI cost: one 6.12 boot and the scenarios, 1 minute on a busy 2-core
machine under TCG.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import check_without_pacing, upstream_guest

BRIDGE = "pcc"
KERNEL = "6.12"

# card name -> (QEMU device, socket, MAC, upstream driver)
CARDS = {
    "fmvj181": ("pcmcia-fmvj18x", 0, "00:00:0e:18:10:01", "fmvj18x_cs"),
}
LINE_RATE = {"fmvj181": 10000000}
UNPACED_TCP_BYTES = 512 << 10


@pytest.fixture(scope="module")
def rig():
    with upstream_guest("nic-fmvj18x-" + KERNEL, KERNEL, BRIDGE, CARDS,
                        wire_rates=LINE_RATE, load=["i82092"]) as rigs:
        yield rigs


@pytest.fixture
def nic(rig):
    return rig.g, rig.rigs["fmvj181"], CARDS["fmvj181"][3]


def test_fmvj181_probe_report(rig):
    """fmvj18x_cs finds no LAN node ID tuple, takes the card for an
    MBH10302 (MANFID 0x0004, 0x0004) and reads the MAC address from the
    card's PROM at I/O 0x1a."""
    g, r = rig.g, rig.rigs["fmvj181"]
    log = g.check("dmesg | grep 'FMV-J181, sram'")
    assert "FMV-J181, sram 4K TX*2, port " in log, log
    assert "hw_addr %s" % r.mac in log, log


def test_fmvj181_statistics(rig):
    """Frames sent are counted on the chip's "transmit done" interrupt,
    a whole TX buffer at a time; nothing is counted as an error."""
    g, r = rig.g, rig.rigs["fmvj181"]
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == 0


def test_fmvj181_without_pacing(rig):
    """With wire-rate 0 a burst of frames arrives at once and overflows the
    24 KB RX buffer: the frames lost go uncounted (an expected failure, as
    whenever the paced burst loses frames on a busy machine)."""
    check_without_pacing(rig.g, rig.rigs["fmvj181"], CARDS["fmvj181"][3],
                         UNPACED_TCP_BYTES)


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
