# SPDX-License-Identifier: GPL-2.0-only
"""The kernel matrix seen from the tests: its lines, the driver table, and
the build chroots (prepared through the same shell code as make matrix).

Facts the tests compare against are read here independently of the shell
code that is under test (the driver table and kernel configs are parsed in
Python)."""

import contextlib
import functools
import os
import re
import shutil
import subprocess

import pytest

import pclguest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(TOP, "scripts")
CACHE = os.environ.get("PCMCIA_LEGACY_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
    "pcmcia-legacy")
SELFBUILT = os.path.join(CACHE, "selfbuilt")
LIBS = ("lib.sh", "apt-suite.sh", "chroot.sh", "kernels.sh", "build.sh")


def run(cmd, check=False, **kw):
    """Run a command, text output captured."""
    proc = subprocess.run(cmd, text=True, capture_output=True, **kw)
    if check and proc.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s\n%s" % (
            " ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
    return proc


def bash(snippet, top=TOP, check=True, env=None):
    """Run a bash snippet with the host build libraries of `top` sourced."""
    src = "".join('. "%s/scripts/%s"; ' % (top, lib) for lib in LIBS)
    return run(["bash", "-c", "set -eu; " + src + snippet], check=check,
               env=env)


def matrix():
    """The lines of kernels.matrix as dicts."""
    rows = []
    with open(os.path.join(TOP, "kernels.matrix")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                name, suite, arch, flags, regex = line
                flags = flags.split(",")
                rows.append(dict(name=name, suite=suite, arch=arch,
                                 rolling="rolling" in flags,
                                 self_built="self" in flags, regex=regex))
    return rows


def matrix_names():
    return [k["name"] for k in matrix()]


def is_rolling(name):
    return any(k["rolling"] for k in matrix() if k["name"] == name)


@contextlib.contextmanager
def rolling_tolerance(name):
    """For a rolling kernel (sid, backports) under PCL_ROLLING_SOFT=1, as
    .ci/run sets it: a failure becomes an expected failure, reported as
    such (xfail) with its reason, and does not fail the run.  Everywhere
    else failures stay failures."""
    try:
        yield
    except Exception as e:  # noqa: BLE001 - any failure of the kernel
        if is_rolling(name) and os.environ.get("PCL_ROLLING_SOFT") == "1":
            pytest.xfail("rolling kernel %s broke (PCL_ROLLING_SOFT=1): %s"
                         % (name, str(e).splitlines()[0] if str(e) else
                            type(e).__name__))
        raise


def our_modules(matrix_name, names, dest=None):
    """Our modules `names` for a matrix kernel, built as `make modules`
    builds them with every driver (PCL_ALL_DRIVERS=1), into dest (a
    directory of the caller's, which parallel builds leave alone) or the
    cache's module directory."""
    matrix_name = pclguest.kernel_alias(matrix_name)
    env = dict(os.environ, PCL_ALL_DRIVERS="1")
    if dest:
        env["PCL_MODULES_OUT"] = str(dest)
    proc = run([os.path.join(SCRIPTS, "modules.sh"), matrix_name], env=env)
    assert proc.returncode == 0, "make modules KVER=%s failed:\n%s" % (
        matrix_name, proc.stderr[-3000:])
    out = proc.stdout.strip().splitlines()[-1]
    paths = [os.path.join(out, name + ".ko") for name in names]
    for ko in paths:
        assert os.path.isfile(ko), "no %s after make modules KVER=%s" % (ko, matrix_name)
    return paths


def drivers():
    """src/drivers.list as a list of dicts."""
    rows = []
    with open(os.path.join(TOP, "src", "drivers.list")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                rows.append(dict(module=line[0], dir=line[1],
                                 config=line[2], objects=line[3:]))
    return rows


def sources(driver):
    """The C files a driver is built from, relative to src/: its unit
    (drivers.list) and the files the unit includes."""
    d = driver["dir"]
    found = []
    for obj in driver["objects"]:
        unit = os.path.join(d, obj[:-2] + ".c")
        found.append(unit)
        with open(os.path.join(TOP, "src", unit)) as f:
            found += [os.path.join(d, inc)
                      for inc in re.findall(r'^#include "([\w.]+\.c)"', f.read(), re.M)]
    return found


class Kernel:
    """A prepared matrix kernel: headers installed in its chroot."""

    def __init__(self, name, kver, root, suite, arch, kdir):
        self.name, self.kver, self.root = name, kver, root
        self.suite, self.arch = suite, arch
        # a self-built kernel's tree is in the cache, outside the chroot
        self.kdir = kdir if kdir.startswith(CACHE + "/") else None

    def path(self, p):
        """A path inside the chroot, with the headers' absolute build link
        (/lib/modules/KVER/build -> /usr/src/...) followed inside it."""
        build = "/lib/modules/%s/build" % self.kver
        if p.startswith(build):
            p = "/usr/src/linux-headers-%s%s" % (self.kver, p[len(build):])
        return self.root + p

    def config(self):
        """The kernel's configuration as {symbol: value}, from the first
        file that has it: /boot, /usr/lib/modules, the headers' .config."""
        paths = [self.path(p) for p in ("/boot/config-%s" % self.kver,
                                        "/usr/lib/modules/%s/config" % self.kver,
                                        "/lib/modules/%s/build/.config" % self.kver)]
        if self.kdir:
            paths.append(os.path.join(self.kdir, ".config"))
        for full in paths:
            if os.path.isfile(full) and os.path.getsize(full) > 0:
                conf = {}
                with open(full) as f:
                    for line in f:
                        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
                        if m:
                            conf[m.group(1)] = m.group(2)
                return conf
        raise AssertionError("no config for %s in %s" % (self.kver, self.root))

    def ships(self, module):
        """Whether the kernel has upstream's driver for `module`."""
        symbol = [d["config"] for d in drivers() if d["module"] == module][0]
        return self.config().get(symbol) in ("y", "m")

    def run(self, *cmd, check=False):
        # a self-built kernel's tree is in the cache, which the chroot
        # sees at the same path (/lib/modules/KVER/build points there)
        binds = ["--bind", "%s:%s" % (SELFBUILT, SELFBUILT)] if self.kdir else []
        return run([os.path.join(SCRIPTS, "chroot.sh"), "--run", self.suite,
                    self.arch] + binds + list(cmd), check=check)


@functools.lru_cache(maxsize=None)
def kernel(name):
    """Prepare a matrix kernel (chroot, headers) once per test session."""
    out = bash('kernel_prepare "%s" >&2; echo "$KVER $KROOT $KSUITE $KARCH $KDIR"'
               % name).stdout.split()
    return Kernel(name, *out)


def scratch_tree(tmp_path, extra_driver=None):
    """A copy of the repository (without .git) to try broken changes in,
    optionally with one more driver: (name, C source) in src/cards/."""
    top = tmp_path / "tree"

    def ignore(d, names):
        # out/: what `make deb` left (dangling debhelper symlinks among it)
        skip = {".git", "out"} if os.path.samefile(d, TOP) else {".git"}
        return [n for n in names if n in skip]

    shutil.copytree(TOP, top, ignore=ignore)
    if extra_driver:
        name, source = extra_driver
        # src/cards/ may not exist yet in a clean clone: git keeps no
        # empty directories.
        cards = top / "src" / "cards"
        cards.mkdir(exist_ok=True)
        (cards / (name + ".c")).write_text(source)
        with open(top / "src" / "drivers.list", "a") as f:
            f.write("%s cards CONFIG_PCL_SCRATCH_%s %s.o\n"
                    % (name, name.upper(), name))
    return top
