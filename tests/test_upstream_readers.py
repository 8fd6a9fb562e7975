# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated CardMan 4000 and 4040 readers and their virtual
smart card with the drivers written for the real hardware: Debian 6.1's
cm4000_cs and cm4040_cs, behind the emulated 82092 bridge.

One guest boot holds both readers (cm4000 in socket A, cm4040 in socket B)
in zero-delay mode; the scenarios there run in order and each sets the
ATR and card state it needs: device nodes, ATR read-back, APDUs in T=0
and T=1 (and both conventions, PPS), smart card removal and insertion,
the modelled wire time at two baud rates, and real delays on the cm4000.

Why zero delay, and delays on the cm4000 only: cm4040_cs reads a byte
from an empty FIFO when a reply takes longer than its 1000-poll spin and
its 10 ms poll timer left BS_READABLE set from the previous reply, so
with wire timing (e.g. T=1 at 9600 bps) its exchanges fail now and then.
That is an upstream race, not a property of the model, and no test can
pin it down deterministically.  Ejecting the PC Card while a process holds the device open
runs in a boot of its own per driver: upstream gets it wrong (its remove
waits for the last close: CVE-2022-44032/44033), so there it is a strict
expected failure.  The guest side is tests/tools/sctool (see its README).

The same boot has two emulated CardBus bridges with empty slots, a TI
PCI1225 and a Ricoh RL5C476 II of revision 0xb3, driven by upstream
yenta_socket: at the end each reader moves from its 82092 socket into a
bridge's slot, where upstream's driver binds it again and the ATR, an
APDU round trip and the smart card's removal are checked, and then back.
"""

import time

import pytest

from pclguest import Guest
from screaders import (APDU_CASES, APDU_IDS, BRIDGE, NODE_TIMEOUT, OK,
                       READERS, Rig, build_tools, challenge,
                       check_apdu_round_trip, check_atr_reads_back,
                       check_card_removal_reported, check_pps_speeds_up,
                       check_wire_delay, check_wire_time_model, h, lines,
                       reader_args)

KERNEL = "6.1"
# the CardBus bridges of the functional boot (their slot buses are
# <id>.0), by the reader moved behind each: QEMU id, device, PCI slot,
# the APDU case of screaders.APDU_CASES run there; yenta_socket loads
# after i82092, whose sockets stay numbers 0 and 1
YENTA = {
    "cm4000": ("cbti", "ti-pci1225", 9, ("dual", "-p 0", 0)),
    "cm4040": ("cbrc", "ricoh-rl5c476,revision=0xb3", 10, ("dual", "-p 1", 1)),
}


def boot(name, readers, append="", wire_timing=False, cardbus=False):
    drivers = [READERS[m][3] for m in readers] + ["i82092"]
    args = reader_args(readers, wire_timing)
    if cardbus:
        drivers.append("yenta_socket")
        for qid, device, slot, _ in YENTA.values():
            args += ["-device", "%s,id=%s,addr=0x%x" % (device, qid, slot)]
    return Guest(name, kernel=KERNEL, modules=drivers, load=drivers, append=append,
                 files={"/pcl/bin/sctool": build_tools()}, qemu_args=args)


@pytest.fixture(scope="class")
def rig():
    with boot("upstream-readers", ["cm4000", "cm4040"], cardbus=True) as g:
        # the cards bind in the background; test_device_nodes checks it
        g.wait_for(" && ".join("[ -c %s ]" % r[2] for r in READERS.values()),
                   NODE_TIMEOUT)
        yield Rig(g)


# ------------------------------------------------------------- functional

class TestUpstreamReaders:
    """Both readers in one boot, zero-delay mode."""

    def test_device_nodes(self, rig):
        for model, (_, _, node, driver) in READERS.items():
            assert rig.g.wait_for("[ -c %s ]" % node, NODE_TIMEOUT), \
                "no %s after %d s:\n%s" % (node, NODE_TIMEOUT, rig.g.run(
                    "ls -l /dev; ls -l /sys/bus/pcmcia/devices/*/driver")[0])
            sock = READERS[model][1]
            bound = rig.g.check("ls /sys/bus/pcmcia/drivers/%s" % driver).split()
            assert "%d.0" % sock in bound, "%s drives no card in socket %d" % (driver, sock)

    @pytest.mark.parametrize("model", sorted(READERS))
    @pytest.mark.parametrize("kind", ["default", "t1only", "inverse"])
    def test_atr_reads_back(self, rig, model, kind):
        check_atr_reads_back(rig, model, kind)

    @pytest.mark.parametrize("model", sorted(READERS))
    @pytest.mark.parametrize("kind,opt,proto", APDU_CASES, ids=APDU_IDS)
    def test_apdu_round_trip(self, rig, model, kind, opt, proto):
        check_apdu_round_trip(rig, model, kind, opt, proto)

    @pytest.mark.parametrize("model", sorted(READERS))
    @pytest.mark.parametrize("proto", [0, 1])
    def test_pps_speeds_up(self, rig, model, proto):
        check_pps_speeds_up(rig, model, proto)

    @pytest.mark.parametrize("model", sorted(READERS))
    def test_card_removal_reported(self, rig, model):
        check_card_removal_reported(rig, model)

    @pytest.mark.parametrize("model", sorted(READERS))
    @pytest.mark.parametrize("opts,etu", [("-p 0", 372), ("-P -p 0", 93)],
                             ids=["9600bps", "38400bps"])
    def test_wire_time_model(self, rig, model, opts, etu):
        check_wire_time_model(rig, model, opts, etu)

    def test_wire_delay(self, rig):
        """cm4000 only, see the module's docstring."""
        check_wire_delay(rig, "cm4000")

    @pytest.mark.parametrize("model", sorted(YENTA))
    def test_behind_yenta(self, rig, model):
        """The reader's PC Card leaves its 82092 socket for a CardBus
        bridge's slot: upstream's driver binds it behind yenta_socket, the
        ATR reads back, APDUs go both ways, the smart card's removal is
        reported; then it goes back into its 82092 socket."""
        g = rig.g
        qid, sock, node, driver = READERS[model]
        bridge, _, slot, case = YENTA[model]
        pci = "/sys/bus/pci/devices/0000:00:%02x.0" % slot
        assert g.check("readlink %s/driver" % pci).strip().endswith("/yenta_cardbus")
        g.device_del(qid)
        assert rig.node_there(model, False), "%s outlived its card" % node
        g.device_add(model, id=qid, bus="%s.0" % bridge, wire_timing=False)
        assert g.wait_for("readlink %s/[0-9]*.0/driver" % pci, NODE_TIMEOUT), \
            "no driver for the %s behind %s:\n%s" % (model, bridge, g.run("dmesg | tail")[0])
        bound = g.check("readlink %s/[0-9]*.0/driver" % pci).strip()
        assert bound.endswith("/" + driver), "the %s is driven by %s" % (model, bound)
        assert rig.node_there(model), "no %s behind %s" % (node, bridge)
        check_atr_reads_back(rig, model, "dual")
        check_apdu_round_trip(rig, model, *case)
        check_card_removal_reported(rig, model)

        g.device_del(qid)
        assert rig.node_there(model, False), "%s outlived its card" % node
        assert g.wait_for("! ls %s/[0-9]*.0 >/dev/null 2>&1" % pci, 30), \
            "the PC Card device behind %s stayed" % bridge
        rig.plug(model)
        assert rig.node_there(model), "no %s back in socket %d" % (node, sock)
        g.assert_clean_kernel_log()

    def test_kernel_log_clean(self, rig):
        problems = rig.g.kernel_log_problems()
        assert not problems, "unclean kernel log:\n" + "\n".join(problems)


# ---------------------------------------------------- eject while held open

HOLD_DELAY = 12             # s the holder idles before it touches the device
HUNG_TASK_SECS = 5


@pytest.mark.parametrize("model", sorted(READERS))
@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="upstream's remove waits for the last close "
                          "(CVE-2022-44032 cm4000_cs, CVE-2022-44033 cm4040_cs)")
def test_eject_while_open(model):
    """Eject the PC Card while a process holds the device open and idle.
    A correct driver lets the card go at once: the device node vanishes,
    nothing blocks, the holder's next call fails and its close returns,
    and a card inserted afterwards works."""
    qid, sock, node, driver = READERS[model]
    seen = []
    with boot("upstream-readers-eject-%s" % model, [model], append="slub_debug=FZP") as g:
        rig = Rig(g)
        assert g.wait_for("[ -c %s ]" % node, NODE_TIMEOUT), "no %s" % node
        g.check("echo %d >/proc/sys/kernel/hung_task_timeout_secs" % HUNG_TASK_SECS)
        rig.background(model, "hold %d" % HOLD_DELAY, "/tmp/hold", "HELD")
        t0 = time.monotonic()
        g.device_del(qid)

        gone = g.wait_for("[ ! -e %s ]" % node, HOLD_DELAY - 4)
        seen.append("device node %s while held" % ("gone" if gone else "still there"))
        left = HOLD_DELAY + 10 - (time.monotonic() - t0)
        closed = g.wait_for("grep -q CLOSE /tmp/hold", max(left, 1))
        hold = g.run("cat /tmp/hold")[0].split()
        seen.append("holder: " + " ".join(hold))
        if closed:
            gone = g.wait_for("[ ! -e %s ]" % node, 10)
            seen.append("node gone after close: %s" % gone)

        g.device_add(model, id=qid, bus="%s.%d" % (BRIDGE, sock))
        back = g.wait_for("[ -c %s ]" % node, 30)
        works = False
        if back:
            out, rc = rig.sctool(model, "DEV apdu 0084000008", timeout=20)
            works = rc == 0 and lines(out, "R") == [h(challenge(0, 8) + OK)]
        seen.append("re-inserted card: node %s, APDU %s" % (back, "ok" if works else "failed"))
        problems = g.kernel_log_problems()
        seen += ["log: " + p for p in problems[:6]]
        report = "%s: %s" % (driver, "; ".join(seen))
        print(report)

        assert "still there" not in seen[0], report
        assert "CLOSED" in hold and any(w.startswith("E") for w in hold), report
        assert works, report
        assert not problems, report
