#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Boot a Debian kernel in our QEMU with emulated PC Card hardware.

The one guest-boot helper of the test suite (Python 3 standard library
only).  It fetches a kernel (vm/guest/kernel.sh), builds a busybox
initramfs with the chosen modules and files (cached by content), boots
QEMU with a shell on the first serial port and the kernel console on the
second, and runs commands in the guest with their output and exit status.

    from pclguest import Guest

    with Guest("upstream-bridge", kernel="6.1",
               modules=["i82092", "pata_pcmcia", "sd_mod"],
               load=["i82092", "pata_pcmcia", "sd_mod"],
               qemu_args=["-device", "i82092,id=pcc"]) as g:
        out = g.check("cat /proc/modules")
        g.device_add("pcmcia-cf", id="cf0", bus="pcc.0", drive="disk0")
        g.assert_clean_kernel_log()

Every guest keeps its transcripts in $PCL_CACHE/logs/<name>/: console.log
(the shell), commands.log (what the helper ran, numbered like the markers
in console.log), kernel.log (the kernel console), qemu.log (QEMU's
stderr), qmp.log, cmdline.txt and, after the guest stops, dmesg.txt;
with PCL_QEMU_TRACE=pattern,... also qemu-trace.log (QEMU trace events).
"""

import base64
import glob
import gzip
import hashlib
import io
import json
import os
import re
import resource
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUEST_DIR = os.path.join(TOP, "vm", "guest")
CACHE = os.environ.get("PCMCIA_LEGACY_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
    "pcmcia-legacy")
LOGS = os.environ.get("PCL_LOGS") or os.path.join(CACHE, "logs")

# Under TCG a Debian kernel reaches init in 6-9 s; leave room for a
# machine busy with builds.
BOOT_TIMEOUT = float(os.environ.get("PCL_BOOT_TIMEOUT", "180"))
COMMAND_TIMEOUT = 120.0

# Guests that are running now: the test report names their logs.
live_guests = []


# Signals of a QEMU crash (not of a kill by us or the guest's power-off).
CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGILL, signal.SIGFPE)


def _allow_core_dumps():
    """Core dumps for QEMU (its child processes inherit the limit)."""
    _, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))


def progress(msg):
    print("[%s] pclguest: %s" % (time.strftime("%H:%M:%S"), msg),
          file=sys.stderr, flush=True)


class GuestError(Exception):
    """A guest failed to boot, timed out or reported a problem."""


# ---------------------------------------------------------------- kernels

class Kernel:
    """An unpacked Debian kernel: vmlinuz, config, lib/modules/RELEASE."""

    def __init__(self, path):
        self.path = path
        with open(os.path.join(path, "release")) as f:
            self.release = f.read().strip()
        self.vmlinuz = os.path.join(path, "vmlinuz")
        self.moddir = os.path.join(path, "lib", "modules", self.release)
        self._deps = None
        self._aliases = None

    def config(self, option):
        """The value of CONFIG_<option> ('y', 'm', a string) or None."""
        prefix = "CONFIG_%s=" % option
        with open(os.path.join(self.path, "config")) as f:
            for line in f:
                if line.startswith(prefix):
                    return line[len(prefix):].strip()
        return None

    def _load_deps(self):
        deps = {}
        with open(os.path.join(self.moddir, "modules.dep")) as f:
            for line in f:
                path, _, rest = line.partition(":")
                name = modname(path)
                deps[name] = (path, [modname(p) for p in rest.split()])
        soft = {}
        with open(os.path.join(self.moddir, "modules.softdep")) as f:
            for line in f:
                words = line.split()
                if len(words) > 2 and words[0] == "softdep":
                    soft[modname(words[1])] = [w for w in words[2:]
                                               if not w.endswith(":")]
        aliases = {}
        with open(os.path.join(self.moddir, "modules.alias")) as f:
            for line in f:
                words = line.split()
                if len(words) == 3 and words[0] == "alias":
                    aliases.setdefault(words[1], []).append(modname(words[2]))
        self._deps, self._soft, self._aliases = deps, soft, aliases

    def builtin(self, name):
        path = os.path.join(self.moddir, "modules.builtin")
        with open(path) as f:
            return any(modname(line.strip()) == modname(name) for line in f)

    def closure(self, names):
        """Module paths (relative to moddir) for names and everything they
        need: hard dependencies, soft dependencies and the modules that
        provide an alias a soft dependency names."""
        if self._deps is None:
            self._load_deps()
        wanted = {modname(n) for n in names}
        todo = list(names)
        seen, paths = set(), []
        while todo:
            word = todo.pop()       # a module name or an alias
            name = modname(word)
            if name in seen:
                continue
            seen.add(name)
            if name not in self._deps:
                if word in self._aliases:
                    todo.extend(self._aliases[word])
                elif name in wanted and not self.builtin(name):
                    raise GuestError("kernel %s has no module %s" % (self.release, word))
                continue        # built in, or an optional soft dependency
            path, deps = self._deps[name]
            paths.append(path)
            todo.extend(deps)
            todo.extend(self._soft.get(name, []))
        return sorted(paths)


def modname(path):
    base = os.path.basename(path)
    for ext in (".ko", ".ko.xz", ".ko.zst", ".ko.gz"):
        if base.endswith(ext):
            base = base[:-len(ext)]
    return base.replace("-", "_")


_kernels = {}

# PCL_DEBUG_KERNEL=1: guests and module builds meant for trixie-backports'
# 7.x use the self-built debug kernel of the matrix (KASAN, lockdep,
# kmemleak, UBSAN; vm/kernels/debug.config) instead.
DEBUG_KERNEL = "debug"


def kernel_alias(name):
    """The kernel a test's kernel name means under PCL_DEBUG_KERNEL."""
    if os.environ.get("PCL_DEBUG_KERNEL") == "1" and (
            name == "trixie-bpo" or re.match(r"7\.\d+$", name)):
        return DEBUG_KERNEL
    return name


def kernel(name="6.1"):
    """Fetch (once) and return a Kernel: 6.1, 6.12, 7.3, a kernels.matrix
    name or an exact release (see kernel_alias)."""
    name = kernel_alias(name)
    if name not in _kernels:
        out = subprocess.run([os.path.join(GUEST_DIR, "kernel.sh"), name],
                             stdout=subprocess.PIPE, check=False)
        if out.returncode != 0:
            raise GuestError("vm/guest/kernel.sh %s failed" % name)
        _kernels[name] = Kernel(out.stdout.decode().strip().splitlines()[-1])
    return _kernels[name]


# -------------------------------------------------------------- initramfs

_busybox = {}


def busybox(kern):
    """The static busybox for kern's word size (vm/guest/busybox.sh)."""
    arch = "amd64" if kern.config("64BIT") == "y" else "i386"
    if arch not in _busybox:
        out = subprocess.run([os.path.join(GUEST_DIR, "busybox.sh"), arch],
                             stdout=subprocess.PIPE, check=True)
        _busybox[arch] = out.stdout.decode().strip().splitlines()[-1]
    return _busybox[arch]


class _Cpio:
    """A newc cpio archive with fixed owners and times, so that the same
    contents give the same bytes."""

    def __init__(self):
        self.out = io.BytesIO()
        self.ino = 1
        self.names = set()

    def _entry(self, name, mode, data=b""):
        name = name.lstrip("/")
        if name in self.names:
            return
        self.names.add(name)
        namez = name.encode() + b"\0"
        hdr = "070701" + "".join("%08X" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0,
            len(namez), 0))
        self.ino += 1
        self.out.write(hdr.encode() + namez)
        self.out.write(b"\0" * (-(110 + len(namez)) % 4))
        self.out.write(data)
        self.out.write(b"\0" * (-len(data) % 4))

    def dir(self, name):
        parts = name.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            self._entry("/".join(parts[:i]), stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        self.dir(os.path.dirname(name.strip("/")) or ".")
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        self.dir(os.path.dirname(name.strip("/")) or ".")
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def finish(self):
        self._entry("TRAILER!!!", 0)
        return self.out.getvalue()


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def build_initramfs(kern, modules=(), extra_ko=(), files=None):
    """Return the path of a gzip'd initramfs for kern holding busybox, our
    init scripts, the named modules with their dependencies (loadable with
    modprobe), extra_ko (host paths of out-of-tree modules, put in /pcl/ko
    for insmod by path) and files ({guest path: host path or bytes};
    executables keep their mode; /pcl/bin is on the guest's PATH).
    Archives are cached by content under $PCL_CACHE/guest/initramfs."""
    files = dict(files or {})
    entries = []        # (guest path, bytes, mode)

    def add_host(gpath, hpath):
        mode = 0o755 if os.access(hpath, os.X_OK) else 0o644
        entries.append((gpath, _read(hpath), mode))

    add_host("/bin/busybox", busybox(kern))
    rootfs = os.path.join(GUEST_DIR, "rootfs")
    for dirpath, _, names in os.walk(rootfs):
        for n in sorted(names):
            h = os.path.join(dirpath, n)
            add_host("/" + os.path.relpath(h, rootfs), h)
    # Our modules' in-tree dependencies come along, and pcl-insmod learns
    # them from /pcl/ko/depends.
    def modinfo(ko, field):
        return subprocess.run(["modinfo", "-F", field, ko], stdout=subprocess.PIPE,
                              check=True).stdout.decode().strip()

    ours = {ko: modname(modinfo(ko, "name") or ko) for ko in extra_ko}
    depends = []
    modules = list(modules)
    for ko in extra_ko:
        add_host("/pcl/ko/%s.ko" % ours[ko], ko)
        out = modinfo(ko, "depends")
        depends.append("%s: %s\n" % (ours[ko], out))
        modules += [d for d in out.split(",") if d and modname(d) not in ours.values()]
    if extra_ko:
        entries.append(("/pcl/ko/depends", "".join(depends).encode(), 0o644))
    for gpath, src in sorted(files.items()):
        if isinstance(src, (bytes, bytearray)):
            entries.append((gpath, bytes(src), 0o644))
        else:
            add_host(gpath, src)
    mods = kern.closure(modules)

    h = hashlib.sha256(kern.release.encode())
    for gpath, data, mode in entries:
        h.update(b"%s\0%o\0%d\0" % (gpath.encode(), mode, len(data)))
        h.update(data)
    for m in mods:
        h.update(m.encode() + b"\0")
    out_dir = os.path.join(CACHE, "guest", "initramfs")
    out = os.path.join(out_dir, h.hexdigest()[:24] + ".cpio.gz")
    if os.path.exists(out):
        return out

    cpio = _Cpio()
    for d in ("dev", "proc", "sys", "run", "tmp", "root", "mnt",
              "bin", "sbin", "usr/bin", "usr/sbin", "pcl/bin", "pcl/ko"):
        cpio.dir(d)
    cpio.symlink("bin/sh", "busybox")
    for gpath, data, mode in entries:
        cpio.file(gpath, data, mode)
    # Only the chosen modules, with a modules.dep made for them by the
    # host's depmod, so that the guest's modprobe resolves dependencies.
    with tempfile.TemporaryDirectory(prefix="pcl-initramfs-") as tmp:
        mroot = os.path.join(tmp, "lib", "modules", kern.release)
        os.makedirs(mroot)
        for m in mods:
            os.makedirs(os.path.join(mroot, os.path.dirname(m)), exist_ok=True)
            shutil.copyfile(os.path.join(kern.moddir, m), os.path.join(mroot, m))
        for meta in ("modules.order", "modules.builtin", "modules.builtin.modinfo"):
            if os.path.exists(os.path.join(kern.moddir, meta)):
                shutil.copyfile(os.path.join(kern.moddir, meta), os.path.join(mroot, meta))
        subprocess.run(["depmod", "-b", tmp, kern.release], check=True)
        for dirpath, _, names in sorted(os.walk(tmp)):
            for n in sorted(names):
                hp = os.path.join(dirpath, n)
                cpio.file("/" + os.path.relpath(hp, tmp), _read(hp))
    os.makedirs(out_dir, exist_ok=True)
    # a private temporary name: parallel test workers may build the same one
    fd, tmp_out = tempfile.mkstemp(dir=out_dir, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(gzip.compress(cpio.finish(), compresslevel=6, mtime=0))
    os.replace(tmp_out, out)
    progress("initramfs %s: %d modules, %d files" % (os.path.basename(out), len(mods), len(entries)))
    return out


# ------------------------------------------------------------------- QEMU

_qemu = None


def qemu_binary():
    """Our patched QEMU: $PCL_QEMU if set, else vm/qemu/build.sh's binary,
    built first if its inputs changed (a no-op otherwise)."""
    global _qemu
    if os.environ.get("PCL_QEMU"):
        return os.environ["PCL_QEMU"]
    if _qemu is None:
        out = subprocess.run([os.path.join(TOP, "vm", "qemu", "build.sh")],
                             stdout=subprocess.PIPE)
        if out.returncode != 0:
            raise GuestError("vm/qemu/build.sh failed (see its log above)")
        _qemu = out.stdout.decode().strip().splitlines()[-1]
    return _qemu


def firmware_args():
    # A QEMU built from source finds Debian's firmware here.
    args = []
    for d in ("/usr/share/seabios", "/usr/share/qemu"):
        if os.path.isdir(d):
            args += ["-L", d]
    return args


def acpi_table(name):
    """vm/guest/NAME.asl compiled (iasl) into the cache, once per source
    text; returns the AML file's path."""
    src = os.path.join(GUEST_DIR, name + ".asl")
    with open(src, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    outdir = os.path.join(CACHE, "guest", "acpi")
    aml = os.path.join(outdir, "%s-%s.aml" % (name, digest))
    if os.path.exists(aml):
        return aml
    _need_host_packages("acpica-tools")
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=outdir) as tmp:
        out = subprocess.run(["iasl", "-p", os.path.join(tmp, name), src],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if out.returncode != 0:
            raise GuestError("iasl %s failed:\n%s" % (src, out.stdout.decode(errors="replace")))
        os.replace(os.path.join(tmp, name + ".aml"), aml)
    return aml


class QMP:
    """A minimal QMP client: commands return their 'return' value, errors
    raise, events are kept until someone waits for them."""

    def __init__(self, path, log, timeout=30.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise GuestError("no QMP socket at %s" % path)
                time.sleep(0.1)
        self.log = log
        self.buf = b""
        self.events = []
        self._recv(timeout)             # greeting
        self.execute("qmp_capabilities")

    def _recv(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise GuestError("QMP: no answer within %.0f s" % timeout)
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not data:
                raise GuestError("QMP: connection closed (QEMU exited?)")
            self.buf += data
        line, _, self.buf = self.buf.partition(b"\n")
        self.log.write(b"<- " + line + b"\n")
        self.log.flush()
        return json.loads(line)

    def execute(self, cmd, args=None, timeout=60.0):
        msg = {"execute": cmd}
        if args:
            msg["arguments"] = args
        data = json.dumps(msg).encode()
        self.log.write(b"-> " + data + b"\n")
        self.log.flush()
        self.sock.sendall(data + b"\n")
        while True:
            reply = self._recv(timeout)
            if "event" in reply:
                self.events.append(reply)
            elif "error" in reply:
                raise GuestError("QMP %s: %s" % (cmd, reply["error"].get("desc")))
            elif "return" in reply:
                return reply["return"]

    def wait_event(self, name, match=None, timeout=30.0):
        """Wait for (and consume) an event called name whose data contains
        the items of match."""
        deadline = time.monotonic() + timeout
        while True:
            for ev in self.events:
                data = ev.get("data", {})
                if ev["event"] == name and all(data.get(k) == v for k, v in (match or {}).items()):
                    self.events.remove(ev)
                    return ev
            left = deadline - time.monotonic()
            if left <= 0:
                raise GuestError("QMP: no %s event %s within %.0f s" % (name, match or "", timeout))
            self.events.append(self._recv(left))

    def close(self):
        self.sock.close()


# ------------------------------------------------------------------ guest

# A clean kernel log (shared/notes/guest-kernels.md): none of these, and no
# taint but O (out-of-tree module) and E (unsigned module).  RCU stalls
# too: a driver that keeps a CPU busy for 20 s is broken, emulated or not.
LOG_PROBLEMS = [
    re.compile(p) for p in (
        r"WARNING:", r"BUG:", r"\bOops\b", r"general protection fault",
        r"Kernel panic", r"\blockdep\b", r"possible (circular|recursive) locking",
        r"KASAN", r"UBSAN:", r"blocked for more than \d+ seconds",
        r"hung_task", r"\brcu: INFO: .*detected stall",
        r"kmemleak: \d+ new suspected memory leak")
]
# Boot banners of a debug kernel that a pattern above would take for a
# report: a line matching one of these is not a problem.
LOG_BANNERS = [
    re.compile(p) for p in (
        r"RCU lockdep checking is enabled",)
]
TAINT_FLAGS = "PFSRMBUDAWCIOELKXTNJ"     # bit n is TAINT_FLAGS[n]
ALLOWED_TAINT = "OE"


def log_problems(text):
    """The lines of a kernel log that make it unclean."""
    return [line for line in text.splitlines()
            if any(rx.search(line) for rx in LOG_PROBLEMS)
            and not any(rx.search(line) for rx in LOG_BANNERS)]


def decode_taint(value):
    return "".join(c for i, c in enumerate(TAINT_FLAGS) if value & (1 << i)) + \
        ("?" if value >> len(TAINT_FLAGS) else "")


class Guest:
    """One QEMU guest.  Use as a context manager, or start() and stop().

    name        log directory name under $PCL_CACHE/logs
    kernel      6.1, 6.12, 7.3, a kernels.matrix name or a release
    modules     modules to put in the initramfs (dependencies follow)
    load        modules that /init modprobes at boot, in order, before it
                gives the PC Card sockets their resources
    extra_ko    host paths of out-of-tree modules, in /pcl/ko/ in the guest;
                their in-tree dependencies come along; load them with
                pcl-insmod NAME (after rmmod of an in-tree module of that name)
    files       {guest path: host path or bytes}
    qemu_args   more QEMU arguments (-device, -blockdev, ...)
    append      more kernel command line
    autoload    whether a new card function loads the driver its modalias
                names, as udev would (only modules in the initramfs load)
    """

    # called with every non-empty list of kernel log problems found (the
    # tests count them: tests/tally.py)
    problem_listeners = []

    def __init__(self, name, kernel="6.1", modules=(), load=(), extra_ko=(),
                 files=None, qemu_args=(), append="", memory=512, smp=1,
                 autoload=True, boot_timeout=BOOT_TIMEOUT):
        self.name = name
        self.kernel_name = kernel
        self.modules = list(modules) + [m for m in load if m not in modules]
        self.load = list(load)
        self.extra_ko = list(extra_ko)
        self.files = dict(files or {})
        self.qemu_args = list(qemu_args)
        self.append = append if autoload else (append + " pcl.noautoload").strip()
        self.memory = memory
        self.smp = smp
        self.boot_timeout = boot_timeout
        self.logdir = os.path.abspath(os.path.join(LOGS, name))
        self.proc = None
        self.qmp = None
        self.kernel = None
        self._out = bytearray()
        self._cond = threading.Condition()
        self._seq = 0
        self._tmp = None
        self.boot_seconds = None
        self.release = None        # uname -r of the running boot

    # -- life cycle

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.stop()
        if exc_type is not None:
            print("guest logs: %s" % self.logdir, file=sys.stderr)
        return False

    def _prepare(self, batch=True):
        """Fresh logs and a temporary directory; return QEMU's argv."""
        if os.path.isdir(self.logdir):
            shutil.rmtree(self.logdir)
        os.makedirs(self.logdir)
        self._tmp = tempfile.mkdtemp(prefix="pcl-guest-")
        self._qmp_path = os.path.join(self._tmp, "qmp.sock")
        self.accel = "kvm" if os.environ.get("PCL_KVM") == "1" else "tcg"
        accel = self.accel
        if accel == "tcg":
            # One thread runs every vCPU in turn.  With a thread per vCPU,
            # QEMU 7.2 swaps another vCPU's memory map under it when a
            # guest re-maps a PC Card window (tcg_commit runs on the thread
            # that commits), and that vCPU's next MMIO access can crash
            # QEMU (SIGSEGV in memory_region_dispatch_write; upstream later
            # deferred the swap to the vCPU's own thread).
            accel += ",thread=single"
        # guest RAM stays out of a core dump (see _crash_report)
        argv = [qemu_binary(), "-machine", "pc,dump-guest-core=off", "-accel", accel,
                "-m", str(self.memory), "-smp", str(self.smp),
                # no default devices: no VGA (the VGA hole stays free for PC
                # Card memory windows), no NIC, no disks
                "-nodefaults", "-display", "none", "-no-reboot",
                "-chardev", "stdio,id=shell,signal=%s" % ("off" if batch else "on"),
                "-serial", "chardev:shell",
                # appended to, so that it holds every boot of a rebooted guest
                "-chardev", "file,id=klog,append=on,path=" + os.path.join(self.logdir, "kernel.log"),
                "-serial", "chardev:klog",
                "-qmp", "unix:%s,server=on,wait=off" % self._qmp_path]
        argv += self._boot_args(batch) + firmware_args() + self._firmware_tables()
        argv += self.qemu_args
        # PCL_QEMU_TRACE=pattern[,pattern...]: QEMU trace events into
        # qemu-trace.log beside the other transcripts
        for pattern in filter(None, os.environ.get("PCL_QEMU_TRACE", "").split(",")):
            argv += ["-trace", "enable=" + pattern]
        if os.environ.get("PCL_QEMU_TRACE"):
            argv += ["-D", os.path.join(self.logdir, "qemu-trace.log")]
        with open(os.path.join(self.logdir, "cmdline.txt"), "w") as f:
            f.write(" ".join(shlex.quote(a) for a in argv) + "\n")
        return argv

    def _cmdline(self, batch):
        """The kernel command line shared by every kind of guest."""
        cmdline = "console=ttyS1,115200 panic=-1 mitigations=off"
        if self.accel == "tcg":
            # Under TCG on a busy host, 6.12 and 7.x can calibrate the TSC
            # against the PIT wrongly by a factor of 40; guest sleeps and
            # timeouts then end far too early.
            cmdline += " tsc=unstable"
        if self._upper_memory_block():
            # QEMU's _CRS does not list the block: PCI must not be
            # limited to _CRS.
            cmdline += " pci=nocrs"
        if batch:
            cmdline += " pcl.batch"
        if self.load:
            cmdline += " pcl.load=" + ",".join(self.load)
        if self.append:
            cmdline += " " + self.append
        return cmdline

    def _upper_memory_block(self):
        """Whether the guest's PC Card sockets get the upper memory block
        0xd0000-0xdffff (rootfs/sbin/pcl-socket-startup): a 32-bit kernel
        keeps the VGA hole for itself."""
        return self.kernel is not None and self.kernel.config("64BIT") != "y"

    def _firmware_tables(self):
        """ACPI tables of ours for the firmware: with the upper memory
        block, one that keeps it decoded to the bus across suspend to RAM
        (pam-wake.asl)."""
        if self._upper_memory_block():
            return ["-acpitable", "file=" + acpi_table("pam-wake")]
        return []

    def _boot_args(self, batch):
        """QEMU arguments that say what to boot: here a Debian kernel with
        our busybox initramfs."""
        self.kernel = kernel(self.kernel_name)
        initrd = build_initramfs(self.kernel, self.modules, self.extra_ko, self.files)
        return ["-kernel", self.kernel.vmlinuz, "-initrd", initrd,
                "-append", self._cmdline(batch)]

    def _describe(self):
        return "kernel %s" % self.kernel.release

    def start(self):
        self._argv = self._prepare()
        progress("booting %s (%s, %s); logs: %s"
                 % (self.name, self._describe(), self.accel, self.logdir))
        self._launch()

    def _launch(self):
        """Start QEMU with self._argv and wait for the guest's shell."""
        self._console = open(os.path.join(self.logdir, "console.log"), "ab")
        self._qemu_log = open(os.path.join(self.logdir, "qemu.log"), "ab")
        self._commands = open(os.path.join(self.logdir, "commands.log"), "a")
        with self._cond:
            self._out = bytearray()
        t0 = time.monotonic()
        _allow_core_dumps()
        # QEMU's working directory is the log directory: a core dump lands
        # there.  Batch guests must pass absolute paths (the tests do); the
        # by-hand command line (interactive) keeps the caller's directory.
        self.proc = subprocess.Popen(self._argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._qemu_log, bufsize=0, cwd=self.logdir)
        if self not in live_guests:
            live_guests.append(self)
        self._reader = threading.Thread(target=self._read_console, daemon=True)
        self._reader.start()
        try:
            self.qmp = QMP(self._qmp_path, open(os.path.join(self.logdir, "qmp.log"), "ab"))
            self.expect(rb"pcl-init: ready ", self.boot_timeout, what="the guest's init")
            self.boot_seconds = time.monotonic() - t0
            self.check("PS1='pcl# '")
            # not from the banner, whose line may reach us in pieces
            self.release = self.check("uname -r").strip()
            self._after_boot()
        except Exception:
            self.stop()
            raise
        progress("%s: shell ready after %.1f s (%s)" % (self.name, self.boot_seconds, self.release))

    def _after_boot(self):
        """What a guest does once its shell answers."""

    def interactive(self):
        """Boot with the guest's shell on this terminal (Ctrl-A X quits)."""
        argv = self._prepare(batch=False)
        progress("kernel log: %s/kernel.log; QMP: %s" % (self.logdir, self._qmp_path))
        try:
            return subprocess.call(argv)
        finally:
            self._cleanup()
            shutil.rmtree(self._tmp, ignore_errors=True)

    def _cleanup(self):
        """Remove what _prepare made besides the logs (after the last boot)."""

    def _read_console(self):
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 65536)
            if not data:
                break
            self._console.write(data)
            self._console.flush()
            with self._cond:
                self._out += data
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=30.0):
        """Save the kernel log, then power the guest off (QMP quit)."""
        if self.proc is None:
            return
        if self.alive():
            try:
                with open(os.path.join(self.logdir, "dmesg.txt"), "w") as f:
                    f.write(self.dmesg(timeout=30))
            except Exception as e:   # keep going: the guest may be wedged
                progress("%s: no dmesg at stop: %s" % (self.name, e))
            try:
                self.qmp.execute("quit", timeout=10)
            except Exception:
                pass
        self._reap(timeout)
        if self in live_guests:
            live_guests.remove(self)
        self._cleanup()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def _reap(self, timeout):
        """Wait for QEMU to exit (kill it after timeout seconds) and close
        what belonged to that process."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.qmp:
            self.qmp.close()
            self.qmp.log.close()
            self.qmp = None
        self._reader.join(5)
        self._console.close()
        self._qemu_log.close()
        self._commands.close()
        if self.proc.returncode not in (0, None):
            progress("%s: QEMU exited with %s; see %s/qemu.log"
                     % (self.name, self.proc.returncode, self.logdir))
            if -self.proc.returncode in CRASH_SIGNALS:
                self._crash_report()
        self.proc = None

    def _crash_report(self):
        """QEMU crashed: the backtrace of its core dump, in the logs and,
        its first frames, in the test's output."""
        cores = sorted(glob.glob(os.path.join(self.logdir, "core*")), key=os.path.getmtime)
        if not cores:
            progress("%s: no core dump in %s (core_pattern: %s)"
                     % (self.name, self.logdir, _read("/proc/sys/kernel/core_pattern").decode().strip()))
            return
        if not shutil.which("gdb"):
            progress("%s: core dump %s (install gdb for a backtrace)" % (self.name, cores[-1]))
            return
        out = subprocess.run(["gdb", "-batch", "-nx", "-ex", "bt 25", "-ex", "thread apply all bt 25",
                              self.proc.args[0], cores[-1]],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        path = os.path.join(self.logdir, "qemu-backtrace.txt")
        with open(path, "wb") as f:
            f.write(out.stdout)
        # the crashing thread: the "bt" before "thread apply all"
        text = out.stdout.decode(errors="replace").split("\nThread ", 1)[0]
        frames = [line for line in text.splitlines() if line.startswith("#")][:12]
        progress("%s: QEMU crashed; backtrace in %s:\n  %s"
                 % (self.name, path, "\n  ".join(frames)))

    # -- the console

    def _fail(self, msg):
        return GuestError("%s: %s (guest logs: %s)" % (self.name, msg, self.logdir))

    def expect(self, pattern, timeout, start=0, what=None):
        """Wait until the console output from offset start matches the
        regex pattern (bytes); return the match."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                m = rx.search(self._out, start)
                if m:
                    return m
                if not self.alive():
                    raise self._fail("QEMU exited (%s) while waiting for %s"
                                     % (self.proc.returncode, what or pattern))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fail("timed out after %.0f s waiting for %s"
                                     % (timeout, what or pattern))
                self._cond.wait(min(left, 1.0))

    def run(self, command, timeout=COMMAND_TIMEOUT):
        """Run a shell command (any text, several lines too) in the guest
        shell, with stdin from /dev/null; return (output, exit status).
        The command runs in the console shell itself, so cd and variables
        persist."""
        self._seq += 1
        n = self._seq
        b64 = base64.b64encode(command.encode()).decode()
        # The quotes split the markers, so that an echo of this line can
        # never be taken for them.
        line = ("echo '@@PCL''B%d@@'; eval \"$(echo %s | base64 -d)\" </dev/null; "
                "echo \"@@PCL\"\"E%d:$?@@\"\n" % (n, b64, n))
        if len(line) > 4000:
            raise ValueError("command too long for the console (%d bytes)" % len(line))
        with self._cond:
            start = len(self._out)
        self._commands.write("[%d] %s\n" % (n, command))
        self._commands.flush()
        self.proc.stdin.write(line.encode())
        self.proc.stdin.flush()
        what = "command %r" % (command if len(command) < 60 else command[:57] + "...")
        begin = self.expect(rb"@@PCLB%d@@\r?\n" % n, timeout, start, what)
        end = self.expect(rb"@@PCLE%d:(\d+)@@" % n, timeout, begin.end(), what)
        with self._cond:
            out = bytes(self._out[begin.end():end.start()])
        out = out.replace(b"\r\n", b"\n").decode("utf-8", "replace")
        return out, int(end.group(1))

    def check(self, command, timeout=COMMAND_TIMEOUT):
        """run() that raises unless the command exits 0; returns output."""
        out, rc = self.run(command, timeout)
        if rc != 0:
            raise self._fail("command failed (exit %d): %s\n%s" % (rc, command, out))
        return out

    def wait_for(self, condition, timeout=30):
        """Wait in the guest until the shell condition is true (e.g.
        '[ -b /dev/sda ]'); return True, or False after timeout seconds."""
        _, rc = self.run("pcl-wait %d %s" % (int(timeout), shlex.quote(condition)),
                         timeout=timeout + 60)
        return rc == 0

    # -- QMP

    def qmp_cmd(self, cmd, **args):
        """Run a QMP command; return its result."""
        return self.qmp.execute(cmd, args or None)

    def device_add(self, driver, **props):
        """Hot-plug a device (e.g. a card into a slot bus)."""
        props = {k.replace("_", "-") if k != "id" else k: v for k, v in props.items()}
        return self.qmp.execute("device_add", dict(driver=driver, **props))

    def device_del(self, dev_id, timeout=30.0):
        """Unplug a device and wait until QEMU has deleted it."""
        self.qmp.execute("device_del", {"id": dev_id})
        self.qmp.wait_event("DEVICE_DELETED", {"device": dev_id}, timeout)

    # -- the kernel log

    def dmesg(self, timeout=COMMAND_TIMEOUT):
        return self.check("dmesg", timeout)

    def tainted(self):
        """The kernel's taint flags as letters ('' when untainted)."""
        return decode_taint(int(self.check("cat /proc/sys/kernel/tainted")))

    def kernel_log_problems(self, log=None, tainted=None):
        """Everything that makes the kernel log unclean, one line each;
        log: only this part of it, tainted: the taint letters already
        read (both read from the guest by default)."""
        problems = log_problems(self.dmesg() if log is None else log)
        bad = "".join(c for c in (self.tainted() if tainted is None else tainted)
                      if c not in ALLOWED_TAINT)
        if bad:
            problems.append("kernel tainted: %s" % bad)
        if problems:
            for listener in self.problem_listeners:
                listener(problems)
        return problems

    def assert_clean_kernel_log(self):
        problems = self.kernel_log_problems()
        if problems:
            raise self._fail("unclean kernel log:\n  " + "\n  ".join(problems))


# ------------------------------------------------------------ disk guests

class Image:
    """A guest disk image made by vm/image/build.sh: disk.qcow2 (a Debian
    system that boots with its own boot loader), repo.img (the local apt
    repository its scenarios install from; may be absent) and manifest
    (key=value lines: suite, kernel, repo packages, ...)."""

    def __init__(self, path):
        self.path = path
        self.disk = os.path.join(path, "disk.qcow2")
        repo = os.path.join(path, "repo.img")
        self.repo = repo if os.path.exists(repo) else None
        self.manifest = {}
        with open(os.path.join(path, "manifest")) as f:
            for line in f:
                key, sep, value = line.rstrip("\n").partition("=")
                if sep:
                    self.manifest[key] = value
        self.name = self.manifest.get("name", os.path.basename(path))


_images = {}


def image(name):
    """Build (once per recipe) and return the Image called name
    (vm/image/build.sh: bookworm, trixie, trixie-bpo)."""
    if name not in _images:
        out = subprocess.run([os.path.join(TOP, "vm", "image", "build.sh"), name],
                             stdout=subprocess.PIPE, check=False)
        if out.returncode != 0:
            raise GuestError("vm/image/build.sh %s failed (see its log above)" % name)
        _images[name] = Image(out.stdout.decode().strip().splitlines()[-1])
    return _images[name]


def _need_host_packages(*pkgs):
    subprocess.run(["bash", "-c", '. "$1/scripts/lib.sh" && shift && need_host_packages "$@"',
                    "-", TOP] + list(pkgs), check=True, stdout=subprocess.DEVNULL)


def make_ext4(path, files, label):
    """Write an ext4 image holding files ({path inside: host path or
    bytes}), made without mounting (mke2fs -d)."""
    with tempfile.TemporaryDirectory(prefix="pcl-ext4-") as root:
        for rel, src in files.items():
            dst = os.path.join(root, rel.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if isinstance(src, (bytes, bytearray)):
                with open(dst, "wb") as f:
                    f.write(src)
            else:
                shutil.copyfile(src, dst)
                shutil.copymode(src, dst)
        size = sum(os.path.getsize(os.path.join(d, n))
                   for d, _, names in os.walk(root) for n in names)
        mib = (size * 5 // 4 >> 20) + 16
        if os.path.exists(path):
            os.unlink(path)
        subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", label, "-d", root,
                        path, "%dM" % mib], check=True, stdout=subprocess.DEVNULL)


class DiskGuest(Guest):
    """A whole Debian system booted from a disk image (vm/image/build.sh):
    the disk's boot loader, systemd, udev, apt and dkms, as a user has
    them.  The same console, QMP and kernel-log API as Guest; the shell is
    bash as root on ttyS0, the kernel console is ttyS1.

    name        log directory name under $PCL_CACHE/logs
    image       an image name (bookworm, trixie, trixie-bpo) or an Image;
                the guest writes to a qcow2 overlay of its disk (under
                $PCL_CACHE/guest/overlays, removed at stop unless
                PCL_KEEP_DISKS=1), so the image itself never changes
    disk        instead of image: a disk file used as is, written to
    files       {"/pcl/...": host path or bytes}: a read-only disk the
                guest mounts on /pcl (/pcl/bin is on the shell's PATH)
    qemu_args   more QEMU arguments (-device i82092,id=pcc, cards, ...)
    kernel_boot (vmlinuz, initrd, cmdline): boot that kernel directly
                instead of the disk's boot loader (the image build's
                first boot, before a boot loader is installed)

    The image's local apt repository (its repo.img) is attached read-only
    and mounted on /media/pcl-repo; apt knows no other source and the
    guest has no network, so a run installs the same packages every time.
    """

    def __init__(self, name, image="bookworm", disk=None, files=None, qemu_args=(),
                 memory=1024, smp=2, boot_timeout=600.0, kernel_boot=None):
        super().__init__(name, files=files, qemu_args=qemu_args, memory=memory,
                         smp=smp, boot_timeout=boot_timeout)
        for path in self.files:
            if not path.startswith("/pcl/"):
                raise ValueError("disk guests take files under /pcl/ only: %s" % path)
        self.image_name = image
        self.image = None
        self.disk = disk
        self.kernel_boot = kernel_boot
        self.system_state = None
        self.boots = 0
        self._overlay = None

    def _boot_args(self, batch):
        _need_host_packages("qemu-utils", "e2fsprogs")
        if self.disk is None:
            self.image = self.image_name if isinstance(self.image_name, Image) \
                else image(self.image_name)
            odir = os.path.join(CACHE, "guest", "overlays")
            os.makedirs(odir, exist_ok=True)
            self._overlay = os.path.join(odir, self.name + ".qcow2")
            if os.path.exists(self._overlay):
                os.unlink(self._overlay)
            subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "qcow2",
                            "-b", self.image.disk, self._overlay], check=True)
            # A throwaway overlay: the guest's flushes (dpkg syncs every
            # file it unpacks) need not reach the host's disk.
            root, repo, cache = self._overlay, self.image.repo, ",cache.no-flush=on"
        else:
            root, repo, cache = self.disk, None, ""
        args = ["-blockdev", "driver=qcow2,node-name=root,file.driver=file,file.filename="
                + root + cache,
                "-device", "virtio-blk-pci,drive=root,bootindex=1"]
        if repo:
            args += ["-drive", "if=none,id=repo,format=raw,readonly=on,file=" + repo,
                     "-device", "virtio-blk-pci,drive=repo"]
        # Always there, if empty: the guest's fstab waits for it.
        files_img = os.path.join(self._tmp, "files.img")
        make_ext4(files_img, {p[len("/pcl/"):]: src for p, src in self.files.items()},
                  "pcl-files")
        args += ["-drive", "if=none,id=files,format=raw,readonly=on,file=" + files_img,
                 "-device", "virtio-blk-pci,drive=files"]
        if self.kernel_boot:
            vmlinuz, initrd, cmdline = self.kernel_boot
            args += ["-kernel", vmlinuz, "-initrd", initrd,
                     "-append", "console=ttyS1,115200 panic=-1 " + cmdline]
        return args

    def _describe(self):
        if self.image:
            return "image %s" % self.image.name
        return "disk %s" % self.disk

    def _after_boot(self):
        self.boots += 1
        # Typed commands need no echo in the transcript (bash reads plain
        # lines: --noediting); the markers come from the commands' output.
        self.check("stty -F /dev/ttyS0 -echo")
        out, _ = self.run("systemctl is-system-running --wait", timeout=self.boot_timeout)
        self.system_state = out.strip()
        if self.system_state != "running":
            progress("%s: system is %s: %s" % (self.name, self.system_state,
                                                " ".join(self.failed_units())))

    def failed_units(self):
        out = self.check("systemctl list-units --failed --plain --no-legend")
        return [line.split()[0] for line in out.splitlines() if line.strip()]

    def _send_line(self, line):
        self._commands.write("[-] %s (no answer expected)\n" % line)
        self._commands.flush()
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def _wait_exit(self, what, timeout):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise self._fail("QEMU still runs %.0f s after %s" % (timeout, what))

    def reboot(self, timeout=300.0):
        """Reboot as the guest's user would (systemctl reboot) and wait
        for the shell of the next boot.  QEMU runs with -no-reboot, so it
        exits at the reset; a new QEMU process with the same disks and
        devices powers the machine on again (cards given by -device are
        in their slots from power-on; cards added over QMP are not)."""
        t0 = time.monotonic()
        self._send_line("systemctl reboot")
        self._wait_exit("systemctl reboot", timeout)
        down = time.monotonic() - t0
        self._reap(10)
        for log in ("console.log", "commands.log"):
            with open(os.path.join(self.logdir, log), "a") as f:
                f.write("\n===== pclguest: reboot (shut down in %.1f s) =====\n" % down)
        progress("%s: rebooting (shut down in %.1f s)" % (self.name, down))
        self._launch()

    def poweroff(self, timeout=300.0):
        """Shut the guest down cleanly (systemctl poweroff): the end of a
        guest whose disk is kept (the image build)."""
        self._send_line("systemctl poweroff")
        self._wait_exit("systemctl poweroff", timeout)
        self._reap(10)
        if self in live_guests:
            live_guests.remove(self)
        self._cleanup()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def _cleanup(self):
        if self._overlay and os.environ.get("PCL_KEEP_DISKS") != "1":
            if os.path.exists(self._overlay):
                os.unlink(self._overlay)


def make_image(path, size, seed):
    """Write a disk image of deterministic pseudo-random bytes (never an
    MBR signature, so the guest finds no partition table); return its
    sha256."""
    import random
    data = bytearray(random.Random(seed).randbytes(size))
    data[510:512] = b"\0\0"
    with open(path, "wb") as f:
        f.write(data)
    return hashlib.sha256(data).hexdigest()


def main(argv):
    import argparse
    p = argparse.ArgumentParser(
        prog="vm/guest/pclguest.py",
        description="Boot a test guest with its shell on this terminal "
                    "(Ctrl-A X quits), e.g. pclguest.py -k 6.1 -l pata_pcmcia,i82092 "
                    "-- -device i82092,id=pcc, or a disk image: pclguest.py "
                    "--image bookworm -- -device i82092,id=pcc")
    p.add_argument("-k", "--kernel", default="6.1")
    p.add_argument("-m", "--modules", default="", help="modules to include (comma list)")
    p.add_argument("-l", "--load", default="", help="modules /init loads (comma list)")
    p.add_argument("--ko", action="append", default=[], help="an out-of-tree .ko for /pcl/ko")
    p.add_argument("--initramfs", action="store_true", help="only build it; print its path")
    p.add_argument("--image", help="boot this disk image of vm/image/build.sh instead "
                                   "(a qcow2 overlay; the image is not changed)")
    p.add_argument("--file", action="append", default=[], metavar="GUEST=HOST",
                   help="with --image: a file for the guest's /pcl disk")
    p.add_argument("qemu_args", nargs="*")
    a = p.parse_args(argv)
    if a.image:
        files = dict(f.split("=", 1) for f in a.file)
        g = DiskGuest("interactive-" + a.image, image=a.image, files=files,
                      qemu_args=a.qemu_args)
        return g.interactive()
    split = [m for m in ",".join((a.modules, a.load)).split(",") if m]
    g = Guest("interactive", kernel=a.kernel, modules=split,
              load=[m for m in a.load.split(",") if m], extra_ko=a.ko,
              qemu_args=a.qemu_args)
    if a.initramfs:
        print(build_initramfs(kernel(a.kernel), g.modules, g.extra_ko, g.files))
        return 0
    return g.interactive()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
