# SPDX-License-Identifier: GPL-2.0-only
"""Our i82365 (src/bridges/) on the emulated ISA 82365SL controllers
(QEMU's isa-i82365 at 0x3e0), with Debian's pata_pcmcia and a
CompactFlash card, on trixie-backports' 7.x amd64 kernel, which has no
i82365 of its own (no CONFIG_ISA on amd64): the module makes its own
platform device; and on our self-built 32-bit 7.x (kernels.matrix line
i686), the kernel of the laptops these bridges are in.

One guest boot per kernel, with a second, empty controller at 0x3e2; the
two chips are the two variants, swapped between the kernels: on 7.x the
cards sit in a Cirrus Logic CL-PD6722 and the Intel 82365SL-DF is the
second chip, on i686 the other way round.  So every test runs on both
variants, and the Cirrus registers of our own (options, timing sets) are
read back through /dev/port, which Debian's kernel has.  The scenarios
that hold for every ISA bridge of ours (test_tcic.py runs them too) and
the i82365's own are below; then come the stress scenarios every bridge
runs (tests/bridge_scenarios.py): in CI on 7.x only, 5 surprise ejects,
1 with reads in flight and 3 module reloads with cards in both sockets;
make soak runs 200, 1000 and 100 on both kernels.  Last,
suspend to RAM with a card in use comes back with the card working
(QEMU resets the controller on the way: the driver restores its setup,
Cirrus registers included).

The module is loaded first with its interrupts given
(irq_list, cs_irq): status changes on one ISA line, card interrupts on
another, both checked in /proc/interrupts; then reloaded in polling mode
(poll_interval, no cs_irq), where insertion and removal must still be
seen; last, extra_sockets finds the second controller (a card in it
reads back while both of the first's are in use) and ignore leaves
a socket alone.  Every card is backed by a host image of deterministic random
bytes whose sha256 the guest must read back.

The ISA lines: QEMU's pc machine drives 3 and 4 (the two serial ports),
1 and 12 (i8042), 6 (floppy controller), 8 (RTC), 9 (ACPI), 10 and 11
(PCI) and 14 and 15 (IDE), so of the chip's lines (3-5, 7, 9-12, 14, 15)
5 and 7 are those nothing else drives.  Cards get 5 (level-triggered in
the guest: QEMU's ACPI tables declare 5 a PCI line), status changes 7
(edge-triggered).
"""

import pytest

import bridge_scenarios
from cfrig import ISA_IRQ_PARAMS as IRQ_PARAMS, CfRig, IsaBridgeRig, bridge_guest, card_images

# (guest kernel, kernels.matrix line, the chip at 0x3e0, the one at 0x3e2):
# trixie-backports' amd64 7.x, and our own 32-bit 7.x
# (vm/kernels/i686.config), which has the ISA bus
CIRRUS, INTEL = "cirrus-pd6722", "i82365sl-df"
KERNELS = [("7.3", "trixie-bpo", CIRRUS, INTEL), ("i686", "i686", INTEL, CIRRUS)]
# what the driver calls each variant
MODEL = {CIRRUS: "Cirrus PD672x rev 2", INTEL: "82365SL DF"}
# parallel test workers (tests/conftest.py): one guest kernel each
XDIST_SPLIT = "rig"
MODULE = "i82365"
BASE = 0x3e0
# Cirrus options given when the test loads the module with them, and what
# they make of the registers: misc control 2 (ring indicate, dynamic
# mode, frequency bypass), then timing sets 0 and 1 (setup, command,
# recovery; set 1's command time is 2n + 4)
CIRRUS_PARAMS = " dynamic_mode=1 freq_bypass=1 setup_time=2 cmd_time=7 recov_time=3"
CIRRUS_MISC2 = 0x83
CIRRUS_TIMING = [2, 7, 3, 2, 18, 3]


class Rig(IsaBridgeRig):
    """The CompactFlash rig with our ISA bridge module."""

    module = MODULE

    def __init__(self, guest, images, ko_release):
        super().__init__(guest, images, ko_release)
        self.chips = None       # (variant at 0x3e0, variant at 0x3e2)

    # "chip2": socket A of the second controller (pcc2.0), which the PC
    # Card core numbers 2 when extra_sockets finds four sockets
    @staticmethod
    def slot_bus(slot):
        return "pcc2.0" if slot == "chip2" else CfRig.slot_bus(slot)

    @staticmethod
    def socket(slot):
        return 2 if slot == "chip2" else slot

    def path_marker(self, slot):
        return "/%d.0/" % self.socket(slot)

    def removed_cond(self, slot):
        n = self.socket(slot)
        return "[ ! -e /sys/class/pcmcia_socket/pcmcia_socket%d/device/%d.0 ]" % (n, n)

    def model(self, chip):
        """What the driver calls the chip at i365_base (0) or + 2 (1)."""
        return MODEL[self.chips[chip]]

    def chip_regs(self, index, count):
        """count registers from index on of the chip at 0x3e0, read
        through /dev/port once the cards are bound (the driver touches the
        index port only on events then).  Each read is checked by reading
        the index back: a driver access in between shows as another index,
        and the register is read again."""
        for slot in (0, 1):
            if self.inserted[slot]:
                self.wait_disk(slot)
        port = "dd %s=/dev/port bs=1 %s=%d count=1 2>/dev/null"
        out = self.g.check(
            "for i in $(seq %d %d); do n=0; while :; do "
            "printf \"\\\\$(printf %%o $i)\" | %s && "
            "v=$(%s | od -An -tu1) && x=$(%s | od -An -tu1) && "
            "[ $x -eq $i ] && echo $v && break; "
            "n=$((n + 1)); [ $n -lt 5 ] || exit 1; done; done"
            % (index, index + count - 1, port % ("of", "seek", BASE),
               port % ("if", "skip", BASE + 1), port % ("if", "skip", BASE)))
        return [int(v) for v in out.split()]

    def check_probe_log(self, log):
        for nr, index in ((0, 0x00), (1, 0x40)):
            assert "socket %d: %s at 0x3e0, index 0x%02x" % (nr, self.model(0), index) \
                in log, log

    def suspend_params(self):
        return IRQ_PARAMS + (CIRRUS_PARAMS if self.chips[0] == CIRRUS else "")

    def check_chip_setup(self):
        """The Cirrus chip's registers of its own as CIRRUS_PARAMS set
        them (the Intel chip has none)."""
        if self.chips[0] == CIRRUS:
            assert self.chip_regs(0x1e, 1) == [CIRRUS_MISC2]
            assert self.chip_regs(0x3a, 6) == CIRRUS_TIMING


@pytest.fixture(scope="module", params=KERNELS, ids=[k[0] for k in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name, first, second = request.param
    tmp = tmp_path_factory.mktemp("cf-images-i82365-" + kernel)
    # the second controller at i365_base + 2, empty (sockets 4 and 5), and
    # an image for a card that visits it
    images, args = card_images(tmp, ("chip2",), first_seed=0x82365)
    args += ["-device", "isa-i82365,id=pcc2,iobase=0x%x,variant=%s" % (BASE + 2, second)]
    with bridge_guest(Rig, "i82365-" + kernel, kernel, matrix_name, MODULE, tmp,
                      bridge="isa-i82365,variant=" + first, extra_args=args) as r:
        r.chips = (first, second)
        r.images.update(images)
        r.inserted["chip2"] = False
        yield r


# the scenarios every ISA bridge of ours runs
test_ours_finds_the_chip_and_the_card = bridge_scenarios.isa_finds_the_chip_and_the_card
test_status_change_interrupt_on_cs_irq = bridge_scenarios.isa_status_change_interrupt_on_cs_irq
test_both_sockets_at_once = bridge_scenarios.isa_both_sockets_at_once
test_polling_mode = bridge_scenarios.isa_polling_mode


def test_second_chip_extra_sockets_and_ignore(rig):
    """The machine has a second controller at 0x3e2.  As with upstream's
    driver it is probed only with extra_sockets (or when there is none at
    i365_base); ignore=N leaves socket N alone: its card is never seen,
    and the other sockets work as before."""
    rig.ensure(0, True)
    rig.ensure(1, True)
    rig.load(IRQ_PARAMS)
    assert len(rig.sockets()) == 2
    assert "at 0x3e2" not in rig.load_log()

    rig.load(IRQ_PARAMS + " extra_sockets=1")
    log = rig.load_log()
    assert len(rig.sockets()) == 4, log
    # numbered as upstream numbers them (and ignore takes them): a port
    # has room for four sockets, 0-3 at i365_base and 4-7 at + 2
    for nr, index in ((4, 0x00), (5, 0x40)):
        assert "socket %d: %s at 0x3e2, index 0x%02x" % (nr, rig.model(1), index) in log, log
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    # a card in the second chip too, with both of the first's in use
    rig.insert("chip2")
    rig.assert_reads_back("chip2")
    rig.quiet_disk("chip2")
    rig.eject("chip2")

    rig.load(IRQ_PARAMS + " extra_sockets=1 ignore=1")
    log = rig.load_log()
    assert len(rig.sockets()) == 3, log
    assert "socket 1:" not in log and "socket 5: %s at 0x3e2" % rig.model(1) in log, log
    rig.assert_reads_back(0)
    # socket 1's card stays unseen: no second PC Card device comes (the
    # empty sockets of the second chip have none either)
    assert not rig.g.wait_for("[ $(ls /sys/bus/pcmcia/devices | wc -l) -gt 1 ]", 10), \
        rig.g.check("ls /sys/bus/pcmcia/devices")

    rig.load(IRQ_PARAMS)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def test_cirrus_options(rig):
    """The Cirrus chip's registers of its own as the options set them:
    ring indicate on by default (IRQ 15 is then no card line), dynamic
    mode and frequency bypass, and the timing sets (set 1's command time
    derived from set 0's).  Read back from the chip itself."""
    if rig.chips[0] != CIRRUS:
        pytest.skip("the chip at 0x3e0 is an %s in this guest" % rig.model(0))
    rig.load(IRQ_PARAMS + CIRRUS_PARAMS)
    log = rig.load_log()
    assert "socket 0: Cirrus options [ring] [dyn mode] [freq bypass], timing " \
        "02 07 03 02 12 03" in log, log
    rig.check_chip_setup()
    rig.assert_reads_back(0)
    rig.g.assert_clean_kernel_log()


# the stress scenarios every bridge runs (in CI on 7.x only)
test_eject_insert_cycles = bridge_scenarios.isa_stress(
    bridge_scenarios.eject_insert_cycles, KERNELS[0][0])
test_eject_insert_cycles_during_reads = bridge_scenarios.isa_stress(
    bridge_scenarios.eject_insert_cycles_during_reads, KERNELS[0][0])
test_unload_reload_with_cards_present = bridge_scenarios.isa_stress(
    bridge_scenarios.unload_reload_with_cards_present, KERNELS[0][0])


# last: it suspends the whole guest
test_suspend_to_ram_rtc_wakeup = bridge_scenarios.isa_suspend_to_ram_rtc_wakeup
