# SPDX-License-Identifier: GPL-2.0-only
"""Our tcic (src/bridges/) on the emulated Databook TCIC-2 (QEMU's
isa-tcic at 0x240, a DB86082A), with Debian's pata_pcmcia and a
CompactFlash card, on trixie-backports' 7.x amd64 kernel, which has no
tcic of its own (no CONFIG_ISA on amd64): the module makes its own
platform device; and on our self-built 32-bit 7.x (kernels.matrix line
i686), the kernel of the laptops these bridges are in.

One guest boot per kernel.  The module is loaded first with its
interrupts given (irq_list, cs_irq): status changes on one ISA line,
card interrupts on another, both checked in /proc/interrupts; then
reloaded in polling mode (poll_interval, no cs_irq), where insertion and
removal must still be seen, and with ignore; last, a suspend to RAM.
Every card is backed by a host image of deterministic random bytes whose
sha256 the guest must read back.  The ISA lines are test_i82365.py's: 5
for cards, 7 for status changes (the lines of the chip that nothing else
in QEMU's pc machine drives).

CI cost: about 120 s for both kernels (measured under TCG with
PCL_TEST_JOBS=1, about 60 s each).
"""

import pytest
from cfrig import IsaBridgeRig, bridge_guest

# (guest kernel, kernels.matrix line): trixie-backports' amd64 7.x, and our
# own 32-bit 7.x (vm/kernels/i686.config), which has the ISA bus
KERNELS = [("7.3", "trixie-bpo"), ("i686", "i686")]
# parallel test workers (tests/conftest.py): one guest kernel each
XDIST_SPLIT = "rig"
MODULE = "tcic"
CARD_IRQ, CS_IRQ = 5, 7
IRQ_PARAMS = "irq_list=%d,%d cs_irq=%d" % (CARD_IRQ, CS_IRQ, CS_IRQ)
POLL_JIFFIES = 25
POLL_PARAMS = "irq_list=%d poll_interval=%d" % (CARD_IRQ, POLL_JIFFIES)


class Rig(IsaBridgeRig):
    module = MODULE
    default_params = IRQ_PARAMS

    def __init__(self, guest, images, ko_release, kernel):
        super().__init__(guest, images, ko_release)
        self.kernel = kernel


@pytest.fixture(scope="module", params=KERNELS, ids=[k for k, _ in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name = request.param

    def make(guest, images, ko_release):
        return Rig(guest, images, ko_release, kernel)

    with bridge_guest(make, "tcic-" + kernel, kernel, matrix_name, MODULE,
                      tmp_path_factory.mktemp("cf-images-tcic-" + kernel),
                      bridge="isa-tcic") as r:
        yield r


def test_ours_finds_the_chip_and_the_card(rig):
    g = rig.g
    assert g.check("uname -r").strip() == rig.ko_release, \
        "the module was built for another kernel than the guest runs"
    assert g.run("[ -d /sys/module/%s ]" % MODULE)[1] != 0
    rig.load(IRQ_PARAMS)
    assert "O" in g.check("cat /sys/module/%s/taint" % MODULE), \
        "the bridge is not driven by our out-of-tree module"
    assert rig.sockets() == ["pcmcia_socket0", "pcmcia_socket1"]
    for n in (0, 1):
        parent = g.check("readlink -f /sys/class/pcmcia_socket/pcmcia_socket%d/device" % n)
        assert parent.strip() == "/sys/devices/platform/%s" % MODULE, parent
    log = rig.load_log()
    assert "Databook DB86082A at 0x240" in log, log
    # the chip raised both lines when tested, and 7 is the status line
    assert "ISA IRQs for cards (tested): %d,%d" % (CARD_IRQ, CS_IRQ) in log, log
    assert "status changes on IRQ %d" % CS_IRQ in log, log
    assert "polling for status changes" not in log, log
    assert rig.interrupts()[CS_IRQ][1] == [MODULE]
    rig.assert_reads_back(0)
    rig.assert_card_irqs(CARD_IRQ)
    g.assert_clean_kernel_log()


def test_status_change_interrupt_on_cs_irq(rig):
    """Insertion and removal are seen through the status change line
    alone: with an interrupt and no poll_interval the driver never polls."""
    rig.load(IRQ_PARAMS)
    rig.ensure(1, False)
    before = rig.count(CS_IRQ)
    rig.insert(1)
    rig.assert_reads_back(1)
    assert rig.count(CS_IRQ) > before, "no status change interrupt on insertion"
    before = rig.count(CS_IRQ)
    rig.eject_insert(1)
    assert rig.count(CS_IRQ) >= before + 2, \
        "eject and insertion gave %d status change interrupts" % (rig.count(CS_IRQ) - before)
    rig.assert_card_irqs(CARD_IRQ)
    rig.g.assert_clean_kernel_log()


def test_both_sockets_at_once(rig):
    rig.load(IRQ_PARAMS)
    rig.ensure(0, True)
    rig.ensure(1, True)
    disks = {slot: rig.wait_disk(slot) for slot in (0, 1)}
    assert disks[0] != disks[1]
    # both cards' IREQ# on one line: the chip ORs them
    before = rig.count(CARD_IRQ)
    rig.g.check("sha256sum /dev/%s >/dev/null & sha256sum /dev/%s >/dev/null; wait"
                % (disks[0], disks[1]), timeout=300)
    assert rig.count(CARD_IRQ) > before
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.assert_card_irqs(CARD_IRQ)
    rig.g.assert_clean_kernel_log()


def test_polling_mode(rig):
    rig.ensure(0, True)
    rig.ensure(1, True)
    rig.load(POLL_PARAMS)
    log = rig.load_log()
    assert "polling for status changes every" in log, log
    assert "status changes on IRQ" not in log, log
    assert all(MODULE not in names for _, names in rig.interrupts().values()), \
        rig.g.check("cat /proc/interrupts")
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.eject_insert(1)
    rig.assert_card_irqs(CARD_IRQ)
    rig.g.assert_clean_kernel_log()


def test_ignore_leaves_a_socket_alone(rig):
    """ignore=1: socket 1's card is never seen; socket 0 works as before."""
    rig.ensure(0, True)
    rig.ensure(1, True)
    rig.load(IRQ_PARAMS + " ignore=1")
    assert rig.sockets() == ["pcmcia_socket0"], rig.load_log()
    rig.assert_reads_back(0)
    assert not rig.g.wait_for("[ $(ls /sys/bus/pcmcia/devices | wc -l) -gt 1 ]", 10), \
        rig.g.check("ls /sys/bus/pcmcia/devices")
    rig.load(IRQ_PARAMS)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def test_suspend_to_ram_rtc_wakeup(rig):
    """Suspend to RAM with a card in use, woken by the RTC.  QEMU resets
    the controller on the way back: the driver's resume must set the
    chip's interrupts up again before the PC Card core resumes the
    sockets."""
    rig.load(IRQ_PARAMS)
    rig.ensure(0, True)
    if rig.inserted[1]:
        rig.quiet_disk(1)
    rig.ensure(1, False)
    rig.wait_disk(0)
    rig.sleep_and_wake("deep")
    rig.assert_reads_back(0)
    # status changes still arrive on their line
    before = rig.count(CS_IRQ)
    rig.insert(1)
    rig.assert_reads_back(1)
    assert rig.count(CS_IRQ) > before, "no status change interrupt after resume"
    rig.g.assert_clean_kernel_log()
