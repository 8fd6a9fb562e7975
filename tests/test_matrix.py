# SPDX-License-Identifier: GPL-2.0-only
"""make matrix and make modules: every driver builds for every kernel of
kernels.matrix, warning-free in our files, and the machinery tells
failures, warnings and rolling kernels apart."""

import glob
import os
import re
import shutil
import uuid

import pytest

import pclkernels as pk

CACHE = pk.CACHE
# where make matrix puts each kernel's modules (scripts/build.sh's modules_dir)
MODULES = os.environ.get("PCL_MODULES_OUT") or os.path.join(CACHE, "modules")


def test_driver_table_is_consistent():
    """Every line of drivers.list names existing sources, a plausible
    upstream symbol, and a module name used once."""
    rows = pk.drivers()
    assert rows, "drivers.list lists no driver"
    names = [r["module"] for r in rows]
    assert len(names) == len(set(names))
    for r in rows:
        assert r["dir"] in ("bridges", "cards"), r
        assert re.match(r"^CONFIG_[A-Z0-9_]+$", r["config"]), r
        assert len(r["objects"]) == 1 and r["objects"][0].endswith(".o"), r
        for src in pk.sources(r):
            assert os.path.isfile(os.path.join(pk.TOP, "src", src)), \
                "%s: no src/%s" % (r["module"], src)
    # a C file no unit includes would never be built
    built = {src for r in rows for src in pk.sources(r)}
    for d in ("bridges", "cards"):
        for name in os.listdir(os.path.join(pk.TOP, "src", d)):
            if name.endswith(".c"):
                assert os.path.join(d, name) in built, "src/%s/%s is in no unit" % (d, name)


def src_files():
    found = set()
    for d, _, files in os.walk(os.path.join(pk.TOP, "src")):
        found.update(os.path.join(d, f) for f in files)
    return found


@pytest.fixture(scope="module")
def matrix_run():
    """make matrix, once; PCL_ROLLING_SOFT is passed on as it is.  The
    files of src/ before and after are kept in .src_before/.src_after."""
    before = src_files()
    proc = pk.run([os.path.join(pk.SCRIPTS, "matrix.sh")])
    proc.src_before, proc.src_after = before, src_files()
    return proc


def table_rows(stdout):
    """{kernel name: (release, {module: cell})} from the printed table."""
    lines = stdout.splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("kernel ")]
    assert head, stdout
    modules = lines[head[0]].split()[2:]
    rows = {}
    for line in lines[head[0] + 1:]:
        if not line.strip():
            break
        cells = line.split()
        rows[cells[0]] = (cells[1], dict(zip(modules, cells[2:])))
    return modules, rows


def test_matrix_table(matrix_run):
    """One row per kernel, one column per driver; the exit status fails
    exactly when a kernel that must not fail did."""
    modules, rows = table_rows(matrix_run.stdout)
    assert modules == [d["module"] for d in pk.drivers()]
    assert sorted(rows) == sorted(pk.matrix_names())
    soft = os.environ.get("PCL_ROLLING_SOFT") == "1"
    hard = [n for n, (_, cells) in rows.items()
            if any(not c.startswith("built/") for c in cells.values())
            and not (soft and pk.is_rolling(n))]
    assert (matrix_run.returncode == 0) == (not hard), (
        hard, matrix_run.stdout, matrix_run.stderr)


@pytest.mark.parametrize("name", pk.matrix_names())
def test_matrix_kernel_builds_every_driver(matrix_run, name):
    with pk.rolling_tolerance(name):
        _, rows = table_rows(matrix_run.stdout)
        release, cells = rows[name]
        for m, cell in cells.items():
            assert cell.startswith("built/"), (name, m, cell, matrix_run.stdout)


@pytest.mark.parametrize("name", pk.matrix_names())
def test_matrix_marks_what_dkms_builds(matrix_run, name):
    """built/dkms exactly where the kernel's own config lacks the driver."""
    with pk.rolling_tolerance(name):
        _, rows = table_rows(matrix_run.stdout)
        k = pk.kernel(name)
        release, cells = rows[name]
        assert release == k.kver
        for m, cell in cells.items():
            assert cell == ("built/also" if k.ships(m) else "built/dkms"), (m, cell)


def elf_class(path):
    with open(path, "rb") as f:
        head = f.read(5)
    assert head[:4] == b"\x7fELF", path
    return {1: 32, 2: 64}[head[4]]


def declares_device_table(driver):
    """Whether one of the driver's sources has a MODULE_DEVICE_TABLE."""
    for src in pk.sources(driver):
        with open(os.path.join(pk.TOP, "src", src)) as f:
            if "MODULE_DEVICE_TABLE(" in f.read():
                return True
    return False


def modinfo(path, field):
    return pk.run(["modinfo", "-F", field, path], check=True).stdout.strip()


@pytest.mark.parametrize("name", pk.matrix_names())
def test_modules_are_for_their_kernel(matrix_run, name):
    """The .ko files carry the kernel's vermagic, the upstream module name,
    the word size of the kernel (686-pae: 32 bits) and the same device
    aliases on every kernel (modpost reads them with the word size's
    structure layouts)."""
    if not shutil.which("modinfo"):
        pk.bash("need_host_packages kmod")
    with pk.rolling_tolerance(name):
        k = pk.kernel(name)
        arch = [m["arch"] for m in pk.matrix() if m["name"] == name][0]
        outdir = os.path.join(MODULES, k.kver)
        ref = pk.kernel("bookworm-6.1")
        for d in pk.drivers():
            ko = os.path.join(outdir, d["module"] + ".ko")
            assert os.path.isfile(ko), ko
            assert modinfo(ko, "vermagic").split()[0] == k.kver
            assert modinfo(ko, "name") == d["module"]
            assert modinfo(ko, "license").startswith("GPL")
            assert elf_class(ko) == (32 if arch == "i386" else 64)
            ref_ko = os.path.join(MODULES, ref.kver, d["module"] + ".ko")
            aliases = modinfo(ko, "alias").split()
            if declares_device_table(d):
                assert aliases, "%s has no device aliases" % ko
            else:
                # an ISA bridge with no PnP identity (tcic): loaded by hand
                assert not aliases, "%s: aliases without a table" % ko
            assert aliases == modinfo(ref_ko, "alias").split()


WARNING_DRIVER = """// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>

static int pcl_scratch_init(void)
{
	int unused;

	return 0;
}
module_init(pcl_scratch_init);
MODULE_DESCRIPTION("scratch driver with a W=1 warning");
MODULE_LICENSE("GPL");
"""


REUSE_DRIVER = """// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>

static int pcl_reuse_init(void)
{
	return 0;
}
module_init(pcl_reuse_init);
MODULE_DESCRIPTION("scratch driver %s");
MODULE_LICENSE("GPL");
"""


def test_a_clean_build_is_reused_for_the_same_sources_only(tmp_path):
    """scripts/build.sh keeps clean builds by what went into them: the
    same tree built again is a copy (the log says so, the modules are the
    same), a change in any source file builds again."""
    source = REUSE_DRIVER % uuid.uuid4().hex   # sources no earlier run built
    top = pk.scratch_tree(tmp_path, ("pclreuse", source))
    env = dict(os.environ, PCL_ALL_DRIVERS="1", PCL_MODULES_OUT=str(tmp_path / "mods"),
               PCL_LOGS=str(tmp_path / "logs"))

    def build():
        proc = pk.run([str(top / "scripts" / "modules.sh"), "bookworm-6.1"], env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        out = proc.stdout.strip().splitlines()[-1]
        with open(os.path.join(out, "pclreuse.ko"), "rb") as f:
            ko = f.read()
        with open(glob.glob(str(tmp_path / "logs" / "modules-*.log"))[0]) as f:
            return "# reused: " in f.read(), ko

    reused, first = build()
    assert not reused, "a build of new sources was reused"
    reused, again = build()
    assert reused and again == first
    with open(top / "src" / "cards" / "pclreuse.c", "a") as f:
        f.write("/* changed */\n")
    reused, _ = build()
    assert not reused, "a changed source file did not build again"


def test_warning_in_our_file_fails_the_build(tmp_path):
    top = pk.scratch_tree(tmp_path, ("pclwarn", WARNING_DRIVER))
    proc = pk.run([str(top / "scripts" / "modules.sh"), "bookworm-6.1"],
                  env=dict(os.environ, PCL_ALL_DRIVERS="1"))
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert re.search(r"warnings in our files.*\n.*cards/pclwarn\.c:\d+:\d+: "
                     r"warning: unused variable", proc.stderr), proc.stderr


def test_kernel_header_warnings_do_not_gate():
    """A warning printed for a kernel header (no macro of ours involved)
    is counted as the kernel's, one in our file as ours."""
    log = ("/usr/src/linux-headers-x/include/linux/a.h:3:1: warning: w1 [-Wx]\n"
           "bridges/i82092aa.c:9:2: warning: w2 [-Wy]\n")
    proc = pk.bash('f=$(mktemp); printf "%%s" "%s" >"$f"; '
                   'warnings_classify "$f" /nonexistent; rm -f "$f"' % log)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("kernel - /usr/src/"), lines
    assert lines[1].startswith("ours i82092 bridges/i82092aa.c"), lines


def broken_matrix(tmp_path, flags):
    m = tmp_path / "kernels.matrix"
    m.write_text("gone bookworm amd64 %s linux-headers-0\\.0\\.0-none-amd64\n"
                 % flags)
    return str(m)


@pytest.mark.parametrize("flags,soft,ok", [
    ("rolling", "1", True),    # .ci/run: loud, not fatal
    ("rolling", "", False),    # make matrix: a failure
    ("-", "1", False),         # stable kernels always fail hard
])
def test_rolling_failures(tmp_path, flags, soft, ok):
    env = dict(os.environ, PCL_MATRIX=broken_matrix(tmp_path, flags),
               PCL_ROLLING_SOFT=soft)
    proc = pk.run([os.path.join(pk.SCRIPTS, "matrix.sh")], env=env)
    assert (proc.returncode == 0) == ok, proc.stdout + proc.stderr
    assert re.search(r"^gone\s+\(no headers\)", proc.stdout, re.M), proc.stdout
    if ok:
        assert "WARNING: a rolling kernel failed" in proc.stderr


@pytest.mark.parametrize("name", ["bookworm-6.1", "trixie-bpo"])
def test_make_modules_builds_what_dkms_would(name):
    """Without PCL_ALL_DRIVERS, make modules builds only the drivers the
    kernel lacks; for a kernel that ships them all, nothing."""
    with pk.rolling_tolerance(name):
        k = pk.kernel(name)
        env = dict(os.environ)
        env.pop("PCL_ALL_DRIVERS", None)
        proc = pk.run([os.path.join(pk.SCRIPTS, "modules.sh"), k.kver], env=env)
        assert proc.returncode == 0, proc.stderr
        outdir = proc.stdout.strip().splitlines()[-1]
        built = sorted(f[:-3] for f in os.listdir(outdir))
        want = sorted(d["module"] for d in pk.drivers() if not k.ships(d["module"]))
        assert built == want, (name, built, want)


def test_unknown_kernel_is_explained():
    proc = pk.run([os.path.join(pk.SCRIPTS, "modules.sh"), "0.0.0-nowhere"])
    assert proc.returncode != 0
    assert "no headers for kernel 0.0.0-nowhere" in proc.stderr
    for name in pk.matrix_names():
        assert name in proc.stderr


def test_src_stays_clean(matrix_run):
    """Builds happen in the cache: make matrix adds nothing to src/."""
    assert matrix_run.src_after - matrix_run.src_before == set()


@pytest.mark.parametrize("name,soft,outcome", [
    ("sid", "1", "xfail"), ("sid", "", "fail"), ("bookworm-6.1", "1", "fail")])
def test_rolling_tolerance_in_tests(monkeypatch, name, soft, outcome):
    """The tests' own rolling rule: only a rolling kernel under
    PCL_ROLLING_SOFT=1 turns a failure into an xfail."""
    assert pk.is_rolling("sid") and not pk.is_rolling("bookworm-6.1")
    monkeypatch.setenv("PCL_ROLLING_SOFT", soft)
    expect = pytest.xfail.Exception if outcome == "xfail" else AssertionError
    with pytest.raises(expect):
        with pk.rolling_tolerance(name):
            raise AssertionError("broken")


# A fake apt-get update: fails like a mirror whose i386 index of one suite
# does not match its Release file, as long as that suite's line still
# carries i386; $FAKE_OTHER adds a failure of an amd64 index too.
FAKE_APT = r"""
calls=$((${calls:-0} + 1)); echo $calls >"$tmp/calls"
bad=0
grep -q '^deb \[arch=amd64,i386\] http://m/debian-security bookworm-security main$' "$tmp/sources" && bad=1
grep -q '^deb http://m/debian-security bookworm-security main$' "$tmp/sources" && bad=1
[ $bad = 0 ] || echo 'E: Failed to fetch http://m/debian-security/dists/bookworm-security/main/binary-i386/Packages.xz  File has unexpected size (1 != 2). Mirror sync in progress?'
[ -z "${FAKE_OTHER:-}" ] || echo 'E: Failed to fetch http://m/debian/dists/bookworm/main/binary-amd64/Packages.xz  Hash Sum mismatch'
[ $bad = 0 ] && [ -z "${FAKE_OTHER:-}" ] || echo 'E: Some index files failed to download.'
"""


@pytest.mark.parametrize("style,other", [("suite", False), ("chroot", False),
                                         ("suite", True)])
def test_apt_update_tolerates_a_broken_i386_index(tmp_path, style, other):
    """apt drops a suite whole when one of its indexes is bad: a broken
    i386 index must cost only that suite's i386 lines (both line styles:
    the private suite configs' and the chroots'), anything else fails."""
    sources = tmp_path / "sources"
    arch = "[arch=amd64,i386] " if style == "suite" else ""
    sources.write_text("".join("deb %shttp://m/%s %s main\n" % (arch, a, s)
                               for a, s in (("debian", "bookworm"),
                                            ("debian-security", "bookworm-security")))
                       + "deb-src http://m/debian bookworm main\n")
    fake = tmp_path / "apt-get"
    fake.write_text("#!/bin/bash\ncalls=$(cat \"$tmp/calls\" 2>/dev/null)\n"
                    "out=$(%s)\necho \"$out\"\n! grep -q '^E: Failed' <<<\"$out\"\n" % FAKE_APT)
    fake.chmod(0o755)
    env = dict(os.environ, tmp=str(tmp_path), PCL_LOGS=str(tmp_path))
    if other:
        env["FAKE_OTHER"] = "1"
    proc = pk.bash("sleep() { :; }; apt_update_tolerant %s/u.log 'update' %s %s"
                   % (tmp_path, sources, fake), check=False, env=env)
    calls = int((tmp_path / "calls").read_text())
    if other:
        assert proc.returncode != 0 and "u.log" in proc.stderr, proc.stderr
        assert calls == 2, calls
        return
    assert proc.returncode == 0, proc.stderr
    assert calls == 3 and "bookworm-security" in proc.stderr, (calls, proc.stderr)
    assert sources.read_text().splitlines() == [
        "deb %shttp://m/debian bookworm main" % arch,
        "deb [arch=amd64] http://m/debian-security bookworm-security main",
        "deb-src http://m/debian bookworm main"]
