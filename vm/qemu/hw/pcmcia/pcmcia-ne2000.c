/*
 * pcmcia-ne2000: an NE2000-compatible 10BASE-T PC Card with the identity
 * of the D-Link DE-650, which Linux's pcnet_cs drives.
 *
 *   -netdev hubport,id=net0,hubid=0
 *   -device pcmcia-ne2000,bus=pcc.0,netdev=net0,mac=00:80:c8:12:34:56
 *
 * 32 ports with plain NE2000 decoding (ne2k-card.c), the MAC address in
 * the station address PROM and in the CIS's LAN node ID tuple.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "ne2k-card.h"

#define TYPE_PCMCIA_NE2000 "pcmcia-ne2000"

#define DE650_CONFIG_BASE       0x3f8

/*
 * CONFIG: registers at 0x3f8 (COR, CCSR), last index 1.
 * CFTABLE_ENTRY 1 (default): I/O, Vcc 5 V, 32 ports on any 32-port
 * boundary with 8- and 16-bit cycles, any level-mode IRQ.
 */
static const uint8_t de650_config[] = {
    0x1a, 0x05,  0x01, 0x01, 0xf8, 0x03, 0x03,
    0x1b, 0x09,  0xc1, 0x01, 0x19, 0x01, 0x55, 0x65, 0x30, 0xff, 0xff,
};

static void pcmcia_ne2000_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCLNe2kCardClass *nc = PCL_NE2K_CARD_CLASS(oc);

    /* pcnet_cs binds by these two strings */
    nc->id.vers1[0] = "D-Link";
    nc->id.vers1[1] = "DE-650";
    /* this model's own manufacturer code ("PC") and card ID ("NE") */
    nc->id.manfid[0] = 0x5043;
    nc->id.manfid[1] = 0x4e45;
    nc->config_base = DE650_CONFIG_BASE;
    nc->id.config_tuples = de650_config;
    nc->id.config_tuples_len = sizeof(de650_config);
    dc->desc = "NE2000-compatible Ethernet PC Card (D-Link DE-650)";
}

static const TypeInfo pcmcia_ne2000_info = {
    .name = TYPE_PCMCIA_NE2000,
    .parent = TYPE_PCL_NE2K_CARD,
    .instance_size = sizeof(PCLNe2kCard),
    .class_init = pcmcia_ne2000_class_init,
};

static void pcmcia_ne2000_register_types(void)
{
    type_register_static(&pcmcia_ne2000_info);
}

type_init(pcmcia_ne2000_register_types)
