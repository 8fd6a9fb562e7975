# SPDX-License-Identifier: GPL-2.0-only
"""Our fmvj18x_cs (src/cards/) on the emulated Fujitsu FMV-J181
(pcmcia-fmvj18x: an MBH10302 card with an MB86960A) behind the emulated
82092, on trixie-backports' 7.x, where Linux 7.1 removed upstream's
fmvj18x_cs and i82092, with our i82092.  Under PCL_STRESS=soak also on
Debian's 6.12 with upstream's i82092 (ours is built there with
PCL_ALL_DRIVERS=1, and upstream's fmvj18x_cs stays out of the guest).

One guest boot per kernel.  The card in socket A is on the network rig
(tests/netrig.py) at its 10 Mbit/s line rate, as test_upstream_fmvj18x
runs upstream's driver, and runs all the rig's scenarios
(tests/nic_scenarios.py): ping and full frames, TCP both ways, multicast
through the chip's hash filter, promiscuous reception, bad frames, a
burst, MTU, link down and up (the MB86960A has no link status: frames
stop, the carrier stays), eject during a transfer, wire rate.  Then what
only our driver has to show: it names itself (ethtool's driver info and
link settings through tests/tools/ethinfo: 10 Mbit/s half duplex), the
frames it counts as sent on the chip's "transmit done", RX overflows
without pacing (counted, TCP still whole), upstream's sram_config option
(two 8 KB transmit buffers), a transmit timeout (a second card on a
4000 bit/s wire, behind an emulated Ricoh RL5C476 II CardBus bridge with
upstream yenta_socket) and the reset after it, and PC Card suspend and
resume with TCP traffic before and after.

CI cost: the module build, one boot and the scenarios, 1 min 40 s in
all on a busy 2-core machine under TCG.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import (CARDBUS_RICOH, CB_BUS, SOAK, check_ours_names_itself,
                           check_suspend_and_resume, check_transmit_timeout,
                           check_without_pacing, ours_fixture)

DRIVER = "fmvj18x_cs"
DEVICE = "pcmcia-fmvj18x"
LINE_RATE = 10000000
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge)
KERNELS = [("7.3", "trixie-bpo", True)]
if SOAK:
    KERNELS.append(("6.12", "bookworm-6.12", False))
XDIST_SPLIT = "rig"
UNPACED_TCP_BYTES = 512 << 10
PROBE = "Fujitsu MB86960 at"

rig = ours_fixture("fmvj18x", DRIVER, DEVICE, ("00:00:0e:18:10:10", "00:00:0e:18:10:11"),
                   KERNELS, wire_rate=LINE_RATE, spare_bus=CB_BUS, cardbus=CARDBUS_RICOH)


@pytest.fixture
def nic(rig):
    return rig.g, rig.card, DRIVER


def reload_driver(rig, params=""):
    """Load our module again with params: the card in socket A leaves,
    the module is unloaded and loaded, the card comes back up on its rig.
    Returns its interface and the probe's log line."""
    g, r = rig.g, rig.card
    assert r.eject(g)
    g.check("rmmod %s && pcl-insmod %s %s" % (DRIVER, DRIVER, params))
    mark = len(g.dmesg().splitlines())
    ifc = r.insert(g)
    probe = [line for line in g.dmesg().splitlines()[mark:] if PROBE in line]
    assert probe, "no probe line after loading %s %s" % (DRIVER, params)
    return ifc, probe[-1]


# ------------------------------------------------- our driver's own

def test_ours_names_itself(rig):
    """The probe names the MAC address from the card's PROM and the
    transmit buffers; ethtool shows 10 Mbit/s half duplex, no
    autonegotiation (the chip has no link status: the link is taken as
    up)."""
    probe = rig.g.check("dmesg | grep '%s'" % PROBE)
    assert rig.card.mac in probe, probe
    assert "(MBH10302, address from its PROM), 4K TX*2" in probe, probe
    check_ours_names_itself(rig, "10 DUPLEX half AUTONEG off", "link up, 10Mbps, half-duplex")


def test_counts_frames_sent(rig):
    """Frames sent are counted when the chip says a transmit buffer is
    done, every frame in it; nothing counts as an error."""
    g, r = rig.g, rig.card
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == 0


def test_without_pacing(rig):
    """Unpaced bursts overflow the 24 KB RX buffer: counted from the RX
    status overflow bit, TCP still whole."""
    check_without_pacing(rig.g, rig.card, DRIVER, UNPACED_TCP_BYTES)
    rig.g.assert_clean_kernel_log()


def test_sram_config_option(rig):
    """Upstream's option sram_config=1: two 8 KB transmit buffers (a 16 KB
    RX buffer); TCP both ways.  Back to the default afterwards."""
    g, r = rig.g, rig.card
    try:
        ifc, probe = reload_driver(rig, "sram_config=1")
        assert "8K TX*2" in probe, probe
        assert r.ping(g, size=1472, count=3) == 3
        assert r.tcp_from_guest(g, 512 << 10)[0], "TCP from the guest with 8 KB buffers"
        assert r.tcp_to_guest(g, 512 << 10)[0], "TCP into the guest with 8 KB buffers"
    finally:
        ifc, probe = reload_driver(rig)
    assert "4K TX*2" in probe, probe
    assert r.ping(g, count=2) == 2
    g.assert_clean_kernel_log()


def test_transmit_timeout(rig):
    """A 4 KB transmit buffer holds two full frames: on a 4000 bit/s wire
    the queue stays stopped for seconds, past the driver's 1 s watchdog;
    the driver resets the chip."""
    check_transmit_timeout(rig)


def test_suspend_and_resume(rig):
    """The card loses everything: resume programs the chip anew."""
    check_suspend_and_resume(rig)


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
