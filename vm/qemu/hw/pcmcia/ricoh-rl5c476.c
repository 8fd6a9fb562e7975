/*
 * Ricoh RL5C476 II CardBus controller, one socket per function (the chip
 * has two), on the CardBus bridge core.  The Ricoh configuration
 * registers as yenta's Ricoh code and Linux's PCI quirks use them:
 *
 *   0x80  CONFIG (bit 0: prefetch for 16-bit memory windows)
 *   0x82  MISC (bit 6: subsystem ID registers writable, bit 8: Vcc
 *         enable polarity)
 *   0x84  16-bit interface control (bits 8 and 9: I/O and memory timing
 *         from the timing registers)
 *   0x88  16-bit I/O timing 0, 0x8a 16-bit memory timing 0
 *   0xa2  MISC3: bit 1 CB_CLKRUN_DIS keeps the CardBus clock running
 *   0x8d, 0x8e, 0xb7: the keyed write path of the built-in MMC reader;
 *         0xb7 bit 1 (reader disabled) reads 1: this model has no MMC
 *         function, so Linux's quirk finds it off already
 *
 * Timing values are stored, not acted upon.  `revision` is a property:
 * yenta touches MISC3 only on revisions 0x80 and later (RL5C476 II).
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "cardbus.h"
#include "trace.h"

#define TYPE_RICOH_RL5C476 "ricoh-rl5c476"
OBJECT_DECLARE_SIMPLE_TYPE(RicohRL5C476State, RICOH_RL5C476)

#define RICOH_VENDOR_ID   0x1180
#define RL5C476_DEVICE_ID       0x0476

#define RICOH_CONFIG            0x80
#define RICOH_MISC              0x82
#define RICOH_MISC_SUBSYS_WR    0x0040
#define RICOH_16BIT_CTL         0x84
#define RICOH_16BIT_IO0         0x88
#define RICOH_16BIT_MEM0        0x8a
#define RICOH_MMC_TARGET        0x8d
#define RICOH_MMC_KEY           0x8e
#define RICOH_MISC3             0xa2
#define RICOH_MISC3_CLKRUN_DIS  0x0002
#define RICOH_MMC_DISABLE       0xb7

struct RicohRL5C476State {
    /*< private >*/
    CardBusBridge parent_obj;
    /*< public >*/

    uint8_t revision;           /* property */
};

static void ricoh_subsys_wmask(CardBusBridge *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    bool rw = pci_get_word(pd->config + RICOH_MISC) & RICOH_MISC_SUBSYS_WR;

    pci_set_long(pd->wmask + CB_CFG_SSVID, rw ? 0xffffffff : 0);
}

static const CardBusChipReg ricoh_regs[] = {
    { RICOH_CONFIG, 2, 0xffff, 0 },
    { RICOH_MISC, 2, 0xffff, 0 },
    { RICOH_16BIT_CTL, 2, 0xffff, 0 },
    { RICOH_16BIT_IO0, 2, 0xffff, 0 },
    { RICOH_16BIT_MEM0, 2, 0xffff, 0 },
    { RICOH_MMC_TARGET, 1, 0xff, 0 },
    { RICOH_MMC_KEY, 1, 0xff, 0 },
    { RICOH_MISC3, 2, 0xffff, 0 },
    { RICOH_MMC_DISABLE, 1, 0xff, 0x02 },
    { }
};

static void ricoh_chip_realize(CardBusBridge *s)
{
    PCI_DEVICE(s)->config[PCI_REVISION_ID] = RICOH_RL5C476(s)->revision;
}

static void ricoh_chip_config_write(CardBusBridge *s, uint32_t addr, int len)
{
    PCIDevice *pd = PCI_DEVICE(s);

    if (ranges_overlap(addr, len, RICOH_MISC, 2)) {
        ricoh_subsys_wmask(s);
    }
    if (ranges_overlap(addr, len, RICOH_MISC3, 2)) {
        trace_pcl_ricoh_misc3(pci_get_word(pd->config + RICOH_MISC3));
    }
}

static Property ricoh_properties[] = {
    DEFINE_PROP_UINT8("revision", RicohRL5C476State, revision, 0xb3),
    DEFINE_PROP_END_OF_LIST(),
};

static void ricoh_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);
    CardBusBridgeClass *cc = CARDBUS_BRIDGE_CLASS(oc);

    k->vendor_id = RICOH_VENDOR_ID;
    k->device_id = RL5C476_DEVICE_ID;
    cc->chip_regs = ricoh_regs;
    cc->chip_realize = ricoh_chip_realize;
    cc->chip_reset = ricoh_subsys_wmask;
    cc->chip_config_write = ricoh_chip_config_write;
    dc->desc = "Ricoh RL5C476 II CardBus controller (one socket)";
    device_class_set_props(dc, ricoh_properties);
}

static const TypeInfo ricoh_info = {
    .name = TYPE_RICOH_RL5C476,
    .parent = TYPE_CARDBUS_BRIDGE,
    .instance_size = sizeof(RicohRL5C476State),
    .class_init = ricoh_class_init,
};

static void ricoh_register_types(void)
{
    type_register_static(&ricoh_info);
}

type_init(ricoh_register_types)
