# SPDX-License-Identifier: GPL-2.0-only
"""Stress scenarios every PC Card bridge driver of ours runs on the
CompactFlash rig (tests/cfrig.py), socket B's card going and coming:
surprise ejects, ejects with reads in flight, and unloading the bridge
module with cards in both sockets.

A test module takes them under test_ names, after its own tests so that
they run last:

    test_eject_insert_cycles = bridge_scenarios.eject_insert_cycles

Its rig supplies the counts (eject_cycles, read_eject_cycles,
reload_cycles), unload_module() and load_module(), which loads the
bridge module as the test module loads it, and the module's name
(module), under which the counts go to the run's stress summary
(tests/tally.py).

After them, the scenarios our ISA bridge modules (test_i82365.py,
test_tcic.py) share, on a cfrig.IsaBridgeRig: the module found on the
lines it is given, status changes on their line or polled, both
sockets' cards on one line, and suspend to RAM.  A test module takes
them under the same names in the same way, in the order it wants them.
"""

import time

import pytest

import tally
from cfrig import (ISA_CARD_IRQ, ISA_CS_IRQ, ISA_IRQ_PARAMS, ISA_POLL_PARAMS,
                   REMOVE_TIMEOUT, SOAK)


def eject_insert_cycles(rig):
    """Card removal and insertion, over and over; the disk must come
    back each time."""
    rig.ensure(1, True)

    def cycle(n):
        rig.quiet_disk(1)
        rig.eject(1)
        assert rig.disk(1) is None, "cycle %d: the disk outlived its card" % n
        rig.insert(1)

    tally.rounds(rig.eject_cycles, cycle, [rig.module], "surprise ejects on " + rig.kernel)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def eject_insert_cycles_during_reads(rig):
    """Ejects while a reader streams from the card: the reads fail and
    end, the card comes back."""
    rig.ensure(1, True)

    def cycle(n):
        disk = rig.quiet_disk(1, timeout=2)
        # detached (start-stop-daemon -b: own session, stdio on /dev/null),
        # not a job of the console shell: once such a job's reads failed,
        # the shell died and its next command was lost
        rig.g.check("start-stop-daemon -S -b -n pcl-reader -a /bin/sh -- -c "
                    "'while dd if=/dev/%s of=/dev/null bs=4k 2>/dev/null; do :; done'"
                    % disk)
        assert rig.g.wait_for("pidof dd", 10), "cycle %d: the reader did not start" % n
        time.sleep(0.5)
        rig.eject(1)
        assert rig.g.wait_for("! pidof dd", REMOVE_TIMEOUT), \
            "cycle %d: readers of the ejected card never finished" % n
        rig.insert(1)

    tally.rounds(rig.read_eject_cycles, cycle, [rig.module],
                 "ejects during reads on " + rig.kernel)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def unload_reload_with_cards_present(rig):
    """The bridge module unloaded and loaded again with cards in both
    sockets: the sockets go and come back, and so do the disks."""
    rig.ensure(0, True)
    rig.ensure(1, True)

    def cycle(n):
        for slot in (0, 1):
            rig.wait_disk(slot)
        rig.unload_module()
        assert rig.g.check("ls /sys/class/pcmcia_socket 2>/dev/null; true").split() == [], \
            "cycle %d: sockets left after rmmod" % n
        rig.load_module()

    tally.rounds(rig.reload_cycles, cycle, [rig.module],
                 "reloads with cards in on " + rig.kernel)
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.g.assert_clean_kernel_log()


# ---------------------------------------------------------- ISA bridges

def isa_stress(scenario, ci_kernel):
    """One of the stress scenarios above for an ISA bridge's test module:
    in CI on ci_kernel only (the driver's logic is the same on the other
    kernels, whose runs cost as much again; None: make soak only), under
    make soak on every kernel; the counts are IsaBridgeRig's."""
    def test(rig):
        if rig.kernel != ci_kernel and not SOAK:
            pytest.skip("CI runs the stress scenarios on %s; make soak on every kernel"
                        % ci_kernel if ci_kernel else "make soak runs the stress scenarios")
        scenario(rig)
    test.__doc__ = scenario.__doc__
    return test


def isa_finds_the_chip_and_the_card(rig):
    """Our module (not upstream's) finds the chip, makes its own platform
    device for the two sockets, tests the lines it is given (the chip
    raised both) and takes the status change line."""
    g = rig.g
    assert g.check("uname -r").strip() == rig.ko_release, \
        "the module was built for another kernel than the guest runs"
    assert g.run("[ -d /sys/module/%s ]" % rig.module)[1] != 0
    rig.load(ISA_IRQ_PARAMS)
    assert "O" in g.check("cat /sys/module/%s/taint" % rig.module), \
        "the bridge is not driven by our out-of-tree module"
    assert rig.sockets() == ["pcmcia_socket0", "pcmcia_socket1"]
    for n in (0, 1):
        parent = g.check("readlink -f /sys/class/pcmcia_socket/pcmcia_socket%d/device" % n)
        assert parent.strip() == "/sys/devices/platform/%s" % rig.module, parent
    log = rig.load_log()
    rig.check_probe_log(log)
    assert "ISA IRQs for cards (tested): %d,%d" % (ISA_CARD_IRQ, ISA_CS_IRQ) in log, log
    assert "status changes on IRQ %d" % ISA_CS_IRQ in log, log
    assert "polling for status changes" not in log, log
    assert rig.interrupts()[ISA_CS_IRQ][1] == [rig.module]
    rig.assert_reads_back(0)
    rig.assert_card_irqs(ISA_CARD_IRQ)
    g.assert_clean_kernel_log()


def isa_status_change_interrupt_on_cs_irq(rig):
    """Insertion and removal are seen through the status change line
    alone: with an interrupt and no poll_interval the driver never polls."""
    rig.load(ISA_IRQ_PARAMS)
    rig.ensure(1, False)
    before = rig.count(ISA_CS_IRQ)
    rig.insert(1)
    rig.assert_reads_back(1)
    assert rig.count(ISA_CS_IRQ) > before, "no status change interrupt on insertion"
    before = rig.count(ISA_CS_IRQ)
    rig.eject_insert(1)
    assert rig.count(ISA_CS_IRQ) >= before + 2, \
        "eject and insertion gave %d status change interrupts" % (
            rig.count(ISA_CS_IRQ) - before)
    rig.assert_card_irqs(ISA_CARD_IRQ)
    rig.g.assert_clean_kernel_log()


def isa_both_sockets_at_once(rig):
    """Both cards read at once, their IREQ# on one line (the chip ORs
    them)."""
    rig.load(ISA_IRQ_PARAMS)
    rig.ensure(0, True)
    rig.ensure(1, True)
    disks = {slot: rig.wait_disk(slot) for slot in (0, 1)}
    assert disks[0] != disks[1]
    before = rig.count(ISA_CARD_IRQ)
    rig.g.check("sha256sum /dev/%s >/dev/null & sha256sum /dev/%s >/dev/null; wait"
                % (disks[0], disks[1]), timeout=300)
    assert rig.count(ISA_CARD_IRQ) > before
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.assert_card_irqs(ISA_CARD_IRQ)
    rig.g.assert_clean_kernel_log()


def isa_polling_mode(rig):
    """Without a status change line (poll_interval, no cs_irq) the driver
    holds no interrupt of its own, and an eject and insertion are still
    seen."""
    rig.ensure(0, True)
    rig.ensure(1, True)
    rig.load(ISA_POLL_PARAMS)
    log = rig.load_log()
    assert "polling for status changes every" in log, log
    assert "status changes on IRQ" not in log, log
    assert all(rig.module not in names for _, names in rig.interrupts().values()), \
        rig.g.check("cat /proc/interrupts")
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.eject_insert(1)
    rig.assert_card_irqs(ISA_CARD_IRQ)
    rig.g.assert_clean_kernel_log()


def isa_suspend_to_ram_rtc_wakeup(rig):
    """Suspend to RAM with a card in use, woken by the RTC.  QEMU resets
    the controller on the way back: the driver's resume must set the chip
    up again (interrupts, and whatever else the chip has: the rig checks
    it) before the PC Card core resumes the sockets.  Runs last: it
    suspends the whole guest."""
    rig.load(rig.suspend_params())
    rig.ensure(0, True)
    if rig.inserted[1]:
        rig.quiet_disk(1)
    rig.ensure(1, False)
    rig.wait_disk(0)
    rig.sleep_and_wake("deep")
    rig.assert_reads_back(0)
    rig.check_chip_setup()
    # status changes still arrive on their line
    before = rig.count(ISA_CS_IRQ)
    rig.insert(1)
    rig.assert_reads_back(1)
    assert rig.count(ISA_CS_IRQ) > before, "no status change interrupt after resume"
    rig.g.assert_clean_kernel_log()
