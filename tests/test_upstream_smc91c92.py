# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated SMC 91C92 PC Card (pcmcia-smc91c92) with the
driver written for the real hardware: upstream smc91c92_cs from Debian's
6.12 (Linux 7.1 removed it), behind the emulated 82092 driven by
upstream's i82092.

One guest boot, both revisions of the model in it, each on its own
network rig (tests/netrig.py) at the chip's 10 Mbit/s line rate: the
91C92 card (SMC EtherEZ Ethernet 8020, 10BASE-T with its link test and
an AUI port) in socket A, the 91C94 card (New Media BASICS Ethernet) in
socket B, whose EEPROM selects the MII port to an external PHY.  Both
run the rig's scenarios (tests/nic_scenarios.py); then what the model
must show to this driver in particular: the probe's report (the MAC
address from the CIS's LAN node ID tuple, the chip's signature and
revision, the buffer memory from the memory information register, the
transceiver: autoselect or MII), the MII PHY's autonegotiated link, the
multicast hash table, and the MMU's count of frames sent.

Known bugs of upstream's smc91c92_cs, expected failures or skips here:
it logs the link beat but never changes the carrier; it never waits for
the MMU after a reset, so a stuck one goes unnoticed; when a frame had to
wait for packet memory (at line rate, as soon as TCP from the guest fills
the 6 KB), its interrupt handler restarts the queue in a way that never
reschedules the qdisc, and TCP from the guest stalls for good
(nic_scenarios.from_guest: such a transfer is an expected failure).  Its media check
on the 91C92 flips to the AUI port when the 10BASE-T link goes, and back
when frames meet 16 collisions on the cable-less coax port: the link's
return shows as "flipped to 10baseT" there, not as a link beat.

CI cost: one 6.12 boot and the scenarios of both cards, 4 minutes in
all on a busy 2-core machine under TCG, 2 of them the transfers that
stall (each given up after 10 s without data; up to six).
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import upstream_guest

BRIDGE = "pcc"
KERNEL = "6.12"
DRIVER = "smc91c92_cs"

# card name -> (QEMU device, socket, MAC, upstream driver)
CARDS = {
    "91c92": ("pcmcia-smc91c92", 0, "00:00:c0:91:92:01", DRIVER),
    "91c94": ("pcmcia-smc91c92", 1, "00:00:c0:91:94:01", DRIVER),
}
PROPS = {"91c94": {"revision": "91c94"}}
LINE_RATE = {"91c92": 10000000, "91c94": 10000000}


@pytest.fixture(scope="module")
def rig():
    with upstream_guest("nic-smc91c92-" + KERNEL, KERNEL, BRIDGE, CARDS,
                        wire_rates=LINE_RATE, props=PROPS, load=["i82092"]) as rigs:
        # the 91C92 comes back from the AUI port, see the docstring
        rigs.rigs["91c92"].log = dict(rigs.rigs["91c92"].log, up="flipped to 10baseT")
        yield rigs


@pytest.fixture(params=sorted(CARDS))
def nic(request, rig):
    return rig.g, rig.rigs[request.param], DRIVER


def probe_lines(g, r):
    """The probe's report for the card of rig r: its first line and the
    buffer line, which the kernel's log splits where the driver continues
    it (pr_cont), joined."""
    log = g.check("dmesg | grep -A2 ': smc91c9.* hw_addr %s'" % r.mac)
    assert "hw_addr %s" % r.mac in log, log
    lines = [line.split("]", 1)[-1].strip() for line in log.splitlines()]
    return "\n".join(lines[:1] + [" ".join(lines[1:])])


def test_91c92_probe_report(rig):
    """smc91c92_cs takes the MAC address from the CIS (MANFID 0x0108),
    finds the chip's signature (0x33 in the bank select register, BASE's
    bytes differing), names the 91C92 from the revision register, sizes
    its 6 KB of packet memory and autoselects the transceiver."""
    g, r = rig.g, rig.rigs["91c92"]
    log = probe_lines(g, r)
    assert "smc91c92 rev 2: io " in log, log
    assert "6 kb buffer, auto xcvr" in log, log
    assert "Unable to find hardware address" not in g.dmesg()
    ifc = r.iface(g)
    assert g.wait_for("dmesg | grep -q '%s: flipped to 10baseT'" % ifc, 10), \
        "the media check never saw the 10BASE-T link"


def test_91c94_probe_report(rig):
    """The 91C94 card (MANFID 0x0057, MAC from the CIS): its CONFIG
    register selects the MII port, the driver finds the PHY on the
    management interface and logs what autonegotiation gave."""
    g, r = rig.g, rig.rigs["91c94"]
    log = probe_lines(g, r)
    assert "smc91c94 rev 1: io " in log, log
    assert "6 kb buffer, MII xcvr" in log, log
    assert "No MII transceivers found" not in g.dmesg()
    ifc = r.iface(g)
    assert g.wait_for("dmesg | grep -q '%s: autonegotiation complete: 10baseT-FD selected'"
                      % ifc, 10), "no autonegotiated link in the log"
    assert "MII is missing" not in g.dmesg()


@pytest.mark.parametrize("card", sorted(CARDS))
def test_frames_counted(rig, card):
    """Frames sent are counted when the MMU reports its TX FIFO empty;
    none of them fails."""
    g, r = rig.g, rig.rigs[card]
    sent = r.sysfs(g, "statistics/tx_packets")
    errors = r.sysfs(g, "statistics/tx_errors")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5
    assert r.sysfs(g, "statistics/tx_errors") == errors


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
