# SPDX-License-Identifier: GPL-2.0-only
"""Our smc91c92_cs (src/cards/) on the emulated SMC 91C92 PC Card
(pcmcia-smc91c92) behind the emulated 82092, with our i82092, and an
emulated Ricoh RL5C476 II CardBus bridge (upstream yenta_socket), on
trixie-backports' 7.x, where Linux 7.1 removed upstream's driver.

One guest boot, both revisions of the model in it, each on its own
network rig (tests/netrig.py) at the chip's 10 Mbit/s line rate: the
91C92 card (10BASE-T, the link from the chip's link test) in socket A,
the 91C94 card (the MII port to an external PHY) behind the CardBus
bridge.  Each runs
all the rig's scenarios (tests/nic_scenarios.py): ping and full frames,
TCP both ways, multicast through the chip's hash table, promiscuous
reception, bad frames, a burst that overruns the packet memory, MTU,
link down and up (the carrier follows the link test or the PHY), eject
during a transfer, wire rate, a reset that never ends (the MMU stays
busy: the probe says so and gives up).  Then what only our driver has to
show: it names itself (ethtool's driver info and link settings through
tests/tools/ethinfo: 10 Mbit/s half duplex on the 91C92, what the PHY
negotiated on the 91C94), the frames sent in its counters, a transmit
timeout (a second 91C92 in socket B on a 4000 bit/s wire: three full
frames and the memory allocated ahead for a fourth fill the 6 KB) and
the reset after it, and PC Card suspend and resume of both cards with
TCP traffic before and after.

CI cost: the module build (30 s idle, 90 s busy), one boot and the
scenarios, 3 minutes in all on a busy 2-core machine under TCG.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import (CARDBUS_RICOH, CB_BUS, check_ours_names_itself,
                           check_suspend_and_resume, check_transmit_timeout, ours_fixture)

DRIVER = "smc91c92_cs"
DEVICE = "pcmcia-smc91c92"
LINE_RATE = 10000000
MAC_94 = "00:00:c0:91:94:10"
# (guest kernel, kernels.matrix line, whether our i82092 drives the bridge)
KERNELS = [("7.3", "trixie-bpo", True)]

rig = ours_fixture("smc91c92", DRIVER, DEVICE, ("00:00:c0:91:92:10", "00:00:c0:91:92:11"),
                   KERNELS, wire_rate=LINE_RATE,
                   more=[(DRIVER, DEVICE, CB_BUS, MAC_94, LINE_RATE,
                          {"revision": "91c94"})],
                   cardbus=CARDBUS_RICOH)


def card_94(rig):
    """The 91C94 card's rig behind the CardBus bridge."""
    return rig.more[DRIVER]


@pytest.fixture(params=["91c92", "91c94"])
def nic(request, rig):
    if request.param == "91c92":
        return rig.g, rig.card, DRIVER
    return rig.g, card_94(rig), DRIVER


def test_ours_names_itself(rig):
    """The probe names the chip from its revision register, the MAC
    address from the CIS, the 6 KB of packet memory and the 10BASE-T
    port; ethtool shows 10 Mbit/s half duplex without autonegotiation."""
    probe = rig.g.check("dmesg | grep 'SMC 91C92 rev'")
    assert rig.card.mac in probe and "6 KB buffer, 10baseT" in probe, probe
    check_ours_names_itself(rig, "10 DUPLEX half AUTONEG off", "link up, 10Mbps, half-duplex")


def test_91c94_names_itself(rig):
    """The 91C94's EEPROM selects the MII port: the probe names the PHY,
    ethtool shows what it negotiated with the switch (10 Mbit/s full
    duplex), through the kernel's mii library."""
    rigs = rig.other(DRIVER)
    probe = rig.g.check("dmesg | grep 'SMC 91C94 rev'")
    assert rigs.card.mac in probe and "6 KB buffer, MII PHY 0" in probe, probe
    check_ours_names_itself(rigs, "10 DUPLEX full AUTONEG on", "link up, 10Mbps, full-duplex")


@pytest.mark.parametrize("card", ["91c92", "91c94"])
def test_frames_counted(rig, card):
    """Five pings are five more frames each way, none of them failed."""
    g = rig.g
    r = rig.card if card == "91c92" else card_94(rig)
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    errors = r.sysfs(g, "statistics/tx_errors")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == errors


def test_transmit_timeout(rig):
    """On a 4000 bit/s wire the queue stays stopped for 3 s, past the
    driver's 1 s watchdog; the driver resets the card.  The 91C94 behind
    the CardBus bridge stays up and works afterwards."""
    check_transmit_timeout(rig)
    assert card_94(rig).ping(rig.g, count=2) == 2


def test_suspend_and_resume(rig):
    check_suspend_and_resume(rig)


def test_91c94_suspend_and_resume(rig):
    """The chip and the PHY lose their state: resume resets both and the
    link comes back."""
    check_suspend_and_resume(rig.other(DRIVER))


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
