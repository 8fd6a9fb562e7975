/*
 * Texas Instruments PCI1225 PC Card / CardBus controller, one socket per
 * function (the chip has two: function 0 and function 1), on the CardBus
 * bridge core.  The TI-specific configuration registers, as yenta's TI12xx
 * code programs them:
 *
 *   0x80  system control: CLKRUN enable/select, KEEPCLK (keep the PCI
 *         clock running: yenta's disable_clkrun), SUBSYSRW (subsystem ID
 *         registers read-only while set), MRBURSTUP, INTRTIE
 *   0x8c  multifunction routing: MFUNC0 (bits 3:0) = 2 puts INTA# on its
 *         pin, MFUNC1 (bits 7:4) = 2 INTB#; the socket interrupts leave
 *         the chip only through such a pin
 *   0x91  card control (PCI interrupt enable, zoom video ...; stored)
 *   0x92  device control: interrupt mode in bits 2:1 (0 parallel PCI)
 *   0x93  diagnostic: bit 5 status changes to PCI by CSCINT (else by
 *         ExCA INTCTL bit 4, "INTVAL"), bit 6 CardBus interrupts to PCI
 *
 * Serialized IRQs do not exist on QEMU's pc machine: in the all-serial
 * mode nothing reaches the host, as on a board without SERIRQ wiring.
 * The TI1225's interrupt tie between functions (INTRTIE) is stored only:
 * each function drives its own pin.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "cardbus.h"
#include "trace.h"

#define TYPE_TI_PCI1225 "ti-pci1225"
OBJECT_DECLARE_SIMPLE_TYPE(TIPCI1225State, TI_PCI1225)

#define TI_PCI1225_DEVICE_ID    0xac1c

#define TI_SYSCTL               0x80
#define TI_SYSCTL_KEEPCLK       0x00000002
#define TI_SYSCTL_SUBSYSRW      0x00000020
#define TI_SYSCTL_WMASK         0x2000ffff
#define TI_MFUNC                0x8c
#define TI_MFUNC_WMASK          0x0fffffff
#define TI_MFUNC_PIN_INTA       0x2     /* MFUNC0 */
#define TI_MFUNC_PIN_INTB       0x20    /* MFUNC1 */
#define TI_CARDCTL              0x91
#define TI_DEVCTL               0x92
#define TI_DEVCTL_IMODE         0x06
#define TI_DIAG                 0x93
#define TI_DIAG_PCI_CSC         0x20
#define TI_DIAG_PCI_IREQ        0x40

#define TI_DEVCTL_RESET         0x60    /* 3.3 V and 5 V sockets, parallel */
#define TI_DIAG_RESET           (TI_DIAG_PCI_CSC | TI_DIAG_PCI_IREQ)

struct TIPCI1225State {
    /*< private >*/
    CardBusBridge parent_obj;
    /*< public >*/

    uint32_t mfunc_reset;       /* property "mfunc" */
};

static void ti_subsys_wmask(CardBusBridge *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    bool rw = !(pci_get_long(pd->config + TI_SYSCTL) & TI_SYSCTL_SUBSYSRW);

    pci_set_long(pd->wmask + CB_CFG_SSVID, rw ? 0xffffffff : 0);
}

static const CardBusChipReg ti_regs[] = {
    { TI_SYSCTL, 4, TI_SYSCTL_WMASK, TI_SYSCTL_SUBSYSRW },
    { TI_MFUNC, 4, TI_MFUNC_WMASK, 0 },         /* reset: property "mfunc" */
    { TI_CARDCTL, 1, 0xff, 0 },
    { TI_DEVCTL, 1, 0xff, TI_DEVCTL_RESET },
    { TI_DIAG, 1, 0xff, TI_DIAG_RESET },
    { }
};

static void ti_chip_reset(CardBusBridge *s)
{
    pci_set_long(PCI_DEVICE(s)->config + TI_MFUNC,
                 TI_PCI1225(s)->mfunc_reset);
    ti_subsys_wmask(s);
}

static void ti_chip_config_write(CardBusBridge *s, uint32_t addr, int len)
{
    PCIDevice *pd = PCI_DEVICE(s);

    if (ranges_overlap(addr, len, TI_SYSCTL, 4)) {
        trace_pcl_ti_sysctl(pci_get_long(pd->config + TI_SYSCTL));
        ti_subsys_wmask(s);
    }
    if (ranges_overlap(addr, len, TI_MFUNC, 4)) {
        trace_pcl_ti_mfunc(pci_get_long(pd->config + TI_MFUNC));
    }
    if (ranges_overlap(addr, len, TI_MFUNC, 4) ||
        ranges_overlap(addr, len, TI_DEVCTL, 2)) {
        cardbus_irq_update(s);
    }
}

static bool ti_csc_to_pci(CardBusBridge *s)
{
    if (PCI_DEVICE(s)->config[TI_DIAG] & TI_DIAG_PCI_CSC) {
        return exca_csc_irq_line(&s->exca) == 0;
    }
    return s->exca.regs[EXCA_INTCTL] & 0x10;     /* INTVAL routing */
}

/* The function's interrupt pin is routed out in parallel PCI mode. */
static bool ti_pin_enabled(CardBusBridge *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    uint32_t mfunc = pci_get_long(pd->config + TI_MFUNC);

    if ((pd->config[TI_DEVCTL] & TI_DEVCTL_IMODE) == TI_DEVCTL_IMODE) {
        return false;                   /* all serial: no SERIRQ here */
    }
    if (PCI_FUNC(pd->devfn) == 0) {
        return (mfunc & 0x0f) == TI_MFUNC_PIN_INTA;
    }
    return (mfunc & 0xf0) == TI_MFUNC_PIN_INTB;
}

static Property ti_properties[] = {
    /* MFUNC at power-on: MFUNC0 = INTA#, as a laptop BIOS leaves it */
    DEFINE_PROP_UINT32("mfunc", TIPCI1225State, mfunc_reset, 0x00000002),
    DEFINE_PROP_END_OF_LIST(),
};

static void ti_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);
    CardBusBridgeClass *cc = CARDBUS_BRIDGE_CLASS(oc);

    k->vendor_id = PCI_VENDOR_ID_TI;
    k->device_id = TI_PCI1225_DEVICE_ID;
    k->revision = 0x01;
    cc->chip_regs = ti_regs;
    cc->chip_reset = ti_chip_reset;
    cc->chip_config_write = ti_chip_config_write;
    cc->csc_to_pci = ti_csc_to_pci;
    cc->pin_enabled = ti_pin_enabled;
    dc->desc = "TI PCI1225 CardBus controller (one socket)";
    device_class_set_props(dc, ti_properties);
}

static const TypeInfo ti_info = {
    .name = TYPE_TI_PCI1225,
    .parent = TYPE_CARDBUS_BRIDGE,
    .instance_size = sizeof(TIPCI1225State),
    .class_init = ti_class_init,
};

static void ti_register_types(void)
{
    type_register_static(&ti_info);
}

type_init(ti_register_types)
