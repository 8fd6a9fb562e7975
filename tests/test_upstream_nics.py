# SPDX-License-Identifier: GPL-2.0-only
"""Validate the emulated Ethernet PC Cards with the drivers written for
the real hardware, behind the emulated 82092 bridge:

  - pcmcia-ne2000 (D-Link DE-650) with upstream pcnet_cs, on 6.12
    (upstream's i82092) and, under make soak, on trixie-backports' 7.x
    (our i82092);
  - pcmcia-ax88190 with upstream axnet_cs from Debian's 6.12 (Linux 7.1
    removed it; our axnet_cs runs the same scenarios in test_axnet.py).

One guest boot per kernel holds every card of that kernel (the NE2000 in
socket A, the AX88190 in socket B), each on its own network rig
(tests/netrig.py), and runs the rig's scenarios (tests/nic_scenarios.py)
for each card.  Where an upstream driver fails a scenario through its
own bug, the scenario is an xfail with the reason.
"""

import contextlib
import os

import pytest

import pclkernels as pk
from nic_scenarios import *     # noqa: F401,F403 - the rig's scenarios
from nic_scenarios import upstream_guest
from test_i82092 import build_module

BRIDGE = "pcc"

# card name -> (QEMU device, socket, MAC, upstream driver)
CARDS = {
    "ne2000": ("pcmcia-ne2000", 0, "00:80:c8:4e:45:01", "pcnet_cs"),
    "ax88190": ("pcmcia-ax88190", 1, "00:0e:c6:41:58:02", "axnet_cs"),
}
# (guest kernel, kernels.matrix line of our i82092 or None for upstream's,
#  cards in that boot)
# Upstream validation of a model runs once in CI (6.12); pcnet_cs on 7.x
# with our i82092 is a cross-kernel run, for make soak (PCL_STRESS=soak).
KERNELS = [("6.12", None, ["ne2000", "ax88190"])] + (
    [("7.3", "trixie-bpo", ["ne2000"])] if os.environ.get("PCL_STRESS") == "soak" else [])
# parallel test workers (tests/conftest.py): one guest kernel each
XDIST_SPLIT = "rig"


@pytest.fixture(scope="module", params=KERNELS, ids=[k[0] for k in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name, cards = request.param
    bridge = dict(load=["i82092"])
    stack = contextlib.ExitStack()
    with pk.rolling_tolerance(matrix_name or ""):
        if matrix_name:
            bridge = dict(extra_ko=[build_module(matrix_name,
                                                 out=tmp_path_factory.mktemp("ko"))],
                          load=[], setup=["pcl-insmod i82092 && pcl-socket-startup"])
        rigs = stack.enter_context(upstream_guest(
            "nic-upstream-" + kernel, kernel, BRIDGE, {c: CARDS[c] for c in cards},
            **bridge))
    with stack:
        yield rigs


@pytest.fixture(params=sorted(CARDS))
def nic(request, rig):
    if request.param not in rig.rigs:
        pytest.skip("%s is not in Linux %s (test_axnet runs ours)"
                    % (CARDS[request.param][3], rig.kernel))
    return rig.g, rig.rigs[request.param], CARDS[request.param][3]


def test_kernel_log_clean(rig):
    rig.g.assert_clean_kernel_log()
