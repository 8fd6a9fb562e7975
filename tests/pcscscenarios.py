# SPDX-License-Identifier: GPL-2.0-only
"""pcscd, pcsc-tools and OpenSC on the emulated readers through our
pcsc-lite driver (userspace/ifd-cm40xx) and its reader.conf.d file: the
scenarios of issue 16, for any guest that has these programs.
tests/test_ifd_guest.py runs them with the programs copied into an
initramfs, tests/test_package.py in the package guests, where apt
installed them with our packages."""

import os
import re

import pclkernels as pk
from screaders import ATRS, DEFAULT_ATR, EF0101, OK, READERS

MODELS = sorted(READERS)
READER_NAMES = {"cm4000": "Omnikey CardMan 4000 00 00",
                "cm4040": "Omnikey CardMan 4040 01 00"}
# OpenSC's reader numbers: pcscd's order, that of the reader.conf.d file
INDEX = {"cm4000": 0, "cm4040": 1}
SEED = 7
# the ATRs opensc-tool -a and -s are tried with: T=0, T=1, both
KINDS = ["t0only", "t1only", "dual"]
READ_EF = "-s 00A4000C020101 -s 00B0000010"


def build_ifd(dest):
    """{name: path} of the driver and its test programs (tests/ifdtool.c,
    tests/pcscclient.c), built into dest."""
    ifd = os.path.join(pk.TOP, "userspace", "ifd-cm40xx")
    names = ["libifd-cm40xx.so", "ifdtool", "pcscclient"]
    pk.bash("need_host_packages gcc make pkg-config libpcsclite-dev")
    proc = pk.run(["make", "-C", ifd, "OUT=%s" % dest] +
                  [os.path.join(str(dest), n) for n in names])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {n: os.path.join(str(dest), n) for n in names}



class Pcsc:
    """A guest's pcscd and the readers (a screaders.Rig) it serves.
    env: what the programs' command lines start with; log: the command
    that prints pcscd's debug log."""

    def __init__(self, rig, env="", log="cat /tmp/pcscd.log"):
        self.rig = rig
        self.g = rig.g
        self.env = env
        self.log_cmd = log

    def cmd(self, command):
        return ("%s %s" % (self.env, command)).strip()

    def run(self, command, timeout=60):
        return self.g.run(self.cmd(command), timeout=timeout)

    def opensc(self, model, args):
        return self.run("opensc-tool -r %d %s" % (INDEX[model], args))

    def sees_card(self, model, present=True, timeout=20):
        """Wait until opensc-tool reads (or no longer reads) an ATR."""
        probe = self.cmd("opensc-tool -r %d -a" % INDEX[model])
        return self.g.wait_for(probe if present else "! " + probe, timeout)

    def log(self, lines=30):
        return self.g.run("%s | tail -n %d" % (self.log_cmd, lines))[0]

    def pid(self):
        out, rc = self.g.run("pidof pcscd")
        return out.strip() if rc == 0 else None

    def new_card(self, model, atr):
        """Another smart card: pulled until pcscd has seen it go (pcscd
        keeps a card's ATR while it stays in), then one with @atr put in,
        until pcscd has seen it come."""
        self.rig.prop(model, "card-present", False)
        assert self.sees_card(model, False)
        self.rig.card(model, atr, seed=SEED)
        assert self.sees_card(model)


def received(out):
    """The data and status of opensc-tool -s's last answer, as bytes."""
    m = list(re.finditer(r"Received \(SW1=0x(..), SW2=0x(..)\)(?::\n((?:[0-9A-F]{2} .*\n?)*))?", out))
    assert m, out
    data = bytes.fromhex(" ".join(l[:48] for l in (m[-1].group(3) or "").splitlines()))
    return data + bytes.fromhex(m[-1].group(1) + m[-1].group(2))


def check_reads_ef(pc, model):
    out, rc = pc.opensc(model, READ_EF)
    assert rc == 0 and received(out) == EF0101[:16] + OK, out


# ------------------------------------------------------------ scenarios

def check_pcsc_scan_lists_readers(pc):
    out, rc = pc.run("pcsc_scan -r")
    assert rc == 0, out + pc.log()
    for m in MODELS:
        assert READER_NAMES[m] in out, out


def check_opensc_lists_readers(pc):
    out, rc = pc.run("opensc-tool -l")
    assert rc == 0, out
    for m in MODELS:
        assert re.search(r"^%d\s+Yes\s+%s$" % (INDEX[m], re.escape(READER_NAMES[m])),
                         out, re.M), out


def check_opensc_atr_and_apdus(pc, model, kind):
    """The ATR as opensc-tool -a reads it, then APDUs with -s, in the
    protocol pcscd picks for that card (T=1 where offered)."""
    pc.new_card(model, ATRS[kind])
    atr = ":".join(ATRS[kind][i:i + 2] for i in range(0, len(ATRS[kind]), 2)).lower()
    assert pc.g.wait_for("%s | grep -q %s" % (pc.cmd("opensc-tool -r %d -a" % INDEX[model]),
                                              atr), 20), pc.opensc(model, "-a")[0]
    check_reads_ef(pc, model)


def check_opensc_card_driver(pc, model):
    """OpenSC's AID-probing drivers (coolkey, muscle, sc-hsm, PIV, ...) all
    let the virtual card go, so its generic driver takes it."""
    pc.new_card(model, DEFAULT_ATR)
    out, rc = pc.opensc(model, "-n")
    assert rc == 0 and out.strip().splitlines()[-1] == "Unsupported card", out
    # what they ask: SELECT by AID (here PIV's), answered "not found"
    out, rc = pc.opensc(model, "-s 00A4040009A00000030800001000")
    assert rc == 0 and received(out) == bytes.fromhex("6A82"), out


def check_smart_card_pulled(pc, model):
    pc.rig.card(model, DEFAULT_ATR, seed=SEED)
    pc.rig.prop(model, "card-present", False)
    assert pc.sees_card(model, False)
    pc.rig.prop(model, "card-present", True)
    assert pc.sees_card(model)


def check_pc_card_ejected(pc, model):
    """The PC Card pulled while pcscd holds the reader: the kernel's
    removal completes (the node goes), pcscd stays, and a new PC Card
    works."""
    qid, _, node, _ = READERS[model]
    pc.rig.card(model, DEFAULT_ATR, seed=SEED)
    assert pc.sees_card(model)
    pid = pc.pid()
    pc.g.device_del(qid)
    assert pc.rig.node_there(model, present=False, timeout=30), "%s stays" % node
    assert pc.sees_card(model, False)
    assert pc.pid() == pid, "pcscd %s, was %s:\n%s" % (pc.pid(), pid, pc.log())
    pc.rig.plug(model)
    assert pc.rig.node_there(model), "no %s after the insert" % node
    assert pc.sees_card(model, timeout=30), pc.log()
    check_reads_ef(pc, model)
    pc.g.assert_clean_kernel_log()


def check_connection_sees_card_removed(pc, model):
    """An application holding a connection gets SCARD_W_REMOVED_CARD once
    the card was pulled, and a new connection works with the next card
    (tests/pcscclient)."""
    g = pc.g
    pc.rig.card(model, DEFAULT_ATR, seed=SEED)
    out, flag = "/tmp/client-%s" % model, "/tmp/pulled-%s" % model
    g.check("rm -f %s; (%s >%s 2>&1 </dev/null &); pcl-wait 60 'grep -q CONNECTED %s'"
            % (flag, pc.cmd("pcscclient '%s' removed %s" % (READER_NAMES[model], flag)),
               out, out), timeout=90)
    pc.rig.prop(model, "card-present", False)
    assert pc.sees_card(model, False)
    g.check("touch %s" % flag)
    assert g.wait_for("grep -q TRANSMIT %s" % out, 20), g.run("cat %s" % out)[0]
    pc.rig.prop(model, "card-present", True)
    assert g.wait_for("grep -q AGAIN %s" % out, 40), g.run("cat %s" % out)[0]
    text = g.check("cat %s" % out)
    assert "CONNECTED 9000" in text and "AGAIN 9000" in text, text
    assert "TRANSMIT Card was removed." in text, text


def check_idle_power_down_and_up(pc):
    """pcscd powers an unused card down after a few seconds (through the
    handler's IFD_POWER_DOWN) and up again for the next connection."""
    g = pc.g
    pc.rig.card("cm4000", DEFAULT_ATR, seed=SEED)
    pc.rig.prop("cm4040", "card-present", False)     # only the 4000's card
    try:
        assert pc.sees_card("cm4040", False)
        count = "%s | grep -c POWER_STATE_UNPOWERED" % pc.log_cmd
        before = int(g.run(count)[0].strip() or 0)
        assert pc.sees_card("cm4000")
        assert g.wait_for("[ $(%s) -gt %d ]" % (count, before), 30), pc.log(20)
        check_reads_ef(pc, "cm4000")
    finally:
        pc.rig.prop("cm4040", "card-present", True)


def check_all(pc, models=MODELS):
    """Every scenario, one after the other (the package guests run them
    as one step)."""
    check_pcsc_scan_lists_readers(pc)
    check_opensc_lists_readers(pc)
    for model in models:
        for kind in KINDS:
            check_opensc_atr_and_apdus(pc, model, kind)
        check_opensc_card_driver(pc, model)
        check_smart_card_pulled(pc, model)
        check_pc_card_ejected(pc, model)
        check_connection_sees_card_removed(pc, model)
    check_idle_power_down_and_up(pc)
