# SPDX-License-Identifier: GPL-2.0-only
"""The pcsc-lite driver (userspace/ifd-cm40xx) on our cm4000_cs and
cm4040_cs and the emulated readers, in a bookworm 6.12 guest.

First the handler alone, its IFDH* entry points called by
tests/ifdtool.c as pcscd and a PC/SC application would:
  - every APDU of the readers' script (tests/screaders.py) in T=0 and
    T=1, direct and inverse convention, IFSC 32 and 254, the protocol
    chosen as pcscd does; answers byte for byte;
  - the smart card pulled and put back: presence follows;
  - the PC Card ejected while the handler holds the reader: the handler
    closes the node at once (the kernel's removal never waits for it),
    and opens the new reader when a PC Card comes back.
Then with bookworm's pcscd, pcsc_scan and opensc-tool (taken from their
packages with the libraries they load, into the guest's initramfs) and
our reader.conf.d file: both readers listed; ATRs and APDUs in T=0 and
T=1 through OpenSC, whose generic driver takes the card; an open
connection gets SCARD_W_REMOVED_CARD when the card is pulled, and a new
one works with the next card; the PC Card ejected under pcscd (pcscd
survives, a new PC Card works); pcscd's idle power-down and power-up.

One guest boot, about 3 minutes on two cores."""

import glob
import os
import re

import pytest

import pclkernels as pk
from pclguest import CACHE, Guest
import pcscscenarios as pcsc
from pcscscenarios import SEED, build_ifd
from screaders import (ATRS, DEFAULT_ATR, READERS, Rig, apdu_script,
                       build_modules, h, lines, reader_args)

MODELS = pcsc.MODELS
DEVICENAME = {"cm4000": "/dev/cmm0:cm4000", "cm4040": "/dev/cmx0:cm4040"}
DRIVERS = ["cm4000_cs", "cm4040_cs"]
# (ATR, protocol asked for: None = what pcscd picks, T=1 when offered)
CASES = [("dual", 0), ("dual", 1), ("dual", None), ("t0only", 0),
         ("t1only", 1), ("t1-ifsc254", 1), ("inverse", 0)]
IDS = ["%s-%s" % (k, "auto" if p is None else "T%d" % p) for k, p in CASES]


# pcscd, pcsc_scan and opensc-tool of this machine's Debian release, taken
# from its packages (never installed here), with the libraries they load
USERLAND = os.path.join(CACHE, "pcsc-userland")
PCSC_DEBS = ["pcscd", "pcsc-tools", "opensc", "opensc-pkcs11"]
PROGRAMS = ["usr/sbin/pcscd", "usr/bin/pcsc_scan", "usr/bin/opensc-tool"]
MULTIARCH = "/usr/lib/x86_64-linux-gnu"
LIBPATH = "LD_LIBRARY_PATH=%s:/lib/x86_64-linux-gnu" % MULTIARCH


def pcsc_userland(driver):
    """{guest path: host path}: the programs, every shared object they
    need (ldd) or dlopen() (OpenSC libpcsclite, glibc's pthread_exit()
    libgcc_s), our driver and its reader.conf.d file."""
    root = os.path.join(USERLAND, "root")
    # the libraries come from this machine: those the packages depend on
    pk.bash("need_host_packages libpcsclite1 libglib2.0-0 libssl3 zlib1g "
            "libreadline8 libgcc-s1 libsystemd0 libudev1")
    if not os.path.exists(os.path.join(root, PROGRAMS[0])):
        debs = os.path.join(USERLAND, "debs")
        os.makedirs(debs, exist_ok=True)
        pk.run(["apt-get", "download"] + PCSC_DEBS, cwd=debs, check=True)
        for deb in glob.glob(os.path.join(debs, "*.deb")):
            pk.run(["dpkg-deb", "-x", deb, root], check=True)
    files = {}
    env = dict(os.environ, LD_LIBRARY_PATH=root + MULTIARCH)
    objs = [os.path.join(root, p) for p in PROGRAMS] + [
        os.path.join(MULTIARCH, lib) for lib in ("libpcsclite.so.1", "libgcc_s.so.1")]
    for obj in objs:
        out = pk.run(["ldd", obj], env=env, check=True).stdout
        assert "not found" not in out, out
        deps = re.findall(r"(?:=> )?(/\S+) \(0x", out)
        for path in [obj] + deps:
            guest = path[len(root):] if path.startswith(root) else path
            files[guest] = os.path.realpath(path)
    files["/usr/lib/pcsc/drivers/serial/libifd-cm40xx.so"] = driver
    files["/etc/reader.conf.d/pcmcia-legacy-cm40xx"] = os.path.join(
        pk.TOP, "userspace", "ifd-cm40xx", "reader.conf.d", "pcmcia-legacy-cm40xx")
    return files


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


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    mods = build_modules("bookworm-6.12", tmp_path_factory.mktemp("ko"))
    built = build_ifd(tmp_path_factory.mktemp("ifd"))
    files = pcsc_userland(built["libifd-cm40xx.so"])
    for name in ("ifdtool", "pcscclient"):
        files["/pcl/bin/" + name] = built[name]
    guest = Guest("pcsc-6.12", kernel="6.12", modules=["i82092"], load=["i82092"],
                  extra_ko=[os.path.join(mods, d + ".ko") for d in DRIVERS],
                  files=files, memory=768,
                  qemu_args=reader_args(MODELS), append="tsc=unstable")
    guest.start()
    try:
        guest.check(" && ".join("pcl-insmod %s" % d for d in DRIVERS))
        r = IfdRig(guest)
        for m in MODELS:
            r.replug_if_missed(m)
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
    qid, _, node, _ = READERS[model]
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
        rig.plug(model)
        assert rig.node_there(model), "no %s after the insert" % node
        rig.wait_line(out, "PRESENT", 2)
        assert rig.holds(model)
    finally:
        rig.stop_watch()
    res, rc = rig.ifdtool(model, "apdu 0084000008")
    assert rc == 0 and lines(res, "R"), res
    rig.g.assert_clean_kernel_log()


# ------------------------------------------------ pcscd, pcsc-tools, OpenSC
# These come last: pcscd holds the readers from here on.

@pytest.fixture(scope="module")
def pcscd(rig):
    for m in MODELS:
        rig.card(m, DEFAULT_ATR, seed=SEED)
    rig.g.check("mkdir -p /run/pcscd; (%s pcscd --foreground --debug >/tmp/pcscd.log 2>&1 "
                "</dev/null &); pcl-wait 30 '[ -S /run/pcscd/pcscd.comm ]'" % LIBPATH,
                timeout=60)
    yield pcsc.Pcsc(rig, env=LIBPATH)
    rig.g.run("kill $(pidof pcscd)")


def test_pcsc_scan_lists_readers(pcscd):
    pcsc.check_pcsc_scan_lists_readers(pcscd)


def test_opensc_lists_readers(pcscd):
    pcsc.check_opensc_lists_readers(pcscd)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("kind", pcsc.KINDS)
def test_opensc_atr_and_apdus(pcscd, model, kind):
    pcsc.check_opensc_atr_and_apdus(pcscd, model, kind)


@pytest.mark.parametrize("model", MODELS)
def test_opensc_card_driver(pcscd, model):
    pcsc.check_opensc_card_driver(pcscd, model)


@pytest.mark.parametrize("model", MODELS)
def test_smart_card_pulled_under_pcscd(pcscd, model):
    pcsc.check_smart_card_pulled(pcscd, model)


@pytest.mark.parametrize("model", MODELS)
def test_pc_card_ejected_under_pcscd(pcscd, model):
    pcsc.check_pc_card_ejected(pcscd, model)


@pytest.mark.parametrize("model", MODELS)
def test_connection_sees_the_card_removed(pcscd, model):
    pcsc.check_connection_sees_card_removed(pcscd, model)


def test_idle_power_down_and_up(pcscd):
    pcsc.check_idle_power_down_and_up(pcscd)
