#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The in-guest part of an image build (vm/image/build.sh): two boots of
the new disk in our QEMU.

1. The kernel and initramfs of the chroot, booted directly: the
   initramfs is made again for this machine (MODULES=dep), GRUB goes
   onto the disk the Debian way, from inside (grub-install, update-grub),
   and apt reads the local repository once.
2. The disk alone, through its own GRUB: the boot a test guest will make.
   It must reach a running system on the kernel the image was built with.

usage: finish.py NAME WORKDIR KERNEL
  WORKDIR holds disk.qcow2 (written to), repo.img, vmlinuz, initrd.img.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "guest"))

from pclguest import DiskGuest, GuestError, progress  # noqa: E402


def repo_args(work):
    return ["-drive", "if=none,id=repo,format=raw,readonly=on,file=" +
            os.path.join(work, "repo.img"), "-device", "virtio-blk-pci,drive=repo"]


def check_running(g):
    if g.system_state != "running":
        raise GuestError("%s: the system is %s; failed units: %s"
                         % (g.name, g.system_state, " ".join(g.failed_units())))


def main(name, work, kernel):
    disk = os.path.join(work, "disk.qcow2")
    first = DiskGuest("image-%s-first" % name, disk=disk, qemu_args=repo_args(work),
                      kernel_boot=(os.path.join(work, "vmlinuz"),
                                   os.path.join(work, "initrd.img"),
                                   "root=LABEL=pcl-root ro mitigations=off tsc=unstable"))
    first.start()
    try:
        check_running(first)
        first.check("grub-install --target=i386-pc /dev/vda 2>&1", timeout=300)
        # Where later grub-pc upgrades install GRUB again.
        first.check("echo 'grub-pc grub-pc/install_devices multiselect /dev/vda' | "
                    "debconf-set-selections")
        # MODULES=dep (rootfs/etc/initramfs-tools/conf.d) can only look at
        # the machine from inside it.
        first.check("update-initramfs -u -k all 2>&1", timeout=900)
        first.check("update-grub 2>&1", timeout=300)
        first.check("mountpoint -q /media/pcl-repo && apt-get update 2>&1", timeout=300)
    except Exception:
        first.stop()
        raise
    first.poweroff()
    progress("%s: GRUB installed" % name)

    with DiskGuest("image-%s-check" % name, disk=disk, qemu_args=repo_args(work)) as g:
        check_running(g)
        if g.release != kernel:
            raise GuestError("%s: booted %s, not the image's kernel %s" % (name, g.release, kernel))
        g.check("grep -q tsc=unstable /proc/cmdline")
        g.assert_clean_kernel_log()
        g.poweroff()
    progress("%s: boots by itself into %s" % (name, kernel))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
