# SPDX-License-Identifier: GPL-2.0-only
"""Our cm4000_cs and cm4040_cs (src/cards/) on the emulated CardMan 4000
and 4040 behind the emulated 82092: trixie-backports' 7.x (our i82092)
and, under make soak, bookworm's 6.12 (upstream's i82092).  Neither kernel ships the reader
drivers any more (Linux 6.4 removed them).

One guest boot per kernel holds both readers (cm4000 in socket A, cm4040
in socket B); the scenarios run in order, each setting the card state it
needs:
  - the user-space tools pass unchanged: tests/tools/sctool with the
    scenarios of the upstream validation (tests/screaders.py), and again
    as a 32-bit program (the compat ioctls);
  - bad input, through tests/tools/scbad (native and 32-bit): invalid
    ioctl numbers and arguments, bad user pointers, short and oversized
    buffers, reads and writes without a smart card or without a reply,
    concurrent and non-blocking openers;
  - the smart card pulled in the middle of an APDU (wire timing on);
  - rmmod while a device is open (refused), sysfs unbind while open;
  - the PC Card ejected (QMP device_del) during each kind of call: open,
    read, write, ioctl (cm4000), poll; a card is inserted again after
    each eject, alternately with wire timing on and off.  Both readers
    run their cycles at the same time.  Every call in flight must fail
    with ENODEV (an open of a vanishing node: ENOENT, ENODEV or ENXIO),
    close must work, and the kernel log must stay clean.

  - users of both readers from a shell (cat, dd, short writes, sctool
    atr/status/apdu, each in a loop) while both PC Cards are ejected and
    inserted every 3.5 s: every loop ends, and cat and dd on an idle
    reader return at once.

Cycles per kind: CI 20, PCL_STRESS=soak (make soak) 200; PCL_CM40_EJECTS
overrides both.  Ejects under the users' loops: CI 6, soak 60;
PCL_CM40_USER_EJECTS overrides both.  A cycle takes about 1.3 s (both readers at once).  CI
cost on two cores: about 4.5 minutes when tests/run's two workers take one
kernel each (XDIST_SPLIT), about 8 one test after the other.
"""

import os
import random
import re
import shlex
import time

import pytest

import pclkernels as pk
from pclguest import Guest
from screaders import (APDU_CASES, APDU_IDS, BRIDGE, DEFAULT_ATR, OK, READERS,
                       NODE_TIMEOUT, Rig, build_modules, challenge, check_apdu_round_trip,
                       check_atr_reads_back, check_card_removal_reported,
                       check_pps_speeds_up, check_wire_delay,
                       check_wire_time_model, guest_tools, h, lines,
                       reader_args)

# (guest kernel, kernels.matrix line whose headers build the modules,
#  whether the bridge driver is ours)
# 7.x in CI; 6.12 is a cross-kernel run, for make soak (CI still meets our
# readers on bookworm's 6.12 in test_package's PC/SC scenarios).
KERNELS = ([("6.12", "bookworm-6.12", False)]
           if os.environ.get("PCL_STRESS") == "soak" else []) + [("7.3", "trixie-bpo", True)]
DRIVERS = ["cm4000_cs", "cm4040_cs"]
MODELS = sorted(READERS)
# Under TCG on a busy host, 6.12 and 7.x calibrate the TSC against the
# PIT and can get it wrong; guest sleeps then end far too early.
APPEND = "tsc=unstable"
SOAK = os.environ.get("PCL_STRESS") == "soak"
# Eject cycles under the user-style loops (test_users_across_ejects).
USER_CYCLES = int(os.environ.get("PCL_CM40_USER_EJECTS", 60 if SOAK else 6))
USER_PERIOD = 3.5           # s from one eject to the next
# Eject cycles per kind of call and kernel: CI 20, soak 200.
EJECT_CYCLES = {k: int(os.environ.get("PCL_CM40_EJECTS", 200 if SOAK else n))
                for k, n in (("6.12", 20), ("7.3", 20))}
# kind of call -> readers it applies to (the 4040 has no ioctls)
EJECT_KINDS = {
    "open": MODELS,
    "read": MODELS,
    "write": MODELS,
    "ioctl": ["cm4000"],
    "poll": MODELS,
}
TOOLS = {"64": ("sctool", "scbad"), "32": ("sctool32", "scbad32")}
# parallel test workers (tests/conftest.py): one guest kernel each
XDIST_SPLIT = "rig"


class CmRig(Rig):
    def __init__(self, guest, kernel):
        super().__init__(guest)
        self.kernel = kernel

    def scbad(self, model, args, tool="scbad", timeout=60):
        """Run scbad on a reader, killed after timeout seconds (a tool that
        hangs would block the guest's console for the tests after it)."""
        return self.g.run("timeout -s KILL %d %s %s %s" % (
            timeout, tool, READERS[model][2], args), timeout=timeout + 30)

    def cases(self, model, args, tool="scbad"):
        """scbad's CASE lines as {name: result}."""
        out, rc = self.scbad(model, args, tool)
        assert rc == 0, out
        found = {}
        for line in out.splitlines():
            m = re.match(r"CASE (\S+) (.*)$", line)
            if m:
                found[m.group(1)] = m.group(2)
        return found

    def node_cond(self, model, present=True):
        return "%s -c %s ]" % ("[" if present else "[ !", READERS[model][2])

    def wait_node(self, model, present=True, timeout=NODE_TIMEOUT):
        assert self.g.wait_for(self.node_cond(model, present), timeout), \
            "%s still %s after %d s:\n%s" % (
                READERS[model][2], "missing" if present else "there", timeout,
                self.g.run("ls -l /dev/cm*; ls /sys/bus/pcmcia/devices")[0])

    def reader_props(self, model, wire_timing):
        qid, sock, _, _ = READERS[model]
        return dict(id=qid, bus="%s.%d" % (BRIDGE, sock),
                    wire_timing=wire_timing)

    def reset_cards(self):
        for m in MODELS:
            self.prop(m, "wire-timing", False)
            self.card(m)


# What people do with the readers from a shell, each command in a loop of
# its own, until $1/stop appears; then "<runs> <successes>" in $1/<name>.
USERS_SCRIPT = "/pcl/bin/pcl-reader-users"
USER_LOOPS = {
    "cat": "cat DEV",
    "dd": "dd if=DEV bs=7 count=3",
    "short-write": "scbad DEV write 00A4",
    "atr": "sctool -t 20 DEV atr",
    "status": "sctool -t 20 DEV status",
    "apdu": "sctool -t 20 DEV apdu 0084000008",
}
USERS_SH = """#!/bin/sh
dir=$1
echo $$ >$dir/started
loop() {
	name=$1 cmd=$2 runs=0 ok=0
	while [ ! -e $dir/stop ]; do
		if sh -c "$cmd" >/dev/null 2>&1 </dev/null; then ok=$((ok + 1)); fi
		runs=$((runs + 1))
		usleep 50000
	done
	echo "$runs $ok" >$dir/$name
}
%s
""" % "\n".join("loop %s-%s %s &" % (m, name, shlex.quote(cmd.replace("DEV", READERS[m][2])))
                for m in sorted(READERS) for name, cmd in sorted(USER_LOOPS.items()))


@pytest.fixture(scope="module", params=KERNELS, ids=[k for k, _, _ in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name, our_bridge = request.param
    with pk.rolling_tolerance(matrix_name):
        mods = build_modules(matrix_name, tmp_path_factory.mktemp("ko-" + kernel))
        ko = [os.path.join(mods, d + ".ko") for d in DRIVERS]
        if our_bridge:
            ko.append(os.path.join(mods, "i82092.ko"))
            modules, load = [], []
        else:
            modules, load = ["i82092"], ["i82092"]
        files = guest_tools(arch32=True)
        files[USERS_SCRIPT] = USERS_SH.encode()
        guest = Guest("cm40xx-" + kernel, kernel=kernel, modules=modules,
                      load=load, extra_ko=ko, files=files,
                      qemu_args=reader_args(MODELS), append=APPEND)
        guest.start()
    try:
        cmd = " && ".join("pcl-insmod %s" % d for d in DRIVERS)
        if our_bridge:
            cmd += " && pcl-insmod i82092 && pcl-socket-startup"
        guest.check(cmd)
        r = CmRig(guest, kernel)
        for m in MODELS:
            r.replug_if_missed(m)
            r.wait_node(m)
        yield r
    finally:
        guest.stop()


# ------------------------------------------------- the tools pass unchanged

def test_ours_drive_the_readers(rig):
    g = rig.g
    for model in MODELS:
        _, sock, node, driver = READERS[model]
        assert g.run("[ -c %s ]" % node)[1] == 0
        bound = g.check("ls /sys/bus/pcmcia/drivers/%s" % driver).split()
        assert "%d.0" % sock in bound, "%s drives no card in socket %d" % (driver, sock)
        assert "O" in g.check("cat /sys/module/%s/taint" % driver), \
            "%s is not our out-of-tree module" % driver
    out = g.check("for d in /sys/bus/pci/devices/*; do "
                  "[ \"$(cat $d/vendor $d/device)\" = \"$(printf '0x8086\\n0x1221')\" ] && "
                  "basename $(readlink -f $d/driver/module); done; true")
    assert out.split() == ["i82092"]
    g.assert_clean_kernel_log()


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("kind", ["default", "t1only", "inverse"])
def test_atr_reads_back(rig, model, kind):
    check_atr_reads_back(rig, model, kind)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("kind,opt,proto", APDU_CASES, ids=APDU_IDS)
def test_apdu_round_trip(rig, model, kind, opt, proto):
    check_apdu_round_trip(rig, model, kind, opt, proto)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("proto", [0, 1])
def test_pps_speeds_up(rig, model, proto):
    check_pps_speeds_up(rig, model, proto)


@pytest.mark.parametrize("model", MODELS)
def test_card_removal_reported(rig, model):
    check_card_removal_reported(rig, model)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("opts,etu", [("-p 0", 372), ("-P -p 0", 93)],
                         ids=["9600bps", "38400bps"])
def test_wire_time_model(rig, model, opts, etu):
    check_wire_time_model(rig, model, opts, etu)


@pytest.mark.parametrize("model", MODELS)
def test_wire_delay(rig, model):
    """Both readers: ours has no trouble with replies that take time."""
    check_wire_delay(rig, model)


@pytest.mark.parametrize("model", MODELS)
def test_32bit_sctool(rig, model):
    """sctool as a 32-bit program: the cm4000's ioctls take the compat
    path (their numbers encode a 4-byte pointer there)."""
    check_atr_reads_back(rig, model, "inverse", tool="sctool32")
    check_apdu_round_trip(rig, model, "dual", "-p 1", 1, tool="sctool32")
    check_pps_speeds_up(rig, model, 0, tool="sctool32")
    rig.card(model)
    out, rc = rig.sctool(model, "DEV status", tool="sctool32")
    assert rc == 0 and "CARD present POWERED yes" in out, out


# -------------------------------------------------------------- bad input

BITS = sorted(TOOLS)

IOCTL_CASES = {
    "bad-magic": "ENOTTY", "bad-number": "ENOTTY", "bad-direction": "ENOTTY",
    "other-abi-size": "ENOTTY", "srdr": "ENOTTY", "dbglvl": "ENOTTY",
    "status-null": "EFAULT", "status-low": "EFAULT", "status-kernel": "EFAULT",
    "atr-null": "EFAULT", "atr-kernel": "EFAULT",
    "pts-null": "EFAULT", "pts-low": "EFAULT",
    "pts-protocol-none": "EINVAL", "pts-protocol-both": "EINVAL",
    "pts-protocol-t2": "EINVAL", "pts-fidi-rfu": "EINVAL",
    # inserted, powered, ATR present and valid; the default ATR's length
    "status": "OK 15", "atr": "OK %d" % (len(DEFAULT_ATR) // 2),
    "pts-t1": "OK 0", "cardoff": "OK 0", "status-after-cardoff": "OK 15",
    "close": "OK 0",
}

IO_CASES = {
    "cm4000": {
        "write-zero": "OK 0", "read-zero": "OK 0",
        "write-short": "EINVAL", "write-p3-mismatch": "EINVAL",
        "write-oversize": "EINVAL", "write-huge": "EINVAL",
        "write-null": "EFAULT", "write-low": "EFAULT", "write-kernel": "EFAULT",
        "read-nonblock-empty": "OK 0", "read-nothing-asked": "OK 0",
        "poll-idle-in": "OK 0", "write-challenge": "OK 5", "poll-reply-in": "OK 1",
        "read-null": "EFAULT", "read-kernel": "EFAULT",
        "read-after-efault": "OK 10",           # the reply was kept
        "write-challenge-2": "OK 5", "read-one-byte": "OK 1",
        "read-again-nonblock": "OK 0",          # the rest is dropped
        "write-challenge-3": "OK 5", "read-huge-buffer": "OK 10",
        "pts-t1": "OK 0", "t1-bad-len": "EINVAL",
        "t1-ifs": "OK 5", "t1-ifs-reply": "OK 5",
        "close": "OK 0",
    },
    "cm4040": {
        "write-zero": "OK 0", "read-zero": "OK 0",
        "write-short": "EINVAL", "write-oversize": "EINVAL",
        "write-huge": "EINVAL", "write-dwlength": "EINVAL",
        "write-null": "EFAULT", "write-kernel": "EFAULT",
        "read-nothing-sent": "EIO",
        "poll-idle-in": "OK 0", "poll-idle-out": "OK 1",
        "write-status": "OK 10", "read-short-buffer": "EINVAL",
        "poll-reply-in": "OK 1", "read-null": "EFAULT", "read-kernel": "EFAULT",
        "read-after-efault": "OK 10", "read-again": "EIO",
        "write-power-on": "OK 10", "read-ten-bytes": "OK 10",
        "write-power-on-2": "OK 10",
        "read-huge-buffer": "OK %d" % (10 + len(DEFAULT_ATR) // 2),
        "write-unread-1": "OK 10", "write-unread-2": "OK 10",
        "read-last": "OK 10",
        "close": "OK 0",
    },
}

NOCARD_CASES = {
    "status": "OK 0", "atr-nonblock": "EAGAIN", "write-nonblock": "EAGAIN",
    "read-nonblock": "OK 0", "atr-interrupted": "EINTR",
    "write-interrupted": "EINTR", "read-nothing-asked": "OK 0",
    # a read waits for the answer of another thread's write (which waits
    # for a card) until a signal comes; then nothing is asked any more
    "read-nonblock-writing": "EAGAIN", "read-interrupted-writing": "EINTR",
    "write-thread-interrupted": "EINTR", "read-after-write": "OK 0",
    "poll-out": "OK 0", "cardoff": "OK 0", "close": "OK 0",
}

OPENER_CASES = {
    "open-first": "OK 0", "open-second": "EBUSY",
    "open-other-process": "EBUSY", "open-nonblock-busy": "EBUSY",
    "close-first": "OK 0", "open-nonblock": "EAGAIN",
    "open-again": "OK 0", "close-again": "OK 0",
}


def assert_cases(found, want):
    wrong = {k: (found.get(k), v) for k, v in want.items() if found.get(k) != v}
    extra = sorted(set(found) - set(want))
    assert not wrong and not extra, \
        "case: (driver said, expected): %s; unexpected cases: %s" % (wrong, extra)


def card_works(rig, model, seed=11):
    rig.card(model, DEFAULT_ATR, seed)
    out, rc = rig.sctool(model, "DEV apdu 0084000008")
    assert rc == 0 and lines(out, "R") == [h(challenge(seed, 8) + OK)], out


@pytest.mark.parametrize("bits", BITS)
def test_bad_ioctls(rig, bits):
    rig.reset_cards()
    assert_cases(rig.cases("cm4000", "ioctls", TOOLS[bits][1]), IOCTL_CASES)
    card_works(rig, "cm4000")
    rig.g.assert_clean_kernel_log()


@pytest.mark.parametrize("bits", BITS)
@pytest.mark.parametrize("model", MODELS)
def test_bad_reads_and_writes(rig, model, bits):
    rig.reset_cards()
    assert_cases(rig.cases(model, "io", TOOLS[bits][1]), IO_CASES[model])
    card_works(rig, model)
    rig.g.assert_clean_kernel_log()


@pytest.mark.parametrize("bits", BITS)
def test_no_smart_card(rig, bits):
    """The 4000 waits for a card: non-blocking calls say EAGAIN, blocking
    ones wait until a signal comes (EINTR after 1 s); nothing is
    writable.  (The 4040's reader answers itself: check_card_removal.)"""
    rig.reset_cards()
    rig.prop("cm4000", "card-present", False)
    try:
        assert_cases(rig.cases("cm4000", "nocard", TOOLS[bits][1]), NOCARD_CASES)
    finally:
        rig.prop("cm4000", "card-present", True)
    card_works(rig, "cm4000")
    rig.g.assert_clean_kernel_log()


def test_slow_reply(rig):
    """A CCID reply that takes a wire time of 0.3 s: a non-blocking read
    says EAGAIN before it is there, poll() tells when it is."""
    rig.reset_cards()
    rig.prop("cm4040", "wire-timing", True)
    try:
        found = rig.cases("cm4040", "slow")
    finally:
        rig.prop("cm4040", "wire-timing", False)
    assert_cases(found, {"write-long": "OK 15", "read-nonblock-early": "EAGAIN",
                         "poll-in": "OK 1", "read-reply": "OK %d" % (10 + 256 + 2),
                         "close": "OK 0"})


@pytest.mark.parametrize("model", MODELS)
def test_concurrent_openers(rig, model):
    rig.reset_cards()
    assert_cases(rig.cases(model, "openers"), OPENER_CASES)
    card_works(rig, model)


@pytest.mark.parametrize("model", MODELS)
def test_card_pulled_mid_apdu(rig, model):
    """Pull the smart card while a 256-byte GET CHALLENGE crosses the wire
    (0.3 s each, back to back).  The 4000's write fails with EIO; the
    4040's reader answers the XfrBlock with a failure (ICC absent, mute).
    The device stays usable: a card put back works."""
    rig.reset_cards()
    rig.prop(model, "wire-timing", True)
    out_file = "/tmp/pull-%s" % model
    try:
        rig.background(model, "pull", out_file, "LOOPING", tool="scbad")
        time.sleep(0.7)
        rig.prop(model, "card-present", False)
        assert rig.g.wait_for("grep -q FAILED %s" % out_file, 30), \
            rig.g.run("cat %s" % out_file)[0]
        rig.wait_tools(tools=("scbad",))
        out = rig.g.check("cat %s" % out_file)
    finally:
        rig.prop(model, "card-present", True)
        rig.prop(model, "wire-timing", False)
    want = ("FAILED write EIO" if model == "cm4000" else
            "FAILED reply bStatus=42 bError=FE")
    assert want in out and "CASE close OK 0" in out, out
    card_works(rig, model)
    rig.g.assert_clean_kernel_log()


# ----------------------------------------------------- module and binding

@pytest.mark.parametrize("model", MODELS)
def test_rmmod_while_open(rig, model):
    """A file open on a reader holds the module (fops.owner), also after
    the reader is gone.  (While a card is bound, the PC Card core holds
    the module anyway.)  So: eject the PC Card under an open file; rmmod
    is refused (the kernel says EWOULDBLOCK) and the module stays; once
    the file is closed, it unloads, and loads again for a new card."""
    qid, _, node, driver = READERS[model]
    g = rig.g
    rig.reset_cards()
    g.check("(sleep 600 <%s >/dev/null 2>&1 &); "
            "pcl-wait 10 'ls -l /proc/$(pidof sleep)/fd | grep -q %s'" % (node, node))
    g.device_del(qid)
    rig.wait_node(model, present=False, timeout=30)
    out, rc = g.run("rmmod %s" % driver)
    assert rc != 0, "rmmod %s succeeded while a file of it was open" % driver
    assert "Resource temporarily unavailable" in out, out
    assert g.run("[ -d /sys/module/%s ]" % driver)[1] == 0
    g.check("kill $(pidof sleep)")
    assert g.wait_for("! pidof sleep >/dev/null", 10)
    g.check("rmmod %s" % driver)
    g.check("pcl-insmod %s" % driver)
    g.device_add(model, **rig.reader_props(model, False))
    rig.wait_node(model)
    card_works(rig, model)
    g.assert_clean_kernel_log()


@pytest.mark.parametrize("model", MODELS)
def test_unbind_while_open(rig, model):
    """Unbinding the PC Card function from the driver while a process
    holds the device: the process's next call fails with ENODEV, its close
    works, the node goes; binding again gives a working reader."""
    _, sock, node, driver = READERS[model]
    rig.reset_cards()
    out_file = "/tmp/unbind-%s" % model
    rig.background(model, "hold", out_file, "HELD", timeout=300)
    sysfs = "/sys/bus/pcmcia/drivers/%s" % driver
    rig.g.check("echo %d.0 > %s/unbind" % (sock, sysfs))
    assert rig.g.wait_for("grep -q CLOSED %s" % out_file, 30), \
        rig.g.run("cat %s" % out_file)[0]
    hold = rig.g.check("cat %s" % out_file)
    assert "LOST ENODEV" in hold, hold
    rig.wait_tools()
    rig.wait_node(model, present=False, timeout=10)
    rig.g.check("echo %d.0 > %s/bind" % (sock, sysfs))
    rig.wait_node(model)
    card_works(rig, model)
    rig.g.assert_clean_kernel_log()


# ------------------------------------------- the PC Card ejected in calls

def eject_cycles(rig, kind, cycles, seed):
    """Run scbad's eject loop on every reader KIND applies to, all at once,
    ejecting and re-inserting their PC Cards CYCLES times; return
    {model: scbad's output}."""
    g = rig.g
    models = EJECT_KINDS[kind]
    files = {m: "/tmp/eject-%s-%s" % (kind, m) for m in models}
    rnd = random.Random(seed)
    for m in models:
        rig.background(m, "eject %s %d" % (kind, cycles), files[m], "READY",
                       tool="scbad")

    def wait_all(word, n, timeout):
        cond = " && ".join("grep -qE '^(%s) %d$' %s" % (word, n, f)
                           for f in files.values())
        if not g.wait_for(cond, timeout):
            raise AssertionError("cycle %d: no %s after %d s:\n%s" % (
                n, word, timeout, g.run("tail -n 5 %s; ls -l /dev/cm*"
                                        % " ".join(files.values()))[0]))

    for n in range(cycles):
        wire = n % 2 == 1
        wait_all("READY", n, NODE_TIMEOUT)
        # somewhere in the calls: just in, or well into a long exchange
        time.sleep(rnd.uniform(0.02, 0.4))
        for m in models:
            g.device_del(READERS[m][0])
        wait_all("GONE|STUCK", n, 90)
        for m in models:
            g.device_add(m, **rig.reader_props(m, wire))
    assert g.wait_for(" && ".join("grep -q DONE %s" % f for f in files.values()), 60)
    rig.wait_tools(tools=("scbad",))
    return {m: g.check("cat %s" % f) for m, f in files.items()}


@pytest.mark.parametrize("kind", sorted(EJECT_KINDS))
def test_eject_during_calls(rig, kind):
    rig.reset_cards()
    t0 = time.monotonic()
    cycles = EJECT_CYCLES[rig.kernel]
    outputs = eject_cycles(rig, kind, cycles, seed=sorted(EJECT_KINDS).index(kind))
    took = time.monotonic() - t0
    allowed = ({"ENOENT", "ENODEV", "ENXIO"} if kind == "open" else {"ENODEV"})
    report = []
    for model, out in outputs.items():
        done = re.findall(r"^CYCLE (\d+) (\S+) (\S+) calls=(\d+) close=(\S+)$",
                          out, re.M)
        assert len(done) == cycles, out
        bad = [c for c in done if c[2] not in allowed or c[4] != "OK"]
        assert not bad, "%s: calls that failed otherwise: %s\n%s" % (model, bad, out)
        assert "STUCK" not in out, out
        ops = sorted(set(c[1] for c in done))
        report.append("%s: %d cycles, failing calls: %s" % (model, len(done),
                                                            ", ".join(ops)))
    print("eject during %s: %.1f s; %s" % (kind, took, "; ".join(report)))
    for m in EJECT_KINDS[kind]:
        rig.wait_node(m)
        card_works(rig, m)
    rig.g.assert_clean_kernel_log()


# ------------------------------ users of both readers across many ejects

def test_users_across_ejects(rig):
    """Several processes use both readers from a shell (cat, dd, short
    writes (with scbad: a shell's > would create a file where the node
    has just gone), sctool atr/status/apdu, each in a loop) while both PC Cards
    are ejected and inserted again every 3.5 s.  Afterwards every loop
    ends: a read with no answer to wait for returns (cm4000: 0, the end
    of the file; cm4040: EIO), one in flight across a removal fails with
    ENODEV, and nothing waits for ever.  Then cat and dd on the idle
    readers return at once, and both readers work."""
    g = rig.g
    rig.reset_cards()
    d = "/tmp/users"
    g.check("rm -rf %s && mkdir %s && (sh %s %s >/dev/null 2>&1 </dev/null &) && "
            "pcl-wait 10 '[ -s %s/started ]'" % (d, d, USERS_SCRIPT, d, d))
    for n in range(USER_CYCLES):
        t0 = time.monotonic()
        for m in MODELS:
            g.device_del(READERS[m][0])
        for m in MODELS:
            rig.wait_node(m, present=False, timeout=30)
        for m in MODELS:
            g.device_add(m, **rig.reader_props(m, n % 2 == 1))
        for m in MODELS:
            rig.wait_node(m)
        time.sleep(max(0.0, USER_PERIOD - (time.monotonic() - t0)))
    time.sleep(USER_PERIOD)
    g.check("touch %s/stop" % d)
    names = ["%s-%s" % (m, n) for m in MODELS for n in USER_LOOPS]
    ended = " && ".join("[ -s %s/%s ]" % (d, n) for n in names)
    if not g.wait_for(ended, 60):
        stuck = g.run("cd %s; ls; for p in $(pidof cat dd sctool scbad); do "
                      "echo \"== $p: $(tr '\\0' ' ' </proc/$p/cmdline)\"; "
                      "cat /proc/$p/wchan; echo; cat /proc/$p/stack; done; ls -l /dev/cm*" % d)[0]
        raise AssertionError("loops still running 60 s after the last of %d ejects:\n%s"
                             % (USER_CYCLES, stuck))
    counts = {n: [int(x) for x in g.check("cat %s/%s" % (d, n)).split()] for n in names}
    print("runs, successes: %s" % counts)
    for m in MODELS:
        for n in ("atr", "apdu"):
            assert counts["%s-%s" % (m, n)][1] > 0, "no %s on %s worked: %s" % (n, m, counts)
    assert counts["cm4000-cat"][1] > 0, counts

    # the idle readers: cat and dd end at once
    node = READERS["cm4000"][2]
    out = g.check("timeout -s KILL 10 cat %s >/tmp/o; echo rc=$? bytes=$(wc -c </tmp/o)" % node)
    assert "rc=0 bytes=0" in out, "cat %s: %s" % (node, out)
    out = g.check("timeout -s KILL 10 dd if=%s bs=7 count=3 of=/tmp/o 2>&1; echo rc=$?" % node)
    assert "rc=0" in out and "0+0 records in" in out, "dd %s: %s" % (node, out)
    node = READERS["cm4040"][2]
    out = g.check("timeout -s KILL 10 cat %s 2>&1; echo rc=$?" % node)
    assert "rc=1" in out and "Input/output error" in out, "cat %s: %s" % (node, out)
    for m in MODELS:
        card_works(rig, m)
    g.assert_clean_kernel_log()
