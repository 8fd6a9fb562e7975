/*
 * NE2000-class PC Cards: a PC Card front end for QEMU's NE2000 core
 * (hw/net/ne2000.h), shared by pcmcia-ne2000 and pcmcia-ax88190.
 *
 * The front end owns what the core leaves to its buses: the CIS (built
 * per card by nic-card.c, since the LAN node ID tuple carries the MAC
 * address), the function configuration registers, IREQ#, a power-on
 * reset of the whole chip, the transmitter (so that frames can be paced
 * at a wire rate, nic-card.c's NICWire), receive pacing and ring overflow
 * reporting, and the NIC's life cycle
 * across hot insertion and surprise removal.  A card type describes its
 * identity and may claim registers of its own before the core sees them.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_NE2K_CARD_H
#define HW_PCMCIA_NE2K_CARD_H

#include "exec/memory.h"
#include "pcmcia-slot.h"
#include "hw/net/ne2000.h"
#include "nic-card.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_PCL_NE2K_CARD "pcl-ne2k-card"
OBJECT_DECLARE_TYPE(PCLNe2kCard, PCLNe2kCardClass, PCL_NE2K_CARD)

/* 8390 register offsets and bits the front ends use */
#define NE2K_CMD                0x00
#define NE2K_DATA               0x10
#define NE2K_RESET              0x1f
#define NE2K_CMD_STOP           0x01
#define NE2K_CMD_START          0x02
#define NE2K_CMD_TRANS          0x04
#define NE2K_CMD_NODMA          0x20
#define NE2K_ISR_RDC            0x40

/* Function configuration registers, as offsets from the CONFIG base */
#define NE2K_CFG_COR            0x00
#define NE2K_CFG_CCSR           0x02
#define NE2K_CFG_REGS           10      /* up to I/O size at 0x12 */

#define NE2K_MAX_CIS            256

struct PCLNe2kCard {
    /*< private >*/
    PCLCardState parent_obj;
    /*< public >*/

    NE2000State ne2k;
    NICWire wire;               /* its rate is the wire-rate property */
    bool stuck_reset;           /* fault: a reset never reports done */

    uint8_t cis[NE2K_MAX_CIS];
    int cis_len;
    uint8_t cfg[NE2K_CFG_REGS]; /* COR, CCSR, PRR, SCR, ESR, I/O base... */
    bool nic_irq;               /* the 8390's interrupt output */

    /* transmitter: one frame on the wire at a time */
    bool tx_busy;
    uint8_t tx_page;
    uint16_t tx_len;
    QEMUTimer *tx_timer;

    uint8_t missed;             /* CNTR2: frames lost to a full ring */
};

struct PCLNe2kCardClass {
    /*< private >*/
    PCMCIACardClass parent_class;
    /*< public >*/

    NICCardIdentity id;
    uint32_t config_base;       /* attribute address of the COR */

    /*
     * Registers of the card's own at port offset @off (0-0x1f); return
     * false to let the NE2000 core decode the access.
     */
    bool (*port_read)(PCLNe2kCard *s, unsigned off, uint16_t *val);
    bool (*port_write)(PCLNe2kCard *s, unsigned off, uint16_t val);
    /* power-on state of the card's own registers */
    void (*card_reset)(PCLNe2kCard *s);
    void (*link_changed)(PCLNe2kCard *s, bool up);
};

extern const VMStateDescription vmstate_pcl_ne2k_card;

/* For card types: the NE2000 core's decoding of port offset @off. */
uint16_t ne2k_card_core_read(PCLNe2kCard *s, unsigned off);
void ne2k_card_core_write(PCLNe2kCard *s, unsigned off, uint16_t val);
/* Page (0-3) the register file shows, from the command register. */
unsigned ne2k_card_page(PCLNe2kCard *s);
/* The 8390's interrupt output after a change of ISR by the front end. */
void ne2k_card_update_irq(PCLNe2kCard *s);

#endif
