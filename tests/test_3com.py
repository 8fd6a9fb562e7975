# SPDX-License-Identifier: GPL-2.0-only
"""Our 3c589_cs and 3c574_cs (src/cards/, one EtherLink III network side
in elink3_lib.c) on the emulated 3Com 3c589 (pcmcia-3c589) and 3C574-TX
(pcmcia-3c574) behind the emulated 82092 and an emulated TI PCI1225
CardBus bridge (upstream yenta_socket), on trixie-backports' 7.x,
where Linux 7.1 removed upstream's drivers of all three, with our
i82092.  Under PCL_STRESS=soak also on Debian's 6.12 with upstream's
i82092 (ours are built there with PCL_ALL_DRIVERS=1, and upstream's
3c589_cs and 3c574_cs stay out of the guest).

One guest boot per kernel, both cards in it.  The 3c589 in socket A is
on the network rig (tests/netrig.py) at its 10 Mbit/s line rate, as
test_upstream_3com runs upstream's driver (slirp's unpaced bursts
overflow the 5 KB RX FIFO); the 3c574 behind the CardBus bridge, on a
rig of its own at 100 Mbit/s.  Each runs all the rig's scenarios
(tests/nic_scenarios.py): ping and full frames, TCP both ways, multicast
(no group filter), promiscuous reception, bad frames, a burst, MTU, link
down and up (our drivers follow the link beat or the PHY with the
carrier), eject during a transfer, wire rate, a reset that never ends.
Then what only our drivers have to show: they name themselves
(ethtool's driver info and link settings through tests/tools/ethinfo:
the 3c589 10 Mbit/s half duplex, the 3c574 what its PHY negotiated), the
chip's counters as the count of frames sent, and PC Card suspend and
resume with TCP traffic before and after; for the 3c589 also RX FIFO
overflows without pacing (counted, TCP still whole), the if_port option
(10base2: no link beat, the carrier stays on), a transmit timeout (a
second 3c589 behind the CardBus bridge, where the 3c574 steps out for
it, on a 4000 bit/s wire) and the reset after it.  The 3c574 shares
that watchdog and reset path (elink3_lib.c); its own are the MII PHY and
the RoadRunner's reset.

CI cost: the module build (30 s idle, 90 s busy), one boot and the
scenarios, 5 minutes in all on a busy 2-core machine under TCG, about 1
minute of it the 3c574's.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import (CARDBUS_TI, CB_BUS, SOAK, check_ours_names_itself,
                           check_suspend_and_resume, check_transmit_timeout, check_without_pacing,
                           ours_fixture)

DRIVER = "3c589_cs"
DEVICE = "pcmcia-3c589"
LINE_RATE = 10000000
DRIVER_574 = "3c574_cs"
LINE_RATE_574 = 100000000
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge)
KERNELS = [("7.3", "trixie-bpo", True)]
if SOAK:
    KERNELS.append(("6.12", "bookworm-6.12", False))
XDIST_SPLIT = "rig"
UNPACED_TCP_BYTES = 512 << 10

rig = ours_fixture("3com", DRIVER, DEVICE, ("00:10:4b:35:89:10", "00:10:4b:35:89:11"),
                   KERNELS, wire_rate=LINE_RATE,
                   more=[(DRIVER_574, "pcmcia-3c574", CB_BUS, "00:60:08:35:74:10",
                          LINE_RATE_574)],
                   spare_bus=CB_BUS, cardbus=CARDBUS_TI)


@pytest.fixture(params=[DRIVER, DRIVER_574])
def nic(request, rig):
    if request.param == DRIVER:
        return rig.g, rig.card, DRIVER
    return rig.g, rig.more[DRIVER_574], DRIVER_574


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
    """10 Mbit/s half duplex without autonegotiation; the probe names the
    MAC address and the port the card's EEPROM chose."""
    probe = rig.g.check("dmesg | grep '3Com 3c589 at'")
    assert rig.card.mac in probe and "10baseT port (the card's choice)" in probe, probe
    check_ours_names_itself(rig, "10 DUPLEX half AUTONEG off", "link up, 10Mbps, half-duplex")


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
    """Unpaced bursts overflow the 5 KB RX FIFO: counted, TCP still whole."""
    check_without_pacing(rig.g, rig.card, DRIVER, UNPACED_TCP_BYTES)
    rig.g.assert_clean_kernel_log()


def test_if_port_option(rig):
    """if_port=2 (10base2): the probe names the port, and with no link
    beat to follow the carrier stays on when the link goes down.  Back to
    the default, the carrier follows 10baseT's link beat."""
    g, r = rig.g, rig.card
    try:
        ifc, probe = reload_driver(rig, "if_port=2")
        assert "10base2 port" in probe and "card's choice" not in probe, probe
        assert r.wait_up(g)
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
    """The 3 KB TX FIFO holds two full frames: on a 4000 bit/s wire the
    queue stays stopped for 3 s, past the driver's 1 s watchdog; the
    driver resets the transmitter.  The 3c574 leaves the CardBus slot for
    it."""
    other = rig.more[DRIVER_574]
    assert other.eject(rig.g)
    try:
        check_transmit_timeout(rig)
    finally:
        other.insert(rig.g)
    assert other.ping(rig.g, count=2) == 2


def test_suspend_and_resume(rig):
    check_suspend_and_resume(rig)


# ------------------------------------------------- our 3c574_cs

def test_3c574_names_itself(rig):
    """The probe names the MAC address, the ASIC revision, the buffer RAM
    and the PHY; ethtool shows what the PHY negotiated with the switch
    (100 Mbit/s full duplex), through the kernel's mii library."""
    rigs = rig.other(DRIVER_574)
    probe = rig.g.check("dmesg | grep '3Com 3c574 at'")
    assert rigs.card.mac in probe and "ASIC rev 1, 64K RAM split 1:1 Rx:Tx, MII PHY 0" in probe, \
        probe
    check_ours_names_itself(rigs, "100 DUPLEX full AUTONEG on", "link up, 100Mbps, full-duplex")


def test_3c574_chip_counts_frames_sent(rig):
    g, r = rig.g, rig.more[DRIVER_574]
    sent = r.sysfs(g, "statistics/tx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/tx_errors") == 0


def test_3c574_suspend_and_resume(rig):
    """The RoadRunner loses its registers and the PHY its state: resume
    resets both and the link comes back."""
    check_suspend_and_resume(rig.other(DRIVER_574))


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
