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
bridge module as the test module loads it.
"""

import time

from cfrig import REMOVE_TIMEOUT


def eject_insert_cycles(rig):
    """Card removal and insertion, over and over; the disk must come
    back each time."""
    rig.ensure(1, True)
    for n in range(rig.eject_cycles):
        rig.quiet_disk(1)
        rig.eject(1)
        assert rig.disk(1) is None, "cycle %d: the disk outlived its card" % n
        rig.insert(1)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def eject_insert_cycles_during_reads(rig):
    """Ejects while a reader streams from the card: the reads fail and
    end, the card comes back."""
    rig.ensure(1, True)
    for n in range(rig.read_eject_cycles):
        disk = rig.quiet_disk(1, timeout=2)
        rig.g.check("(while dd if=/dev/%s of=/dev/null bs=4k 2>/dev/null; "
                    "do :; done) >/dev/null 2>&1 &" % disk)
        time.sleep(0.5)
        rig.eject(1)
        assert rig.g.wait_for("! pidof dd", REMOVE_TIMEOUT), \
            "cycle %d: readers of the ejected card never finished" % n
        rig.insert(1)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


def unload_reload_with_cards_present(rig):
    """The bridge module unloaded and loaded again with cards in both
    sockets: the sockets go and come back, and so do the disks."""
    rig.ensure(0, True)
    rig.ensure(1, True)
    for n in range(rig.reload_cycles):
        for slot in (0, 1):
            rig.wait_disk(slot)
        rig.unload_module()
        assert rig.g.check("ls /sys/class/pcmcia_socket 2>/dev/null; true").split() == [], \
            "cycle %d: sockets left after rmmod" % n
        rig.load_module()
    for slot in (0, 1):
        rig.assert_reads_back(slot)
    rig.g.assert_clean_kernel_log()
