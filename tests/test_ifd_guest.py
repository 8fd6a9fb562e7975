# SPDX-License-Identifier: GPL-2.0-only
"""The pcsc-lite driver (userspace/ifd-cm40xx) on our cm4000_cs and
cm4040_cs and the emulated readers, in a bookworm 6.12 guest: the
handler's own entry points, called by tests/ifdtool.c there as pcscd and
a PC/SC application would (pcscd itself is not in these guests).

  - every APDU of the readers' script (tests/screaders.py) in T=0 and
    T=1, direct and inverse convention, IFSC 32 and 254, the protocol
    chosen as pcscd does; answers byte for byte;
  - the smart card pulled and put back: presence follows;
  - the PC Card ejected while the handler holds the reader: the handler
    closes the node at once (the kernel's removal never waits for it),
    and opens the new reader when a PC Card comes back.

One guest boot, about 3 minutes on two cores."""

import os

import pytest

import pclkernels as pk
from pclguest import Guest
from screaders import (ATRS, BRIDGE, DEFAULT_ATR, NODE_TIMEOUT, READERS, Rig,
                       apdu_script, build_modules, h, lines, reader_args)

MODELS = sorted(READERS)
DEVICENAME = {"cm4000": "/dev/cmm0:cm4000", "cm4040": "/dev/cmx0:cm4040"}
DRIVERS = ["cm4000_cs", "cm4040_cs"]
# (ATR, protocol asked for: None = what pcscd picks, T=1 when offered)
CASES = [("dual", 0), ("dual", 1), ("dual", None), ("t0only", 0),
         ("t1only", 1), ("t1-ifsc254", 1), ("inverse", 0)]
IDS = ["%s-%s" % (k, "auto" if p is None else "T%d" % p) for k, p in CASES]
SEED = 7


def build_ifdtool(dest):
    ifd = os.path.join(pk.TOP, "userspace", "ifd-cm40xx")
    pk.bash("need_host_packages gcc make pkg-config libpcsclite-dev")
    proc = pk.run(["make", "-C", ifd, "OUT=%s" % dest, "%s/ifdtool" % dest])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return os.path.join(str(dest), "ifdtool")


class IfdRig(Rig):
    def ifdtool(self, model, args, timeout=60):
        return self.g.run("ifdtool -t %d %s %s" % (timeout, DEVICENAME[model], args),
                          timeout=timeout + 30)

    def watch(self, model, seconds=300):
        """ifdtool's presence watch in the background; its output file."""
        out = "/tmp/watch-%s" % model
        self.g.check("(ifdtool -t %d %s watch >%s 2>&1 </dev/null &); "
                     "pcl-wait 30 'grep -q PRESENT %s'"
                     % (seconds, DEVICENAME[model], out, out), timeout=60)
        return out

    def wait_line(self, out, word, count):
        assert self.g.wait_for("[ $(grep -c '^%s$' %s) -ge %d ]" % (word, out, count), 30), \
            self.g.run("cat %s" % out)[0]

    def stop_watch(self):
        self.g.run("kill $(pidof ifdtool) 2>/dev/null; true")
        assert self.g.wait_for("! pidof ifdtool >/dev/null", 10)

    def holds(self, model):
        """Whether ifdtool has the reader's node open."""
        return self.g.run("ls -l /proc/$(pidof ifdtool)/fd | grep -q %s"
                          % READERS[model][2])[1] == 0

    def node_there(self, model, present=True, timeout=NODE_TIMEOUT):
        cond = ("[ -c %s ]" if present else "[ ! -e %s ]") % READERS[model][2]
        return self.g.wait_for(cond, timeout)


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    mods = build_modules("bookworm-6.12", tmp_path_factory.mktemp("ko"))
    tool = build_ifdtool(tmp_path_factory.mktemp("ifdtool"))
    guest = Guest("pcsc-6.12", kernel="6.12", modules=["i82092"], load=["i82092"],
                  extra_ko=[os.path.join(mods, d + ".ko") for d in DRIVERS],
                  files={"/pcl/bin/ifdtool": tool},
                  qemu_args=reader_args(MODELS), append="tsc=unstable")
    guest.start()
    try:
        guest.check(" && ".join("pcl-insmod %s" % d for d in DRIVERS))
        r = IfdRig(guest)
        for m in MODELS:
            assert r.node_there(m), "no %s" % READERS[m][2]
        yield r
    finally:
        guest.stop()


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("kind,proto", CASES, ids=IDS)
def test_apdus_through_the_handler(rig, model, kind, proto):
    rig.card(model, ATRS[kind], seed=SEED)
    script = apdu_script(SEED)
    opt = "" if proto is None else "-p %d " % proto
    out, rc = rig.ifdtool(model, opt + "apdu " + " ".join(c for c, _ in script))
    assert rc == 0, out
    assert lines(out, "ATR") == [ATRS[kind]]
    assert lines(out, "PROTOCOL") == ["T=%d" % (1 if proto is None else proto)]
    assert lines(out, "R") == [h(r) for _, r in script], out


@pytest.mark.parametrize("model", MODELS)
def test_smart_card_pulled_and_back(rig, model):
    rig.card(model, DEFAULT_ATR)
    out = rig.watch(model)
    try:
        rig.prop(model, "card-present", False)
        rig.wait_line(out, "ABSENT", 1)
        rig.prop(model, "card-present", True)
        rig.wait_line(out, "PRESENT", 2)
        assert rig.holds(model)
    finally:
        rig.stop_watch()
    rig.g.assert_clean_kernel_log()


@pytest.mark.parametrize("model", MODELS)
def test_pc_card_ejected_while_held(rig, model):
    qid, sock, node, _ = READERS[model]
    rig.card(model, DEFAULT_ATR)
    out = rig.watch(model)
    try:
        assert rig.holds(model)
        rig.g.device_del(qid)
        rig.wait_line(out, "ABSENT", 1)
        assert rig.node_there(model, present=False, timeout=30), \
            rig.g.run("ls -l /dev/cm*")[0]
        assert not rig.holds(model), "%s still open after the eject" % node
        assert "reader gone, device closed" in rig.g.check("cat %s" % out)
        rig.g.device_add(model, id=qid, bus="%s.%d" % (BRIDGE, sock),
                         wire_timing=False)
        assert rig.node_there(model), "no %s after the insert" % node
        rig.wait_line(out, "PRESENT", 2)
        assert rig.holds(model)
    finally:
        rig.stop_watch()
    res, rc = rig.ifdtool(model, "apdu 0084000008")
    assert rc == 0 and lines(res, "R"), res
    rig.g.assert_clean_kernel_log()
