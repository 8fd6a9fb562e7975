# SPDX-License-Identifier: GPL-2.0-only
"""Our axnet_cs (src/cards/) on the emulated Asix AX88190 (pcmcia-ax88190)
behind the emulated 82092, on trixie-backports' 7.x: Linux 7.1 removed
both upstream drivers, so our i82092 drives the bridge.

One guest boot; the scenarios run in order and each brings the card to
the state it needs.  The card's only peer is QEMU's user-mode network
(restrict=on, nothing leaves QEMU): its gateway 10.0.2.2 answers ARP and
ping, and that is all this minimal rig uses.  Checked: the driver binds
and names itself (ethtool's driver info through tests/tools/ethinfo), the
station address comes from the card, ping with small, full-size (1500-byte
frames) and fragmented packets, MTU limits, the PHY's link following QMP
set_link in /sys/class/net/eth0/carrier and the kernel log, promiscuous
mode on and off, a second card in the other socket at the same time (its
PHY at another address and powered down until the driver sets CCSR's bit
for it, on its own user-mode network), a receive ring overflow (a 30 KB ping reply arrives as
one burst of 21 frames into a 13 KB ring), PC Card suspend and resume,
a transmit timeout (a card on a 1000 bit/s wire) and the reset after it,
and a surprise eject during a ping flood (the interface goes, the pinger
gets an error) followed by a new card that works.  Multicast reception,
promiscuous reception and TCP transfers need a peer that sends them:
tests/netrig.py's scenarios (issue 11's network rig) cover those.

CI cost: the module build (20 s on an idle machine, 90 s on a busy one),
one boot of about 12 s and about 85 s of scenarios under TCG.
"""

import os
import re
import shutil

import pytest

import pclkernels as pk
from pclguest import Guest
from screaders import tools_dir

KERNEL, MATRIX_NAME = "7.3", "trixie-bpo"
DRIVERS = ["axnet_cs", "i82092"]
BRIDGE = "pcc"
NIC = "nic0"
MAC = "02:00:4a:58:19:00"
GATEWAY = "10.0.2.2"
ADDRESS = "10.0.2.15/24"
SOCKET = "/sys/class/pcmcia_socket/pcmcia_socket0/card_pm_state"
APPEND = "tsc=unstable"
LINK_TIMEOUT = 10       # the driver polls the PHY once a second
STATS = "/sys/class/net/eth0/statistics/"


def build_modules(dest):
    """axnet_cs and i82092 for the guest's kernel, copied to dest (the
    cache's module directory is rebuilt by whoever builds next)."""
    proc = pk.run([os.path.join(pk.SCRIPTS, "modules.sh"), MATRIX_NAME],
                  env=dict(os.environ, PCL_ALL_DRIVERS="1"))
    assert proc.returncode == 0, "make modules KVER=%s failed:\n%s" % (
        MATRIX_NAME, proc.stderr[-3000:])
    src = proc.stdout.strip().splitlines()[-1]
    for name in DRIVERS:
        shutil.copy(os.path.join(src, name + ".ko"), dest)
    return [os.path.join(str(dest), name + ".ko") for name in DRIVERS]


def card_props():
    return dict(id=NIC, bus=BRIDGE + ".0", netdev="n0", mac=MAC)


class NetRig:
    def __init__(self, guest):
        self.g = guest

    def up(self):
        """eth0 there, up, addressed, with a link."""
        g = self.g
        assert g.wait_for("[ -e /sys/class/net/eth0 ]", 30), \
            g.run("ls /sys/class/net; dmesg | tail -n 20")[0]
        g.check("ip link set eth0 up && ip addr flush dev eth0 && "
                "ip addr add %s dev eth0" % ADDRESS)
        self.wait_carrier(1)

    def wait_carrier(self, value, ifc="eth0"):
        """carrier at value; for 1 also operstate up: the kernel lets
        frames through only once it has seen the carrier (linkwatch)."""
        cond = "grep -qx %d /sys/class/net/%s/carrier" % (value, ifc)
        if value:
            cond += " && grep -qx up /sys/class/net/%s/operstate" % ifc
        assert self.g.wait_for(cond, LINK_TIMEOUT), \
            "%s: carrier not %d after %d s" % (ifc, value, LINK_TIMEOUT)

    def ping(self, size=56, count=2):
        out, rc = self.g.run("ping -c %d -W 5 -s %d %s" % (count, size, GATEWAY),
                             timeout=60)
        return rc == 0 and ("%d packets received" % count) in out, out

    def assert_ping(self, size=56, count=2):
        ok, out = self.ping(size, count)
        assert ok, out

    def stat(self, name):
        return int(self.g.check("cat " + STATS + name))

    def info(self):
        """ethinfo's lines as {key: rest of the line}."""
        out = self.g.check("ethinfo eth0")
        return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)

    def dmesg_count(self, pattern):
        return len(re.findall(pattern, self.g.dmesg()))


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    with pk.rolling_tolerance(MATRIX_NAME):
        ko = build_modules(tmp_path_factory.mktemp("ko-axnet"))
        files = {"/pcl/bin/ethinfo": os.path.join(tools_dir(), "ethinfo")}
        props = ",".join("%s=%s" % kv for kv in card_props().items())
        args = ["-device", "i82092,id=" + BRIDGE,
                "-netdev", "user,id=n0,restrict=on",
                "-netdev", "user,id=n1,restrict=on,net=10.0.3.0/24",
                "-device", "pcmcia-ax88190," + props]
        guest = Guest("axn-" + KERNEL, kernel=KERNEL, extra_ko=ko, files=files,
                      qemu_args=args, append=APPEND)
        guest.start()
    try:
        guest.check("pcl-insmod axnet_cs && pcl-insmod i82092 && "
                    "pcl-socket-startup")
        r = NetRig(guest)
        r.up()
        yield r
    finally:
        guest.stop()


def test_ours_drives_the_card(rig):
    g = rig.g
    assert "O" in g.check("cat /sys/module/axnet_cs/taint"), \
        "the card is not driven by our out-of-tree module"
    info = rig.info()
    assert info["DRIVER"] == "axnet_cs"
    assert info["BUS"] == "0.0"
    assert info["LINK"] == "1"
    # the model's PHY autonegotiates 100BASE-TX full duplex with its partner
    assert info["SPEED"] == "100 DUPLEX full AUTONEG on", info
    # the station address is the card's, read from its NIC memory
    assert g.check("cat /sys/class/net/eth0/address").strip() == MAC
    assert rig.dmesg_count(r"eth0: link up, 100Mbps, full-duplex") >= 1
    g.assert_clean_kernel_log()


def test_ping_small_full_and_fragmented(rig):
    rx, tx = rig.stat("rx_packets"), rig.stat("tx_packets")
    rig.assert_ping(56, 3)
    rig.assert_ping(1472, 3)    # 1514-byte frames both ways
    rig.assert_ping(8000, 2)    # 6 fragments each way, back to back
    assert rig.stat("rx_packets") >= rx + 3 + 3 + 12
    assert rig.stat("tx_packets") >= tx + 3 + 3 + 12
    for name in ("rx_errors", "tx_errors", "rx_length_errors", "rx_dropped"):
        assert rig.stat(name) == 0, name
    rig.g.assert_clean_kernel_log()


def test_mtu_change(rig):
    g = rig.g
    try:
        g.check("ip link set eth0 mtu 576")
        rig.assert_ping(548, 2)     # a full 576-byte packet
        rig.assert_ping(1472, 2)    # now fragments
        for bad in (67, 1501):
            assert g.run("ip link set eth0 mtu %d" % bad)[1] != 0, bad
            assert g.check("cat /sys/class/net/eth0/mtu").strip() == "576"
        g.check("ip link set eth0 mtu 68")
        rig.assert_ping(40, 2)
    finally:
        g.check("ip link set eth0 mtu 1500")
    rig.assert_ping(1472, 2)
    g.assert_clean_kernel_log()


def test_link_down_and_up(rig):
    g = rig.g
    downs = rig.dmesg_count(r"eth0: link down")
    g.qmp_cmd("set_link", name=NIC, up=False)
    rig.wait_carrier(0)
    assert rig.info()["LINK"] == "0"
    assert rig.dmesg_count(r"eth0: link down") == downs + 1
    assert not rig.ping(56, 1)[0], "a ping went through a link that is down"
    ups = rig.dmesg_count(r"eth0: link up")
    g.qmp_cmd("set_link", name=NIC, up=True)
    rig.wait_carrier(1)
    assert rig.dmesg_count(r"eth0: link up") == ups + 1
    rig.assert_ping()
    g.assert_clean_kernel_log()


def test_promiscuous_on_and_off(rig):
    g = rig.g
    g.check("ip link set eth0 promisc on")
    assert rig.dmesg_count(r"eth0: entered promiscuous mode") >= 1
    rig.assert_ping()
    g.check("ip link set eth0 promisc off")
    assert rig.dmesg_count(r"eth0: left promiscuous mode") >= 1
    rig.assert_ping()
    g.assert_clean_kernel_log()


def test_two_cards_at_once(rig):
    """A second card in socket B, whose PHY answers at address 7 only once
    CCSR powers it up, on a network of its own; both carry pings at the
    same time; then it goes and the first one keeps working."""
    g = rig.g
    g.device_add("pcmcia-ax88190", id="nic1", bus=BRIDGE + ".1", netdev="n1",
                 mac="02:00:4a:58:19:01", phy_addr=7, phy_power_down=True)
    try:
        assert g.wait_for("[ -e /sys/class/net/eth1 ]", 30), \
            g.run("ls /sys/class/net; dmesg | tail -n 20")[0]
        g.check("ip link set eth1 up && ip addr add 10.0.3.15/24 dev eth1")
        rig.wait_carrier(1, "eth1")
        info = g.check("ethinfo eth1")
        # the PHY answered (without one there are no link settings)
        assert "DRIVER axnet_cs" in info and "LINK 1" in info and \
            "SPEED 100 DUPLEX full" in info, info
        g.check("(ping -c 20 -i 0.05 -s 1472 10.0.3.2 >/tmp/ping1 2>&1 "
                "</dev/null &)")
        rig.assert_ping(1472, 10)
        assert g.wait_for("grep -q 'packets received' /tmp/ping1", 60)
        out = g.check("cat /tmp/ping1")
        assert "20 packets received" in out, out
    finally:
        g.device_del("nic1")
    assert g.wait_for("[ ! -e /sys/class/net/eth1 ]", 30)
    rig.assert_ping()
    g.assert_clean_kernel_log()


def test_transmit_timeout(rig):
    """A card in socket B whose wire carries 1000 bit/s: a full frame
    takes 12 s to leave, so with both transmit buffers loaded the queue
    stays stopped past the watchdog.  The driver resets the card, counts
    the lost frames, closes and opens again, and the card goes cleanly."""
    g = rig.g
    g.device_add("pcmcia-ax88190", id="nic1", bus=BRIDGE + ".1", netdev="n1",
                 mac="02:00:4a:58:19:01", wire_rate=1000)
    try:
        assert g.wait_for("[ -e /sys/class/net/eth1 ]", 30)
        g.check("ip link set eth1 up && ip addr add 10.0.3.15/24 dev eth1")
        rig.wait_carrier(1, "eth1")
        # slirp's gateway address: the big frames go out without ARP first
        g.check("arp -i eth1 -s 10.0.3.2 52:55:0a:00:03:02")
        resets = rig.dmesg_count(r"eth1: transmit timed out")
        g.run("ping -c 4 -i 0.1 -W 3 -s 1472 10.0.3.2", timeout=60)
        assert g.wait_for("[ $(dmesg | grep -c 'eth1: transmit timed out') -gt %d ]"
                          % resets, 30), "no transmit timeout:\n" + g.run(
                              "ip neigh; cat /sys/class/net/eth1/statistics/tx_*")[0]
        assert int(g.check("cat /sys/class/net/eth1/statistics/tx_errors")) > 0
        # closed and opened again after the resets.  No ping afterwards:
        # the model keeps the wire busy for the frames a reset cancelled
        # (its wire time is not cleared by a chip reset)
        g.check("ip link set eth1 down && ip link set eth1 up")
        rig.wait_carrier(1, "eth1")
    finally:
        g.device_del("nic1")
    assert g.wait_for("[ ! -e /sys/class/net/eth1 ]", 30)
    rig.assert_ping()
    g.assert_clean_kernel_log()


def test_receive_ring_overflow(rig):
    """A 30000-byte ping's reply comes back as 21 frames at once, more
    than the 52 pages of the receive ring hold: the ring overflows, the
    driver counts it, recovers and goes on."""
    overruns, missed = rig.stat("rx_over_errors"), rig.stat("rx_missed_errors")
    rig.ping(30000, 2)          # the replies may be lost: not the point
    assert rig.stat("rx_missed_errors") > missed, \
        "the card missed no frame: the burst did not overflow the ring"
    assert rig.stat("rx_over_errors") > overruns, \
        "the driver did not run its overrun recovery"
    rig.assert_ping(56, 3)
    rig.assert_ping(1472, 3)
    rig.g.assert_clean_kernel_log()


def test_suspend_and_resume(rig):
    g = rig.g
    rig.assert_ping()
    g.check("echo off > %s" % SOCKET)
    assert g.wait_for("grep -qx off %s" % SOCKET, 30)
    assert not rig.ping(56, 1)[0], "a ping went through a suspended card"
    g.check("echo on > %s" % SOCKET)
    assert g.wait_for("grep -qx on %s" % SOCKET, 30)
    rig.wait_carrier(1)
    rig.assert_ping(56, 3)
    rig.assert_ping(1472, 2)
    g.assert_clean_kernel_log()


def test_eject_during_traffic_and_insert_again(rig):
    g = rig.g
    # a ping flood of full-size frames, outside the console's job control
    g.check("(sh -c 'ping -i 0.02 -s 1472 %s; echo EXIT $?' "
            ">/tmp/flood 2>&1 </dev/null &); "
            "pcl-wait 20 'grep -q \"seq=20 \" /tmp/flood'" % GATEWAY)
    g.device_del(NIC)
    assert g.wait_for("[ ! -e /sys/class/net/eth0 ]", 30), \
        g.run("ls /sys/class/net; dmesg | tail -n 20")[0]
    assert g.wait_for("grep -q '^EXIT' /tmp/flood", 30), \
        g.run("tail -n 5 /tmp/flood")[0]
    out = g.check("tail -n 3 /tmp/flood")
    assert "Network is unreachable" in out and "EXIT 1" in out, out
    g.assert_clean_kernel_log()

    g.device_add("pcmcia-ax88190", **card_props())
    rig.up()
    assert rig.info()["DRIVER"] == "axnet_cs"
    rig.assert_ping(56, 3)
    rig.assert_ping(1472, 2)
    g.assert_clean_kernel_log()
