# SPDX-License-Identifier: GPL-2.0-only
"""An emulated two-socket bridge (the 82092AA, or the ISA 82365SL) with
CompactFlash cards in its slots, as the bridge tests drive it
(test_upstream_bridge.py with Linux 6.1's drivers, test_i82092.py and
test_i82365.py with ours): QEMU arguments, insertion and surprise eject
over QMP, and what the guest makes of the cards."""

import contextlib
import os
import re

import pclkernels as pk
from pclguest import Guest, make_image

SOAK = os.environ.get("PCL_STRESS") == "soak"
IMAGE_SIZE = 4 << 20
BRIDGE = "pcc"                  # -device i82092,id=pcc: slots pcc.0, pcc.1
DISK_TIMEOUT = 60               # seconds from insertion to the block device
# Seconds from a surprise eject until the card's removal is complete.  The
# disk leaves /sys/block at once, but then sd sends the vanished drive a
# STOP UNIT and libata's error handling retries IDENTIFY: 30 + 5 + 10 +
# 30 s of command timeouts (about 78 s under TCG) during which the
# socket's pccardd is busy and the socket takes no new card.  Real
# hardware, whose bus floats the same way, behaves alike.  quiet_disk()
# avoids the STOP UNIT (about 5 s per eject then).
REMOVE_TIMEOUT = 180
# the card's disk drivers, loaded before the bridge driver brings a card
PRELOAD = ["sd_mod", "pata_pcmcia"]
# A guest shell condition: every socket thread of the PC Card core waits
# for work in its own loop (no insertion or removal under way).  Shell
# builtins only: a fork per process would take seconds under TCG.
PCCARDD_IDLE = ("(for p in /proc/[0-9]*; do read -r c 2>/dev/null < $p/comm || continue; "
                "[ \"$c\" != pccardd ] || { read -r w < $p/wchan; [ \"$w\" = pccardd ]; } "
                "|| exit 1; done)")


def qemu_args(tmp, bridge="i82092"):
    """The bridge (a QEMU device type with two slots), two card images of
    deterministic bytes (backends for slots 0 and 1) and a card in slot 0
    at power-on.  Returns the images ({slot: (node name, sha256)}) and
    QEMU's arguments."""
    images, args = card_images(tmp, (0, 1))
    args = ["-device", "%s,id=%s" % (bridge, BRIDGE)] + args
    args += ["-device", "pcmcia-cf,id=cf0,bus=%s.0,drive=disk0" % BRIDGE]
    return images, args


def card_images(tmp, slots, first_seed=0x82092):
    """A card image of deterministic bytes for each slot (slot n, or the
    n-th of other names, gets seed first_seed + n) and its -blockdev
    backend "disk<slot>".  Returns ({slot: (node name, sha256)}, QEMU
    arguments)."""
    images, args = {}, []
    for n, slot in enumerate(slots):
        path = tmp / ("card%s.img" % slot)
        sha = make_image(str(path), IMAGE_SIZE, seed=first_seed + n)
        node = "disk%s" % slot
        images[slot] = (node, sha)
        args += ["-blockdev", "driver=raw,node-name=%s,file.driver=file,"
                 "file.filename=%s" % (node, path)]
    return images, args


def vermagic_release(ko):
    """The kernel release a module was built for."""
    out = pk.run(["modinfo", "-F", "vermagic", ko], check=True).stdout
    return out.split()[0]


@contextlib.contextmanager
def bridge_guest(rig_class, name, kernel, matrix_name, module, tmp,
                 bridge="i82092", extra_args=(), extra_modules=()):
    """A guest on `kernel` with the rig behind `bridge` (and QEMU's
    extra_args) and our `module` and extra_modules (built for matrix_name
    into tmp) in its initramfs, not yet loaded: yields rig_class(guest,
    images, the module's kernel release), its kernel attribute the guest
    kernel's name."""
    with pk.rolling_tolerance(matrix_name):
        kos = pk.our_modules(matrix_name, [module] + list(extra_modules), tmp)
        ko = kos[0]
        images, args = qemu_args(tmp, bridge=bridge)
        guest = Guest(name, kernel=kernel, modules=PRELOAD, load=PRELOAD,
                      extra_ko=kos, qemu_args=args + list(extra_args))
        guest.start()
    try:
        rig = rig_class(guest, images, vermagic_release(ko))
        rig.kernel = kernel
        yield rig
    finally:
        guest.stop()


class CfRig:
    """The guest, its two slots and what is in them."""

    def __init__(self, guest, images, ko_release=None):
        self.g = guest
        self.images = images            # slot -> (node name, sha256)
        self.inserted = {0: True, 1: False}
        self.ko_release = ko_release    # our bridge module's kernel, if any
        self.kernel = None              # the guest kernel (bridge_guest() sets it)

    @staticmethod
    def card_id(slot):
        return "cf%s" % slot

    @staticmethod
    def slot_bus(slot):
        return "%s.%d" % (BRIDGE, slot)

    def insert(self, slot):
        node, _ = self.images[slot]
        self.g.device_add("pcmcia-cf", id=self.card_id(slot),
                          bus=self.slot_bus(slot), drive=node)
        self.inserted[slot] = True

    def eject(self, slot, wait=True):
        """Surprise-eject; unless wait is False, wait until the kernel
        has finished removing the card."""
        self.g.device_del(self.card_id(slot))
        self.inserted[slot] = False
        if wait:
            self.wait_removed(slot)

    def removed_cond(self, slot):
        """A guest shell condition: the card's PC Card function is gone
        (socket N's is N.0, under the bridge)."""
        return "[ ! -e /sys/class/pcmcia_socket/pcmcia_socket%d/device/%d.0 ]" % (
            slot, slot)

    def path_marker(self, slot):
        """What the sysfs path of the slot's disk, and of no other, holds."""
        return "/%d.0/" % slot

    def wait_removed(self, slot):
        # the function's device (not its bus link, which goes first)
        assert self.g.wait_for(self.removed_cond(slot), REMOVE_TIMEOUT), \
            "the card of socket %s is still being removed %d s after eject" % (
                slot, REMOVE_TIMEOUT)

    def ensure(self, slot, present):
        if self.inserted[slot] != present:
            (self.insert if present else self.eject)(slot)

    # The PC Card device of socket N is "N.0" (socket, function) under the
    # bridge; the disk is the sd* whose sysfs path goes through it.
    def disk_cond(self, slot):
        return ("for d in /sys/block/sd*; do readlink -f $d; done 2>/dev/null | "
                "grep -qF '%s'" % self.path_marker(slot))

    def disk(self, slot):
        out = self.g.check("for d in /sys/block/sd*; do [ -e \"$d\" ] && "
                           "echo \"${d##*/} $(readlink -f \"$d\")\"; done; true")
        for line in out.splitlines():
            name, path = line.split()
            if self.path_marker(slot) in path:
                return name
        return None

    def wait_disk(self, slot):
        assert self.g.wait_for(self.disk_cond(slot), DISK_TIMEOUT), \
            "no disk for the card in socket %s after %d s:\n%s" % (
                slot, DISK_TIMEOUT, self.g.run("ls -l /sys/block; "
                                               "ls /sys/bus/pcmcia/devices")[0])
        return self.disk(slot)

    def wait_no_disk(self, slot):
        assert self.g.wait_for("! { %s; }" % self.disk_cond(slot), DISK_TIMEOUT), \
            "the disk of socket %s is still there %d s after eject" % (slot, DISK_TIMEOUT)

    def quiet_disk(self, slot, timeout=None):
        """No STOP UNIT to this card's disk when it goes away (and, with
        timeout, fail its commands after that many seconds)."""
        disk = self.wait_disk(slot)
        self.g.check("for f in /sys/block/%s/device/scsi_disk/*/manage_*start_stop; do "
                     "[ ! -w $f ] || echo 0 > $f; done" % disk)
        if timeout:
            self.g.check("echo %d > /sys/block/%s/device/timeout" % (timeout, disk))
        return disk

    def suspend_exits(self):
        """How many system suspends the guest has come back from."""
        return int(self.g.check("dmesg | grep -c 'PM: suspend exit' || true"))

    def sleep_and_wake(self, mem_sleep):
        """One system suspend ("deep": to RAM, "s2idle": to idle), ended
        by an RTC alarm 5 s later; asserts the guest came back once."""
        before = self.suspend_exits()
        self.g.check("echo %s > /sys/power/mem_sleep && "
                     "echo +5 > /sys/class/rtc/rtc0/wakealarm && "
                     "echo mem > /sys/power/state" % mem_sleep, timeout=180)
        assert self.suspend_exits() == before + 1

    def checksum(self, disk):
        return self.g.check("sha256sum /dev/%s" % disk, timeout=300).split()[0]

    def assert_reads_back(self, slot):
        disk = self.wait_disk(slot)
        assert self.checksum(disk) == self.images[slot][1], \
            "socket %s (/dev/%s) read back wrong data" % (slot, disk)


# The ISA lines our ISA bridge modules are given in QEMU's pc machine
# (see test_i82365.py): cards on 5, status changes on 7; and polling mode,
# cards on 5 and no status change line.
ISA_CARD_IRQ, ISA_CS_IRQ = 5, 7
ISA_IRQ_PARAMS = "irq_list=%d,%d cs_irq=%d" % (ISA_CARD_IRQ, ISA_CS_IRQ, ISA_CS_IRQ)
ISA_POLL_JIFFIES = 25
ISA_POLL_PARAMS = "irq_list=%d poll_interval=%d" % (ISA_CARD_IRQ, ISA_POLL_JIFFIES)


class IsaBridgeRig(CfRig):
    """The CompactFlash rig with one of our ISA bridge modules (module),
    loaded and reloaded with parameters, and the guest's ISA interrupt
    lines as /proc/interrupts counts them.  The scenarios every ISA
    bridge runs are in bridge_scenarios.py; a subclass says what its
    driver reports of the chip (check_probe_log) and, for suspend, what
    else it loads and checks."""

    module = None               # set by the subclass
    default_params = ISA_IRQ_PARAMS  # what ensure() loads the module with
    card_driver = "pata_pcmcia"  # its handlers: pata_pcmcia[0.0]
    # the stress scenarios' counts (bridge_scenarios.py): the issues' under
    # make soak; a few in CI, where an eject with reads in flight costs
    # 50 s of libata timeouts
    eject_cycles = 200 if SOAK else 5
    read_eject_cycles = 1000 if SOAK else 1
    reload_cycles = 100 if SOAK else 3

    def __init__(self, guest, images, ko_release):
        super().__init__(guest, images, ko_release)
        self.params = None
        self.log_mark = 0

    def check_probe_log(self, log):
        """Assert what the module's load log says of the chip and its
        sockets."""
        raise NotImplementedError

    def suspend_params(self):
        """The parameters the suspend scenario loads the module with."""
        return self.default_params

    def check_chip_setup(self):
        """Assert that the chip's own registers are as the module set
        them (after a system resume, say)."""

    # the stress scenarios' reload (bridge_scenarios.py)
    def load_module(self):
        self.load(self.default_params)

    def unload_module(self):
        self.unload()

    def load(self, params):
        """Load the module with these parameters (unloading it first if
        it runs with others)."""
        if self.params == params:
            return
        if self.params is not None:
            self.unload()
        self.log_mark = len(self.g.dmesg().splitlines())
        self.g.check("pcl-insmod %s %s && pcl-socket-startup" % (self.module, params))
        self.params = params

    def load_log(self):
        """The kernel log since the module was last loaded."""
        return "\n".join(self.g.dmesg().splitlines()[self.log_mark:])

    def ensure(self, slot, present):
        # any test may run alone (pytest -k): then it brings the driver
        if self.params is None:
            self.load(self.default_params)
        super().ensure(slot, present)

    def unload(self):
        self.g.check("rmmod %s" % self.module)
        self.params = None
        assert self.sockets() == [], "sockets left after rmmod"

    def sockets(self):
        return self.g.check("ls /sys/class/pcmcia_socket 2>/dev/null; true").split()

    def interrupts(self):
        """{ISA line: (count over all CPUs, [handler names])}"""
        lines = {}
        for line in self.g.check("cat /proc/interrupts").splitlines()[1:]:
            m = re.match(r"\s*(\d+):((?:\s+\d+)+)\s+\S+\s+\S+\s+(.*)$", line)
            if m and int(m.group(1)) < 16:
                names = [n.strip() for n in m.group(3).split(",")]
                lines[int(m.group(1))] = (sum(int(c) for c in m.group(2).split()), names)
        return lines

    def count(self, irq):
        return self.interrupts().get(irq, (0, []))[0]

    def assert_card_irqs(self, want_line):
        """Every card's handler is on want_line, and only there."""
        irqs = self.interrupts()
        cards = sorted(irq for irq, (_, names) in irqs.items()
                       for n in names if n.split("[")[0] == self.card_driver)
        present = sum(1 for slot in (0, 1) if self.inserted[slot])
        assert cards == [want_line] * present, \
            "card interrupt handlers on ISA lines %s, want %d for each of %d cards:\n%s" % (
                cards, want_line, present, self.g.check("cat /proc/interrupts"))
        assert self.count(want_line) > 0, "no interrupt on ISA line %d" % want_line

    def eject_insert(self, slot):
        """A fast surprise eject (no STOP UNIT to the vanished disk), then
        the card back in and read back."""
        self.quiet_disk(slot)
        self.eject(slot)
        assert self.disk(slot) is None
        self.insert(slot)
        self.assert_reads_back(slot)
