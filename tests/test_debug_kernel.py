# SPDX-License-Identifier: GPL-2.0-only
"""Our drivers on the self-built debug kernel (kernels.matrix line
"debug", vm/kernels/debug.config): KASAN, lockdep, DEBUG_ATOMIC_SLEEP,
debug objects, kmemleak and UBSAN watch what test_i82092.py does to our
i82092 and a CompactFlash card, in one boot: insertion and surprise
eject, both sockets, eject cycles with and without reads in flight,
unload and reload with cards present.  Our ISA bridges are in the same
boot (an isa-i82365 and an isa-tcic, a card in each): with a card being
read behind each of the three bridges, the guest suspends to RAM and to
idle in turn, and each card is ejected and inserted once.  Then the
modules are unloaded and kmemleak scans: nothing may leak.  Every test
ends with a clean kernel log, where a report of any of the checkers is a
failure (vm/guest/pclguest.py, LOG_PROBLEMS).

Cycles: CI 4 ejects, 1 during reads, 2 reloads (each costs 15-30 s on
this kernel under TCG), 5 suspends; PCL_STRESS=soak (make soak)
test_i82092's full counts and 100 suspends.

CI cost: the kernel build on a cold machine (scripts/selfkernel.sh, about
11 minutes on two cores; cached by source version and configuration),
the module build, one boot and about 7 minutes of scenarios under TCG
(the suspend cycles about 2 of them).
"""

import os

import pytest

import tally
import test_i82092
from cfrig import CfRig, bridge_guest, card_images
from test_i82092 import MODULE

# test_i82092's scenarios, run here in this order (pytest keeps the order
# of the module's names)
test_ours_drives_the_bridge = test_i82092.test_ours_drives_the_bridge
test_hot_insert_and_surprise_eject = test_i82092.test_hot_insert_and_surprise_eject
test_both_sockets_at_once = test_i82092.test_both_sockets_at_once
test_eject_insert_cycles = test_i82092.test_eject_insert_cycles
test_eject_insert_cycles_during_reads = test_i82092.test_eject_insert_cycles_during_reads
test_unload_reload_with_cards_present = test_i82092.test_unload_reload_with_cards_present

KERNEL = "debug"
SOAK = os.environ.get("PCL_STRESS") == "soak"
# what the debug kernel is for: each must be on, or the test proves nothing
CHECKERS = ("KASAN", "PROVE_LOCKING", "DEBUG_ATOMIC_SLEEP", "DEBUG_OBJECTS_TIMERS",
            "DEBUG_OBJECTS_WORK", "DEBUG_KMEMLEAK", "UBSAN", "UBSAN_BOUNDS")
KMEMLEAK = "/sys/kernel/debug/kmemleak"
SUSPEND_CYCLES = int(os.environ.get("PCL_DEBUG_SUSPENDS", 100 if SOAK else 5))
# Our ISA bridges beside the 82092, a CF card in slot 0 of each: module ->
# (QEMU device and id, module parameters).  Their lines apart: the TCIC-2
# drives 3-7, 10 and 14, and 3 is the kernel console's serial port, 4 the
# shell's, 10 the 82092's PCI line; this kernel has no driver on the IDE
# controller's 14.
ISA_BRIDGES = {
    "i82365": ("isa-i82365", "pcic", "irq_list=5,7 cs_irq=7"),
    "tcic": ("isa-tcic", "tcic", "irq_list=14,6 cs_irq=6"),
}


class Rig(test_i82092.Rig):
    eject_cycles = test_i82092.EJECT_CYCLES if SOAK else 4
    read_eject_cycles = test_i82092.READ_EJECT_CYCLES if SOAK else 1
    reload_cycles = test_i82092.RELOAD_CYCLES if SOAK else 2


class IsaCard(CfRig):
    """The CF card in slot 0 of one of our ISA bridges in this boot (its
    PC Card device is under the module's platform device)."""

    def __init__(self, guest, image, module, bridge):
        super().__init__(guest, {0: image})
        self.module, self.bridge = module, bridge
        self.inserted = {0: True}

    def card_id(self, slot):
        return "cf%s%d" % (self.bridge, slot)

    def slot_bus(self, slot):
        return "%s.%d" % (self.bridge, slot)

    def path_marker(self, slot):
        return "/platform/%s/" % self.module

    def removed_cond(self, slot):
        return "! ls /sys/devices/platform/%s | grep -qE '^[0-9]+\\.0$'" % self.module


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cf-images-debug")
    images, args = card_images(tmp, list(ISA_BRIDGES), first_seed=0x365)
    for module, (device, bridge, _) in ISA_BRIDGES.items():
        args += ["-device", "%s,id=%s" % (device, bridge),
                 "-device", "pcmcia-cf,id=cf%s0,bus=%s.0,drive=%s"
                 % (bridge, bridge, images[module][0])]
    with bridge_guest(Rig, "i82092-debug", KERNEL, KERNEL, MODULE, tmp,
                      extra_args=args, extra_modules=list(ISA_BRIDGES)) as r:
        r.isa = {m: IsaCard(r.g, images[m], m, d[1]) for m, d in ISA_BRIDGES.items()}
        yield r


def test_the_checkers_are_on(rig):
    """The guest runs the debug kernel, with its checkers armed (the ones
    that print nothing when all is well must at least exist)."""
    g = rig.g
    assert g.check("uname -r").strip().endswith("-pcl-debug")
    config = rig.g.kernel.config
    missing = [c for c in CHECKERS if config(c) != "y"]
    assert not missing, "debug kernel without CONFIG_%s" % ", CONFIG_".join(missing)
    log = g.dmesg()
    assert "KernelAddressSanitizer initialized" in log
    for path in (KMEMLEAK, "/proc/lockdep", "/sys/kernel/debug/debug_objects/stats"):
        assert g.run("[ -r %s ]" % path)[1] == 0, "no %s in the guest" % path


# A reader of a disk, 128 KB at a time all over it, over and over with
# short pauses (the cards' PIO under TCG would take the whole CPU),
# detached from the console shell; it counts its passes and leaves a
# mark if a read failed before the stop file appeared.
READER = ("start-stop-daemon -S -b -n pcl-reader -a /bin/sh -- -c "
          "'n=0; while [ ! -e /tmp/readers.stop ] && "
          "dd if=/dev/{0} of=/dev/null bs=4k count=32 skip=$((n % 32 * 32)) 2>/dev/null; "
          "do n=$((n + 1)); echo $n > /tmp/reads.{0}; sleep 0.2; done; "
          "[ -e /tmp/readers.stop ] || touch /tmp/reads.{0}.failed'")


def reader_passes(g, disks):
    out = g.check("for d in %s; do cat /tmp/reads.$d 2>/dev/null || echo 0; done"
                  % " ".join(disks))
    return [int(n) for n in out.split()]


def test_suspend_cycles_with_cards_in_use_in_every_bridge(rig):
    """SUSPEND_CYCLES system suspends, to RAM and to idle in turn, while a
    card is read behind each of our bridges: the 82092, the i82365 and
    the TCIC-2.  QEMU resets the bridges on a wake from S3: each driver
    must set its chip up again before the core resumes the sockets.
    After every wake-up no reader has failed and every reader goes on
    (its count of passes grows); then each card reads back its
    image, the ISA cards are ejected and inserted once, and the ISA
    modules are unloaded, before the kmemleak scan that covers them."""
    g = rig.g
    rig.ensure(0, True)
    for module, (_, _, params) in ISA_BRIDGES.items():
        g.check("pcl-insmod %s %s" % (module, params))
    g.check("pcl-socket-startup")
    cards = [rig] + list(rig.isa.values())
    disks = [c.wait_disk(0) for c in cards]
    assert len(set(disks)) == len(cards), disks
    g.check("rm -f /tmp/readers.stop /tmp/reads.*")
    for disk in disks:
        g.check(READER.format(disk))

    def reading_on(since, what):
        cond = " && ".join("[ $(cat /tmp/reads.%s 2>/dev/null || echo 0) -gt %d ]"
                           % (d, n) for d, n in zip(disks, since))
        assert g.wait_for(cond, 180), "%s: a card is no longer read (passes %s, were %s)" % (
            what, reader_passes(g, disks), since)

    def no_reader_failed(what):
        failed = g.check("ls /tmp/reads.*.failed 2>/dev/null; true").split()
        assert not failed, "%s: reads failed: %s\n%s" % (
            what, failed, g.run("dmesg | tail -30")[0])

    reading_on([0] * len(disks), "before the first suspend")
    modes = ("deep", "s2idle")

    def cycle(n):
        what = "suspend %d (%s)" % (n + 1, modes[n % 2])
        since = reader_passes(g, disks)
        rig.sleep_and_wake(modes[n % 2])
        no_reader_failed(what)
        reading_on(since, what)

    tally.rounds(SUSPEND_CYCLES, cycle, [MODULE] + list(ISA_BRIDGES),
                 "suspends, a card in use, on " + KERNEL)
    print("%d suspends (%s in turn) with %d cards in use, passes read %s"
          % (SUSPEND_CYCLES, " and ".join(modes), len(disks), reader_passes(g, disks)))
    g.check("touch /tmp/readers.stop")
    assert g.wait_for("! pidof dd", 120), "the readers did not stop"
    no_reader_failed("after the suspends")
    for card in cards:
        card.assert_reads_back(0)

    for card in rig.isa.values():
        card.quiet_disk(0)
        card.eject(0)
        assert card.disk(0) is None, "%s: the disk outlived its card" % card.module
        card.insert(0)
        card.assert_reads_back(0)
    g.check("rmmod %s" % " ".join(ISA_BRIDGES))
    assert g.check("ls /sys/class/pcmcia_socket").split() == \
        ["pcmcia_socket0", "pcmcia_socket1"], "sockets left after rmmod"
    g.assert_clean_kernel_log()


def test_no_leaks_after_unload(rig):
    """Our modules gone, two kmemleak scans a few seconds apart (an object
    is reported once it has stayed unreferenced past its minimum age)
    find nothing, from this boot's whole life."""
    g = rig.g
    for module in [MODULE] + list(ISA_BRIDGES):
        if g.run("[ -d /sys/module/%s ]" % module)[1] == 0:
            g.check("rmmod %s" % module)
    for _ in range(2):
        g.check("sleep 6; echo scan > %s" % KMEMLEAK, timeout=300)
    leaks = g.check("cat %s" % KMEMLEAK, timeout=120)
    assert not leaks.strip(), "kmemleak reports:\n" + leaks
    g.assert_clean_kernel_log()
