/*
 * pcmcia-3c589: a 3Com 3c589 EtherLink III 10BASE-T PC Card, which
 * Linux's 3c589_cs drives.
 *
 *   -netdev hubport,id=net0,hubid=0
 *   -device pcmcia-3c589,bus=pcc.0,netdev=net0,mac=00:10:4b:12:34:56
 *
 * The EtherLink III core (elink3.c) with 16 ports, the MAC address in
 * EEPROM words 0-2 (the CIS has no 3Com node ID tuple, 0x88, so that
 * 3c589_cs reads the EEPROM), 8 KB of buffer RAM split 5:3 between the
 * RX and TX FIFOs, and a 10BASE-T port only.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "elink3.h"

#define TYPE_PCMCIA_3C589 "pcmcia-3c589"

#define TC589_CONFIG_BASE       0x10000

/*
 * CONFIG: registers at 0x10000 (COR, CCSR), last index 1.
 * CFTABLE_ENTRY 1 (default; 3c589_cs asks for it): I/O, Vcc 5 V, 16
 * ports on any 16-port boundary with 8- and 16-bit cycles, any
 * level-mode IRQ.
 */
static const uint8_t tc589_config[] = {
    0x1a, 0x06,  0x02, 0x01, 0x00, 0x00, 0x01, 0x03,
    0x1b, 0x09,  0xc1, 0x01, 0x19, 0x01, 0x55, 0x64, 0x30, 0xff, 0xff,
};

static void tc589_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_CLASS(oc);

    ec->id.vers1[0] = "3Com Corporation";
    ec->id.vers1[1] = "3C589";
    /* 3c589_cs binds by these */
    ec->id.manfid[0] = 0x0101;
    ec->id.manfid[1] = 0x0589;
    ec->id.config_tuples = tc589_config;
    ec->id.config_tuples_len = sizeof(tc589_config);
    ec->config_base = TC589_CONFIG_BASE;
    /*
     * This model's product ID word; 3c589_cs prints its low two bits as
     * the RAM split (0: 5:3) and the manufacturer ID's low bits as the
     * RAM size (0: 8 KB), which is what the card has.
     */
    ec->product_id = 0x9058;
    ec->rx_fifo_size = 5 * 1024;
    ec->tx_fifo_size = 3 * 1024;
    dc->desc = "3Com 3c589 EtherLink III PC Card";
}

static const TypeInfo tc589_info = {
    .name = TYPE_PCMCIA_3C589,
    .parent = TYPE_PCL_ELINK3_CARD,
    .instance_size = sizeof(PCLElink3Card),
    .class_init = tc589_class_init,
};

static void tc589_register_types(void)
{
    type_register_static(&tc589_info);
}

type_init(tc589_register_types)
