/*
 * pcmcia-ax88190: a PC Card with the Asix AX88190, the NE2000-derived
 * 10/100 chip that Linux's axnet_cs drives, with an MII PHY.
 *
 *   -netdev hubport,id=net0,hubid=0
 *   -device pcmcia-ax88190,bus=pcc.0,netdev=net0,mac=00:0e:c6:12:34:56
 *
 * What sets it apart from an NE2000 (and what axnet_cs relies on):
 *  - configuration registers at 0x3c0 (COR, CCSR, I/O base 0 and 1);
 *  - the MAC address at NIC memory 0x400 (read by remote DMA, words);
 *  - remote DMA writes do not need the remote byte count: the driver
 *    never sets it before it copies a frame to the card;
 *  - the current page register also reads at page 0, offset 6;
 *  - port 0x15 (test) reads 0 on an AX88190 (0xff-ish on an AX88790);
 *  - port 0x17 is a general purpose register;
 *  - port 0x14 is the MII management port, bit-banged: MDC 0x01,
 *    direction 0x02 (1: the host reads), MDI 0x04, MDO 0x08;
 *  - CCSR bit 2 powers the PHY up when the card strapped it down
 *    (property phy-power-down), the driver's fallback when no PHY answers.
 * The PHY's link follows QMP set_link on this card.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "ne2k-card.h"
#include "mii-phy.h"
#include "pcmcia-slot.h"
#include "trace.h"

#define TYPE_PCMCIA_AX88190 "pcmcia-ax88190"
OBJECT_DECLARE_SIMPLE_TYPE(PCLAX88190State, PCMCIA_AX88190)

#define AX_CONFIG_BASE          0x3c0
#define AX_CCSR_PHY_ON          0x04

#define AX_DATA_LAST            0x13
#define AX_MII                  0x14
#define AX_TEST                 0x15
#define AX_GPIO                 0x17

#define AX_MII_MDC              0x01
#define AX_MII_DIR_IN           0x02
#define AX_MII_MDI              0x04
#define AX_MII_MDO              0x08

#define AX_CURPAG_PAGE0         0x06
/* where the chip shows its station address to remote DMA reads */
#define AX_MAC_ADDR             0x400
#define AX_MAC_WINDOW           0x10

/* a made-up PHY identifier of this model */
#define AX_PHY_ID               0x50434158

struct PCLAX88190State {
    /*< private >*/
    PCLNe2kCard parent_obj;
    /*< public >*/

    MIIPhy phy;
    MDIOBitBang mdio;
    uint8_t phy_addr;
    bool phy_power_down;        /* strapped: powered down until CCSR bit 2 */
    uint8_t mii_latch;          /* last value written to port 0x14 */
    uint8_t gpio;
};

/*
 * CONFIG: registers at 0x3c0 (COR, CCSR, I/O base 0, I/O base 1), last
 * index 5.  CFTABLE_ENTRY 5 (default): I/O, Vcc 5 V, 32 ports anywhere
 * with 8- and 16-bit cycles, any level-mode IRQ.
 */
static const uint8_t ax88190_config[] = {
    0x1a, 0x05,  0x01, 0x05, 0xc0, 0x03, 0x63,
    0x1b, 0x09,  0xc5, 0x01, 0x19, 0x01, 0x55, 0x65, 0x30, 0xff, 0xff,
};

static MIIPhy *ax_phy(PCLAX88190State *ax)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(ax);

    if (ax->phy_power_down && !(s->cfg[NE2K_CFG_CCSR / 2] & AX_CCSR_PHY_ON)) {
        return NULL;
    }
    return &ax->phy;
}

static uint8_t ax_mac_byte(PCLNe2kCard *s, uint32_t addr)
{
    uint32_t i = addr - AX_MAC_ADDR;

    return i < 6 ? s->ne2k.c.macaddr.a[i] : 0xff;
}

/* Remote DMA read inside the station address window. */
static uint16_t ax_mac_read(PCLNe2kCard *s, bool wide)
{
    NE2000State *ne = &s->ne2k;
    unsigned width = (ne->dcfg & 1) ? 2 : 1;
    uint16_t val = ax_mac_byte(s, ne->rsar);

    if (width == 2) {
        val |= ax_mac_byte(s, ne->rsar + 1) << 8;
    }
    ne->rsar += width;
    if (ne->rcnt <= width) {
        ne->rcnt = 0;
        ne->isr |= NE2K_ISR_RDC;
        ne2k_card_update_irq(s);
    } else {
        ne->rcnt -= width;
    }
    return wide ? val : val & 0xff;
}

static bool ax_port_read(PCLNe2kCard *s, unsigned off, uint16_t *val)
{
    PCLAX88190State *ax = PCMCIA_AX88190(s);
    NE2000State *ne = &s->ne2k;
    bool wide = pcmcia_slot_cycle_is_16bit(PCMCIA_CARD(s));

    switch (off) {
    case AX_CURPAG_PAGE0:
        if (ne2k_card_page(s) != 0) {
            return false;
        }
        *val = ne->curpag;
        break;
    case NE2K_DATA ... AX_DATA_LAST:
        if (ne->rsar < AX_MAC_ADDR || ne->rsar >= AX_MAC_ADDR + AX_MAC_WINDOW) {
            *val = ne2k_card_core_read(s, NE2K_DATA);
            return true;
        }
        *val = ax_mac_read(s, wide);
        break;
    case AX_MII:
        *val = (ax->mii_latch & ~AX_MII_MDI) |
               (mdio_bb_mdi(&ax->mdio) ? AX_MII_MDI : 0);
        break;
    case AX_TEST:
        *val = 0;
        break;
    case AX_GPIO:
        *val = ax->gpio;
        break;
    default:
        return false;
    }
    trace_pcl_ax88190_read(off, *val);
    return true;
}

static bool ax_port_write(PCLNe2kCard *s, unsigned off, uint16_t val)
{
    PCLAX88190State *ax = PCMCIA_AX88190(s);
    NE2000State *ne = &s->ne2k;

    switch (off) {
    case NE2K_DATA ... AX_DATA_LAST:
        /* no byte count needed: keep the core's remote DMA going */
        if (ne->rcnt < 2) {
            ne->rcnt = 0xffff;
        }
        ne2k_card_core_write(s, NE2K_DATA, val);
        return true;
    case AX_MII:
        ax->mii_latch = val;
        mdio_bb_pins(&ax->mdio, ax_phy(ax), ax->phy_addr,
                     val & AX_MII_MDC, !(val & AX_MII_DIR_IN),
                     val & AX_MII_MDO);
        return true;
    case AX_GPIO:
        trace_pcl_ax88190_write(off, val);
        ax->gpio = val;
        return true;
    }
    return false;
}

static void ax_card_reset(PCLNe2kCard *s)
{
    PCLAX88190State *ax = PCMCIA_AX88190(s);

    mii_phy_reset(&ax->phy);
    mdio_bb_reset(&ax->mdio);
    ax->mii_latch = 0;
    ax->gpio = 0;
}

static void ax_link_changed(PCLNe2kCard *s, bool up)
{
    mii_phy_set_link(&PCMCIA_AX88190(s)->phy, up);
}

static void ax_instance_init(Object *obj)
{
    PCLAX88190State *ax = PCMCIA_AX88190(obj);

    /* a 10/100 partner that autonegotiates: 100BASE-TX full duplex */
    mii_phy_init(&ax->phy, AX_PHY_ID,
                 MII_PHY_AN_100FD | MII_PHY_AN_100HD | MII_PHY_AN_10FD |
                 MII_PHY_AN_10HD | MII_PHY_AN_CSMA);
}

static const VMStateDescription vmstate_pcmcia_ax88190 = {
    .name = TYPE_PCMCIA_AX88190,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(parent_obj, PCLAX88190State, 1,
                       vmstate_pcl_ne2k_card, PCLNe2kCard),
        VMSTATE_MII_PHY(phy, PCLAX88190State),
        VMSTATE_MDIO_BB(mdio, PCLAX88190State),
        VMSTATE_UINT8(mii_latch, PCLAX88190State),
        VMSTATE_UINT8(gpio, PCLAX88190State),
        VMSTATE_END_OF_LIST()
    }
};

static Property ax_properties[] = {
    DEFINE_PROP_UINT8("phy-addr", PCLAX88190State, phy_addr, 0),
    DEFINE_PROP_BOOL("phy-power-down", PCLAX88190State, phy_power_down,
                     false),
    DEFINE_PROP_END_OF_LIST(),
};

static void ax_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCLNe2kCardClass *nc = PCL_NE2K_CARD_CLASS(oc);

    /* axnet_cs binds by these two strings */
    nc->id.vers1[0] = "ASIX";
    nc->id.vers1[1] = "AX88190";
    /* this model's own manufacturer code ("PC") and card ID ("AX") */
    nc->id.manfid[0] = 0x5043;
    nc->id.manfid[1] = 0x4158;
    nc->config_base = AX_CONFIG_BASE;
    nc->id.config_tuples = ax88190_config;
    nc->id.config_tuples_len = sizeof(ax88190_config);
    nc->port_read = ax_port_read;
    nc->port_write = ax_port_write;
    nc->card_reset = ax_card_reset;
    nc->link_changed = ax_link_changed;

    dc->desc = "Asix AX88190 Fast Ethernet PC Card";
    dc->vmsd = &vmstate_pcmcia_ax88190;
    device_class_set_props(dc, ax_properties);
}

static const TypeInfo ax_info = {
    .name = TYPE_PCMCIA_AX88190,
    .parent = TYPE_PCL_NE2K_CARD,
    .instance_size = sizeof(PCLAX88190State),
    .instance_init = ax_instance_init,
    .class_init = ax_class_init,
};

static void ax_register_types(void)
{
    type_register_static(&ax_info);
}

type_init(ax_register_types)
