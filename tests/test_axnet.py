# SPDX-License-Identifier: GPL-2.0-only
"""Our axnet_cs (src/cards/) on the emulated Asix AX88190 (pcmcia-ax88190)
behind the emulated 82092: on trixie-backports' 7.x, where Linux 7.1
removed both upstream drivers, with our i82092; under make soak
(PCL_STRESS=soak) also on Debian's 6.12 with upstream's i82092 (ours is
built there with PCL_ALL_DRIVERS=1, and upstream's axnet_cs stays out of
the guest).

One guest boot per kernel.  The card in socket A is on the network rig
(tests/netrig.py) and runs all its scenarios (tests/nic_scenarios.py):
ping and full frames, TCP both ways, multicast, promiscuous reception,
bad frames, ring overrun, MTU, link down and up, eject during a transfer,
wire rate, a reset that never ends.  Then what only our driver has to
show: it names itself (ethtool's driver info through tests/tools/ethinfo),
the PHY's speed and duplex, MTU limits, a second card in socket B at the
same time (its PHY at another address and powered down until the driver
sets CCSR's bit for it; on its own segment), a transmit timeout (a card
on a 4000 bit/s wire) and the reset after it, and PC Card suspend and
resume with TCP traffic before and after.

CI cost per kernel: the module build (20 s idle, 90 s busy), one boot
and about 4 minutes of scenarios under TCG.
"""

import os

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import (check_ours_names_itself, check_suspend_and_resume,
                           check_transmit_timeout, ethinfo, ours_fixture, second_card)

DRIVER = "axnet_cs"
DEVICE = "pcmcia-ax88190"
SOAK = os.environ.get("PCL_STRESS") == "soak"
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge).
# 6.12 still ships upstream's axnet_cs: ours there is a cross-kernel run,
# for make soak.
KERNELS = [("7.3", "trixie-bpo", True)] + (
    [("6.12", "bookworm-6.12", False)] if SOAK else [])
XDIST_SPLIT = "rig"

rig = ours_fixture("axn", DRIVER, DEVICE, ("02:00:4a:58:19:00", "02:00:4a:58:19:01"), KERNELS)


@pytest.fixture
def nic(rig):
    return rig.g, rig.card, DRIVER


# ------------------------------------------------- our driver's own

def test_ours_names_itself(rig):
    """The model's PHY autonegotiates 100BASE-TX full duplex with its
    partner."""
    check_ours_names_itself(rig, "100 DUPLEX full AUTONEG on",
                            "link up, 100Mbps, full-duplex")


def test_mtu_limits(rig):
    g, r = rig.g, rig.card
    ifc = r.iface(g)
    try:
        for bad in (67, 1501):
            assert g.run("ip link set %s mtu %d" % (ifc, bad))[1] != 0, bad
        g.check("ip link set %s mtu 68" % ifc)
        assert r.ping(g, size=40, count=2) == 2     # a full 68-byte packet
    finally:
        g.check("ip link set %s mtu 1500" % ifc)
    assert r.ping(g, size=1472, count=2) == 2


def test_two_cards_at_once(rig):
    """A second card in socket B, whose PHY answers at address 7 only once
    CCSR powers it up; both carry full-size pings at the same time; then
    it goes and the first one keeps working."""
    g, a, b = rig.g, rig.card, rig.spare
    with second_card(rig, phy_addr=7, phy_power_down=True) as ifc:
        got = ethinfo(g, ifc)
        # the PHY answered (without one there are no link settings)
        assert got["DRIVER"] == DRIVER and got["LINK"] == "1" and \
            got["SPEED"].startswith("100 DUPLEX full"), got
        a.spawn(g, "ping -c 20 -i 0.05 -s 1472 %s >/tmp/ping1 2>&1 </dev/null" % b.peer_ip,
                "/tmp/ping1.pid")
        assert a.ping(g, size=1472, count=10) == 10
        assert g.wait_for("grep -q 'packets received' /tmp/ping1", 60)
        out = g.check("cat /tmp/ping1")
        assert "20 packets received" in out, out
    assert a.ping(g, count=3) == 3
    g.assert_clean_kernel_log()


def test_transmit_timeout(rig):
    """Both transmit buffers loaded with full frames on a 4000 bit/s wire
    keep the queue stopped past the driver's 2 s watchdog; the driver
    resets the card and counts the lost frames."""
    check_transmit_timeout(rig)


def test_suspend_and_resume(rig):
    check_suspend_and_resume(rig)


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
