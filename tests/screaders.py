# SPDX-License-Identifier: GPL-2.0-only
"""What the tests of the PC Card smart card readers share: the emulated
readers and their virtual card (vm/qemu/hw/pcmcia/cm4000.c, cm4040.c,
iso7816-card.h), the guest tools (tests/tools/sctool.c, scbad.c), and the
scenarios that hold for every driver of those readers, upstream's and
ours alike (tests/test_upstream_readers.py, tests/test_cm40xx.py)."""

import functools
import os
import re
import subprocess

import pclkernels as pk
from pclguest import TOP

BRIDGE = "pcc"
# model, QOM id, socket, device node, driver
READERS = {
    "cm4000": ("rdr0", 0, "/dev/cmm0", "cm4000_cs"),
    "cm4040": ("rdr1", 1, "/dev/cmx0", "cm4040_cs"),
}
NODE_TIMEOUT = 60           # s from insertion to the device node

# ---------------------------------------------------------------- the card

HIST = b"PCLvcard"


def make_atr(protos=(0, 1), ta1=0x13, ifsc=None, inverse=False):
    """An ATR as the tests use them: TA1, then TD1 naming the first
    protocol and TD2 (T=1: TB3, optional TA3 = IFSC) when T=1 is offered;
    historical bytes HIST; TCK when a protocol other than T=0 appears."""
    b = [0x3F if inverse else 0x3B, len(HIST) | (0x10 if ta1 is not None else 0)]
    if ta1 is not None:
        b.append(ta1)
    if 1 in protos:
        b[1] |= 0x80
        b.append(0x80 | protos[0])
        b.append(0x21 | (0x10 if ifsc else 0))
        if ifsc:
            b.append(ifsc)
        b.append(0x45)
    b += list(HIST)
    if 1 in protos:
        b.append(functools.reduce(lambda x, y: x ^ y, b[1:]))
    return bytes(b).hex().upper()


DEFAULT_ATR = "3B981380214550434C766361726452"      # the model's default
ATRS = {
    "dual": make_atr(),                         # T=0 first, T=1; TA1 13
    "t0only": make_atr(protos=(0,)),
    "t1only": make_atr(protos=(1,)),
    "t1-ifsc254": make_atr(protos=(1,), ifsc=0xFE),
    "inverse": make_atr(inverse=True),
}

EF0101 = b"pcmcia-legacy test file EF0101.\n" + bytes(range(32, 128))
EF0102 = bytes((i * 31 + 7) & 0xFF for i in range(1024))


def challenge(seed, n):
    """GET CHALLENGE's bytes: xorshift64* restarted from the seed."""
    s = seed or 0x9E3779B97F4A7C15
    mask = (1 << 64) - 1
    out = bytearray()
    for _ in range(n):
        s ^= s >> 12
        s ^= (s << 25) & mask
        s ^= s >> 27
        out.append(((s * 0x2545F4914F6CDD1D) & mask) >> 56)
    return bytes(out)


def h(b):
    return b.hex().upper()


OK = b"\x90\x00"
ECHO_DATA = bytes((i * 5 + 3) & 0xFF for i in range(200))


def apdu_script(seed):
    """(command APDU, expected response) pairs, the same for T=0 and T=1."""
    return [
        ("00A4000C020101", OK),                                 # SELECT EF
        ("00B0000010", EF0101[:16] + OK),                       # READ BINARY
        ("00B0007010", EF0101[0x70:0x80] + OK),
        ("0084000008", challenge(seed, 8) + OK),                # GET CHALLENGE
        ("80EC0000%02X%s00" % (len(ECHO_DATA), h(ECHO_DATA)),   # ECHO, chained
         ECHO_DATA + OK),
        ("00A4000002010200",                                    # SELECT + FCP
         bytes.fromhex("620B80020400820101830201029000")),
        ("00B003F010", EF0102[0x3F0:0x400] + OK),
        ("00B0010000", EF0102[0x100:0x200] + OK),               # 256 bytes
        ("00A4000C020999", bytes.fromhex("6A82")),              # no such file
        ("0084000008", challenge(seed, 16)[8:] + OK),
    ]


# (ATR, sctool options, protocol expected)
APDU_CASES = [
    ("dual", "-p 0", 0),
    ("dual", "-p 1", 1),
    ("t0only", "", 0),          # the cm4000 drivers do a PPS by themselves
    ("t1only", "", 1),
    ("t1-ifsc254", "", 1),
    ("inverse", "-p 0", 0),
]
APDU_IDS = ["%s%s" % (k, o.replace(" ", "")) for k, o, _ in APDU_CASES]


def echo_wire_seconds(count, size):
    """Wire time of COUNT T=0 ECHOs of SIZE bytes at 9600 bps: header and
    data, ACK, 61xx; then GET RESPONSE: header, ACK, data, 90 00; 12 ETU
    a character, 372 clocks an ETU at 3.5712 MHz."""
    chars = (5 + size + 1 + 2) + (5 + 1 + size + 2)
    return count * chars * 12 * 372 / 3571200


def lines(out, tag):
    return [line.split(None, 1)[1] if " " in line else ""
            for line in out.splitlines() if line.split(None, 1)[:1] == [tag]]


# ---------------------------------------------------------------- tools

def tools_dir(arch=None):
    """tests/tools/build.sh's directory of static tools; arch "i386" for
    32-bit builds."""
    cmd = [os.path.join(TOP, "tests", "tools", "build.sh")] + ([arch] if arch else [])
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True)
    return out.stdout.decode().strip().splitlines()[-1]


def build_tools():
    """The path of sctool (kept for the tests that only need it)."""
    return os.path.join(tools_dir(), "sctool")


def guest_tools(arch32=False):
    """{guest path: host path} of the tools for a Guest's files=."""
    files = {}
    native = tools_dir()
    for name in ("sctool", "scbad"):
        files["/pcl/bin/" + name] = os.path.join(native, name)
    if arch32:
        d = tools_dir("i386")
        for name in ("sctool", "scbad"):
            files["/pcl/bin/%s32" % name] = os.path.join(d, name)
    return files


def build_modules(matrix_name, dest):
    """The directory of our reader and bridge modules for that kernel,
    built into dest (the cache's module directory is rebuilt by whoever
    builds next)."""
    paths = pk.our_modules(matrix_name, ("cm4000_cs", "cm4040_cs", "i82092"), dest)
    return os.path.dirname(paths[0])


def reader_args(models, wire_timing=False):
    """QEMU arguments: the 82092 bridge and the readers of models."""
    args = ["-device", "i82092,id=%s" % BRIDGE]
    for model in models:
        qid, sock, _, _ = READERS[model]
        args += ["-device", "%s,bus=%s.%d,id=%s,wire-timing=%s"
                 % (model, BRIDGE, sock, qid, "on" if wire_timing else "off")]
    return args


# ---------------------------------------------------------------- the rig

class Rig:
    """A guest with readers in the sockets of READERS."""

    def __init__(self, guest):
        self.g = guest

    def sctool(self, model, args, timeout=30, tool="sctool"):
        """Run sctool on a reader; (stdout+stderr, exit status)."""
        return self.g.run("%s -t %d %s" % (tool, timeout, args.replace("DEV", READERS[model][2])),
                          timeout=timeout + 30)

    def prop(self, model, name, value=None):
        qid = READERS[model][0]
        if value is None:
            return self.g.qmp_cmd("qom-get", path=qid, property=name)
        return self.g.qmp_cmd("qom-set", path=qid, property=name, value=value)

    def background(self, model, args, out, ready, timeout=120, tool="sctool"):
        """Start a tool in the background, its output in the file out, and
        wait until it prints ready.  The subshell detaches it from the
        console shell's job control: busybox ash may exit when a job of
        its own ends while a foreground command ends."""
        opt = "-t %d " % timeout if tool.startswith("sctool") else ""
        self.g.check("(%s %s%s %s >%s 2>&1 </dev/null &); "
                     "pcl-wait 20 'grep -q %s %s'"
                     % (tool, opt, READERS[model][2], args, out, ready, out), timeout=60)

    def wait_tools(self, timeout=30, tools=("sctool",)):
        cond = " && ".join("! pidof %s >/dev/null" % t for t in tools)
        assert self.g.wait_for(cond, timeout), \
            "%s still running:\n%s" % ("/".join(tools), self.g.run("ps")[0])

    def plug(self, model, wire_timing=False):
        """Put the reader's PC Card into its socket."""
        qid, sock, _, _ = READERS[model]
        self.g.device_add(model, id=qid, bus="%s.%d" % (BRIDGE, sock),
                          wire_timing=wire_timing)

    def node_there(self, model, present=True, timeout=NODE_TIMEOUT):
        """Wait until the reader's device node is there (or gone)."""
        cond = ("[ -c %s ]" if present else "[ ! -e %s ]") % READERS[model][2]
        return self.g.wait_for(cond, timeout)

    def replug_if_missed(self, model):
        """Now and then a card found before its socket has resources gets
        no PC Card device at boot (a race in the PC Card core and the
        guest's socket setup, not in the reader or its driver); plug it
        in again then, as a user would."""
        if self.g.wait_for("[ -e /sys/bus/pcmcia/devices/%d.0 ]" % READERS[model][1], 20):
            return
        print("socket %d: no PC Card device after boot; %s inserted again"
              % (READERS[model][1], model))
        self.g.device_del(READERS[model][0])
        self.plug(model)

    def card(self, model, atr=DEFAULT_ATR, seed=0, present=True):
        self.prop(model, "atr", atr)
        self.prop(model, "challenge-seed", seed)
        self.prop(model, "card-present", present)


# ------------------------------------------------------------ scenarios
# Each holds for any driver of the readers; the test modules run them.

def check_atr_reads_back(rig, model, kind, tool="sctool"):
    atr = DEFAULT_ATR if kind == "default" else ATRS[kind]
    rig.card(model, atr)
    out, rc = rig.sctool(model, "DEV atr", tool=tool)
    assert rc == 0, out
    assert lines(out, "ATR") == [atr], out


def check_apdu_round_trip(rig, model, kind, opt, proto, tool="sctool"):
    seed = 0x5EED0000 + len(kind) * 7 + proto
    script = apdu_script(seed)
    rig.card(model, ATRS[kind], seed)
    out, rc = rig.sctool(model, "%s DEV apdu %s" % (opt, " ".join(c for c, _ in script)), 60,
                         tool=tool)
    assert rc == 0, out
    assert lines(out, "PROTOCOL") == ["T=%d" % proto], out
    got = lines(out, "R")
    for (cmd, want), resp in zip(script, got):
        assert resp == h(want), "%s answered %s, expected %s" % (cmd, resp, h(want))
    assert len(got) == len(script), out
    assert rig.prop(model, "card-protocol") == "T=%d" % proto


def check_pps_speeds_up(rig, model, proto, tool="sctool"):
    """A PPS for TA1 = 13 (Fi 372, Di 4) leaves the card at 93 clocks an
    ETU, and the exchanges after it still work."""
    rig.card(model, ATRS["dual"], 7)
    out, rc = rig.sctool(model, "-P -p %d DEV apdu 0084000008" % proto, tool=tool)
    assert rc == 0, out
    assert lines(out, "R") == [h(challenge(7, 8) + OK)], out
    assert rig.prop(model, "card-etu") == 93
    assert rig.prop(model, "card-protocol") == "T=%d" % proto


def check_card_removal_reported(rig, model):
    """Pulling the smart card (not the PC Card) while the device is open
    shows in the driver's status; putting it back brings the card back."""
    rig.card(model, DEFAULT_ATR, 3)
    try:
        rig.background(model, "wait absent", "/tmp/gone", "WAITING")
        rig.prop(model, "card-present", False)
        assert rig.g.wait_for("grep -q 'CARD absent' /tmp/gone", 30), \
            rig.g.run("cat /tmp/gone")[0]
        rig.wait_tools()
        out, rc = rig.sctool(model, "DEV status")
        assert rc == 0 and "CARD absent POWERED no" in out, out
        # no card, no ATR: the CCID reader says so, the 4000 waits for one
        out, rc = rig.sctool(model, "DEV atr", timeout=5)
        assert rc == (4 if model == "cm4040" else 3), out
        assert not lines(out, "ATR"), out

        rig.background(model, "wait present", "/tmp/back", "WAITING")
        rig.prop(model, "card-present", True)
        assert rig.g.wait_for("grep -q 'CARD present' /tmp/back", 30), \
            rig.g.run("cat /tmp/back")[0]
        rig.wait_tools()
    finally:
        rig.prop(model, "card-present", True)
    out, rc = rig.sctool(model, "DEV apdu 0084000008")
    assert rc == 0 and lines(out, "R") == [h(challenge(3, 8) + OK)], out


def bench(rig, model, opts, count, size):
    """Run the ECHO bench; (guest seconds, modelled wire ns)."""
    before = rig.prop(model, "wire-ns")
    out, rc = rig.sctool(model, "%s DEV bench %d %d" % (opts, count, size), 60)
    assert rc == 0, out
    return (float(re.search(r"seconds=([0-9.]+)", out).group(1)),
            rig.prop(model, "wire-ns") - before)


def check_wire_time_model(rig, model, opts, etu):
    """Each T=0 ECHO costs its characters' time at the ETU in use: the
    wire-ns of 5 echoes minus that of 1 (same session cost) is 4
    echoes' worth.  Within 1 %: the reader sends at the divisor its
    driver programs (Linux 6.1: 371 clocks for 372), the card answers
    at its own ETU."""
    size = 64
    rig.card(model, ATRS["dual"])
    _, one = bench(rig, model, opts, 1, size)
    _, five = bench(rig, model, opts, 5, size)
    assert rig.prop(model, "card-etu") == etu
    want = echo_wire_seconds(4, size) * etu / 372 * 1e9
    assert abs((five - one) - want) < want / 100, \
        "4 echoes cost %d ns on the wire, expected %d" % (five - one, want)


def check_wire_delay(rig, model, count=4, size=64):
    """With wire timing on, no exchange beats the wire.  Both timings are
    printed for the record."""
    rig.card(model, ATRS["dual"])
    fast, _ = bench(rig, model, "-p 0", count, size)
    rig.prop(model, "wire-timing", True)
    try:
        timed, _ = bench(rig, model, "-p 0", count, size)
    finally:
        rig.prop(model, "wire-timing", False)
    wire = echo_wire_seconds(count, size)
    assert timed >= wire * 0.99, "%d echoes took %.3f s, the wire needs %.3f s" % (
        count, timed, wire)
    print("%s: %d T=0 echoes of %d bytes at 9600 bps: %.3f s with wire timing "
          "(the wire alone: %.3f s), %.3f s without" % (model, count, size, timed,
                                                        wire, fast))
