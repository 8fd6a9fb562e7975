# SPDX-License-Identifier: GPL-2.0-only
"""The DKMS package in a Debian system, as users meet it: installed with
apt in a guest booted from a disk image (vm/image/build.sh), then the
next kernel upgrade, where the kernel packages' own DKMS hook builds what
the new kernel lacks, a reboot, and the emulated cards working with the
drivers that udev loads by itself.

Scenario "upgrade" (bookworm image): 6.1 ships every driver but i82365
and tcic (amd64 kernels have no ISA bus support, so no ISA bridge
drivers), so the package builds only those two and the in-tree drivers stay in charge (the
same apt run installs our libifd-cm40xx with pcscd, pcsc-tools and
OpenSC).  Under make soak, then: bookworm's 6.12 lacks the readers'
drivers: the hook builds them, and after the reboot the CardMan 4000 and
4040 answer (ATR, APDUs), and so do they through pcscd, pcsc-tools and
OpenSC (tests/pcscscenarios.py, with the packaged pcscd service); and an
update to bookworm's newest 6.1 ABI, whose postinst must not fail and
builds i82365 again.  Then removal.  The 6.12 upgrade and its reboot,
readers and PC/SC steps are about 15 minutes of guest time, which CI's
budget cannot hold beside the rest: in CI, the "newest" scenario's
upgrade runs the kernel hook, with trixie's dkms; test_dkms_conf covers
bookworm's dkms 3.0.10 autoinstall (the kernel of the build on its
command line).

Scenario "newest" (trixie image): 6.12, then pcmciautils removed (the
package's own udev rule then sets up the sockets), then trixie-backports'
kernel (7.3), which lacks the bridge's and the Ethernet cards' drivers too
(all of them built by the hook); bridge and readers working after the
reboot, also through pcscd; then removal.

The guests have no network: apt installs from the image's local
repository (what the image build downloaded for exactly these steps), so
every run installs the same packages.  Each step is a test
(test_scenario[SCENARIO-STEP]); the two scenarios run side by side, each
in a thread with its own guest, and a step after a failed one fails as
not run.  Phase times are printed at the end of each scenario and written
to the guest's log directory (timings.txt).
"""

import glob
import os
import re
import resource
import subprocess
import threading
import time

import pytest

import pclguest
from pclguest import TOP, DiskGuest, progress
import pclkernels as pk
import pcscscenarios as pcsc
from screaders import (DEFAULT_ATR, EF0101, NODE_TIMEOUT, READERS, Rig, build_tools,
                       reader_args)

# Under TCG a kernel package install (unpack, initramfs, DKMS build) takes
# minutes; leave room for a machine busy with other work.
APT_TIMEOUT = 1800
MODELS = ["cm4000", "cm4040"]   # one CardMan in each socket of the 82092
# parallel test runs: the longest file, its worker starts with it
XDIST_EARLY = True
HANDLER = "/usr/lib/pcsc/drivers/serial/libifd-cm40xx.so"
READER_CONF = "/etc/reader.conf.d/pcmcia-legacy-cm40xx"
# guest names (log directories): PCL_GUEST_PREFIX lets runs side by side
# keep theirs apart
PREFIX = os.environ.get("PCL_GUEST_PREFIX", "package-")


def build_debs(out):
    """make deb into out; the paths of the DKMS and the IFD handler's
    .deb."""
    proc = subprocess.run([os.path.join(TOP, "scripts", "package.sh"), "deb"],
                          env=dict(os.environ, PCL_OUT=str(out)),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.returncode == 0, "make deb failed:\n" + proc.stdout.decode()[-3000:]
    debs = [glob.glob(os.path.join(str(out), "deb", pattern))
            for pattern in ("pcmcia-legacy-dkms_*_all.deb", "libifd-cm40xx_*_amd64.deb")]
    assert all(len(d) == 1 for d in debs), debs
    return [d[0] for d in debs]


def our_modules():
    return [d["module"] for d in pk.drivers()]


class Scenario:
    """One guest and what the steps learn about it."""

    # pcscd's options (/etc/default/pcscd): its debug log shows the idle
    # power-down; trixie's needs --disable-polkit for the console shell,
    # which has no login session polkit would allow
    pcscd_args = "--debug"

    def __init__(self, guest, debs):
        self.g = guest
        self.debs = [os.path.basename(d) for d in debs]
        self.times = []             # (phase, seconds)
        self.state = {}

    def timed(self, phase, fn, *args, **kw):
        t0 = time.monotonic()
        try:
            return fn(*args, **kw)
        finally:
            dt = time.monotonic() - t0
            self.times.append((phase, dt))
            progress("%s: %s took %.0f s" % (self.g.name, phase, dt))

    def report(self):
        lines = ["%-28s %6.0f s" % (p, s) for p, s in self.times]
        lines.append("%-28s %6.0f s" % ("total", sum(s for _, s in self.times)))
        with open(os.path.join(self.g.logdir, "timings.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        progress("%s phase times:\n  %s" % (self.g.name, "\n  ".join(lines)))

    def apt(self, what, command):
        """Run an apt command as a user would; its transcript goes to
        apt-<what>.log in the guest's log directory.  Returns the output;
        fails on a non-zero exit or a maintainer script that failed."""
        # Each line stamped with the guest's time (a bash builtin: no fork
        # per line), so that the log shows where the minutes go.
        out, rc = self.g.run("( set -o pipefail; { %s; } 2>&1 | while IFS= read -r l; do "
                             "printf '%%(%%T)T %%s\\n' -1 \"$l\"; done )" % command,
                             timeout=APT_TIMEOUT)
        with open(os.path.join(self.g.logdir, "apt-%s.log" % what), "w") as f:
            f.write("$ %s\n%s\nexit status %d\n" % (command, out, rc))
        assert rc == 0, "%s failed (exit %d); see apt-%s.log:\n%s" % (
            command, rc, what, out[-3000:])
        assert not self.failures(out), "%s: %s" % (command, "\n".join(self.failures(out)))
        return out

    @staticmethod
    def failures(out):
        """The lines of an apt transcript that say something failed.  A
        kernel that ships every driver is excluded by dkms.conf's
        BUILD_EXCLUSIVE_CONFIG; dkms 3.0.10 (bookworm) reports that skip
        as "Error! ... BUILD_EXCLUSIVE directive ..." and then "Skipped.",
        which is no failure.  (bookworm's kernel hooks also hide DKMS
        failures from apt: the tests check the built modules themselves.)"""
        return [line for line in out.splitlines()
                if re.search(r"returned error exit status|(^|\d )E: |Error!|dpkg: error|[Ff]ailed", line)
                and "includes a BUILD_EXCLUSIVE directive which does not match" not in line]

    # -- what the guest has

    def kernel_config(self, rel):
        out = self.g.check("cat /boot/config-%s 2>/dev/null || cat /usr/lib/modules/%s/config"
                           % (rel, rel))
        return dict(re.findall(r"^(CONFIG_\w+)=(.*)$", out, re.M))

    def lacking(self, rel):
        """Our drivers whose upstream driver that kernel does not ship:
        what DKMS must build for it (read from the kernel's own config)."""
        conf = self.kernel_config(rel)
        return sorted(d["module"] for d in pk.drivers()
                      if conf.get(d["config"]) not in ("y", "m"))

    def built(self, rel):
        """Our modules that DKMS installed for a kernel."""
        out = self.g.check("ls /lib/modules/%s/updates/dkms 2>/dev/null; true" % rel)
        names = {re.sub(r"\.ko(\.[a-z]+)?$", "", n) for n in out.split()}
        return sorted(n for n in names if n in our_modules())

    def kernels(self):
        return self.g.check("linux-version list").split()

    def dkms_status(self):
        return self.g.check("dkms status 2>&1").strip()

    def module_origin(self, module):
        """Where a module comes from: (the file modprobe loads, whether the
        loaded copy is out of tree).  The loaded copy's taint says whose
        it is (O: out of tree, i.e. DKMS's); where both have a srcversion,
        the loaded one must be that file's."""
        path = self.g.check("modinfo -n %s" % module).strip()
        taint = self.g.check("cat /sys/module/%s/taint" % module).strip()
        loaded = self.g.check("cat /sys/module/%s/srcversion 2>/dev/null || true"
                              % module).strip()
        ondisk = self.g.check("modinfo -F srcversion %s" % module).strip()
        if loaded and ondisk:
            assert loaded == ondisk, "%s: the loaded module is not %s" % (module, path)
        return path, "O" in taint

    # -- steps shared by the scenarios

    def install_package(self):
        """Our packages and the PC/SC programs in one apt run."""
        self.apt("update", "apt-get update")
        out = self.apt("install-package", "cd /pcl && apt install -y %s %s" % (
            " ".join("./" + d for d in self.debs), self.g.image.manifest["install.pcsc"]))
        self.handler_is_packaged()
        return out

    def handler_is_packaged(self):
        """The handler and its reader.conf.d file are libifd-cm40xx's, as
        the package installed them, and no other copy exists."""
        for path in (HANDLER, READER_CONF):
            owner = self.g.check("dpkg -S %s" % path).strip()
            assert owner == "libifd-cm40xx: %s" % path, owner
        out, rc = self.g.run("dpkg --verify libifd-cm40xx")
        assert rc == 0 and out.strip() == "", out
        found = self.g.check("find / -xdev -name 'libifd-cm40xx*.so*'").split()
        assert found == [HANDLER], found

    def install_kernel(self, what, args):
        """Install kernel packages; their hook must build what the new
        kernel lacks.  Returns the new kernel release."""
        before = set(self.kernels())
        out = self.apt(what, "apt-get install -y %s" % args)
        new = sorted(set(self.kernels()) - before)
        assert len(new) == 1, "expected one new kernel, got %s" % new
        rel = new[0]
        want = self.lacking(rel)
        assert self.built(rel) == want, \
            "DKMS built %s for %s, which lacks %s" % (self.built(rel), rel, want)
        if want:
            # Built during the kernel's own installation, by its hook.
            assert re.search(r"(dkms|DKMS).*%s|%s.*(dkms|DKMS)" % (re.escape(rel), re.escape(rel)),
                             out), "no DKMS run for %s in the kernel's installation" % rel
            status = self.dkms_status()
            assert re.search(r"pcmcia-legacy/\S+, %s, x86_64: installed" % re.escape(rel),
                             status), status
        return rel

    def reboot_into(self, rel):
        self.g.reboot()
        assert self.g.release == rel, "booted %s, not the new kernel %s" % (self.g.release, rel)
        assert self.g.system_state == "running", \
            "system %s; failed units: %s" % (self.g.system_state, self.g.failed_units())

    def readers_work(self, rel):
        """Cards in both slots since power-on: udev loaded the bridge's and
        the readers' drivers by itself, and each reader answers."""
        ours = self.built(rel)
        self.wait_nodes()
        for module in ["i82092"] + [READERS[m][3] for m in MODELS]:
            path, out_of_tree = self.module_origin(module)
            if module in ours:
                assert "/updates/dkms/" in path and out_of_tree, \
                    "%s: loaded %s copy, modprobe finds %s" % (
                        module, "an out-of-tree" if out_of_tree else "the in-tree", path)
            else:
                assert "/kernel/drivers/" in path and not out_of_tree, path
        for model in MODELS:
            out, rc = self.g.run("sctool -t 30 %s apdu 00A4000C020101 00B0000010"
                                 % READERS[model][2], timeout=90)
            assert rc == 0, "%s: sctool failed (%d):\n%s" % (model, rc, out)
            assert "ATR %s" % DEFAULT_ATR in out, out
            assert re.search(r"^R 9000$", out, re.M), out
            assert "R %s9000" % EF0101[:16].hex().upper() in out, out

    def wait_nodes(self):
        """The readers' device nodes appear: udev loaded the drivers."""
        for model in MODELS:
            node = READERS[model][2]
            assert self.g.wait_for("[ -c %s ]" % node, NODE_TIMEOUT), \
                "no %s on %s; lsmod:\n%s" % (node, self.g.release, self.g.check("lsmod"))

    def pcsc_scenarios(self):
        """pcscd as its package runs it (socket activation, the service's
        sandbox), with our handler and reader.conf.d file: the scenarios
        of tests/pcscscenarios.py on the kernel just booted."""
        self.g.check("echo 'PCSCD_ARGS=\"%s\"' >>/etc/default/pcscd && "
                     "systemctl stop pcscd.service" % self.pcscd_args)
        pc = pcsc.Pcsc(Rig(self.g), log="journalctl -b -u pcscd.service -o cat --no-pager")
        out, rc = pc.run("opensc-tool -l")
        assert rc == 0, out + pc.log()
        self.g.check("grep -q %s /proc/%s/maps" % (HANDLER, pc.pid()))
        pcsc.check_all(pc)

    def sockets_set_up_by(self):
        """Who gave the sockets their resources this boot: "package" (our
        udev rule's script, which logs it) or "pcmciautils" (its rule,
        which does not log); each socket must be set up either way."""
        for n in (0, 1):
            done = self.g.check("cat /sys/class/pcmcia_socket/pcmcia_socket%d/"
                                "available_resources_setup_done" % n).strip()
            assert done == "yes", "pcmcia_socket%d: resources not set up" % n
        ours = self.g.check("journalctl -b -t pcmcia-legacy -o cat --no-pager").splitlines()
        if not ours:
            return "pcmciautils"
        assert sorted(ours) == ["pcmcia_socket%d: I/O ports and memory given "
                                "(no pcmciautils)" % n for n in (0, 1)], ours
        return "package"

    def remove_package(self):
        self.apt("remove-package", "apt-get remove -y pcmcia-legacy-dkms libifd-cm40xx")
        self.g.check("[ ! -e %s ]" % HANDLER)
        assert self.dkms_status() == ""
        left = self.g.check("find /lib/modules/*/updates -name '*.ko*' 2>/dev/null | "
                            "grep -E '/(%s)\\.ko' || true" % "|".join(our_modules()))
        assert left.strip() == "", "modules left behind:\n" + left
        self.g.check("[ ! -e /var/lib/dkms/pcmcia-legacy ] && ! ls -d /usr/src/pcmcia-legacy-*")


# ------------------------------------------------------------ scenarios

class Upgrade(Scenario):
    """bookworm: 6.1 → package → (make soak: 6.12 → reboot → readers and
    PC/SC; 6.1 ABI update) → removal."""

    image = "bookworm"
    soak_steps = ("kernel_upgrade", "reboot", "readers_work", "pcsc", "abi_update")

    def step_boot(self):
        self.timed("image (cached: a check)", pclguest.image, self.image)
        self.timed("boot", self.g.start)
        assert self.g.release.startswith("6.1.0-"), self.g.release
        assert self.g.system_state == "running", self.g.failed_units()
        assert self.lacking(self.g.release) == ["i82365", "tcic"], \
            "6.1 should ship every driver but the ISA bridges'"

    def step_install_builds_what_6_1_lacks(self):
        self.timed("install package", self.install_package)
        assert self.built(self.g.release) == ["i82365", "tcic"]
        # The in-tree drivers stay in charge: udev loaded them at boot.
        self.wait_nodes()
        for module in ["i82092"] + [READERS[m][3] for m in MODELS]:
            path, out_of_tree = self.module_origin(module)
            assert "/kernel/drivers/" in path and not out_of_tree, path

    def step_kernel_upgrade(self):
        args = self.g.image.manifest["install.kernel"]
        self.state["new"] = self.timed("install 6.12", self.install_kernel, "install-6.12", args)
        assert self.state["new"].startswith("6.12."), self.state["new"]
        assert self.built(self.state["new"]) != [], "6.12 lacks the readers' drivers"

    def step_reboot(self):
        self.timed("reboot", self.reboot_into, self.state["new"])

    def step_readers_work(self):
        self.timed("readers smoke test", self.readers_work, self.state["new"])
        # pcmciautils is installed: the package's rule leaves it the job
        assert self.sockets_set_up_by() == "pcmciautils"

    def step_pcsc(self):
        self.timed("pcsc scenarios", self.pcsc_scenarios)

    def step_abi_update(self):
        """bookworm's newest 6.1 ABI: its hook runs and builds what 6.1 lacks."""
        args = self.g.image.manifest["install.abi_update"]
        assert "--reinstall" not in args, \
            "the image build found one 6.1 ABI only: the step is a reinstall"
        rel = self.timed("6.1 ABI update", self.install_kernel, "abi-update", args)
        assert rel.startswith("6.1.0-"), rel
        assert self.built(rel) == self.lacking(rel) == ["i82365", "tcic"]
        assert self.built(self.state["new"]) != [], "the update lost 6.12's modules"

    def step_kernel_log_clean(self):
        self.g.assert_clean_kernel_log()

    def step_remove(self):
        self.timed("remove package", self.remove_package)


class Newest(Scenario):
    """trixie: 6.12 → package → trixie-backports' kernel → reboot → bridge
    and readers ours; removal."""

    image = "trixie"
    pcscd_args = "--debug --disable-polkit"

    def step_boot(self):
        self.timed("image (cached: a check)", pclguest.image, self.image)
        self.timed("boot", self.g.start)
        assert self.g.release.startswith("6.12."), self.g.release
        assert self.g.system_state == "running", self.g.failed_units()

    def step_install_builds_what_6_12_lacks(self):
        self.timed("install package", self.install_package)
        rel = self.g.release
        assert self.built(rel) == self.lacking(rel)

    def step_without_pcmciautils(self):
        """pcmciautils is only recommended: a user without it (here: who
        removed it, keeping /etc/pcmcia/config.opts) still gets the
        sockets set up, by the package's own udev rule; after the reboot
        below the bridge's cards must work with it."""
        self.timed("remove pcmciautils", self.apt, "remove-pcmciautils",
                   "apt-get remove -y pcmciautils")
        self.g.check("[ ! -e /lib/udev/pcmcia-socket-startup ] && "
                     "[ -x /usr/lib/pcmcia-legacy/socket-startup ] && "
                     "[ -e /usr/lib/udev/rules.d/60-pcmcia-legacy.rules ]")

    def step_kernel_upgrade(self):
        args = self.g.image.manifest["install.kernel"]
        self.state["new"] = self.timed("install backports kernel", self.install_kernel,
                                       "install-bpo", args)
        built = self.built(self.state["new"])
        assert built == self.lacking(self.state["new"]), built
        # Linux 7.1 removed these (and the readers' drivers before)
        for module in ("i82092", "axnet_cs", "3c589_cs", "3c574_cs", "nmclan_cs", "fmvj18x_cs",
                       "smc91c92_cs"):
            assert module in built, "the backports kernel (%s) should lack %s" % (
                self.state["new"], module)

    def step_reboot(self):
        self.timed("reboot", self.reboot_into, self.state["new"])

    def step_bridge_and_readers_work(self):
        self.timed("readers smoke test", self.readers_work, self.state["new"])
        assert self.sockets_set_up_by() == "package"

    def step_pcsc(self):
        self.timed("pcsc scenarios", self.pcsc_scenarios)

    def step_kernel_log_clean(self):
        self.g.assert_clean_kernel_log()

    def step_remove(self):
        self.timed("remove package", self.remove_package)


SCENARIOS = {"upgrade": Upgrade, "newest": Newest}
SOAK = os.environ.get("PCL_STRESS") == "soak"


def steps(cls):
    """A scenario's steps, in the order they are written (its soak_steps
    only under make soak)."""
    return [name[len("step_"):] for name in cls.__dict__ if name.startswith("step_")
            and (SOAK or name[len("step_"):] not in getattr(cls, "soak_steps", ()))]


class Run(threading.Thread):
    """One scenario in a thread of its own: the scenarios' guests run side
    by side (each is mostly one busy vCPU under TCG; the machine has two
    cores).  Tests wait for their step's outcome."""

    def __init__(self, cls, debs, sctool, client):
        super().__init__(name="scenario-" + cls.__name__, daemon=True)
        files = {"/pcl/" + os.path.basename(d): d for d in debs}
        files.update({"/pcl/bin/sctool": sctool, "/pcl/bin/pcscclient": client})
        g = DiskGuest(PREFIX + cls.__name__.lower(), image=cls.image, files=files,
                      qemu_args=reader_args(MODELS))
        self.s = cls(g, debs)
        self.outcome = {}           # step -> None (passed) or exception
        self.cond = threading.Condition()

    def run(self):
        failed = None
        try:
            for step in steps(type(self.s)):
                if failed is None:
                    try:
                        getattr(self.s, "step_" + step)()
                        result = None
                    except BaseException as e:      # noqa: B902 - reported by its test
                        result = failed = e
                        failed.step = step
                else:
                    result = AssertionError("not run: step %r failed before (%s)"
                                            % (failed.step, str(failed).splitlines()[0]
                                               if str(failed) else type(failed).__name__))
                with self.cond:
                    self.outcome[step] = result
                    self.cond.notify_all()
        finally:
            try:
                self.s.report()
            finally:
                self.s.g.stop()

    def result(self, step):
        with self.cond:
            while step not in self.outcome:
                self.cond.wait(5)
            error = self.outcome[step]
        if error is not None:
            raise error


@pytest.fixture(scope="module")
def debs(tmp_path_factory):
    return build_debs(tmp_path_factory.mktemp("package"))


@pytest.fixture(scope="module")
def runs(request, debs, tmp_path_factory):
    """The selected tests' scenarios, started together."""
    wanted = {item.callspec.params["case"][0] for item in request.session.items
              if item.module.__name__ == __name__ and hasattr(item, "callspec")}
    sctool = build_tools()
    client = pcsc.build_ifd(tmp_path_factory.mktemp("ifd"))["pcscclient"]
    runs = {name: Run(SCENARIOS[name], debs, sctool, client)
            for name in SCENARIOS if name in wanted}
    t0, cpu0 = time.monotonic(), children_cpu()
    for r in runs.values():
        r.start()
    yield runs
    for r in runs.values():
        r.join()
    # The CPU time of the guests (QEMU processes are children of this one;
    # they are reaped by now): on a machine busy with other work the wall
    # clock says little, CPU / 2 is what two idle cores would need.
    cpu = children_cpu() - cpu0
    summary = ("package scenarios %s: %.0f s wall clock, %.0f s CPU (CPU / 2 cores: %.0f s)"
               % (", ".join(runs), time.monotonic() - t0, cpu, cpu / 2))
    progress(summary)
    with open(os.path.join(pclguest.LOGS, "package-scenarios.txt"), "w") as f:
        f.write(summary + "\n")


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


CASES = [(name, step) for name, cls in SCENARIOS.items() for step in steps(cls)]


@pytest.mark.parametrize("case", CASES, ids=["%s-%s" % c for c in CASES])
def test_scenario(runs, case):
    name, step = case
    runs[name].result(step)
