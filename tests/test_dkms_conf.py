# SPDX-License-Identifier: GPL-2.0-only
"""dkms.conf: which modules it lists and when it asks to be autoinstalled,
first by sourcing it in bash with made-up kernel configs, then with the
real dkms of each matrix chroot (bookworm: 3.0.10, later suites: 3.2)
against that chroot's kernel headers.  dkms never runs on the host."""

import os
import re
import shutil
import textwrap

import pytest

import pclkernels as pk

DRIVERS = pk.drivers()
ALL = [d["module"] for d in DRIVERS]
SYMBOL = {d["module"]: d["config"] for d in DRIVERS}
VERSION = pk.run([os.path.join(pk.SCRIPTS, "version.sh")], check=True).stdout.strip()
FAKE = "9.9.9-pcl-fake"


def install_tree(dest):
    """The DKMS source tree as a package installs it: dkms.conf with the
    version filled in, next to src/."""
    os.makedirs(dest, exist_ok=True)
    shutil.copytree(os.path.join(pk.TOP, "src"), os.path.join(dest, "src"),
                    ignore=shutil.ignore_patterns("*.o", "*.ko", "*.cmd",
                                                  "pcl-features.h"))
    with open(os.path.join(pk.TOP, "dkms.conf")) as f:
        conf = f.read()
    assert "#MODULE_VERSION#" in conf
    with open(os.path.join(dest, "dkms.conf"), "w") as f:
        f.write(conf.replace("#MODULE_VERSION#", VERSION))


def config_text(pcmcia=True, shipped=()):
    lines = ["CONFIG_PCCARD=m"]
    lines.append("CONFIG_PCMCIA=m" if pcmcia else "# CONFIG_PCMCIA is not set")
    for m in ALL:
        lines.append("%s=m" % SYMBOL[m] if m in shipped
                     else "# %s is not set" % SYMBOL[m])
    return "\n".join(lines) + "\n"


SHOW = ('for v in AUTOINSTALL BUILD_EXCLUSIVE_CONFIG PACKAGE_NAME PACKAGE_VERSION; '
        'do printf "%s=%s\\n" "$v" "${!v}"; done; '
        'printf "MAKE=%s\\n" "${MAKE[0]}"; '
        'for i in "${!BUILT_MODULE_NAME[@]}"; do printf "MODULE=%s %s %s\\n" '
        '"${BUILT_MODULE_NAME[i]}" "${BUILT_MODULE_LOCATION[i]}" '
        '"${DEST_MODULE_LOCATION[i]}"; done')


def source_conf(tree, ksrc, kernelver=FAKE, files=None, wrapper=None, args=()):
    """Source dkms.conf as dkms does, in a private mount namespace whose
    /boot and /usr/lib/modules are empty but for `files` ({path: text}):
    /boot and /usr/lib are overlays with a scratch upper layer, so the
    host's files stay untouched and may even be missing."""
    setup = ["t=$(mktemp -d)", "mount -t tmpfs none $t"]
    for d in ("/boot", "/usr/lib"):
        up = "$t/%s" % d.strip("/").replace("/", "_")
        setup.append("mkdir -p %s/u %s/w && mount -t overlay overlay "
                     "-o lowerdir=%s,upperdir=%s/u,workdir=%s/w %s"
                     % (up, up, d, up, up, d))
    setup.append("rm -rf /boot/* /usr/lib/modules && mkdir /usr/lib/modules")
    for path, text in (files or {}).items():
        setup.append("mkdir -p %s && printf '%%s' '%s' > %s"
                     % (os.path.dirname(path), text, path))
    body = wrapper or ('kernelver=%s kernel_source_dir=%s; . %s/dkms.conf; %s'
                       % (kernelver, ksrc, tree, SHOW))
    script = "set -e; %s; ( %s )" % ("; ".join(setup), body)
    proc = pk.run(["unshare", "--mount", "--propagation", "private", "--",
                   "bash", "-c", script] + list(args), check=True)
    out = {"modules": []}
    for line in proc.stdout.splitlines():
        key, _, val = line.partition("=")
        if key == "MODULE":
            out["modules"].append(tuple(val.split()))
        else:
            out[key] = val
    return out


@pytest.fixture
def tree(tmp_path):
    install_tree(str(tmp_path / "pcmcia-legacy"))
    return str(tmp_path / "pcmcia-legacy")


def ksrc_with(tmp_path, text):
    d = tmp_path / "headers"
    d.mkdir(exist_ok=True)
    if text is not None:
        (d / ".config").write_text(text)
    return str(d)


def names(conf):
    return [m[0] for m in conf["modules"]]


def test_fixed_fields(tmp_path, tree):
    conf = source_conf(tree, ksrc_with(tmp_path, config_text()))
    assert conf["PACKAGE_NAME"] == "pcmcia-legacy"
    assert conf["PACKAGE_VERSION"] == VERSION
    for name, location, dest in conf["modules"]:
        assert location == "src/" and dest == "/updates/dkms"
    assert conf["MAKE"].startswith("make -C src KERNELDIR=%s " % ksrc_with(tmp_path, None))


def test_kernel_without_the_drivers_builds_them_all(tmp_path, tree):
    conf = source_conf(tree, ksrc_with(tmp_path, config_text()))
    assert conf["AUTOINSTALL"] == "yes"
    assert conf["BUILD_EXCLUSIVE_CONFIG"] == "CONFIG_PCMCIA"
    assert names(conf) == ALL
    assert conf["MAKE"].endswith("PCL_MODULES=" + ",".join(ALL))


@pytest.mark.parametrize("module", ALL)
def test_only_the_missing_driver_is_built(tmp_path, tree, module):
    shipped = [m for m in ALL if m != module]
    conf = source_conf(tree, ksrc_with(tmp_path, config_text(shipped=shipped)))
    assert conf["AUTOINSTALL"] == "yes"
    assert names(conf) == [module]
    assert conf["MAKE"].endswith("PCL_MODULES=" + module)
    assert conf["BUILD_EXCLUSIVE_CONFIG"] == "CONFIG_PCMCIA"


def test_kernel_shipping_everything_is_left_alone(tmp_path, tree):
    """Nothing to do: no autoinstall, modules still listed (dkms 3.0.10
    rejects an empty list), and a BUILD_EXCLUSIVE_CONFIG that excludes
    this kernel so a plain "dkms build" skips it."""
    conf = source_conf(tree, ksrc_with(tmp_path, config_text(shipped=ALL)))
    assert conf["AUTOINSTALL"] == ""
    assert names(conf) == ALL
    want = ["CONFIG_PCMCIA"] + ["!" + SYMBOL[m] for m in ALL]
    assert conf["BUILD_EXCLUSIVE_CONFIG"].split() == want


def test_kernel_without_pcmcia_is_not_autoinstalled(tmp_path, tree):
    conf = source_conf(tree, ksrc_with(tmp_path, config_text(pcmcia=False)))
    assert conf["AUTOINSTALL"] == ""
    assert names(conf) == ALL
    assert conf["BUILD_EXCLUSIVE_CONFIG"] == "CONFIG_PCMCIA"


def test_unreadable_config_means_all_modules(tmp_path, tree):
    conf = source_conf(tree, ksrc_with(tmp_path, None))
    assert conf["AUTOINSTALL"] == "yes"
    assert names(conf) == ALL


@pytest.mark.parametrize("where", ["/boot/config-%s" % FAKE,
                                   "/usr/lib/modules/%s/config" % FAKE])
def test_installed_kernel_config_wins_over_headers(tmp_path, tree, where):
    """The kernel's own config (/boot up to 6.12, /usr/lib/modules on 7.x)
    is read before the headers' copy."""
    ksrc = ksrc_with(tmp_path, config_text())
    conf = source_conf(tree, ksrc, files={where: config_text(shipped=ALL)})
    assert conf["AUTOINSTALL"] == ""


@pytest.mark.parametrize("args", [["--kernelver", FAKE], ["-k", FAKE + "/x86_64"],
                                  ["--kernelver=" + FAKE]])
def test_autoinstall_decides_for_the_kernel_being_installed(tmp_path, tree, args):
    """dkms 3.0.10 reads dkms.conf during autoinstall with the kernel of an
    existing build (here: one lacking everything) or none; the decision
    must be the one for the kernel on dkms's command line (ships all)."""
    other = ksrc_with(tmp_path, config_text())
    wrapper = textwrap.dedent("""\
        read_conf() { local kernelver="$1"; kernel_source_dir=%s; . %s/dkms.conf; %s; }
        autoinstall() { read_conf other-kernel; }
        autoinstall
        """ % (other, tree, SHOW))
    files = {"/usr/lib/modules/%s/config" % FAKE: config_text(shipped=ALL)}
    conf = source_conf(tree, other, files=files, wrapper=wrapper,
                       args=["dkms", "autoinstall"] + args)
    assert conf["AUTOINSTALL"] == ""
    # Outside autoinstall, dkms's own $kernelver is used as is.
    conf = source_conf(tree, other, kernelver="other-kernel", files=files,
                       args=["dkms", "build"] + args)
    assert conf["AUTOINSTALL"] == "yes"


# ---- the real dkms, inside the matrix chroots ----

def dkms_setup(k):
    pk.bash('chroot_ensure "%s" "%s" dkms' % (k.suite, k.arch))
    dkms_cleanup(k)
    install_tree(k.root + "/usr/src/pcmcia-legacy-%s" % VERSION)
    proc = k.run("dkms", "add", "pcmcia-legacy/%s" % VERSION)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def dkms_cleanup(k):
    k.run("dkms", "remove", "pcmcia-legacy/%s" % VERSION, "--all")
    shutil.rmtree(k.root + "/var/lib/dkms/pcmcia-legacy", ignore_errors=True)
    shutil.rmtree(k.root + "/usr/src/pcmcia-legacy-%s" % VERSION,
                  ignore_errors=True)


def dkms_installed(k):
    """Module names dkms installed for the kernel."""
    d = k.root + "/lib/modules/%s/updates/dkms" % k.kver
    if not os.path.isdir(d):
        return []
    return sorted(re.sub(r"\.ko(\.\w+)?$", "", f) for f in os.listdir(d))


@pytest.mark.parametrize("name", pk.matrix_names())
def test_real_dkms_autoinstall(name):
    """dkms autoinstall for the kernel: exit 0; the drivers the kernel
    lacks are installed, nothing else; a kernel that ships all of them is
    skipped by "dkms build" with exit 77."""
    with pk.rolling_tolerance(name):
        check_real_dkms(pk.kernel(name))


def check_real_dkms(k):
    want = sorted(m for m in ALL if not k.ships(m))
    dkms_setup(k)
    try:
        version = k.run("dkms", "--version").stdout.strip()
        proc = k.run("dkms", "autoinstall", "-k", k.kver)
        assert proc.returncode == 0, (version, proc.stdout, proc.stderr)
        assert dkms_installed(k) == want, (version, proc.stdout)
        status = k.run("dkms", "status", "-k", k.kver).stdout
        assert ("installed" in status) == bool(want), (version, status)
        if not want:
            proc = k.run("dkms", "build", "pcmcia-legacy/%s" % VERSION, "-k", k.kver)
            assert proc.returncode == 77, (version, proc.stdout, proc.stderr)
            assert dkms_installed(k) == []
    finally:
        dkms_cleanup(k)


def test_real_dkms_versions():
    """The matrix covers both dkms generations this package supports."""
    seen = {}
    for name in [n for n in pk.matrix_names() if not pk.is_rolling(n)]:
        k = pk.kernel(name)
        pk.bash('chroot_ensure "%s" "%s" dkms' % (k.suite, k.arch))
        seen[name] = k.run("dkms", "--version", check=True).stdout.strip()
    assert any(v.startswith("dkms-3.0.") for v in seen.values()), seen
    assert any(re.match(r"dkms-3\.[2-9]", v) for v in seen.values()), seen


def test_real_dkms_autoinstall_after_a_build_for_another_kernel():
    """dkms 3.0.10 evaluates AUTOINSTALL with the kernel of an existing
    build: with a build for a kernel that lacks a driver in place, the
    autoinstall for a kernel that ships everything must still do nothing
    and exit 0."""
    by_root = {}
    for name in [n for n in pk.matrix_names() if not pk.is_rolling(n)]:
        k = pk.kernel(name)
        by_root.setdefault(k.root, []).append(k)
    pairs = [(a, b) for ks in by_root.values() for a in ks for b in ks
             if any(not a.ships(m) for m in ALL) and all(b.ships(m) for m in ALL)]
    if not pairs:
        pytest.skip("no chroot has both a kernel lacking a driver and one "
                    "shipping all (bookworm 6.12 will, with cm4000_cs/cm4040_cs)")
    lacking, shipping = pairs[0]
    dkms_setup(lacking)
    try:
        proc = lacking.run("dkms", "autoinstall", "-k", lacking.kver)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        proc = shipping.run("dkms", "autoinstall", "-k", shipping.kver)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert dkms_installed(shipping) == []
    finally:
        dkms_cleanup(lacking)
