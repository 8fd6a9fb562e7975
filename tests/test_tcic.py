# SPDX-License-Identifier: GPL-2.0-only
"""Our tcic (src/bridges/) on the emulated Databook TCIC-2 (QEMU's
isa-tcic at 0x240, a DB86082A), with Debian's pata_pcmcia and a
CompactFlash card, on trixie-backports' 7.x amd64 kernel, which has no
tcic of its own (no CONFIG_ISA on amd64): the module makes its own
platform device; and on our self-built 32-bit 7.x (kernels.matrix line
i686), the kernel of the laptops these bridges are in.

One guest boot per kernel.  The module is loaded first with its
interrupts given (irq_list, cs_irq): status changes on one ISA line,
card interrupts on another, both checked in /proc/interrupts; then
reloaded in polling mode (poll_interval, no cs_irq), where insertion and
removal must still be seen, and with ignore; then, under make soak, the
stress scenarios every bridge runs (tests/bridge_scenarios.py: 200
surprise ejects, 1000 with reads in flight, 100 module reloads with
cards in both sockets, on both kernels); last, a suspend to RAM.
Every card is backed by a host image of deterministic random bytes whose
sha256 the guest must read back.  The ISA lines are test_i82365.py's: 5
for cards, 7 for status changes (the lines of the chip that nothing else
in QEMU's pc machine drives).

CI cost: about 120 s for both kernels (measured under TCG with
PCL_TEST_JOBS=1, about 60 s each).
"""

import pytest

import bridge_scenarios
from cfrig import ISA_IRQ_PARAMS as IRQ_PARAMS, IsaBridgeRig, bridge_guest

# (guest kernel, kernels.matrix line): trixie-backports' amd64 7.x, and our
# own 32-bit 7.x (vm/kernels/i686.config), which has the ISA bus
KERNELS = [("7.3", "trixie-bpo"), ("i686", "i686")]
# parallel test workers (tests/conftest.py): one guest kernel each
XDIST_SPLIT = "rig"
MODULE = "tcic"


class Rig(IsaBridgeRig):
    module = MODULE

    def check_probe_log(self, log):
        assert "Databook DB86082A at 0x240" in log, log


@pytest.fixture(scope="module", params=KERNELS, ids=[k for k, _ in KERNELS])
def rig(request, tmp_path_factory):
    kernel, matrix_name = request.param
    with bridge_guest(Rig, "tcic-" + kernel, kernel, matrix_name, MODULE,
                      tmp_path_factory.mktemp("cf-images-tcic-" + kernel),
                      bridge="isa-tcic") as r:
        yield r


# the scenarios every ISA bridge of ours runs
test_ours_finds_the_chip_and_the_card = bridge_scenarios.isa_finds_the_chip_and_the_card
test_status_change_interrupt_on_cs_irq = bridge_scenarios.isa_status_change_interrupt_on_cs_irq
test_both_sockets_at_once = bridge_scenarios.isa_both_sockets_at_once
test_polling_mode = bridge_scenarios.isa_polling_mode


def test_ignore_leaves_a_socket_alone(rig):
    """ignore=1: socket 1's card is never seen; socket 0 works as before."""
    rig.ensure(0, True)
    rig.ensure(1, True)
    rig.load(IRQ_PARAMS + " ignore=1")
    assert rig.sockets() == ["pcmcia_socket0"], rig.load_log()
    rig.assert_reads_back(0)
    assert not rig.g.wait_for("[ $(ls /sys/bus/pcmcia/devices | wc -l) -gt 1 ]", 10), \
        rig.g.check("ls /sys/bus/pcmcia/devices")
    rig.load(IRQ_PARAMS)
    rig.assert_reads_back(1)
    rig.g.assert_clean_kernel_log()


# the stress scenarios every bridge runs, under make soak only: in CI the
# scenarios above eject, insert and reload with cards in, and
# test_debug_kernel.py suspends, ejects and unloads tcic too
test_eject_insert_cycles = bridge_scenarios.isa_stress(
    bridge_scenarios.eject_insert_cycles, None)
test_eject_insert_cycles_during_reads = bridge_scenarios.isa_stress(
    bridge_scenarios.eject_insert_cycles_during_reads, None)
test_unload_reload_with_cards_present = bridge_scenarios.isa_stress(
    bridge_scenarios.unload_reload_with_cards_present, None)

# last: it suspends the whole guest
test_suspend_to_ram_rtc_wakeup = bridge_scenarios.isa_suspend_to_ram_rtc_wakeup
