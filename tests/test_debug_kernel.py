# SPDX-License-Identifier: GPL-2.0-only
"""Our drivers on the self-built debug kernel (kernels.matrix line
"debug", vm/kernels/debug.config): KASAN, lockdep, DEBUG_ATOMIC_SLEEP,
debug objects, kmemleak and UBSAN watch what test_i82092.py does to our
i82092 and a CompactFlash card, in one boot: insertion and surprise
eject, both sockets, suspend to RAM and to idle with the card in use,
eject cycles with and without reads in flight, unload and reload with
cards present.  Then the
module is unloaded and kmemleak scans: nothing may leak.  Every test ends
with a clean kernel log, where a report of any of the checkers is a
failure (vm/guest/pclguest.py, LOG_PROBLEMS).

Cycles: CI 4 ejects, 1 during reads, 2 reloads (each costs 15-30 s on
this kernel under TCG); PCL_STRESS=soak (make soak) test_i82092's full
counts.

CI cost: the kernel build on a cold machine (scripts/selfkernel.sh, about
11 minutes on two cores; cached by source version and configuration),
the module build, one boot and about 6 minutes of scenarios under TCG.
"""

import os

import pytest

import test_i82092
from cfrig import bridge_guest
from test_i82092 import MODULE

# test_i82092's scenarios, run here in this order (pytest keeps the order
# of the module's names)
test_ours_drives_the_bridge = test_i82092.test_ours_drives_the_bridge
test_hot_insert_and_surprise_eject = test_i82092.test_hot_insert_and_surprise_eject
test_both_sockets_at_once = test_i82092.test_both_sockets_at_once
test_suspend_to_ram_rtc_wakeup = test_i82092.test_suspend_to_ram_rtc_wakeup
test_suspend_to_idle_rtc_wakeup = test_i82092.test_suspend_to_idle_rtc_wakeup
test_eject_insert_cycles = test_i82092.test_eject_insert_cycles
test_eject_insert_cycles_during_reads = test_i82092.test_eject_insert_cycles_during_reads
test_unload_reload_with_cards_present = test_i82092.test_unload_reload_with_cards_present

KERNEL = "debug"
SOAK = os.environ.get("PCL_STRESS") == "soak"
# what the debug kernel is for: each must be on, or the test proves nothing
CHECKERS = ("KASAN", "PROVE_LOCKING", "DEBUG_ATOMIC_SLEEP", "DEBUG_OBJECTS_TIMERS",
            "DEBUG_OBJECTS_WORK", "DEBUG_KMEMLEAK", "UBSAN", "UBSAN_BOUNDS")
KMEMLEAK = "/sys/kernel/debug/kmemleak"


class Rig(test_i82092.Rig):
    eject_cycles = test_i82092.EJECT_CYCLES if SOAK else 4
    read_eject_cycles = test_i82092.READ_EJECT_CYCLES if SOAK else 1
    reload_cycles = test_i82092.RELOAD_CYCLES if SOAK else 2


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    with bridge_guest(Rig, "i82092-debug", KERNEL, KERNEL, MODULE,
                      tmp_path_factory.mktemp("cf-images-debug")) as r:
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


def test_no_leaks_after_unload(rig):
    """Our module gone, two kmemleak scans a few seconds apart (an object
    is reported once it has stayed unreferenced past its minimum age)
    find nothing, from this boot's whole life."""
    g = rig.g
    if g.run("[ -d /sys/module/%s ]" % MODULE)[1] == 0:
        g.check("rmmod %s" % MODULE)
    for _ in range(2):
        g.check("sleep 6; echo scan > %s" % KMEMLEAK, timeout=300)
    leaks = g.check("cat %s" % KMEMLEAK, timeout=120)
    assert not leaks.strip(), "kmemleak reports:\n" + leaks
    g.assert_clean_kernel_log()
