# SPDX-License-Identifier: GPL-2.0-only
"""make lint, one test per checker: our sources have zero findings, and
each checker does find a planted mistake (so that zero means something)."""

import os
import re

import pytest

import pclkernels as pk

def lint(tool, top=pk.TOP, **env):
    return pk.run([os.path.join(str(top), "scripts", "lint.sh"), tool],
                  env=dict(os.environ, **env))


def findings(proc, tool):
    m = re.search(r"^  %s\s+.*?(\d+) finding\(s\)$" % tool, proc.stdout, re.M)
    assert m, proc.stdout + proc.stderr
    return int(m.group(1))


@pytest.mark.parametrize("tool", ["checkpatch", "sparse", "coccinelle", "waits"])
def test_our_sources_are_clean(tool):
    proc = lint(tool)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert findings(proc, tool) == 0
    assert "lint: 0 finding(s) in our files" in proc.stdout
    if tool == "sparse":
        # sparse ran against an old and a new kernel (lint.sh also checks
        # that it printed a CHECK line for every file it compiled).
        kernels = re.findall(r"^  sparse\s+C=2, (\S+)", proc.stdout, re.M)
        assert any(k.startswith("6.1.") for k in kernels), kernels
        assert any(k.startswith("7.") for k in kernels), kernels


PLANTED = """// SPDX-License-Identifier: GPL-2.0-only
#include <linux/io.h>
#include <linux/module.h>
#include <linux/slab.h>

static void __iomem *pcl_regs;

static int __init pcllint_init(void)
{
	char *buf = kmalloc(16, GFP_KERNEL);
	u32 v = *(u32 *)pcl_regs;

	if (buf)
		kfree(buf);
	printk("value %u\\n", v);   
	return 0;
}
module_init(pcllint_init);
MODULE_DESCRIPTION("lint self-test with planted mistakes");
MODULE_LICENSE("GPL");
"""

# tool: (what it must say about cards/pcllint.c, extra environment)
PLANTS = {
    "checkpatch": (r"cards/pcllint\.c:\d+: (WARNING|ERROR): ?"
                   r"(PRINTK_WITHOUT_KERN_LEVEL|TRAILING_WHITESPACE)", {}),
    "sparse": (r"cards/pcllint\.c:\d+:\d+: warning: cast removes address space",
               {"PCL_LINT_KERNELS": "bookworm-6.1"}),
    "coccinelle": (r"cards/pcllint\.c:\d+:\d+-\d+: WARNING: NULL check before "
                   r"some freeing functions is not needed", {}),
}


@pytest.fixture(scope="module")
def planted_tree(tmp_path_factory):
    return pk.scratch_tree(tmp_path_factory.mktemp("lint"), ("pcllint", PLANTED))


@pytest.mark.parametrize("tool", sorted(PLANTS))
def test_planted_mistake_is_found(planted_tree, tool):
    pattern, env = PLANTS[tool]
    proc = lint(tool, top=planted_tree, **env)
    assert proc.returncode != 0, proc.stdout
    assert findings(proc, tool) >= 1
    assert re.search(pattern, proc.stdout + proc.stderr), proc.stdout + proc.stderr


# The waits checker (scripts/lint_waits.py): each "BAD" line must be
# found, on its own line, and no "GOOD" line.
PLANTED_WAITS = r"""// SPDX-License-Identifier: GPL-2.0-only
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/module.h>

#define PCLW_POLLS	1000
#define PCLW_FEW	10
#define PCLW_LONG_US	(PCLW_FEW * 20)

static unsigned long pclw_io;

static int pclw_waits(void)
{
	int i;

	mdelay(2);					/* BAD mdelay */
	udelay(PCLW_LONG_US);				/* BAD udelay */
	udelay(50);					/* GOOD short */
	while (!(inb(pclw_io) & 1))			/* BAD unbounded */
		cpu_relax();
	for (i = 0; i < PCLW_POLLS; i++) {		/* BAD 2000 us */
		if (inb(pclw_io) & 1)
			break;
		udelay(1);
	}
	for (i = 0; i < PCLW_FEW; i++) {		/* GOOD 60 us */
		if (inb(pclw_io) & 1)
			break;
		udelay(5);
	}
	for (i = 0;; i++) {				/* BAD 1 ms on one path */
		if (!(inb(pclw_io) & 1))
			return 0;
		if (i == PCLW_POLLS)
			return -ETIMEDOUT;
		if (in_atomic())
			udelay(1);
		else
			usleep_range(50, 100);
	}
	while (inb(pclw_io) & 1)			/* GOOD sleeps */
		usleep_range(100, 200);
	pr_debug(KERN_INFO "pclw: %d\n", i);		/* BAD debug level */
	pr_debug("\0016pclw: written out\n");		/* BAD expanded level */
	dev_dbg(NULL, "pclw: KERN_INFO is only text here\n");	/* GOOD */
	return 0;
}
"""


def test_planted_waits_are_found(tmp_path):
    src = tmp_path / "src" / "cards"
    src.mkdir(parents=True)
    (src / "pclwaits.c").write_text(PLANTED_WAITS)
    proc = pk.run(["/usr/bin/python3", os.path.join(pk.TOP, "scripts", "lint_waits.py"),
                   str(tmp_path), "src/cards/pclwaits.c"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = PLANTED_WAITS.splitlines()
    found = {int(m.group(1)) for m in
             re.finditer(r"^src/cards/pclwaits\.c:(\d+): ", proc.stdout, re.M)}
    bad = {n for n, text in enumerate(lines, 1) if "/* BAD" in text}
    good = {n for n, text in enumerate(lines, 1) if "/* GOOD" in text}
    assert bad - found == set(), "not found: lines %s\n%s" % (sorted(bad - found), proc.stdout)
    assert found & good == set(), "wrongly found: %s\n%s" % (sorted(found & good), proc.stdout)
    assert found <= bad, proc.stdout
