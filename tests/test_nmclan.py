# SPDX-License-Identifier: GPL-2.0-only
"""Our nmclan_cs (src/cards/nmclan_cs.c, nmclan_nic.c) on the emulated
New Media Ethernet PC Card (pcmcia-nmclan: an Am79C940 MACE behind the
Am2150 glue) behind the emulated 82092, on trixie-backports' 7.x, where
Linux 7.1 removed upstream's driver, with our i82092.  Under
PCL_STRESS=soak also on Debian's 6.12 with upstream's i82092 (ours built
there with PCL_ALL_DRIVERS=1, upstream's nmclan_cs kept out of the
guest).

One guest boot per kernel.  The card in socket A is on the network rig
(tests/netrig.py) at its 10 Mbit/s line rate, as test_upstream_nmclan
runs upstream's driver, through all the rig's scenarios
(tests/nic_scenarios.py): ping and full frames, TCP both ways, multicast
through the MACE's logical address filter, promiscuous reception, bad
frames (too long: the card reports an overflow; too short), a burst
that overruns the card's 12 receive buffers (the MACE's missed frame
count), MTU, link down and up (the driver follows the MACE's link state
with the carrier), eject during a transfer, wire rate, a MACE whose
reset never ends.  Then what only our driver has to show: it names
itself (ethtool's driver info, 10 Mbit/s half duplex, through
tests/tools/ethinfo), the frames sent counted from the MACE's transmit
status, a transmit timeout (a second card on a 4000 bit/s wire, all four
transmit buffers taken; that card behind an emulated TI PCI1225
CardBus bridge with upstream yenta_socket) and the card's reset after it,
and PC Card suspend and resume with TCP traffic before and after.

CI cost: 104 s on a busy 2-core machine under TCG: the module build
and the boot 26 s (the build alone up to 90 s when nothing of it is
cached), the scenarios 78 s.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import (CARDBUS_TI, CB_BUS, SOAK, check_ours_names_itself,
                           check_suspend_and_resume, check_transmit_timeout, ours_fixture)

DRIVER = "nmclan_cs"
DEVICE = "pcmcia-nmclan"
LINE_RATE = 10000000
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge)
KERNELS = [("7.3", "trixie-bpo", True)]
if SOAK:
    KERNELS.append(("6.12", "bookworm-6.12", False))
XDIST_SPLIT = "rig"

rig = ours_fixture("nmclan", DRIVER, DEVICE, ("02:4e:4d:35:00:10", "02:4e:4d:35:00:11"),
                   KERNELS, wire_rate=LINE_RATE, spare_bus=CB_BUS, cardbus=CARDBUS_TI)


@pytest.fixture
def nic(rig):
    return rig.g, rig.card, DRIVER


def test_ours_names_itself(rig):
    """10 Mbit/s half duplex (all the MACE's 10BASE-T port does); the probe
    names the MAC address from the CIS and the MACE's version."""
    probe = rig.g.check("dmesg | grep 'New Media Ethernet at'")
    assert rig.card.mac in probe and "MACE version 3" in probe, probe
    check_ours_names_itself(rig, "10 DUPLEX half AUTONEG off", "link up, 10Mbps, half-duplex")


def test_frames_sent_counted(rig):
    """Frames sent are counted from the MACE's transmit status, one per
    frame: five pings are five more frames each way, none in error."""
    g, r = rig.g, rig.card
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == 0


def test_transmit_timeout(rig):
    """The card holds four frames to send: on a 4000 bit/s wire the queue
    stays stopped for 3 s, past the driver's 1 s watchdog; the driver
    resets the card (COR soft reset, then the MACE) and it works again."""
    check_transmit_timeout(rig)


def test_suspend_and_resume(rig):
    check_suspend_and_resume(rig)


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
