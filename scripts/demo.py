#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The guest part of `make demo` (scripts/demo.sh): boot a Debian guest
with the emulated 82092 bridge, a CompactFlash card in socket A and a
CardMan 4000 in socket B; install the package with apt as a user would;
load the bridge driver; show the CF card's file and the reader's ATR and
an APDU.  Every command and its output is printed.

usage: scripts/demo.py IMAGE
"""

import glob
import os
import re
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "vm", "guest"))

from pclguest import DiskGuest, make_ext4  # noqa: E402

CF_TEXT = b"Hello from the CompactFlash card in socket A of an Intel 82092AA.\n"


def step(msg):
    print("\n[%s] == %s" % (time.strftime("%H:%M:%S"), msg), flush=True)


def show(g, command, timeout=120, tail=None):
    print("guest# %s" % command, flush=True)
    out, rc = g.run(command + " 2>&1", timeout=timeout)
    # apt's progress counters say nothing once the command is over
    lines = [line for line in out.rstrip("\n").splitlines()
             if not re.match(r"^\(Reading database \.\.\. *\d+%$", line)]
    if tail and len(lines) > tail:
        print("  [... %d lines ...]" % (len(lines) - tail))
        lines = lines[-tail:]
    for line in lines:
        print("  " + line)
    if rc != 0:
        raise SystemExit("demo: '%s' failed (exit %d); guest logs: %s" % (command, rc, g.logdir))
    return out


def main(image):
    debs = sorted(glob.glob(os.path.join(TOP, "out", "deb", "pcmcia-legacy-dkms_*_all.deb")))
    if not debs:
        raise SystemExit("demo: no out/deb/pcmcia-legacy-dkms_*_all.deb (make deb)")
    deb = debs[-1]
    tools = os.path.join(os.environ.get("PCMCIA_LEGACY_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "pcmcia-legacy"), "tools")
    with tempfile.TemporaryDirectory(prefix="pcl-demo-") as tmp:
        cf = os.path.join(tmp, "cf.img")
        make_ext4(cf, {"hello.txt": CF_TEXT}, "pcl-cf")
        qemu_args = ["-device", "i82092,id=pcc",
                     "-blockdev", "driver=raw,node-name=cf0,file.driver=file,file.filename=" + cf,
                     "-device", "pcmcia-cf,bus=pcc.0,drive=cf0,id=card0",
                     "-device", "cm4000,bus=pcc.1,id=reader0"]
        step("booting the %s guest (Debian, systemd, TCG: about a minute)" % image)
        g = DiskGuest("demo", image=image, qemu_args=qemu_args,
                      files={"/pcl/" + os.path.basename(deb): deb,
                             "/pcl/bin/sctool": os.path.join(tools, "sctool")})
        g.start()
        try:
            show(g, "uname -r; lspci -nn | grep -i 8086:1221")
            show(g, "lsmod | grep -E '^(i82092|cm4000_cs|pata_pcmcia)' || echo 'no PC Card drivers loaded'")
            step("installing the package: apt install ./%s (DKMS builds what this kernel "
                 "lacks; a few minutes under TCG)" % os.path.basename(deb))
            show(g, "apt-get update -q", timeout=300, tail=3)
            show(g, "cd /pcl && apt install -y -q ./%s" % os.path.basename(deb), timeout=1800, tail=25)
            show(g, "dkms status")
            step("loading the bridge driver: the cards in its sockets bind by themselves (udev)")
            show(g, "modprobe i82092")
            if not g.wait_for("[ -b /dev/sda ] && [ -c /dev/cmm0 ]", 120):
                show(g, "lsmod; dmesg | tail -n 30")
                raise SystemExit("demo: the cards did not come up; guest logs: %s" % g.logdir)
            show(g, "lsmod | grep -E '^(i82092|cm4000_cs|pata_pcmcia|pcmcia) '")
            show(g, "for m in i82092 cm4000_cs; do modinfo -n $m; done")
            show(g, "dmesg | grep -iE 'pcmcia|i82092|cm4000|ata[0-9]' | tail -n 15")
            step("the CompactFlash card: a disk through pata_pcmcia")
            show(g, "mount -o ro /dev/sda /mnt && cat /mnt/hello.txt && umount /mnt")
            step("the CardMan 4000: the card's ATR, then SELECT and READ BINARY")
            show(g, "sctool -t 30 /dev/cmm0 apdu 00A4000C020101 00B0000020")
            problems = g.kernel_log_problems()
            if problems:
                raise SystemExit("demo: the guest's kernel log is not clean:\n  %s\nguest logs: %s"
                                 % ("\n  ".join(problems), g.logdir))
            step("done: the package works on %s, and the kernel log is clean; guest logs in %s"
                 % (g.release, g.logdir))
        finally:
            g.stop()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
