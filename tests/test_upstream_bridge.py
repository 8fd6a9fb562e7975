# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated bridges and CompactFlash card with the drivers
written for the real hardware: Debian 6.1's in-tree i82092, i82365 and
pata_pcmcia, on its 686-pae kernel (32-bit x86 with the ISA bus: the
last Debian kernel that ships i82365).  One guest boot with an 82092
(sockets 0 and 1), an ISA 82365SL-DF at 0x3e0 (sockets 2 and 3: its
driver is loaded second), a Cirrus CL-PD6722 at 0x3e2 (sockets 4 and 5,
with extra_sockets: the driver's Cirrus probe must recognise it) and a
Databook TCIC-2 at 0x240 (its driver comes last, after i82365 is
unloaded, and gets sockets 2 and 3); the scenarios run in order and each
puts the slots in the state it needs.

Card in socket A of each bridge at power-on (-device), hot insert and
surprise eject over QMP (device_add/device_del), both sockets at once.
Each card is backed by a host image of deterministic random bytes whose
sha256 the guest must read back.  Upstream's i82365 gets the ISA lines
test_i82365.py gives ours (irq_list, cs_irq), so that both drivers are
held to the same lines, and is then reloaded in polling mode
(poll_interval, no cs_irq).  Upstream's tcic polls whenever it finds no
more than two usable lines (and, given cs_irq, then neither polls nor
takes the line), so it gets 6, 7 and 14: the floppy controller's and
the first IDE channel's lines are free, as no driver in this guest uses
them, and edge-triggered, as the chip's interrupt test needs (5 and 11
are PCI lines here, level-triggered: its test handler does not clear
the chip's request, so they fail the test).

Not only CompactFlash: the Cirrus chip's second slot (socket 5) gets
an Omnikey CardMan 4000 smart card reader (hot-plugged), for upstream's
cm4000_cs behind upstream's i82365 (issue 14: every card works in the
ISA sockets).  This is the boot for it: of Debian's kernels only 6.1
ships the reader drivers, and only its 686-pae flavour has i82365 (the
reader boot, test_upstream_readers.py, is 6.1 amd64, which has no ISA
bus).  The reader binds, and an ATR and an APDU exchange (the reader
scenarios of tests/screaders.py) pass through the ISA socket; later the
same reader moves into the TCIC-2's second socket, behind upstream's
tcic, and passes them there too.

CI cost: the isa-tcic scenarios add about 25 s to this boot (measured
under TCG, PCL_TEST_JOBS=1: 3.8 + 7.5 + 3.1 + 9.9 s); the reader behind
both ISA bridges and upstream i82365's polling about 23 s more (the
whole file: 364 s before, 387 s after, on an idle machine).
"""

import os
import re

import pytest

import screaders
from cfrig import IMAGE_SIZE, PCCARDD_IDLE, CfRig, card_images
from pclguest import Guest, GuestError

KERNEL = "bookworm-6.1-686pae"
# Load the card driver and the disk driver before the bridge, so that they
# are there when the bridge finds a card.
MODULES = ["sd_mod", "pata_pcmcia", "i82092"]
ISA = "pcic"                    # -device isa-i82365,id=pcic: slots pcic.0, pcic.1
ISA_SLOTS = ("isa0", "isa1")
CIRRUS = "pcic2"                # the Cirrus chip at 0x3e2: slots pcic2.0, pcic2.1
CIRRUS_SLOTS = ("cirrus0", "cirrus1")
CARD_IRQ, CS_IRQ = 5, 7         # the free ISA lines (see test_i82365.py)
ISA_PARAMS = "irq_list=%d,%d cs_irq=%d extra_sockets=1" % (CARD_IRQ, CS_IRQ, CS_IRQ)
TCIC = "tcic"                   # -device isa-tcic,id=tcic: slots tcic.0, tcic.1
TCIC_SLOTS = ("tcic0", "tcic1")
TCIC_FIRST_SOCKET = 2           # the lowest free numbers once i82365 is gone
TCIC_IRQS = (6, 7, 14)
TCIC_CARD_IRQ = 6               # the lowest of them that cs_irq leaves
TCIC_PARAMS = "irq_list=%s cs_irq=%d" % (",".join(map(str, TCIC_IRQS)), CS_IRQ)
TCIC_POLL_PARAMS = "irq_list=%d poll_interval=25" % TCIC_CARD_IRQ
READER = "cm4000"               # upstream's cm4000_cs drives it
READER_SOCKET = 5               # the Cirrus chip's slot pcic2.1


class Rig(CfRig):
    """The 82092's slots 0 and 1 (sockets 0 and 1), the 82365's "isa0"
    and "isa1" (sockets 2 and 3), the Cirrus chip's "cirrus0" and
    "cirrus1" (sockets 4 and 5) and the TCIC-2's "tcic0" and "tcic1"
    (sockets 2 and 3 once i82365 is gone)."""

    def __init__(self, guest, images):
        super().__init__(guest, images)
        self.inserted.update({"isa0": True, "isa1": False, "cirrus0": False,
                              "tcic0": True, "tcic1": False})

    @staticmethod
    def slot_bus(slot):
        if slot in ISA_SLOTS:
            return "%s.%s" % (ISA, slot[-1])
        if slot in CIRRUS_SLOTS:
            return "%s.%s" % (CIRRUS, slot[-1])
        if slot in TCIC_SLOTS:
            return "%s.%s" % (TCIC, slot[-1])
        return CfRig.slot_bus(slot)

    @staticmethod
    def socket(slot):
        if slot in ISA_SLOTS:
            return 2 + ISA_SLOTS.index(slot)
        if slot in CIRRUS_SLOTS:
            return 4 + CIRRUS_SLOTS.index(slot)
        if slot in TCIC_SLOTS:
            return TCIC_FIRST_SOCKET + TCIC_SLOTS.index(slot)
        return slot

    def path_marker(self, slot):
        return "/%d.0/" % self.socket(slot)

    def removed_cond(self, slot):
        n = self.socket(slot)
        return "[ ! -e /sys/class/pcmcia_socket/pcmcia_socket%d/device/%d.0 ]" % (n, n)

    def wait_removed(self, slot):
        """Also wait until the PC Card core has shut the socket down.
        Upstream i82365 loses a card put in before that: its set_socket
        reads (and so clears) the status change register, and the
        shutdown calls it after the card's function is gone.  On a socket
        it polls (the Cirrus chip's: only the first chip gets cs_irq),
        an insertion latched up to a second before that read is never
        seen.  Ours leaves status changes to its interrupt handler."""
        super().wait_removed(slot)
        assert self.g.wait_for(PCCARDD_IDLE, 30), \
            "the PC Card core still works on socket %s 30 s after its card went" % slot


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    slots = (0, 1) + ISA_SLOTS + CIRRUS_SLOTS[:1] + TCIC_SLOTS
    images, args = card_images(tmp_path_factory.mktemp("cf-images"), slots)
    args += ["-device", "i82092,id=pcc", "-device", "isa-i82365,id=%s" % ISA,
             "-device", "isa-i82365,id=%s,iobase=0x3e2,variant=cirrus-pd6722" % CIRRUS,
             "-device", "isa-tcic,id=%s" % TCIC]
    for slot in (0, "isa0", "tcic0"):
        args += ["-device", "pcmcia-cf,id=%s,bus=%s,drive=%s"
                 % (Rig.card_id(slot), Rig.slot_bus(slot), images[slot][0])]
    driver = screaders.READERS[READER][3]
    # the guest is 32-bit: sctool of the i386 build
    sctool = os.path.join(screaders.tools_dir("i386"), "sctool")
    with Guest("upstream-bridge", kernel=KERNEL,
               modules=MODULES + [driver, "i82365", "tcic"], load=MODULES + [driver],
               files={"/pcl/bin/sctool": sctool}, qemu_args=args) as g:
        yield Rig(g, images)


def test_upstream_drivers_bind(rig):
    g = rig.g
    # the in-tree i82092 module drives the PCI function 8086:1221
    out = g.check("for d in /sys/bus/pci/devices/*; do "
                  "[ \"$(cat $d/vendor $d/device)\" = \"$(printf '0x8086\\n0x1221')\" ] && "
                  "basename $(readlink -f $d/driver/module); done; true")
    assert out.split() == ["i82092"]
    assert "O" not in g.tainted(), "an out-of-tree module is loaded"
    assert g.check("ls /sys/class/pcmcia_socket").split() == \
        ["pcmcia_socket0", "pcmcia_socket1"]
    disk = rig.wait_disk(0)
    assert disk
    assert g.check("ls /sys/bus/pcmcia/drivers/pata_pcmcia").split().count("0.0") == 1
    g.assert_clean_kernel_log()


def test_card_reads_back_host_image(rig):
    rig.ensure(0, True)
    disk = rig.wait_disk(0)
    size = int(rig.g.check("cat /sys/block/%s/size" % disk))
    assert size * 512 == IMAGE_SIZE
    assert rig.checksum(disk) == rig.images[0][1]
    rig.g.assert_clean_kernel_log()


def test_eject_removes_disk(rig):
    rig.ensure(0, True)
    # quiet: the slow removal (the vanished disk's STOP UNIT and libata's
    # retries, 80 s under TCG) is test_eject_one_of_two's, which needs it
    rig.quiet_disk(0)
    rig.eject(0, wait=False)
    rig.wait_no_disk(0)
    rig.wait_removed(0)
    rig.g.assert_clean_kernel_log()


def test_reinsert_brings_disk_back(rig):
    rig.ensure(0, False)
    rig.insert(0)
    disk = rig.wait_disk(0)
    assert rig.checksum(disk) == rig.images[0][1]
    rig.g.assert_clean_kernel_log()


def test_both_sockets_at_once(rig):
    rig.ensure(0, True)
    rig.ensure(1, True)
    disks = {slot: rig.wait_disk(slot) for slot in (0, 1)}
    assert disks[0] != disks[1]
    for slot in (0, 1):
        assert rig.checksum(disks[slot]) == rig.images[slot][1], \
            "socket %d (/dev/%s) read back wrong data" % (slot, disks[slot])
    rig.g.assert_clean_kernel_log()


def test_eject_one_of_two(rig):
    rig.ensure(0, True)
    rig.ensure(1, True)
    rig.wait_disk(0)
    rig.wait_disk(1)
    rig.eject(1, wait=False)
    rig.wait_no_disk(1)
    # socket 0 keeps working while socket 1's removal is still under way
    disk = rig.disk(0)
    assert disk, "ejecting socket 1 took the disk of socket 0 away"
    assert rig.checksum(disk) == rig.images[0][1]
    rig.wait_removed(1)
    rig.g.assert_clean_kernel_log()


def test_upstream_i82365_finds_the_chip_and_the_card(rig):
    g = rig.g
    g.check("modprobe i82365 %s && pcl-socket-startup" % ISA_PARAMS)
    assert sorted(g.check("ls /sys/class/pcmcia_socket").split()) == \
        ["pcmcia_socket%d" % n for n in range(6)]
    log = g.dmesg()
    # 6.1 prints the probe's report in pieces (printk without KERN_CONT):
    # join them
    probe = re.sub(r"\n\[\s*[\d.]+\] ", "", log[log.index("Intel ISA PCIC probe:"):])
    assert "Intel i82365sl DF ISA-to-PCMCIA at port 0x3e0 ofs 0x00, 2 sockets" in probe, log
    # the Cirrus chip: told apart by its chip information register, and
    # set up with upstream's default Cirrus options (ring indicate); the
    # driver counts its own sockets from 0
    assert "Cirrus PD672x ISA-to-PCMCIA at port 0x3e2 ofs 0x00, 2 sockets" in probe, log
    assert "host opts [2]: [ring]" in probe, log
    # its own interrupt test (the chip raises each line of irq_list)
    assert "ISA irqs (scanned) = %d,%d" % (CARD_IRQ, CS_IRQ) in probe, log
    assert "status change on irq %d" % CS_IRQ in probe, log
    rig.assert_reads_back("isa0")
    irqs = g.check("cat /proc/interrupts")
    assert re.search(r"^\s*%d:.*\bi82365\b" % CS_IRQ, irqs, re.M), irqs
    assert re.search(r"^\s*%d:.*\bpata_pcmcia" % CARD_IRQ, irqs, re.M), irqs
    g.assert_clean_kernel_log()


def test_upstream_i82365_eject_and_insert(rig):
    # No STOP UNIT to the vanished disk (libata's retries take 80 s):
    # the slow removal runs once in this boot, in test_eject_one_of_two.
    rig.ensure("isa0", True)
    rig.quiet_disk("isa0")
    rig.eject("isa0", wait=False)
    rig.wait_no_disk("isa0")
    rig.wait_removed("isa0")
    rig.insert("isa0")
    rig.assert_reads_back("isa0")
    rig.g.assert_clean_kernel_log()


def test_upstream_i82365_both_sockets(rig):
    rig.ensure("isa0", True)
    rig.ensure("isa1", True)
    for slot in ISA_SLOTS:
        rig.assert_reads_back(slot)
    # the 82092's cards are untouched by the other bridge
    rig.ensure(0, True)
    rig.assert_reads_back(0)
    rig.g.assert_clean_kernel_log()


def test_upstream_i82365_on_the_cirrus_chip(rig):
    """A card in the Cirrus chip: upstream powers it through the Cirrus
    voltage select, and it comes and goes like the others."""
    rig.ensure("cirrus0", True)
    rig.assert_reads_back("cirrus0")
    rig.quiet_disk("cirrus0")
    rig.eject("cirrus0", wait=False)
    rig.wait_no_disk("cirrus0")
    rig.wait_removed("cirrus0")
    rig.insert("cirrus0")
    rig.assert_reads_back("cirrus0")
    rig.g.assert_clean_kernel_log()


def test_upstream_i82365_reader_binds(rig):
    """The reader put into the Cirrus chip's second slot: upstream's
    cm4000_cs binds to its PC Card function 5.0 and makes its device
    node.  (It comes after the Cirrus chip's CF scenarios, which ran
    with that slot empty before it held the reader; once, with the
    reader there from power-on, the CF card's re-insertion went unseen.)"""
    qid, _, node, driver = screaders.READERS[READER]
    g = rig.g
    g.device_add(READER, id=qid, bus="%s.1" % CIRRUS, wire_timing=False)
    assert g.wait_for("[ -c %s ]" % node, screaders.NODE_TIMEOUT), \
        "no %s after %d s:\n%s" % (node, screaders.NODE_TIMEOUT, g.run(
            "ls -l /dev; ls -l /sys/bus/pcmcia/devices/*/driver")[0])
    # the driver's directory: its devices (socket.function) and its files
    bound = [d for d in g.check("ls /sys/bus/pcmcia/drivers/%s" % driver).split()
             if re.match(r"\d+\.\d+$", d)]
    assert bound == ["%d.0" % READER_SOCKET], bound
    # the function sits in a socket of upstream's i82365
    sock = g.check("readlink -f /sys/class/pcmcia_socket/pcmcia_socket%d/device"
                   % READER_SOCKET)
    assert re.search(r"/i82365(\.\d+)?$", sock.strip()), sock
    g.assert_clean_kernel_log()


def test_upstream_i82365_reader_atr_and_apdu(rig):
    """The smart card's ATR and an APDU script in T=1 (the virtual card's
    file system, GET CHALLENGE, a chained ECHO) through the ISA socket."""
    readers = screaders.Rig(rig.g)
    screaders.check_atr_reads_back(readers, READER, "default")
    screaders.check_apdu_round_trip(readers, READER, "dual", "-p 1", 1)
    rig.g.assert_clean_kernel_log()


def test_upstream_i82365_polling(rig):
    """Reloaded without a status change line (poll_interval, no cs_irq),
    upstream's i82365 polls: the cards are found, and one put in and
    taken out is seen."""
    g = rig.g
    rig.ensure("isa0", True)
    if rig.inserted["isa1"]:
        rig.quiet_disk("isa1")      # no STOP UNIT to the vanished card
    rig.ensure("isa1", False)
    for slot in (0, 1):
        if rig.inserted[slot]:
            rig.wait_disk(slot)
    g.check("rmmod i82365")
    mark = len(g.dmesg().splitlines())
    g.check("modprobe i82365 irq_list=%d poll_interval=25 extra_sockets=1 && "
            "pcl-socket-startup" % CARD_IRQ)
    probe = re.sub(r"\n\[\s*[\d.]+\] ", "", "\n".join(g.dmesg().splitlines()[mark:]))
    # 25 jiffies, in ms of the kernel's HZ
    assert re.search(r"polling interval = \d+ ms", probe), probe
    assert "status change on irq" not in probe, probe
    assert not re.search(r"\bi82365\b", g.check("cat /proc/interrupts")), \
        "i82365 holds an interrupt line while polling"
    rig.assert_reads_back("isa0")
    rig.insert("isa1")
    rig.assert_reads_back("isa1")
    rig.quiet_disk("isa1")
    rig.eject("isa1", wait=False)
    rig.wait_no_disk("isa1")
    rig.wait_removed("isa1")
    g.assert_clean_kernel_log()


def tcic_load(rig, params):
    """Upstream's tcic alone on the ISA side (i82365 holds the lines
    otherwise), loaded with params; returns its probe report."""
    g = rig.g
    # the 82092's cards come up first: their messages would fall between
    # the pieces of the probe's report
    for slot in (0, 1):
        if rig.inserted[slot]:
            rig.wait_disk(slot)
    g.check("for m in tcic i82365; do [ ! -d /sys/module/$m ] || rmmod $m; done")
    mark = len(g.dmesg().splitlines())
    g.check("modprobe tcic %s && pcl-socket-startup" % params)
    log = "\n".join(g.dmesg().splitlines()[mark:])
    # 6.1 prints the probe's report in pieces: join them
    return re.sub(r"\n\[\s*[\d.]+\] ", "", log)


def test_upstream_tcic_finds_the_chip_and_the_card(rig):
    g = rig.g
    probe = tcic_load(rig, TCIC_PARAMS)
    assert "Databook TCIC-2 PCMCIA probe: DB86082A, 2 sockets" in probe, probe
    # its interrupt test: the chip raised each line once
    assert "irq list (scanned) = %s" % ",".join(map(str, TCIC_IRQS)) in probe, probe
    assert "status change on irq %d" % CS_IRQ in probe, probe
    socks = ["pcmcia_socket%d" % (TCIC_FIRST_SOCKET + n) for n in (0, 1)]
    for s in socks:
        parent = g.check("readlink -f /sys/class/pcmcia_socket/%s/device" % s)
        assert parent.strip() == "/sys/devices/platform/tcic-pcmcia.0", parent
    rig.ensure("tcic0", True)
    rig.assert_reads_back("tcic0")
    irqs = g.check("cat /proc/interrupts")
    assert re.search(r"^\s*%d:.*\btcic\b" % CS_IRQ, irqs, re.M), irqs
    # the card's IREQ# on the first free line of the list
    assert re.search(r"^\s*%d:.*\bpata_pcmcia" % TCIC_CARD_IRQ, irqs, re.M), irqs
    g.assert_clean_kernel_log()


def tcic_count(rig, irq):
    for line in rig.g.check("cat /proc/interrupts").splitlines()[1:]:
        f = line.split()
        if f[0] == "%d:" % irq:
            return sum(int(c) for c in f[1:] if c.isdigit())
    return 0


def test_upstream_tcic_eject_and_insert(rig):
    """Removal and insertion come through the status change line."""
    rig.ensure("tcic0", True)
    rig.quiet_disk("tcic0")     # no STOP UNIT to the vanished card
    before = tcic_count(rig, CS_IRQ)
    rig.eject("tcic0", wait=False)
    rig.wait_no_disk("tcic0")
    rig.wait_removed("tcic0")
    rig.insert("tcic0")
    rig.assert_reads_back("tcic0")
    assert tcic_count(rig, CS_IRQ) >= before + 2, "no status change interrupts"
    rig.g.assert_clean_kernel_log()


def test_upstream_tcic_both_sockets(rig):
    rig.ensure("tcic0", True)
    rig.ensure("tcic1", True)
    disks = {slot: rig.wait_disk(slot) for slot in TCIC_SLOTS}
    assert disks["tcic0"] != disks["tcic1"]
    for slot in TCIC_SLOTS:
        rig.assert_reads_back(slot)
    rig.g.assert_clean_kernel_log()


def test_upstream_tcic_reader(rig):
    """The CardMan 4000 moved from the Cirrus chip (whose driver is gone
    by now) into the TCIC-2's second socket in place of its CF card:
    upstream's cm4000_cs binds behind upstream's tcic, the ATR and a T=1
    APDU script pass, and the reader's surprise eject is clean."""
    qid, _, node, driver = screaders.READERS[READER]
    g = rig.g
    if rig.inserted["tcic1"]:
        rig.quiet_disk("tcic1")     # no STOP UNIT to the vanished card
    rig.ensure("tcic1", False)
    g.device_del(qid)
    g.device_add(READER, id=qid, bus="%s.1" % TCIC, wire_timing=False)
    sock = TCIC_FIRST_SOCKET + TCIC_SLOTS.index("tcic1")
    try:
        assert g.wait_for("[ -c %s ]" % node, screaders.NODE_TIMEOUT), \
            "no %s after %d s" % (node, screaders.NODE_TIMEOUT)
        bound = [d for d in g.check("ls /sys/bus/pcmcia/drivers/%s" % driver).split()
                 if re.match(r"\d+\.\d+$", d)]
        assert bound == ["%d.0" % sock], bound
        parent = g.check("readlink -f /sys/class/pcmcia_socket/pcmcia_socket%d/device" % sock)
        assert parent.strip() == "/sys/devices/platform/tcic-pcmcia.0", parent
        readers = screaders.Rig(g)
        screaders.check_atr_reads_back(readers, READER, "default")
        screaders.check_apdu_round_trip(readers, READER, "dual", "-p 1", 1)
    finally:
        g.device_del(qid)
    assert g.wait_for("[ ! -e %s ]" % node, screaders.NODE_TIMEOUT), \
        "%s outlived its reader" % node
    g.assert_clean_kernel_log()


# Last in the module: the reload leaves the kernel tainted.
@pytest.mark.xfail(strict=True, raises=GuestError,
                   reason="upstream tcic's module exit unregisters its static "
                   "platform device, which has no release(): every rmmod "
                   "warns (drivers/base/core.c device_release)")
def test_upstream_tcic_polling(rig):
    """With one line the driver polls for status changes: a card put in
    is seen.  Every check but the clean kernel log must pass."""
    try:
        rig.ensure("tcic0", True)
        if rig.inserted["tcic1"]:
            rig.quiet_disk("tcic1")     # no STOP UNIT to the vanished card
        rig.ensure("tcic1", False)
        probe = tcic_load(rig, TCIC_POLL_PARAMS)
        assert "polled status, interval = " in probe, probe
        assert "tcic" not in rig.g.check("cat /proc/interrupts")
        rig.assert_reads_back("tcic0")
        rig.insert("tcic1")
        rig.assert_reads_back("tcic1")
    except GuestError as e:     # only the kernel log may fail the known way
        raise AssertionError(str(e)) from e
    rig.g.assert_clean_kernel_log()
