#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The guest part of `make demo` (scripts/demo.sh): boot a Debian guest
with the emulated 82092 bridge, a CompactFlash card in socket A and a
CardMan 4000 in socket B, and an ISA Cirrus CL-PD6722 with an SMC 91C92
Ethernet card on a network that stays inside QEMU (slirp, restrict=on);
install the package with apt as a user would; load the bridge drivers;
show the CF card's file, the reader's ATR and an APDU, and the Ethernet
card answering pings from slirp's gateway.  Every command and its output
is printed.

usage: scripts/demo.py IMAGE
"""

import glob
import os
import re
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "vm", "guest"))

from pclguest import DiskGuest, make_ext4  # noqa: E402

CF_TEXT = b"Hello from the CompactFlash card in socket A of an Intel 82092AA.\n"
# the ISA lines of QEMU's pc machine that nothing else drives (see
# tests/test_i82365.py): cards on 5, status changes on 7
ISA_PARAMS = "irq_list=5,7 cs_irq=7"
NIC_MAC = "00:00:c0:92:de:01"
# the ISA bridge's sockets come after the 82092's two: its socket A is 2
NIC_SOCKET = 2


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
    # the image has no ip or ping: busybox's
    busybox = subprocess.run([os.path.join(TOP, "vm", "guest", "busybox.sh"), "amd64"],
                             check=True, stdout=subprocess.PIPE, text=True).stdout.split()[-1]
    with tempfile.TemporaryDirectory(prefix="pcl-demo-") as tmp:
        cf = os.path.join(tmp, "cf.img")
        make_ext4(cf, {"hello.txt": CF_TEXT}, "pcl-cf")
        qemu_args = ["-device", "i82092,id=pcc",
                     "-blockdev", "driver=raw,node-name=cf0,file.driver=file,file.filename=" + cf,
                     "-device", "pcmcia-cf,bus=pcc.0,drive=cf0,id=card0",
                     "-device", "cm4000,bus=pcc.1,id=reader0",
                     "-device", "isa-i82365,id=pcic,variant=cirrus-pd6722",
                     "-netdev", "user,id=net0,restrict=on",
                     "-device", "pcmcia-smc91c92,bus=pcic.0,netdev=net0,id=nic0,mac=" + NIC_MAC]
        step("booting the %s guest (Debian, systemd, TCG: about a minute)" % image)
        g = DiskGuest("demo", image=image, qemu_args=qemu_args,
                      files={"/pcl/" + os.path.basename(deb): deb,
                             "/pcl/bin/sctool": os.path.join(tools, "sctool"),
                             "/pcl/bin/busybox": busybox})
        g.start()
        try:
            show(g, "uname -r; lspci -nn | grep -i 8086:1221")
            show(g, "lsmod | grep -E '^(i82092|i82365|cm4000_cs|pata_pcmcia|smc91c92_cs)' "
                    "|| echo 'no PC Card drivers loaded'")
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
            step("the ISA bridge (a Cirrus CL-PD6722 at 0x3e0) and the SMC 91C92 Ethernet card "
                 "in its socket A")
            show(g, "modprobe i82365 " + ISA_PARAMS)
            dev = "/sys/bus/pcmcia/devices/%d.0" % NIC_SOCKET
            if not g.wait_for("ls %s/net/ >/dev/null 2>&1" % dev, 120):
                show(g, "lsmod; dmesg | tail -n 30")
                raise SystemExit("demo: the Ethernet card did not come up; guest logs: %s"
                                 % g.logdir)
            show(g, "dmesg | grep -E 'i82365|smc91c92' | tail -n 8")
            show(g, "lsmod | grep -E '^(i82365|smc91c92_cs) '; ls %s/net" % dev)
            ifc = g.check("ls %s/net" % dev).split()[0]
            step("ping slirp's gateway through the card (the network stays inside QEMU)")
            show(g, "B=/pcl/bin/busybox; $B ip link set %s up && $B ip addr add 10.0.2.15/24 dev %s"
                 " && sleep 2 && $B ping -c 3 10.0.2.2" % (ifc, ifc), timeout=60)
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
