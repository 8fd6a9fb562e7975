# SPDX-License-Identifier: GPL-2.0-only
"""Our 3c589_cs (src/cards/) on the emulated 3Com 3c589 (pcmcia-3c589)
behind the emulated 82092, on trixie-backports' 7.x, where Linux 7.1
removed upstream's drivers of both, with our i82092.  Under
PCL_STRESS=soak also on Debian's 6.12 with upstream's i82092 (ours is
built there with PCL_ALL_DRIVERS=1, and upstream's 3c589_cs stays out of
the guest).

One guest boot per kernel.  The card in socket A is on the network rig
(tests/netrig.py) at its 10 Mbit/s line rate, as test_upstream_3com runs
upstream's driver (slirp's unpaced bursts overflow the 5 KB RX FIFO),
and runs all the rig's scenarios (tests/nic_scenarios.py): ping and
full frames, TCP both ways, multicast (the chip has no group filter),
promiscuous reception, bad frames, a burst, MTU, link down and up (our
driver follows the link beat with the carrier), eject during a
transfer, wire rate, a reset that never ends.  Then what only our driver
has to show: it names itself (ethtool's driver info and link settings
through tests/tools/ethinfo), the chip's counters as the count of frames
sent, RX FIFO overflows without pacing (counted, TCP still whole), the
if_port option (10base2: no link beat, the carrier stays on), a transmit
timeout (a second card in socket B on a 4000 bit/s wire) and the reset
after it, and PC Card suspend and resume with TCP traffic before and
after.

CI cost: the module build (20 s idle, 90 s busy), one boot and about 2
minutes of scenarios under TCG.
"""

import contextlib
import os

import pytest

import pclkernels as pk
from netrig import PEER_MAC, NetRig, mac_text
from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import SOAK, habits, rig_guest, test_receive_ring_overrun
from screaders import tools_dir

DRIVER = "3c589_cs"
DEVICE = "pcmcia-3c589"
BRIDGE = "pcc"
LINE_RATE = 10000000
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge)
KERNELS = [("7.3", "trixie-bpo", True)]
if SOAK:
    KERNELS.append(("6.12", "bookworm-6.12", False))
XDIST_SPLIT = "rig"
APPEND = "tsc=unstable"
SOCKET_PM = "/sys/class/pcmcia_socket/pcmcia_socket0/card_pm_state"
UNPACED_TCP_BYTES = 512 << 10


class Rigs:
    def __init__(self, guest, card, spare):
        self.g = guest
        self.card = card        # socket A, up from the start
        self.spare = spare      # socket B's segment, card plugged in later


@pytest.fixture(scope="module", params=KERNELS, ids=[k[0] for k in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name, our_bridge = request.param
    card = NetRig(0, DEVICE, "nic0", BRIDGE + ".0", "00:10:4b:35:89:10",
                  wire_rate=LINE_RATE)
    card.log = habits(DRIVER, ours=True)
    spare = NetRig(1, DEVICE, "nic1", BRIDGE + ".1", "00:10:4b:35:89:11",
                   wire_rate=LINE_RATE)
    names = [DRIVER] + (["i82092"] if our_bridge else [])
    stack = contextlib.ExitStack()
    with pk.rolling_tolerance(matrix_name):
        ko = pk.our_modules(matrix_name, names, tmp_path_factory.mktemp("ko-" + kernel))
        setup = ["pcl-insmod " + DRIVER]
        if our_bridge:
            setup.append("pcl-insmod i82092 && pcl-socket-startup")
        guest = stack.enter_context(rig_guest(
            "3c589-" + kernel, kernel, ["-device", "i82092,id=" + BRIDGE],
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


def reload_driver(rig, params=""):
    """Load our module again with params: the card in socket A leaves (the
    PC Card core holds the module while a card is bound), the module is
    unloaded and loaded, the card comes back up on its rig.  Returns its
    interface and the probe's log line."""
    g, r = rig.g, rig.card
    assert r.eject(g)
    g.check("rmmod %s && pcl-insmod %s %s" % (DRIVER, DRIVER, params))
    mark = len(g.dmesg().splitlines())
    ifc = r.insert(g)
    probe = [line for line in g.dmesg().splitlines()[mark:] if "3Com 3c589 at" in line]
    assert probe, "no probe line after loading %s %s" % (DRIVER, params)
    return ifc, probe[-1]


# ------------------------------------------------- our driver's own

def test_ours_names_itself(rig):
    g, r = rig.g, rig.card
    ifc = r.iface(g)
    assert "O" in g.check("cat /sys/module/%s/taint" % DRIVER), \
        "the card is not driven by our out-of-tree module"
    probe = g.check("dmesg | grep '3Com 3c589 at'")
    assert r.mac in probe and "10baseT port (the card's choice)" in probe, probe
    got = info(g, ifc)
    assert got["DRIVER"] == DRIVER
    assert got["BUS"] == "%d.0" % r.socket
    assert got["LINK"] == "1"
    assert got["SPEED"] == "10 DUPLEX half AUTONEG off", got
    assert g.run("dmesg | grep -q '%s: link up, 10Mbps, half-duplex'" % ifc)[1] == 0
    g.assert_clean_kernel_log()


def test_chip_counts_frames_sent(rig):
    """Frames sent are counted by the chip only (window 6, read when the
    statistics are): five pings are five more frames each way."""
    g, r = rig.g, rig.card
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == 0


def test_without_pacing(rig):
    """With wire-rate 0 every burst of frames arrives at once: the 5 KB RX
    FIFO overflows, the driver counts it, and TCP into the guest still
    completes, through retransmissions."""
    g, r = rig.g, rig.card
    assert r.eject(g)
    r.wire_rate = 0
    try:
        r.insert(g)
        test_receive_ring_overrun((g, r, DRIVER))
        ok, seconds = r.tcp_to_guest(g, UNPACED_TCP_BYTES, seed=4)
        print("%s to-guest without pacing: %d bytes in %.1f s"
              % (DRIVER, UNPACED_TCP_BYTES, seconds))
        assert ok, "TCP into the guest without pacing: data corrupted or cut short"
    finally:
        r.eject(g)
        r.wire_rate = LINE_RATE
        r.insert(g)
    assert r.ping(g, count=3) == 3
    g.assert_clean_kernel_log()


def test_if_port_option(rig):
    """if_port=2 (10base2): the probe names the port, ethtool too, and
    with no link beat to follow the carrier stays on when the link goes
    down.  Back to the default, the carrier follows 10baseT's link beat."""
    g, r = rig.g, rig.card
    try:
        ifc, probe = reload_driver(rig, "if_port=2")
        assert "10base2 port" in probe and "card's choice" not in probe, probe
        assert r.wait_up(g)
        assert g.check("cat /sys/class/net/%s/carrier" % ifc).strip() == "1"
        g.qmp_cmd("set_link", name=r.card_id, up=False)
        try:
            assert not g.wait_for("[ $(cat /sys/class/net/%s/carrier) = 0 ]" % ifc, 3), \
                "10base2 has no link beat, but the carrier went"
        finally:
            g.qmp_cmd("set_link", name=r.card_id, up=True)
        assert r.ping(g, count=2) == 2
    finally:
        ifc, probe = reload_driver(rig)
    assert "10baseT port (the card's choice)" in probe, probe
    assert r.wait_up(g)
    assert r.ping(g, count=2) == 2
    g.assert_clean_kernel_log()


def test_transmit_timeout(rig):
    """A card in socket B whose wire carries 4000 bit/s: a full frame
    takes 3 s to leave, so with the 3 KB TX FIFO holding two the queue
    stays stopped past the driver's 1 s watchdog, while a small frame
    takes a quarter of a second.  The driver resets the transmitter and
    the card works again (the reset dropped the frames that held the
    wire)."""
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
