# SPDX-License-Identifier: GPL-2.0-only
"""The feature probes against known facts, and compat.h in real builds.

The facts are upstream's history (notes/upstream-removals.md) plus the
one Debian backport we rely on: an interface added in release A and
removed in release B is declared exactly by kernels A <= version < B.
Each kernel's version is read from its headers' Makefile."""

import os
import re

import pytest

import pclkernels as pk

# probe name: (first version that declares it, first version that does not)
FACTS = {
    # 6.2, and Debian's 6.1 from 6.1.84 on (backported)
    "TIMER_DELETE_SYNC": ((6, 1, 84), None),
    "TIMER_DELETE": ((6, 1, 84), None),
    "TIMER_CONTAINER_OF": ((6, 16), None),
    "FROM_TIMER": (None, (6, 16)),
    "HRTIMER_SETUP": ((6, 13), None),
    "CLASS_CREATE_NAME_ONLY": ((6, 4), None),
    "NO_LLSEEK": (None, (6, 12)),
    "LINUX_UNALIGNED_H": ((6, 12), None),
    # split out of kernel.h after 6.1 (6.12 has it; the matrix has no
    # kernel between), and no longer included by kernel.h from 7.0 on
    "LINUX_HEX_H": ((6, 2), None),
    # 6.17, and 6.12.y since its 6.12.76/77 update (a stable backport:
    # 6.12.118 has it); the matrix has no kernel between 6.12 and 7.x
    "SYSTEM_PERCPU_WQ": ((6, 12, 76), None),
}


def kernel_version(k):
    """(VERSION, PATCHLEVEL, SUBLEVEL) from the headers' top Makefile (a
    self-built kernel's: its build tree's, whose paths are the host's)."""
    found = {}
    if k.kdir:
        base, root = k.kdir, ""
    else:
        base, root = k.path("/usr/src/linux-headers-%s" % k.kver), k.root
    makefiles = [os.path.join(base, "Makefile")]
    with open(makefiles[0]) as f:
        for line in f:
            m = re.match(r"^include\s+(/\S+)/Makefile", line)
            if m:
                makefiles.append(root + m.group(1) + "/Makefile")
    for path in makefiles:
        with open(path) as f:
            for line in f:
                m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)", line)
                if m:
                    found.setdefault(m.group(1), int(m.group(2)))
    return found["VERSION"], found["PATCHLEVEL"], found["SUBLEVEL"]


def expected(version, since, until):
    return ((since is None or version >= since) and
            (until is None or version < until))


@pytest.mark.parametrize("name", pk.matrix_names())
def test_probes_match_known_facts(name):
    with pk.rolling_tolerance(name):
        check_probes(pk.kernel(name))


def check_probes(k):
    name = k.name
    # The probe script from this tree, run inside the kernel's chroot.
    dst = k.root + "/tmp/pcl-probe"
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(pk.TOP, "src", "probe-features.sh")) as f:
        script = f.read()
    with open(os.path.join(dst, "probe-features.sh"), "w") as f:
        f.write(script)
    out = k.run("bash", "/tmp/pcl-probe/probe-features.sh",
                "/lib/modules/%s/build" % k.kver, check=True).stdout
    have = set(re.findall(r"^#define PCL_HAVE_(\w+) 1$", out, re.M))
    probed = set(re.findall(r"PCL_HAVE_(\w+)", out))
    assert probed == set(FACTS), "probe list and facts differ: %s" % (
        probed ^ set(FACTS))
    version = kernel_version(k)
    for feature, (since, until) in FACTS.items():
        assert (feature in have) == expected(version, since, until), (
            name, version, feature, out)


def test_probe_refuses_a_non_kernel_directory(tmp_path):
    proc = pk.run(["bash", os.path.join(pk.TOP, "src", "probe-features.sh"),
                   str(tmp_path)])
    assert proc.returncode != 0
    assert "not a kernel build tree" in proc.stderr


COMPAT_USER = """// SPDX-License-Identifier: GPL-2.0-only
/* Uses every interface compat.h provides, the way a driver would. */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/err.h>
#include <linux/workqueue.h>

#include "../compat.h"

struct pclcompat {
	struct timer_list timer;
	struct hrtimer hrt;
	struct delayed_work dwork;
	int fired;
};

static struct pclcompat pcl_state;
static struct class *pcl_class;

static void pcl_timer_fn(struct timer_list *t)
{
	struct pclcompat *s = timer_container_of(s, t, timer);

	s->fired++;
}

static enum hrtimer_restart pcl_hrt_fn(struct hrtimer *h)
{
	return HRTIMER_NORESTART;
}

static void pcl_work_fn(struct work_struct *w)
{
}

static const struct file_operations pcl_fops = {
	.owner = THIS_MODULE,
	.llseek = no_llseek,
};

static int __init pclcompat_init(void)
{
	static const u8 raw[3] = { 0x11, 0x34, 0x12 };

	timer_setup(&pcl_state.timer, pcl_timer_fn, 0);
	INIT_DELAYED_WORK(&pcl_state.dwork, pcl_work_fn);
	mod_delayed_work(system_percpu_wq, &pcl_state.dwork, HZ);
	hrtimer_setup(&pcl_state.hrt, pcl_hrt_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	pcl_class = pcl_class_create("pclcompat");
	if (IS_ERR(pcl_class))
		return PTR_ERR(pcl_class);
	pr_debug("%u %p\\n", get_unaligned_le16(raw + 1), &pcl_fops);
	return 0;
}

static void __exit pclcompat_exit(void)
{
	timer_delete_sync(&pcl_state.timer);
	timer_delete(&pcl_state.timer);
	hrtimer_cancel(&pcl_state.hrt);
	cancel_delayed_work_sync(&pcl_state.dwork);
	class_destroy(pcl_class);
}

module_init(pclcompat_init);
module_exit(pclcompat_exit);
MODULE_DESCRIPTION("compat.h build test");
MODULE_LICENSE("GPL");
"""


@pytest.fixture(scope="module")
def compat_tree(tmp_path_factory):
    return pk.scratch_tree(tmp_path_factory.mktemp("compat"),
                        ("pclcompat", COMPAT_USER))


@pytest.mark.parametrize("name", pk.matrix_names())
def test_compat_header_builds_warning_free(compat_tree, name):
    """A module using every compat.h interface builds with W=1 and no
    warning of ours on each kernel."""
    with pk.rolling_tolerance(name):
        proc = pk.run([str(compat_tree / "scripts" / "modules.sh"), name],
                      env=dict(os.environ, PCL_ALL_DRIVERS="1"))
        assert proc.returncode == 0, proc.stderr
        outdir = proc.stdout.strip().splitlines()[-1]
        assert os.path.isfile(os.path.join(outdir, "pclcompat.ko"))
