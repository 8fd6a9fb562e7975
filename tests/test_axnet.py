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

import contextlib
import os

import pytest

import pclkernels as pk
from netrig import PEER_MAC, NetRig, mac_text
from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import habits, rig_guest
from screaders import tools_dir

DRIVER = "axnet_cs"
DEVICE = "pcmcia-ax88190"
BRIDGE = "pcc"
SOAK = os.environ.get("PCL_STRESS") == "soak"
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge).
# 6.12 still ships upstream's axnet_cs: ours there is a cross-kernel run,
# for make soak.
KERNELS = [("7.3", "trixie-bpo", True)] + (
    [("6.12", "bookworm-6.12", False)] if SOAK else [])
XDIST_SPLIT = "rig"
APPEND = "tsc=unstable"
SOCKET_PM = "/sys/class/pcmcia_socket/pcmcia_socket0/card_pm_state"


class Rigs:
    def __init__(self, guest, card, spare):
        self.g = guest
        self.card = card        # socket A, up from the start
        self.spare = spare      # socket B's segment, card plugged in later


@pytest.fixture(scope="module", params=KERNELS, ids=[k[0] for k in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name, our_bridge = request.param
    card = NetRig(0, DEVICE, "nic0", BRIDGE + ".0", "02:00:4a:58:19:00")
    card.log = habits(DRIVER, ours=True)
    spare = NetRig(1, DEVICE, "nic1", BRIDGE + ".1", "02:00:4a:58:19:01")
    names = [DRIVER] + (["i82092"] if our_bridge else [])
    stack = contextlib.ExitStack()
    with pk.rolling_tolerance(matrix_name):
        ko = pk.our_modules(matrix_name, names, tmp_path_factory.mktemp("ko-" + kernel))
        setup = ["pcl-insmod " + DRIVER]
        if our_bridge:
            setup.append("pcl-insmod i82092 && pcl-socket-startup")
        guest = stack.enter_context(rig_guest(
            "axn-" + kernel, kernel, ["-device", "i82092,id=" + BRIDGE],
            [card], spares=[spare], setup=setup, extra_ko=ko,
            load=[] if our_bridge else ["i82092"],
            files={"/pcl/bin/ethinfo": os.path.join(tools_dir(), "ethinfo")},
            append=APPEND))
    with stack:
        yield Rigs(guest, card, spare)


@pytest.fixture
def nic(rig):
    return rig.g, rig.card, DRIVER


def info(g, ifc):
    """ethinfo's lines as {key: rest of the line}."""
    out = g.check("ethinfo " + ifc)
    return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)


@contextlib.contextmanager
def second_card(rig, **props):
    """The spare segment's card in socket B, up, for the with block."""
    g, r = rig.g, rig.spare
    g.device_add(DEVICE, **dict(r.card_props(), **props))
    try:
        ifc = r.up(g)
        assert r.wait_up(g), "%s: no carrier" % ifc
        yield ifc
    finally:
        g.device_del(r.card_id)
    assert g.wait_for("[ ! -e /sys/bus/pcmcia/devices/%d.0 ]" % r.socket, 30)


# ------------------------------------------------- our driver's own

def test_ours_names_itself(rig):
    g, r = rig.g, rig.card
    ifc = r.iface(g)
    assert "O" in g.check("cat /sys/module/%s/taint" % DRIVER), \
        "the card is not driven by our out-of-tree module"
    got = info(g, ifc)
    assert got["DRIVER"] == DRIVER
    assert got["BUS"] == "%d.0" % r.socket
    assert got["LINK"] == "1"
    # the model's PHY autonegotiates 100BASE-TX full duplex with its partner
    assert got["SPEED"] == "100 DUPLEX full AUTONEG on", got
    assert g.run("dmesg | grep -q '%s: link up, 100Mbps, full-duplex'" % ifc)[1] == 0
    g.assert_clean_kernel_log()


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
        got = info(g, ifc)
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
    """A card in socket B whose wire carries 4000 bit/s: a full frame
    takes 3 s to leave, so with both transmit buffers loaded the queue
    stays stopped past the driver's 2 s watchdog, while a small frame
    takes a quarter of a second.  The driver resets the card, counts the
    lost frames, and the card works again (the frames the reset aborted
    no longer hold the wire)."""
    g, b = rig.g, rig.spare
    with second_card(rig, wire_rate=4000) as ifc:
        # the peer's MAC known: the big frames go out without ARP first
        g.check("arp -i %s -s %s %s" % (ifc, b.peer_ip, mac_text(PEER_MAC)))
        resets = int(g.run("dmesg | grep -c '%s: transmit timed out'" % ifc)[0].strip() or 0)
        g.run("ping -c 4 -i 0.1 -W 3 -s 1472 %s" % b.peer_ip, timeout=60)
        assert g.wait_for("[ $(dmesg | grep -c '%s: transmit timed out') -gt %d ]"
                          % (ifc, resets), 30), "no transmit timeout:\n" + g.run(
                              "ip neigh; cat /sys/class/net/%s/statistics/tx_*" % ifc)[0]
        assert b.sysfs(g, "statistics/tx_errors") > 0
        # the later pings still queued would each stop the queue again:
        # down and up drops them
        g.check("ip link set %s down && ip link set %s up" % (ifc, ifc))
        assert b.wait_up(g), "%s: no carrier after down and up" % ifc
        assert b.ping(g, count=1, wait=10) == 1, "no traffic after the reset"
    assert rig.card.ping(g, count=3) == 3
    g.assert_clean_kernel_log()


def test_suspend_and_resume(rig):
    g, r = rig.g, rig.card
    ifc = r.iface(g)
    assert r.tcp_to_guest(g, 256 << 10)[0], "TCP before the suspend"
    g.check("echo off > %s" % SOCKET_PM)
    assert g.wait_for("grep -qx off %s" % SOCKET_PM, 30)
    assert r.ping(g, count=1, wait=2) == 0, "a ping went through a suspended card"
    g.check("echo on > %s" % SOCKET_PM)
    assert g.wait_for("grep -qx on %s" % SOCKET_PM, 30)
    assert r.wait_up(g), "%s: no carrier after the resume" % ifc
    assert r.ping(g, size=1472, count=3) == 3
    assert r.tcp_to_guest(g, 256 << 10, seed=2)[0], "TCP after the resume"
    assert r.tcp_from_guest(g, 256 << 10)[0], "TCP after the resume"
    g.assert_clean_kernel_log()


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
