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

from cfrig import IMAGE_SIZE, CfRig, qemu_args
from pclguest import Guest

KERNEL = "6.1"
# Load the card driver and the disk driver before the bridge, so that they
# are there when the bridge finds a card.
MODULES = ["sd_mod", "pata_pcmcia", "i82092"]


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    images, args = qemu_args(tmp_path_factory.mktemp("cf-images"))
    with Guest("upstream-bridge", kernel=KERNEL, modules=MODULES, load=MODULES,
               qemu_args=args) as g:
        yield CfRig(g, images)


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
