# SPDX-License-Identifier: GPL-2.0-only
"""The emulated CardBus bridges (QEMU's ti-pci1225 and ricoh-rl5c476)
against upstream yenta_socket and pata_pcmcia on trixie-backports' 7.x.

One guest boot with six bridges: a TI PCI1225 (function 0) and a Ricoh
RL5C476 II of revision 0xb3, each with a CompactFlash card, and a Ricoh of
revision 0x7f (yenta leaves its MISC3 alone below 0x80) with a CardBus
card: QEMU's e1000 on the bridge's secondary bus, in the network rig
(tests/netrig.py), and an empty TI whose MFUNC routing yenta must set up
itself (and two more, below).  yenta binds all six with a clean log
and routes their interrupts to PCI; each CF card reads back its host
image, the CardBus NIC answers pings; surprise eject and insertion of both kinds over
QMP; upstream's pcnet_cs with the NE2000 model behind a TI and a
Ricoh (ping, surprise eject); then CLKRUN as yenta's disable_clkrun defines it, checked in the
configuration registers (sysfs config), not only in the log: TI's KEEPCLK
(system control 0x80, bit 1) on function 0 and Ricoh's CB_CLKRUN_DIS
(MISC3 0xa2, bit 1) on revision 0x80 and later, set with disable_clkrun=1;
with 0 nothing changes; after an S3 suspend and resume (QEMU resets the
bridges on wake-up) the bits come back.

Then our card drivers (src/cards/, built for that kernel) behind two more
bridges, a TI and a Ricoh of revision 0xb3 with empty slots at boot:
cm4000_cs and cm4040_cs with the emulated readers (the reader scenarios
of tests/screaders.py: ATR, an APDU round trip, the smart card's removal
reported), then crossed over, each reader behind the other bridge; and
axnet_cs with pcmcia-ax88190 behind each (it binds, pings through its
own segment of the network rig, and is surprise-ejected).  The cards are
plugged in and ejected over QMP, in the same boot.

CI: trixie-backports' 7.x.  PCL_STRESS=soak (make soak) runs the same
test on Debian's 6.1 and 6.12 as well, a boot each.
"""

import os
import re

import pclkernels as pk
import pytest
from cfrig import CfRig, card_images
from netrig import NetRig, rig_tools
from nic_scenarios import habits
from pclguest import Guest
from screaders import READERS, check_apdu_round_trip, check_atr_reads_back, \
    check_card_removal_reported, guest_tools
from screaders import Rig as ReaderRig

SOAK = os.environ.get("PCL_STRESS") == "soak"
# (guest kernel, kernels.matrix line our modules are built for)
KERNELS = [("7.3", "trixie-bpo")] + (
    [("6.1", "bookworm-6.1"), ("6.12", "bookworm-6.12")] if SOAK else [])
XDIST_SPLIT = "rig"
# the card drivers first: they are there when yenta finds the cards
MODULES = ["sd_mod", "pata_pcmcia", "pcnet_cs", "e1000", "yenta_socket"]
CB_MAC = "52:54:00:cb:00:01"

# rig slot: (QEMU device and its properties, PCI device number)
BRIDGES = {
    "ti": ("ti-pci1225", 5),
    "rc": ("ricoh-rl5c476,revision=0xb3", 6),
}
OLD_RICOH = ("ricoh-rl5c476,revision=0x7f", 7)
# a TI whose MFUNC0 nobody set up (no BIOS did): yenta's probe of the PCI
# interrupt fails until it routes INTA# there itself
BARE_TI = ("ti-pci1225,mfunc=0", 8)
# the bridges our card drivers run behind (slots empty at boot)
OURS = {
    "tio": ("ti-pci1225", 9),
    "rco": ("ricoh-rl5c476,revision=0xb3", 10),
}
ALL_DEVS = [dev for _, dev in BRIDGES.values()] + [OLD_RICOH[1], BARE_TI[1]] + \
    [dev for _, dev in OURS.values()]
OUR_DRIVERS = ["cm4000_cs", "cm4040_cs", "axnet_cs"]
AXNET = "pcmcia-ax88190"
AXNET_MAC = "02:00:4a:58:cb:00"
# upstream's pcnet_cs (every kernel has it) on the NE2000 model
NE2000 = "pcmcia-ne2000"
NE2000_MAC = "02:00:4e:32:cb:00"
TI_SYSCTL, TI_KEEPCLK = 0x80, 0x2
RICOH_MISC3, RICOH_CLKRUN_DIS = 0xa2, 0x2


def pci_addr(dev):
    return "0000:00:%02x.0" % dev


class CardBusNic(NetRig):
    """The rig's card is a CardBus card: e1000 on <bridge>.cb."""

    def __init__(self, bridge_id, bridge_dev):
        super().__init__(0, "e1000", "cbnic", "%s.cb" % bridge_id, CB_MAC)
        self.bridge_dev = bridge_dev

    def net_dir(self):
        # the card's function sits on the bridge's secondary bus, below it
        return "/sys/bus/pci/devices/%s/0000:*/net" % pci_addr(self.bridge_dev)

    def card_props(self):
        props = super().card_props()
        del props["wire-rate"]          # a property of our PC Card NICs only
        props["romfile"] = ""           # no option ROM: nothing boots from it
        return props


class SlotNic(NetRig):
    """A 16-bit PC Card NIC on a segment of its own, behind whichever of
    OURS it is plugged into (its PC Card device is the bridge's child:
    the socket's number depends on the probe order)."""

    def __init__(self, index, device, card_id, mac, driver, ours):
        super().__init__(index, device, card_id, "tio.0", mac)
        self.log = habits(driver, ours=ours)

    def net_dir(self):
        return "/sys/bus/pci/devices/%s/[0-9]*.0/net" % pci_addr(OURS[self.bus[:-2]][1])


class OurCards(ReaderRig):
    """What is in the slots of OURS: a reader model, "axnet" or nothing.
    The reader scenarios of tests/screaders.py run on it as they do on
    the 82092's sockets."""

    def __init__(self, guest, net):
        super().__init__(guest)
        self.net = net
        self.slots = {slot: None for slot in OURS}
        self.loaded = False

    def load(self):
        """Our drivers, loaded only now: the upstream validation before
        wants an untainted kernel."""
        if not self.loaded:
            self.g.check(" && ".join("pcl-insmod " + d for d in OUR_DRIVERS))
            self.loaded = True

    def card_gone(self, slot):
        return self.g.wait_for("! ls %s | grep -qE '^[0-9]+\\.0$'"
                               % Rig.sysfs(OURS[slot][1]), 30)

    def take_out(self, slot):
        """Surprise-eject whatever is in the slot."""
        card = self.slots[slot]
        if card is None:
            return
        if card == "axnet":
            assert self.net.eject(self.g), "the interface outlived its card"
        else:
            self.g.device_del(READERS[card][0])
            assert self.node_there(card, False), "%s outlived its card" % READERS[card][2]
        self.slots[slot] = None
        assert self.card_gone(slot), "the PC Card device behind %s stayed" % slot

    def put(self, slot, card):
        """The card into the slot, from wherever it was; the slot emptied
        first.  Returns the PC Card device's sysfs directory."""
        self.load()
        for s, c in self.slots.items():
            if c == card or s == slot:
                self.take_out(s)
        if card == "axnet":
            self.net.bus = "%s.0" % slot
            self.g.device_add(AXNET, **self.net.card_props())
        else:
            self.g.device_add(card, id=READERS[card][0], bus="%s.0" % slot,
                              wire_timing=False)
        self.slots[slot] = card
        pcdev = "%s/[0-9]*.0" % Rig.sysfs(OURS[slot][1])
        assert self.g.wait_for("ls -d %s/driver >/dev/null 2>&1" % pcdev, 30), \
            "no driver for %s behind %s:\n%s" % (card, slot, self.g.run("dmesg | tail -20")[0])
        return self.g.check("ls -d %s" % pcdev).strip()

    def assert_ours(self, pcdev, driver):
        """The PC Card device is driven by our out-of-tree module."""
        got = self.g.check("basename $(readlink -f %s/driver)" % pcdev).strip()
        assert got == driver, "%s is driven by %s" % (pcdev, got)
        assert "O" in self.g.check("cat /sys/module/%s/taint" % driver), \
            "%s is not our out-of-tree module" % driver


class Rig(CfRig):
    """CompactFlash cards behind the CardBus bridges, a slot per bridge
    (named by the bridge's QEMU id, its slot bus is <id>.0)."""

    def __init__(self, guest, images, net):
        super().__init__(guest, images)
        self.inserted = {slot: True for slot in BRIDGES}
        self.net = net

    @staticmethod
    def slot_bus(slot):
        return "%s.0" % slot

    @staticmethod
    def sysfs(dev):
        return "/sys/bus/pci/devices/%s" % pci_addr(dev)

    def path_marker(self, slot):
        return "/%s/" % pci_addr(BRIDGES[slot][1])

    def removed_cond(self, slot):
        # the PC Card function (socket N's N.0) sits under the bridge
        return "! ls %s | grep -qE '^[0-9]+\\.0$'" % self.sysfs(BRIDGES[slot][1])

    def config(self, dev):
        """The bridge's configuration space as sysfs reads it."""
        out = self.g.check("od -An -v -tx1 %s/config" % self.sysfs(dev))
        return bytes(int(b, 16) for b in out.split())

    def reg(self, dev, off, size):
        return int.from_bytes(self.config(dev)[off:off + size], "little")

    def irq_count(self, slot):
        irq = int(self.g.check("cat %s/irq" % self.sysfs(BRIDGES[slot][1])))
        for line in self.g.check("cat /proc/interrupts").splitlines():
            m = re.match(r"\s*%d:((?:\s+\d+)+)" % irq, line)
            if m:
                return sum(int(c) for c in m.group(1).split())
        return 0

    def reload(self, params):
        """yenta_socket again, with these parameters; the cards come back."""
        mark = len(self.g.dmesg().splitlines())
        self.g.check("rmmod yenta_socket")
        assert self.g.check("ls /sys/class/pcmcia_socket 2>/dev/null; true").split() == []
        self.g.check("modprobe yenta_socket %s" % params)
        assert self.g.wait_for("[ $(ls /sys/class/pcmcia_socket | wc -l) = %d ]"
                               % len(ALL_DEVS), 30)
        self.g.check("pcl-socket-startup")
        for slot in BRIDGES:
            if self.inserted[slot]:
                self.wait_disk(slot)
        return "\n".join(self.g.dmesg().splitlines()[mark:])


@pytest.fixture(scope="module", params=KERNELS, ids=[k for k, _ in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name = request.param
    with pk.rolling_tolerance(matrix_name):
        ko = pk.our_modules(matrix_name, OUR_DRIVERS, tmp_path_factory.mktemp("ko-" + kernel))
        images, args = card_images(tmp_path_factory.mktemp("cf-images-cardbus"),
                                   list(BRIDGES))
        for slot, (device, dev) in BRIDGES.items():
            args += ["-device", "%s,id=%s,addr=0x%x" % (device, slot, dev),
                     "-device", "pcmcia-cf,id=cf%s,bus=%s.0,drive=disk%s"
                     % (slot, slot, slot)]
        args += ["-device", "%s,id=rc7f,addr=0x%x" % OLD_RICOH,
                 "-device", "%s,id=ti0,addr=0x%x" % BARE_TI]
        for slot, (device, dev) in OURS.items():
            args += ["-device", "%s,id=%s,addr=0x%x" % (device, slot, dev)]
        net = CardBusNic("rc7f", OLD_RICOH[1])
        args += net.qemu_args() + net.card_args()
        our_net = SlotNic(1, AXNET, "axn", AXNET_MAC, "axnet_cs", True)
        up_net = SlotNic(2, NE2000, "ne", NE2000_MAC, "pcnet_cs", False)
        args += our_net.qemu_args() + up_net.qemu_args()
        files = dict(guest_tools(), **rig_tools())
        for n in (net, our_net, up_net):
            n.start()
        guest = Guest("cardbus-" + kernel, kernel=kernel, modules=MODULES,
                      load=MODULES, extra_ko=ko, files=files, qemu_args=args)
        try:
            guest.start()
        except Exception:
            for n in (net, our_net, up_net):
                n.stop()
            raise
    try:
        r = Rig(guest, images, net)
        r.ours = OurCards(guest, our_net)
        r.up_net = up_net
        yield r
    finally:
        guest.stop()
        for n in (net, our_net, up_net):
            n.stop()


def test_yenta_binds_both_bridges(rig):
    g = rig.g
    for dev in ALL_DEVS:
        drv = g.check("basename $(readlink -f %s/driver)" % rig.sysfs(dev)).strip()
        assert drv == "yenta_cardbus", "%s is driven by %s" % (pci_addr(dev), drv)
        # the bridge's own header: class 0x060700, header type 2
        cfg = rig.config(dev)
        assert cfg[0x09:0x0c] == bytes([0, 7, 6]) and cfg[0x0e] & 0x7f == 2
    assert len(g.check("ls /sys/class/pcmcia_socket").split()) == len(ALL_DEVS)
    assert "O" not in g.tainted(), "an out-of-tree module is loaded"
    log = g.dmesg()
    assert log.count("CardBus bridge found") == len(ALL_DEVS), log
    assert "[1af4:1100]" in log, log
    # TI: the PCI interrupt works at once through MFUNC0 = INTA#; the bare
    # one has none until yenta routes it (and then reads it back)
    ti, bare = pci_addr(BRIDGES["ti"][1]), pci_addr(BARE_TI[1])
    assert "%s: TI: mfunc 0x00000002, devctl 0x60" % ti in log, log
    assert "%s: TI: mfunc 0x00000000, devctl 0x60" % bare in log, log
    assert "%s: TI: probing PCI interrupt failed" % bare in log, log
    assert "%s: TI: parallel PCI interrupts ok" % bare in log, log
    assert rig.reg(BARE_TI[1], 0x8c, 4) & 0xf == 2
    assert "Using CSCINT to route CSC interrupts to PCI" in log, log
    assert "%s: TI: probing PCI interrupt failed" % ti not in log, log
    for bad in ("Fish", "no PCI IRQ", "CardBus support disabled",
                "no bus associated"):
        assert bad not in log, log
    irqs = re.findall(r"ISA IRQ mask 0x([0-9a-f]{4}), PCI irq (\d+)", log)
    assert len(irqs) == len(ALL_DEVS) and all(int(irq) > 0 for _, irq in irqs), irqs
    for slot in BRIDGES:
        assert rig.wait_disk(slot)
    g.assert_clean_kernel_log()


def test_cf_behind_each_bridge_reads_back(rig):
    for slot in BRIDGES:
        rig.ensure(slot, True)
        rig.assert_reads_back(slot)
    disks = [rig.disk(slot) for slot in BRIDGES]
    assert len(set(disks)) == len(disks), disks
    rig.g.assert_clean_kernel_log()


@pytest.mark.parametrize("slot", list(BRIDGES))
def test_surprise_eject_and_insert(rig, slot):
    """The card goes without warning and comes back; both are seen through
    the bridge's PCI interrupt (card detect events), not by polling."""
    rig.ensure(slot, True)
    other = [s for s in BRIDGES if s != slot]
    before = rig.irq_count(slot)
    rig.quiet_disk(slot)
    rig.eject(slot)
    rig.wait_no_disk(slot)
    for s in other:
        assert rig.disk(s), "ejecting %s took another bridge's disk away" % slot
    rig.insert(slot)
    rig.assert_reads_back(slot)
    assert rig.irq_count(slot) >= before + 2, "no card detect interrupts"
    rig.g.assert_clean_kernel_log()


def test_cardbus_card_pings(rig):
    """The e1000 is found through yenta's CardBus path behind the old
    Ricoh, binds, and passes traffic through the bridge's windows and
    interrupt."""
    g, net = rig.g, rig.net
    ifc = net.up(g)
    path = g.check("readlink -f /sys/class/net/%s/device" % ifc)
    assert "/%s/0000:" % pci_addr(OLD_RICOH[1]) in path, path
    assert net.wait_up(g, 20), "no carrier on %s" % ifc
    assert net.ping(g) == 3
    g.assert_clean_kernel_log()


def test_cardbus_card_eject_and_insert(rig):
    g, net = rig.g, rig.net
    assert net.eject(g, timeout=60), "the interface outlived its card"
    net.insert(g)
    assert net.wait_up(g, 20)
    assert net.ping(g) == 3
    g.assert_clean_kernel_log()


@pytest.mark.parametrize("slot", list(OURS))
def test_upstream_pcnet_behind_each_bridge(rig, slot):
    """A 16-bit NIC behind yenta with the driver written for the real
    card: upstream's pcnet_cs binds the NE2000 model, pings its peer
    through the bridge's windows and interrupt, and lets go of the card
    ejected without warning.  (Before our drivers are loaded: the kernel
    is still untainted.)"""
    g, net = rig.g, rig.up_net
    assert not rig.ours.loaded
    net.bus = "%s.0" % slot
    g.device_add(NE2000, **net.card_props())
    pcdev = "%s/[0-9]*.0" % Rig.sysfs(OURS[slot][1])
    assert g.wait_for("ls -d %s/driver >/dev/null 2>&1" % pcdev, 30), \
        "no driver for the NE2000 behind %s:\n%s" % (slot, g.run("dmesg | tail -20")[0])
    drv = g.check("basename $(readlink -f %s/driver)" % pcdev).strip()
    assert drv == "pcnet_cs", "the NE2000 is driven by %s" % drv
    ifc = net.up(g)
    assert g.check("cat /sys/class/net/%s/address" % ifc).strip() == NE2000_MAC
    assert net.ping(g, count=3) == 3
    assert net.eject(g), "the interface outlived its card"
    assert rig.ours.card_gone(slot), "the PC Card device behind %s stayed" % slot
    assert "O" not in g.tainted(), "an out-of-tree module is loaded"
    g.assert_clean_kernel_log()


def clkrun_bits(rig):
    """(TI KEEPCLK, Ricoh 0xb3 CB_CLKRUN_DIS, Ricoh 0x7f CB_CLKRUN_DIS) and
    the raw registers."""
    sysctl = rig.reg(BRIDGES["ti"][1], TI_SYSCTL, 4)
    misc3 = rig.reg(BRIDGES["rc"][1], RICOH_MISC3, 2)
    misc3_old = rig.reg(OLD_RICOH[1], RICOH_MISC3, 2)
    return ((bool(sysctl & TI_KEEPCLK), bool(misc3 & RICOH_CLKRUN_DIS),
             bool(misc3_old & RICOH_CLKRUN_DIS)), (sysctl, misc3, misc3_old))


def test_clkrun(rig):
    g = rig.g
    for slot in BRIDGES:
        rig.ensure(slot, True)
    # booted with disable_clkrun=0: the power-on values stay
    assert g.check("cat /sys/module/yenta_socket/parameters/disable_clkrun").strip() == "N"
    bits, regs = clkrun_bits(rig)
    assert bits == (False, False, False), "registers 0x%08x 0x%04x 0x%04x" % regs
    assert "Disabling CLKRUN" not in g.dmesg()

    log = rig.reload("disable_clkrun=1")
    bits, regs = clkrun_bits(rig)
    assert bits == (True, True, False), "registers 0x%08x 0x%04x 0x%04x" % regs
    # the TIs (function 0) and the Ricohs of revision 0xb3, not the one of 0x7f
    assert log.count("Disabling CLKRUN feature") == len(ALL_DEVS) - 1, log
    assert rig.reg(BARE_TI[1], TI_SYSCTL, 4) & TI_KEEPCLK
    set_regs = regs

    # QEMU resets every device when it wakes from S3: yenta's resume puts
    # the bits back (TI: the saved system control; Ricoh: MISC3 again)
    exits = g.check("dmesg | grep -c 'PM: suspend exit' || true")
    g.check("echo deep > /sys/power/mem_sleep && "
            "echo +5 > /sys/class/rtc/rtc0/wakealarm && "
            "echo mem > /sys/power/state", timeout=180)
    assert int(g.check("dmesg | grep -c 'PM: suspend exit' || true")) == int(exits) + 1
    assert clkrun_bits(rig)[1] == set_regs
    assert rig.reg(BARE_TI[1], 0x8c, 4) & 0xf == 2, "MFUNC not restored"
    for slot in BRIDGES:
        rig.assert_reads_back(slot)

    # disable_clkrun=0 changes nothing: the bits stay as they are
    log = rig.reload("disable_clkrun=0")
    assert clkrun_bits(rig)[1] == set_regs
    assert "CLKRUN" not in log, log
    for slot in BRIDGES:
        rig.assert_reads_back(slot)
    g.assert_clean_kernel_log()


# ------------------------------------------------- our drivers behind yenta

# (slot, reader, APDU case of screaders.APDU_CASES): each reader behind
# the TI and behind the Ricoh, both kinds at once, then crossed over
READER_RUNS = [("tio", "cm4000", ("dual", "-p 0", 0)),
               ("rco", "cm4040", ("dual", "-p 1", 1)),
               ("tio", "cm4040", ("t0only", "", 0)),
               ("rco", "cm4000", ("t1only", "", 1))]


@pytest.mark.parametrize("slot,model,case", READER_RUNS,
                         ids=["%s-%s" % r[:2] for r in READER_RUNS])
def test_our_reader(rig, slot, model, case):
    """Our cm4000_cs or cm4040_cs binds the reader behind the bridge, and
    the tools read the ATR, exchange APDUs and see the smart card go and
    come back."""
    cards = rig.ours
    pcdev = cards.put(slot, model)
    cards.assert_ours(pcdev, READERS[model][3])
    assert cards.node_there(model), "no %s" % READERS[model][2]
    check_atr_reads_back(cards, model, "dual")
    check_apdu_round_trip(cards, model, *case)
    check_card_removal_reported(cards, model)
    rig.g.assert_clean_kernel_log()


@pytest.mark.parametrize("slot", list(OURS))
def test_our_axnet(rig, slot):
    """Our axnet_cs binds the AX88190 behind the bridge, pings its peer
    through the bridge's windows and interrupt, and lets go of a card
    ejected without warning."""
    g, cards = rig.g, rig.ours
    net = cards.net
    pcdev = cards.put(slot, "axnet")
    cards.assert_ours(pcdev, "axnet_cs")
    ifc = net.up(g)
    assert g.check("cat /sys/class/net/%s/address" % ifc).strip() == AXNET_MAC
    assert net.wait_up(g, 20), "no carrier on %s" % ifc
    assert net.ping(g, count=3) == 3
    cards.take_out(slot)
    assert net.ping(g, count=1, wait=2) == 0, "a ping went out without the card"
    g.assert_clean_kernel_log()
