# SPDX-License-Identifier: GPL-2.0-only
"""The .deb and the .rpm as built by `make deb` / `make rpm`: they build,
lintian and rpmlint find nothing that counts, they carry the DKMS source
tree with the version of CHANGELOG, and their scripts hand the modules to
DKMS.  The same source gives a second, architecture-dependent package
with the pcsc-lite driver for the CardMan readers (libifd-cm40xx /
pcsc-lite-cm40xx).  (Installing them in a guest is test_package.py's
job.)"""

import os
import re
import subprocess

import pytest

import pclkernels as pk

PACKAGE = os.path.join(pk.SCRIPTS, "package.sh")
IFD_CONF = "etc/reader.conf.d/pcmcia-legacy-cm40xx"
IFD_ENTRY_POINTS = {"IFDHCreateChannel", "IFDHCreateChannelByName",
                    "IFDHCloseChannel", "IFDHGetCapabilities",
                    "IFDHSetCapabilities", "IFDHSetProtocolParameters",
                    "IFDHPowerICC", "IFDHTransmitToICC", "IFDHICCPresence",
                    "IFDHControl"}


def version(top=pk.TOP):
    return pk.run([os.path.join(top, "scripts", "version.sh")],
                  check=True).stdout.strip()


def build(kind, out, top=pk.TOP):
    return pk.run([os.path.join(top, "scripts", "package.sh"), kind],
                  env=dict(os.environ, PCL_OUT=str(out)))


def driver_sources():
    """Every source file the drivers are built from, relative to src/."""
    return {src for d in pk.drivers() for src in pk.sources(d)}


@pytest.fixture(scope="module")
def deb(tmp_path_factory):
    out = tmp_path_factory.mktemp("deb")
    proc = build("deb", out)
    assert proc.returncode == 0, "make deb failed:\n%s\n%s" % (
        proc.stdout[-2000:], proc.stderr[-3000:])
    path = out / "deb" / ("pcmcia-legacy-dkms_%s_all.deb" % version())
    assert path.is_file(), "no %s after make deb" % path
    return out, path


@pytest.fixture(scope="module")
def rpm(tmp_path_factory):
    out = tmp_path_factory.mktemp("rpm")
    proc = build("rpm", out)
    assert proc.returncode == 0, "make rpm failed:\n%s\n%s" % (
        proc.stdout[-2000:], proc.stderr[-3000:])
    path = out / "rpm" / "RPMS" / "noarch" / (
        "pcmcia-legacy-dkms-%s-1.noarch.rpm" % version())
    assert path.is_file(), "no %s after make rpm" % path
    return out, path


def deb_field(path, field):
    return pk.run(["dpkg-deb", "-f", str(path), field], check=True).stdout.strip()


def test_deb_is_lintian_clean(deb):
    out, _ = deb
    log = (out / "deb" / "lintian.log").read_text()
    findings = [l for l in log.splitlines() if re.match(r"^[EW]: ", l)]
    assert findings == []


def test_deb_control(deb):
    _, path = deb
    assert deb_field(path, "Package") == "pcmcia-legacy-dkms"
    assert deb_field(path, "Version") == version()
    assert deb_field(path, "Architecture") == "all"
    assert deb_field(path, "Section") == "kernel"
    assert "pcmciautils" in deb_field(path, "Recommends")
    # dh_dkms adds the dkms dependency; BUILD_EXCLUSIVE_CONFIG needs 3.0.3+
    depends = deb_field(path, "Depends")
    assert re.search(r"\bdkms \(>= 3\.", depends), depends


def test_deb_carries_the_dkms_tree(deb, tmp_path):
    _, path = deb
    pk.run(["dpkg-deb", "-x", str(path), str(tmp_path)], check=True)
    tree = tmp_path / "usr" / "src" / ("pcmcia-legacy-" + version())
    conf = (tree / "dkms.conf").read_text()
    assert re.search(r'^PACKAGE_VERSION="%s"$' % re.escape(version()), conf, re.M)
    assert '#MODULE_VERSION#' not in conf
    for rel in sorted(driver_sources()) + ["Kbuild", "Makefile", "compat.h",
                                           "drivers.list", "drivers.sh"]:
        assert (tree / "src" / rel).is_file(), "%s missing from the .deb" % rel
    assert (tmp_path / "usr" / "include" / "pcmcia-legacy" / "cm4000_cs.h").is_file()
    check_socket_startup(tmp_path)
    # nothing built slipped in
    built = [p.name for p in tree.rglob("*") if p.suffix in (".o", ".ko", ".cmd")]
    assert built == []


SOCKET_RULE = "usr/lib/udev/rules.d/60-pcmcia-legacy.rules"


def check_socket_startup(root, script="usr/lib/pcmcia-legacy/socket-startup"):
    """The udev rule for new sockets, running the script where the
    package put it (userspace/sockets/; the .rpm keeps it in libexec)."""
    rule = (root / SOCKET_RULE).read_text()
    assert re.search(r'^SUBSYSTEM=="pcmcia_socket", ACTION=="add", '
                     r'RUN\+="/%s %%k"$' % re.escape(script), rule, re.M), rule
    path = root / script
    assert path.is_file() and os.access(str(path), os.X_OK), path


def test_deb_scripts_hand_over_to_dkms(deb, tmp_path):
    _, path = deb
    pk.run(["dpkg-deb", "-e", str(path), str(tmp_path)], check=True)
    postinst = (tmp_path / "postinst").read_text()
    prerm = (tmp_path / "prerm").read_text()
    for script in (postinst, prerm):
        assert "DKMS_NAME=pcmcia-legacy\n" in script
        assert "DKMS_VERSION=%s\n" % version() in script
    assert re.search(r"\$DKMS_POSTINST \$DKMS_NAME \$DKMS_VERSION", postinst), postinst
    assert "dkms remove -m $DKMS_NAME -v $DKMS_VERSION --all" in prerm, prerm


def test_dkms_deb_carries_no_pcsc_driver(deb, tmp_path):
    _, path = deb
    names = pk.run(["dpkg-deb", "-c", str(path)], check=True).stdout
    assert "pcsc" not in names and "reader.conf.d" not in names


def check_ifd_tree(root, libdir):
    """The driver and its reader.conf.d file under root, the file pointing
    pcscd at the driver; the driver exports what pcscd looks up."""
    lib = os.path.join(libdir, "pcsc", "drivers", "serial", "libifd-cm40xx.so")
    assert (root / lib.lstrip("/")).is_file(), lib
    conf = (root / IFD_CONF).read_text()
    assert re.findall(r"^DEVICENAME\s+(\S+)$", conf, re.M) == [
        "/dev/cmm0:cm4000", "/dev/cmx0:cm4040"]
    assert re.findall(r"^LIBPATH\s+(\S+)$", conf, re.M) == [lib, lib]
    assert len(re.findall(r"^FRIENDLYNAME\s+\"[^\"]+\"$", conf, re.M)) == 2
    syms = pk.run(["nm", "-D", "--defined-only", str(root / lib.lstrip("/"))],
                  check=True).stdout
    assert {l.split()[-1] for l in syms.splitlines()
            if l.split()[1] == "T"} == IFD_ENTRY_POINTS


def test_deb_pcsc_driver(deb, tmp_path):
    out, _ = deb
    arch = pk.run(["dpkg", "--print-architecture"], check=True).stdout.strip()
    path = out / "deb" / ("libifd-cm40xx_%s_%s.deb" % (version(), arch))
    assert path.is_file(), "no %s after make deb" % path
    assert deb_field(path, "Architecture") == arch
    assert deb_field(path, "Version") == version()
    assert deb_field(path, "Section") == "libs"
    assert deb_field(path, "Provides") == "pcsc-ifd-handler"
    depends = deb_field(path, "Depends")
    assert re.search(r"\bpcscd\b", depends) and "libc6" in depends, depends
    assert "pcmcia-legacy-dkms" in deb_field(path, "Recommends")
    pk.run(["dpkg-deb", "-x", str(path), str(tmp_path / "root")], check=True)
    check_ifd_tree(tmp_path / "root", "/usr/lib")
    pk.run(["dpkg-deb", "-e", str(path), str(tmp_path / "ctl")], check=True)
    assert (tmp_path / "ctl" / "conffiles").read_text().split() == ["/" + IFD_CONF]


def rpm_query(path, fmt):
    return pk.run(["rpm", "-qp", "--qf", fmt, str(path)], check=True).stdout


def test_rpm_has_no_rpmlint_errors(rpm):
    out, _ = rpm
    log = (out / "rpm" / "rpmlint.log").read_text()
    m = re.search(r"(\d+) errors, (\d+) warnings", log)
    assert m, log[-2000:]
    assert m.group(1) == "0", log
    # the warnings are the ones a DKMS source package always has, and
    # rpmlint's guess that a noarch package's only file under /usr/lib (the
    # udev rule) belongs in /usr/share: udev reads /usr/lib/udev/rules.d
    allowed = ("devel-file-in-non-devel-package", "no-url-tag", "invalid-license",
               "only-non-binary-in-usr-lib")
    others = [l for l in log.splitlines() if ": W: " in l
              and not any(a in l for a in allowed)]
    assert others == []


def test_rpm_contents_and_scripts(rpm, tmp_path):
    _, path = rpm
    assert rpm_query(path, "%{VERSION} %{ARCH}") == "%s noarch" % version()
    files = pk.run(["rpm", "-qpl", str(path)], check=True).stdout.split()
    tree = "/usr/src/pcmcia-legacy-" + version()
    assert tree + "/dkms.conf" in files
    for rel in driver_sources():
        assert "%s/src/%s" % (tree, rel) in files
    assert "/usr/src" not in files, "the package must not own /usr/src"
    assert "/usr/include/pcmcia-legacy/cm4000_cs.h" in files
    root = tmp_path / "root"
    root.mkdir()
    subprocess.run("rpm2cpio %s | cpio -idm --quiet" % path, shell=True, cwd=str(root),
                   check=True)
    check_socket_startup(root, "usr/libexec/pcmcia-legacy/socket-startup")
    scripts = pk.run(["rpm", "-qp", "--scripts", str(path)], check=True).stdout
    post = scripts.split("preuninstall scriptlet")[0]
    preun = scripts.split("preuninstall scriptlet")[1]
    assert re.search(r"dkms add -m pcmcia-legacy -v %s --rpm_safe_upgrade"
                     % re.escape(version()), post)
    assert "dkms autoinstall -k" in post
    assert re.search(r"dkms remove -m pcmcia-legacy -v %s --all --rpm_safe_upgrade"
                     % re.escape(version()), preun)
    conf = subprocess.run("rpm2cpio %s | cpio -i --quiet --to-stdout .%s/dkms.conf"
                          % (path, tree), shell=True, capture_output=True,
                          text=True, check=True).stdout
    assert re.search(r'^PACKAGE_VERSION="%s"$' % re.escape(version()), conf, re.M)


def test_rpm_pcsc_subpackage(rpm, tmp_path):
    out, _ = rpm
    arch = pk.run(["rpm", "--eval", "%{_arch}"], check=True).stdout.strip()
    libdir = pk.run(["rpm", "--eval", "%{_libdir}"], check=True).stdout.strip()
    path = out / "rpm" / "RPMS" / arch / (
        "pcsc-lite-cm40xx-%s-1.%s.rpm" % (version(), arch))
    assert path.is_file(), "no %s after make rpm" % path
    assert "pcsc-lite" in pk.run(["rpm", "-qp", "--requires", str(path)],
                                 check=True).stdout.split()
    assert pk.run(["rpm", "-qpc", str(path)], check=True).stdout.split() == [
        "/" + IFD_CONF]
    root = tmp_path / "root"
    root.mkdir()
    subprocess.run("rpm2cpio %s | cpio -idm --quiet" % path, shell=True,
                   cwd=root, check=True)
    check_ifd_tree(root, libdir)


def test_changelog_disagreement_is_refused(tmp_path):
    """A CHANGELOG bump without a debian/changelog entry stops `make deb`
    before anything is built."""
    top = pk.scratch_tree(tmp_path)
    changelog = top / "CHANGELOG"
    text = changelog.read_text()
    changelog.write_text(re.sub(r"^pcmcia-legacy \S+", "pcmcia-legacy 99.1",
                                text, count=1))
    proc = build("deb", tmp_path / "out", top=str(top))
    assert proc.returncode != 0
    assert "debian/changelog is at %s but CHANGELOG at 99.1" % version() in proc.stderr
    assert not list((tmp_path / "out").rglob("*.deb"))
