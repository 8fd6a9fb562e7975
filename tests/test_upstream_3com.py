# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated 3Com EtherLink III PC Cards with the drivers
written for the real hardware: pcmcia-3c589 with upstream 3c589_cs from
Debian's 6.12 (Linux 7.1 removed it), behind the emulated 82092 driven
by upstream's i82092.

The cards get their own guest boot: upstream's i82092 drives one bridge
only, and test_upstream_nics' boot already fills both its sockets.  Each
card is on its own network rig (tests/netrig.py) and runs the rig's
scenarios (tests/nic_scenarios.py); then what the model must show to
this driver in particular: the probe's report (MAC address from the
EEPROM, the buffer RAM from the ID registers), the chip's statistics
counters (the driver's only count of frames sent), and the card on a
wire without time.

The rig runs each card at its own line rate (wire-rate), as a real card
sees its frames: slirp sends a whole TCP window at once, faster than any
wire, and the 3c589's 5 KB RX FIFO (three full frames) overflows on
every such burst, so that TCP into the guest crawls through
retransmission timeouts (2 MiB took 80 s; about 2 s at 10 Mbit/s).
The overflow path itself is tested without pacing
(test_3c589_without_pacing).

CI cost: one 6.12 boot and the scenarios, 80 s in all on a busy 2-core
machine under TCG.
"""

import pytest

from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import check_without_pacing, upstream_guest

BRIDGE = "pcc"
KERNEL = "6.12"

# card name -> (QEMU device, socket, MAC, upstream driver)
CARDS = {
    "3c589": ("pcmcia-3c589", 0, "00:10:4b:35:89:01", "3c589_cs"),
}
# card name -> its line rate, bits/s
LINE_RATE = {"3c589": 10000000}
UNPACED_TCP_BYTES = 512 << 10


@pytest.fixture(scope="module")
def rig():
    with upstream_guest("nic-3com-" + KERNEL, KERNEL, BRIDGE, CARDS,
                        wire_rates=LINE_RATE, load=["i82092"]) as rigs:
        yield rigs


@pytest.fixture(params=sorted(CARDS))
def nic(request, rig):
    return rig.g, rig.rigs[request.param], CARDS[request.param][3]


def test_3c589_probe_report(rig):
    """3c589_cs reads the MAC address from the EEPROM (the CIS has no 3Com
    node ID tuple) and the RAM size and split from the ID registers."""
    g, r = rig.g, rig.rigs["3c589"]
    log = g.check("dmesg | grep -A1 '3Com 3c589, io'")
    assert "3Com 3c589, io " in log and "hw_addr %s" % r.mac in log, log
    assert "8K FIFO split 5:3 Rx:Tx, auto xcvr" in log, log


def test_3c589_statistics(rig):
    """Frames sent are counted by the chip only (window 6); the driver
    adds the counters up when the statistics are read."""
    g, r = rig.g, rig.rigs["3c589"]
    sent = r.sysfs(g, "statistics/tx_packets")
    got = r.sysfs(g, "statistics/rx_packets")
    assert r.ping(g, count=5) == 5
    assert r.sysfs(g, "statistics/tx_packets") - sent >= 5
    assert r.sysfs(g, "statistics/rx_packets") - got >= 5


def test_3c589_without_pacing(rig):
    """With wire-rate 0 every burst of frames arrives at once: the RX FIFO
    overflows (the driver counts it), and TCP into the guest still
    completes, through retransmissions."""
    check_without_pacing(rig.g, rig.rigs["3c589"], CARDS["3c589"][3], UNPACED_TCP_BYTES)


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
