# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated Intel 82092AA bridge and CompactFlash card with
the drivers written for the real hardware: Debian 6.1's in-tree i82092
and pata_pcmcia.  One guest boot; the scenarios run in order and each
puts the slots in the state it needs.

Card in socket A at power-on (-device), hot insert and surprise eject
over QMP (device_add/device_del), both sockets at once.  Each card is
backed by a host image of deterministic random bytes whose sha256 the
guest must read back.
"""

import pytest

from pclguest import Guest, make_image

KERNEL = "6.1"
# Load the card driver and the disk driver before the bridge, so that they
# are there when the bridge finds a card.
MODULES = ["sd_mod", "pata_pcmcia", "i82092"]
IMAGE_SIZE = 4 << 20
BRIDGE = "pcc"                  # -device i82092,id=pcc: slots pcc.0, pcc.1
DISK_TIMEOUT = 60               # seconds from insertion to the block device
# Seconds from a surprise eject until the card's removal is complete.  The
# disk leaves /sys/block at once, but then upstream's sd sends the vanished
# drive a STOP UNIT and libata's error handling retries IDENTIFY: 30 + 5 +
# 10 + 30 s of command timeouts (about 78 s under TCG) during which the
# socket's pccardd is busy and the socket takes no new card.  Real
# hardware, whose bus floats the same way, behaves alike.
REMOVE_TIMEOUT = 180


class Rig:
    """The guest, its two slots and what is in them."""

    def __init__(self, guest, images):
        self.g = guest
        self.images = images            # slot -> (node name, sha256)
        self.inserted = {0: True, 1: False}

    @staticmethod
    def card_id(slot):
        return "cf%d" % slot

    def insert(self, slot):
        node, _ = self.images[slot]
        self.g.device_add("pcmcia-cf", id=self.card_id(slot),
                          bus="%s.%d" % (BRIDGE, slot), drive=node)
        self.inserted[slot] = True

    def eject(self, slot, wait=True):
        """Surprise-eject; unless wait is False, wait until the kernel
        has finished removing the card."""
        self.g.device_del(self.card_id(slot))
        self.inserted[slot] = False
        if wait:
            self.wait_removed(slot)

    def wait_removed(self, slot):
        # the function's device (not its bus link, which goes first)
        dev = "/sys/class/pcmcia_socket/pcmcia_socket%d/device/%d.0" % (slot, slot)
        assert self.g.wait_for("[ ! -e %s ]" % dev, REMOVE_TIMEOUT), \
            "the card of socket %d is still being removed %d s after eject" % (
                slot, REMOVE_TIMEOUT)

    def ensure(self, slot, present):
        if self.inserted[slot] != present:
            (self.insert if present else self.eject)(slot)

    # The PC Card device of socket N is "N.0" (socket, function) under the
    # bridge; the disk is the sd* whose sysfs path goes through it.
    def disk_cond(self, slot):
        return ("for d in /sys/block/sd*; do readlink -f $d; done 2>/dev/null | "
                "grep -q '/%d\\.0/'" % slot)

    def disk(self, slot):
        out = self.g.check("for d in /sys/block/sd*; do [ -e \"$d\" ] && "
                           "echo \"${d##*/} $(readlink -f \"$d\")\"; done; true")
        for line in out.splitlines():
            name, path = line.split()
            if "/%d.0/" % slot in path:
                return name
        return None

    def wait_disk(self, slot):
        assert self.g.wait_for(self.disk_cond(slot), DISK_TIMEOUT), \
            "no disk for the card in socket %d after %d s:\n%s" % (
                slot, DISK_TIMEOUT, self.g.run("ls -l /sys/block; "
                                               "ls /sys/bus/pcmcia/devices")[0])
        return self.disk(slot)

    def wait_no_disk(self, slot):
        assert self.g.wait_for("! { %s; }" % self.disk_cond(slot), DISK_TIMEOUT), \
            "the disk of socket %d is still there %d s after eject" % (slot, DISK_TIMEOUT)

    def checksum(self, disk):
        return self.g.check("sha256sum /dev/%s" % disk, timeout=300).split()[0]


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cf-images")
    images, args = {}, ["-device", "i82092,id=%s" % BRIDGE]
    for slot in (0, 1):
        path = tmp / ("card%d.img" % slot)
        sha = make_image(str(path), IMAGE_SIZE, seed=0x82092 + slot)
        node = "disk%d" % slot
        images[slot] = (node, sha)
        args += ["-blockdev", "driver=raw,node-name=%s,file.driver=file,"
                 "file.filename=%s" % (node, path)]
    args += ["-device", "pcmcia-cf,id=cf0,bus=%s.0,drive=disk0" % BRIDGE]
    with Guest("upstream-bridge", kernel=KERNEL, modules=MODULES, load=MODULES,
               qemu_args=args) as g:
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
    rig.wait_disk(0)
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
