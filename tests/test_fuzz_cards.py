# SPDX-License-Identifier: GPL-2.0-only
"""CIS fuzzing, misbehaving cards and system call fuzzing on the debug
kernel (issue 17), in one boot: an 82092 driven by our i82092, all our
card drivers loaded (and upstream's pata_pcmcia and pcnet_cs for the
cards we have no driver of); make soak repeats it all behind our i82365
and our tcic, a boot each.  A report of any of the kernel's checkers
(KASAN, lockdep, UBSAN, kmemleak, hung tasks, WARNING) fails.

CIS fuzzing: every emulated card, with its CIS replaced by mutated
images of its real one (tests/cisfuzz.py), goes in turn into the socket.
For each image: the PC Card core and the drivers settle (no hang), the
kernel log stays clean, and when one of our drivers takes the card on
but cannot drive it, it says why in the log.  Then the card goes
(surprise eject).  Afterwards the unmutated card still works.  The
card's real CIS is what the kernel reads of it (the socket's "cis"
attribute) with the card in, unmutated; images are padded up to the
card's configuration registers, so only they show.

Misbehaving cards (the card models' fault option,
vm/qemu/hw/pcmcia/pcmcia-slot.h), for each card of ours while it is in
use: reads of all ones, the card vanishing between two register
accesses (a seeded number of card cycles after the fault is armed), a
card that never gets ready after reset, and for the readers a card whose
replies never come (slower than any timeout).  The work in progress fails or
times out with an error, nothing hangs, the card goes cleanly, and the
next good card works.

System call fuzzing: tests/tools/sysfuzz on the device node or network
interface of each of our drivers, two processes of two threads, while
the host ejects and re-inserts the card at seeded random moments: no
call hangs, the log stays clean, the driver works afterwards.

Then kmemleak scans: nothing may leak.

Counts: CI 5 images per card (50 in all), 1250 calls and 3 ejects per
driver (10^4 calls in all), seed PCL_FUZZ_SEED or a fixed one;
PCL_STRESS=soak (make soak): 1000 images per card, 10^6 calls and 1000
ejects per driver, seed PCL_FUZZ_SEED or a new one.  A failure names the seed, the card, the image's number and
kind and the image itself; PCL_FUZZ_SEED=seed replays the run.

CI cost: one boot of the debug kernel, about 2 s per image (10 for the
CompactFlash card: libata's timeouts when it goes), 20-30 s of faults
and 15-20 s of system calls per card, under TCG: about 9 minutes in all
on one worker.
"""

import fnmatch
import os
import random
import re
import time

import pytest

import cisfuzz
import pclkernels as pk
import screaders
import tally
from cfrig import PCCARDD_IDLE, card_images
from pclguest import Guest, decode_taint, modname

KERNEL = "debug"
SOAK = os.environ.get("PCL_STRESS") == "soak"
IMAGES_PER_CARD = int(os.environ.get("PCL_FUZZ_IMAGES", 1000 if SOAK else 5))
SEED = int(os.environ.get("PCL_FUZZ_SEED") or
           (random.SystemRandom().randrange(1 << 32) if SOAK else 0x17c15))
BRIDGE = "pcc"
# our bridge drivers the cards go behind: module -> (QEMU device, module
# parameters).  CI: the 82092; make soak: our ISA bridges too (a boot
# each, the lines of test_debug_kernel.py's)
BRIDGES = {"i82092": ("i82092", "")}
if SOAK:
    BRIDGES.update({"i82365": ("isa-i82365", "irq_list=5,7 cs_irq=7"),
                    "tcic": ("isa-tcic", "irq_list=14,6 cs_irq=6")})
# parallel test workers (tests/conftest.py): one bridge's boot each
XDIST_SPLIT = "fuzzer"
OURS = ["cm4000_cs", "cm4040_cs", "axnet_cs", "3c589_cs", "3c574_cs",
        "smc91c92_cs", "fmvj18x_cs", "nmclan_cs"]
UPSTREAM = ["sd_mod", "pata_pcmcia", "pcnet_cs"]
# (QEMU device, its further properties, the PC Card driver that binds
# the unmutated card)
CARDS = [
    ("pcmcia-cf", {"drive": "disk0"}, "pata_pcmcia"),
    ("cm4000", {}, "cm4000_cs"),
    ("cm4040", {}, "cm4040_cs"),
    ("pcmcia-ne2000", {}, "pcnet_cs"),
    ("pcmcia-ax88190", {}, "axnet_cs"),
    ("pcmcia-3c589", {}, "3c589_cs"),
    ("pcmcia-3c574", {}, "3c574_cs"),
    ("pcmcia-smc91c92", {}, "smc91c92_cs"),
    ("pcmcia-fmvj18x", {}, "fmvj18x_cs"),
    ("pcmcia-nmclan", {}, "nmclan_cs"),
]
CARD_ID = "fuzz0"
SETTLE_TIMEOUT = 60
KMEMLEAK = "/sys/kernel/debug/kmemleak"
# Leaks the fuzzing finds in upstream drivers that we do not ship (a
# report naming the module in its backtrace)
UPSTREAM_LEAKS = {
    "pcnet_cs": "upstream pcnet_cs leaks the net_device of a card it cannot "
                "configure: pcnet_config()'s error path releases the card but never "
                "frees the device that pcnet_probe() allocated",
}


# -- the generator itself, on the host

SAMPLE_CIS = cisfuzz.build([
    (0x01, b"\x53\x00\xff"),
    (cisfuzz.VERS_1, b"\x04\x01ACME\x00Card\x00\xff"),
    (cisfuzz.MANFID, b"\x01\x01\x02\x02"),
    (cisfuzz.FUNCID, b"\x06\x00"),
    (cisfuzz.CONFIG, b"\x01\x01\x00\x02\x01"),
    (cisfuzz.CFTABLE_ENTRY, b"\xc1\x01\x08\x2a\xe0\x30\xff\xff"),
])


def test_generator_replays_from_its_seed():
    a = [cisfuzz.mutate(SAMPLE_CIS, random.Random(7)) for _ in range(3)]
    b = [cisfuzz.mutate(SAMPLE_CIS, random.Random(7)) for _ in range(3)]
    assert a == b


@pytest.mark.parametrize("kind", sorted(cisfuzz.MUTATIONS))
def test_each_mutation_changes_the_cis(kind):
    """Every kind gives, for 20 seeds, images that differ from the real
    CIS and are padded up to the configuration registers (0x200)."""
    for seed in range(20):
        got, image = cisfuzz.mutate(SAMPLE_CIS, random.Random(seed), kind)
        assert got == kind
        assert len(image) >= 0x100
        assert image[:len(SAMPLE_CIS)] != SAMPLE_CIS or len(image) > 0x100


def test_parse_and_build_round_trip():
    assert cisfuzz.build(cisfuzz.parse(SAMPLE_CIS)) == SAMPLE_CIS
    assert cisfuzz.config_base(SAMPLE_CIS) == 0x200


# -- the guest

class Fuzzer:
    def __init__(self, guest, aliases, bridge):
        self.g = guest
        self.aliases = aliases          # our module -> its modalias patterns
        self.bridge = bridge            # our bridge module the cards are behind
        self.where = "on %s behind %s" % (KERNEL, bridge)   # for the summary
        self.summary = []               # (card, images, bound, refused)

    def settle(self, what):
        assert self.g.wait_for(PCCARDD_IDLE, SETTLE_TIMEOUT), \
            "the PC Card core is still busy %d s after %s" % (SETTLE_TIMEOUT, what)

    def insert(self, device, props, **more):
        self.g.device_add(device, id=CARD_ID, bus="%s.0" % BRIDGE, **props, **more)

    def eject(self, what):
        # no STOP UNIT to a vanishing disk (its timeouts take minutes)
        self.g.check("for f in /sys/block/sd*/device/scsi_disk/*/manage_*start_stop; do "
                     "[ ! -w $f ] || echo 0 > $f; done; true")
        self.g.device_del(CARD_ID)
        assert self.g.wait_for("[ ! -e /sys/bus/pcmcia/devices/0.0 ] && " + PCCARDD_IDLE,
                               SETTLE_TIMEOUT), \
            "socket 0's card is still there, or the core still busy, %d s after %s " \
            "was ejected" % (SETTLE_TIMEOUT, what)

    def look(self, since):
        """({function: (its driver or None, its modalias)} of socket 0,
        the kernel log from the line `since` on, the taint letters), in
        one go: the log of the debug kernel is long, and the serial line
        slow."""
        out = self.g.check(
            "for d in /sys/bus/pcmcia/devices/0.*; do [ -e $d ] || continue; "
            "drv=-; [ -e $d/driver ] && drv=$(basename $(readlink $d/driver)); "
            "echo ${d##*/} $drv $(cat $d/modalias); done; echo @@; "
            "dmesg | sed -n '\\|%s|,$p'; echo @@; cat /proc/sys/kernel/tainted" % since)
        funcs_text, log, tainted = out.split("@@\n")
        funcs = {}
        for line in funcs_text.splitlines():
            name, drv, alias = line.split(None, 2)
            funcs[name] = (None if drv == "-" else drv, alias.strip())
        return funcs, log, decode_taint(int(tainted))

    def ours_for(self, modalias):
        return [m for m, patterns in self.aliases.items()
                if any(fnmatch.fnmatchcase(modalias, p) for p in patterns)]

    def real_cis(self, device, props, driver):
        self.insert(device, props)
        assert self.g.wait_for("[ -e /sys/bus/pcmcia/drivers/%s/0.0 ]" % driver, SETTLE_TIMEOUT), \
            "the unmutated %s did not bind %s" % (device, driver)
        self.settle("the insertion of " + device)
        out = self.g.check("od -An -v -tx1 /sys/class/pcmcia_socket/pcmcia_socket0/cis")
        self.eject(device)
        cis = bytes.fromhex("".join(out.split()))
        assert cisfuzz.parse(cis), "%s: the kernel read no CIS" % device
        return cis

    def run_image(self, device, props, image, label):
        self.g.check("echo '%s' > /dev/kmsg" % label)
        self.insert(device, props, cis=image.hex())
        self.settle(label)
        funcs, log, tainted = self.look(label)
        bound = refused = 0
        for name, (drv, alias) in funcs.items():
            ours = self.ours_for(alias)
            if drv:
                bound += 1
            elif ours:
                # one of ours was offered the card and turned it down
                refused += 1
                said = [m for m in ours if "%s %s:" % (m, name) in log]
                assert said, "%s: %s (%s) matched %s, which refused it without a word:\n%s" % (
                    label, name, alias, ", ".join(ours), log)
        problems = self.g.kernel_log_problems(log, tainted)
        assert not problems, "%s: unclean kernel log:\n  %s\nimage %s" % (
            label, "\n  ".join(problems), image.hex())
        self.eject(label)
        return bound, refused


@pytest.fixture(scope="module", params=list(BRIDGES))
def fuzzer(request, tmp_path_factory):
    bridge = request.param
    tmp = tmp_path_factory.mktemp("fuzz-cards")
    kos = pk.our_modules(KERNEL, [bridge] + OURS, tmp)
    aliases = {modname(ko): pk.run(["modinfo", "-F", "alias", ko], check=True)
               .stdout.split() for ko in kos[1:]}
    tools = screaders.tools_dir()
    images, args = card_images(tmp, (0,))
    device, params = BRIDGES[bridge]
    args += ["-device", "%s,id=%s" % (device, BRIDGE)]
    setup = ["pcl-insmod %s" % m for m in OURS] + \
        ["pcl-insmod %s %s && pcl-socket-startup" % (bridge, params)]
    name = "fuzz-cards" + ("" if bridge == "i82092" else "-" + bridge)
    with Guest(name, kernel=KERNEL, modules=UPSTREAM, load=UPSTREAM, extra_ko=kos,
               files={"/pcl/bin/%s" % t: os.path.join(tools, t)
                      for t in ("sctool", "sysfuzz", "nettool")},
               qemu_args=args, autoload=False) as g:
        for cmd in setup:
            g.check(cmd, timeout=300)
        yield Fuzzer(g, aliases, bridge)


@pytest.mark.parametrize("device,props,driver", CARDS, ids=[c[0] for c in CARDS])
def test_mutated_cis(fuzzer, device, props, driver):
    cis = fuzzer.real_cis(device, props, driver)
    rng = random.Random("%d-%s" % (SEED, device))
    found = []          # (functions bound, refused by ours) per image
    start = time.monotonic()

    def image(n):
        kind, cis_image = cisfuzz.mutate(cis, rng)
        label = "pcl-fuzz-cis: seed %d %s image %d (%s)" % (SEED, device, n, kind)
        found.append(fuzzer.run_image(device, props, cis_image, label))

    tally.rounds(IMAGES_PER_CARD, image, [driver], "mutated CIS images " + fuzzer.where)
    print("\n%s: %d images (seed %d) in %.0f s: %d functions bound, %d refused by ours"
          % (device, IMAGES_PER_CARD, SEED, time.monotonic() - start,
             sum(b for b, _ in found), sum(r for _, r in found)))
    # the unmutated card still works after all that
    fuzzer.insert(device, props)
    assert fuzzer.g.wait_for("[ -e /sys/bus/pcmcia/drivers/%s/0.0 ]" % driver, SETTLE_TIMEOUT), \
        "after the fuzzing, the unmutated %s no longer binds %s" % (device, driver)
    fuzzer.settle("the last insertion of " + device)
    fuzzer.g.assert_clean_kernel_log()
    fuzzer.eject(device)


# -- misbehaving cards

READER_NODES = {"cm4000_cs": "/dev/cmm0", "cm4040_cs": "/dev/cmx0"}
FAULTS = ("all-ones", "vanish", "not-ready")
# and on every card, work that never completes (a reader's reply, a NIC's
# frame to send); for the cards with an interrupt, an IREQ# that never
# lets go (last: the kernel
# disables the 82092's line, which only the next card's driver brings
# back; CI storms one NIC, since what it proves is the bridge's, make
# soak all of them)
STORMY = [d for d in OURS if d not in READER_NODES][:None if SOAK else 1]
FAULTS_OF = {d: FAULTS + ("mute",) + (("irq-storm",) if d in STORMY else ()) for d in OURS}
# what a mute reader is asked: the 4000 to power its card up (the ATR
# must come within a second); the 4040 a slot status (its reader answers
# within 3 s, while a power-up may take it 35 s and a transfer 150 s)
MUTE_USE = {"cm4000_cs": "atr", "cm4040_cs": "status"}
# A mute NIC is given more full-size frames than any of them holds, so
# that its queue stops and the kernel's watchdog calls the driver; the
# peer's address is set, no ARP needed.  Then the driver must have said
# so: our watchdogs are 1-2 s, the rest is slack for TCG.
MUTE_FRAMES = 30     # the 3c574 has 32 KB of TX FIFO
MUTE_PEER = ("192.0.2.1", "02:00:00:00:00:01")
MUTE_TIMEOUT = 60
TX_TIMEOUT_SIGN = "transmit timed out"
# What a stuck IREQ# does behind each bridge: the 82092's PCI line is
# level-triggered and shared with the bridge, which polls once the
# kernel disables it; the i82365's card line here, 5, is one the pc
# machine marks level-triggered (ELCR) for PCI too, so the kernel disables
# it; tcic's, 14, is edge-triggered: one edge, no storm, and the card's
# interrupts are simply gone until the next card.
STORM_SIGN = {"i82092": "polling the sockets", "i82365": "Disabling IRQ", "tcic": None}
# how long the kernel takes to give up on a stormy line (100000
# interrupts under TCG) and our i82092 to start polling
STORM_TIMEOUT = 180
# sctool's exit status when it gave up waiting itself (-t): the driver did not
SCTOOL_TIMEOUT = 3
USE_TIMEOUT = 60


def use_card(fuzzer, driver):
    """Put socket 0's card to work as its driver offers it: an ATR from
    the reader, or a NIC brought up, sending (ARP for a peer that is not
    there) and down.  Returns the exit status; a hang fails."""
    g = fuzzer.g
    if driver in READER_NODES:
        return g.run("sctool -t 10 %s atr" % READER_NODES[driver], timeout=USE_TIMEOUT)[1]
    return g.run("ifc=$(ls /sys/bus/pcmcia/devices/0.0/net) && ip link set $ifc up && "
                 "ip addr add 192.0.2.2/24 dev $ifc && "
                 "{ ping -c 2 -i 0.2 -W 1 192.0.2.1; ip link set $ifc down; }",
                 timeout=USE_TIMEOUT)[1]


def use_mute_card(fuzzer, driver, label):
    """Give a mute card work: a reader's exit status (sctool's own
    timeout gives up after 10 s), or for a NIC whether its driver saw
    the transmit time out."""
    g = fuzzer.g
    if driver in READER_NODES:
        return g.run("sctool -t 10 %s %s" % (READER_NODES[driver], MUTE_USE[driver]),
                     timeout=USE_TIMEOUT)[1]
    ifc = g.check("ls /sys/bus/pcmcia/devices/0.0/net").strip()
    g.check("ip link set {0} up && ip addr flush dev {0} && ip addr add 192.0.2.2/24 dev {0} && "
            "arp -i {0} -s {1} {2}".format(ifc, *MUTE_PEER))
    # without carrier the frames wait in the qdisc and no watchdog runs
    assert g.wait_for("grep -qx 1 /sys/class/net/%s/carrier" % ifc, 10), \
        "%s: %s has no carrier before the fault" % (label, ifc)
    g.run("ping -c %d -i 0.05 -W 1 -s 1472 %s" % (MUTE_FRAMES, MUTE_PEER[0]), timeout=USE_TIMEOUT)
    timed_out = g.wait_for("dmesg | sed -n '\\|%s|,$p' | grep -q '%s: %s'"
                           % (label, ifc, TX_TIMEOUT_SIGN), MUTE_TIMEOUT)
    g.run("ip link set %s down" % ifc, timeout=USE_TIMEOUT)
    return timed_out


def good_card(fuzzer, device, props, driver, what):
    """An unmutated card binds its driver and works."""
    fuzzer.insert(device, props)
    assert fuzzer.g.wait_for("[ -e /sys/bus/pcmcia/drivers/%s/0.0 ]" % driver, SETTLE_TIMEOUT), \
        "%s: the good %s did not bind %s" % (what, device, driver)
    fuzzer.settle("the insertion of a good " + device)
    if driver in READER_NODES:
        assert use_card(fuzzer, driver) == 0, "%s: the good %s does not work" % (what, device)
    else:
        # no peer on this wire: up, a frame out, down is working
        assert use_card(fuzzer, driver) in (0, 1), "%s: the good %s does not work" % (
            what, device)


@pytest.mark.parametrize("device,props,driver", [c for c in CARDS if c[2] in OURS],
                         ids=[c[0] for c in CARDS if c[2] in OURS])
def test_misbehaving_card(fuzzer, device, props, driver):
    """For each fault in turn, on a card of ours in use: it fails or
    times out, nothing hangs, the kernel log stays clean, the card goes
    cleanly and the next good card works."""
    g = fuzzer.g
    rng = random.Random("%d-%s-faults" % (SEED, device))
    for fault in FAULTS_OF.get(driver, FAULTS):
        tally.count(driver, "misbehaving cards (%s) %s" % (fault, fuzzer.where), 1)
        label = "pcl-fuzz-fault: seed %d %s %s" % (SEED, device, fault)
        if fault == "not-ready":
            # from insertion on: the core must give up waiting for READY
            # (our bridge reports it as it is), and no driver sees the card
            g.check("echo '%s' > /dev/kmsg" % label)
            fuzzer.insert(device, props, fault=fault)
            fuzzer.settle(label)
            funcs, log, tainted = fuzzer.look(label)
            assert not funcs, "%s: a card that never got ready was taken on: %s" % (label, funcs)
            # ...and it did see the card, and waited for it
            assert "time out after reset" in log, \
                "%s: the core did not wait for READY:\n%s" % (label, log)
        else:
            good_card(fuzzer, device, props, driver, label)
            g.check("echo '%s' > /dev/kmsg" % label)
            if fault == "irq-storm":
                # a NIC's handler is on the line while it is up (behind an
                # ISA bridge nothing else is: no handler, no storm)
                g.check("ip link set $(ls /sys/bus/pcmcia/devices/0.0/net) up")
            after = rng.randrange(1, 64) if fault == "vanish" else 0
            g.qmp_cmd("qom-set", path=CARD_ID, property="fault-after", value=after)
            g.qmp_cmd("qom-set", path=CARD_ID, property="fault", value=fault)
            if fault == "irq-storm":
                # the kernel turns the line off; on the 82092 it is the
                # bridge's too, which then polls (an ISA card's line is
                # its own)
                sign = STORM_SIGN[fuzzer.bridge]
                assert not sign or g.wait_for("dmesg | sed -n '\\|%s|,$p' | grep -q '%s'"
                                              % (label, sign), STORM_TIMEOUT), \
                    "%s: no sign of the storm (%s):\n%s" % (
                        label, sign, g.run("dmesg | tail -30")[0])
            if fault == "mute":
                rc = use_mute_card(fuzzer, driver, label)
            else:
                rc = use_card(fuzzer, driver)
            fuzzer.settle(label)
            funcs, log, tainted = fuzzer.look(label)
            if fault == "irq-storm":
                assert not STORM_SIGN[fuzzer.bridge] or re.search(r"Disabling IRQ #\d+", log), \
                    "%s: the kernel did not disable the stormy line:\n%s" % (label, log)
            elif fault == "vanish":
                assert "card ejected from slot 0" in log, \
                    "%s: the bridge did not see the card go:\n%s" % (label, log)
            elif fault == "mute" and driver in READER_NODES:
                # the driver's own timeout ends the wait, with an error
                assert rc not in (0, SCTOOL_TIMEOUT), \
                    "%s: %s did not give up on a card that never answers (sctool exit %d)" % (
                        label, driver, rc)
            elif fault == "mute":
                assert rc, "%s: %s did not see its frames never leave:\n%s" % (label, driver, log)
            elif driver in READER_NODES:
                assert rc != 0, "%s: an ATR came from a card that reads all ones" % label
            else:
                # an error (KERN_ERR or worse), not only a link message
                errors = g.check("dmesg -r | sed -n '\\|%s|,$p' | grep '^<[0-3]>.*%s 0.0'; true"
                                 % (label, driver))
                assert errors.strip(), \
                    "%s: %s reported no error for a card that reads all ones:\n%s" % (
                        label, driver, log)
        problems = g.kernel_log_problems(log, tainted)
        assert not problems, "%s: unclean kernel log:\n  %s" % (label, "\n  ".join(problems))
        fuzzer.eject(label)
    good_card(fuzzer, device, props, driver, "after the faults")
    if "irq-storm" in FAULTS_OF.get(driver, FAULTS) and fuzzer.bridge == "i82092":
        # the good card's driver asked for the line: it is on again
        storm = "pcl-fuzz-fault: seed %d %s irq-storm" % (SEED, device)
        assert g.wait_for("dmesg | sed -n '\\|%s|,$p' | grep -q 'interrupt [0-9]* is back'"
                          % storm, 10), \
            "%s: the 82092's line stayed off after the storm" % device
    g.assert_clean_kernel_log()
    fuzzer.eject("the last good " + device)


# -- system call fuzzing

SYSCALLS = 1000000 if SOAK else 1250      # per driver
SYSCALL_EJECTS = 1000 if SOAK else 3     # per driver, while the calls run
SYSFUZZ_OUT = "/tmp/sysfuzz.out"


@pytest.mark.parametrize("device,props,driver", [c for c in CARDS if c[2] in OURS],
                         ids=[c[0] for c in CARDS if c[2] in OURS])
def test_syscall_fuzzing(fuzzer, device, props, driver):
    """tests/tools/sysfuzz on what the driver offers user space (the
    reader's device node; the NIC's interface: ethtool, MII, flags,
    addresses, frames; 2 processes of 2 threads, or for a reader, which
    has one opener at a time, 4 threads on one node), while the host ejects
    and re-inserts the card at random moments: no call hangs, the log
    stays clean, the driver still works afterwards."""
    g = fuzzer.g
    rng = random.Random("%d-%s-syscalls" % (SEED, device))
    good_card(fuzzer, device, props, driver, "before the system calls")
    if driver in READER_NODES:
        # one opener at a time: one process, its threads share the node
        target, procs = READER_NODES[driver], "-p 1 -j 4"
    else:
        target = "net:" + g.check("ls /sys/bus/pcmcia/devices/0.0/net").strip()
        procs = "-p 2 -j 2"
    label = "pcl-fuzz-syscalls: seed %d %s" % (SEED, device)
    g.check("echo '%s' > /dev/kmsg" % label)
    g.check("rm -f %s; nettool spawn /tmp/sysfuzz.pid sh -c 'exec sysfuzz -s %d -n %d "
            "%s %s </dev/null >%s 2>&1'" % (SYSFUZZ_OUT, SEED, SYSCALLS, procs, target,
                                            SYSFUZZ_OUT))
    ejects = 0
    try:
        while ejects < SYSCALL_EJECTS and \
                g.run("grep -q ^DONE %s" % SYSFUZZ_OUT)[1] != 0:
            time.sleep(rng.uniform(0.2, 2.0))
            fuzzer.eject("%s, eject %d" % (label, ejects))
            ejects += 1
            fuzzer.insert(device, props)
            assert g.wait_for("[ -e /sys/bus/pcmcia/drivers/%s/0.0 ]" % driver,
                              SETTLE_TIMEOUT), \
                "%s: the card did not bind again after eject %d" % (label, ejects - 1)
    finally:
        tally.count(driver, "ejects during system calls " + fuzzer.where, ejects)
    assert g.wait_for("grep -q ^DONE %s" % SYSFUZZ_OUT, 600 if SOAK else 300), \
        "%s: sysfuzz did not finish:\n%s" % (label, g.check("cat %s" % SYSFUZZ_OUT))
    out = g.check("cat %s" % SYSFUZZ_OUT)
    print("\n%s, %d ejects:\n  %s" % (device, ejects, "\n  ".join(out.splitlines()[1:])))
    done = re.search(r"^DONE calls=(\d+) failed=(\d+) OK$", out, re.M)
    assert done, "%s:\n%s" % (label, out)
    tally.count(driver, "system calls " + fuzzer.where, int(done.group(1)))
    # not only refusals: calls reached the driver
    assert int(done.group(2)) < int(done.group(1)), "%s: every call failed:\n%s" % (label, out)
    fuzzer.settle(label)
    g.assert_clean_kernel_log()
    fuzzer.eject(label)
    good_card(fuzzer, device, props, driver, "after the system calls")
    fuzzer.eject("the last good " + device)


def test_no_leaks(fuzzer):
    """Two kmemleak scans a few seconds apart, after all the images:
    nothing unreferenced from this boot's whole life, but for what an
    upstream driver we do not ship is known to leak (then an xfail, once
    the rest is clean)."""
    g = fuzzer.g
    for _ in range(2):
        g.check("sleep 6; echo scan > %s" % KMEMLEAK, timeout=300)
    leaks = g.check("cat %s" % KMEMLEAK, timeout=120)
    reports = ["unreferenced object" + r for r in leaks.split("unreferenced object")[1:]]
    upstream = {m for r in reports for m in UPSTREAM_LEAKS if "[%s]" % m in r}
    ours = [r for r in reports if not any("[%s]" % m in r for m in UPSTREAM_LEAKS)]
    assert not ours, "kmemleak reports:\n" + "".join(ours)
    if upstream:
        # kmemleak's own line makes the log unclean: what else is there
        problems = [p for p in g.kernel_log_problems()
                    if not re.search(r"kmemleak: \d+ new suspected memory leak", p)]
        assert not problems, "unclean kernel log:\n  " + "\n  ".join(problems)
        pytest.xfail("; ".join(UPSTREAM_LEAKS[m] for m in sorted(upstream)))
    g.assert_clean_kernel_log()
