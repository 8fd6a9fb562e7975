/*
 * ExCA (Intel 82365SL compatible) socket register file, shared by every
 * PC Card bridge model: the i82092 and the ISA 82365SL here, later CardBus
 * bridges (ExCA at BAR0 + 0x800, with page registers).
 *
 * A front end embeds one ExcaSocket per socket, routes register accesses
 * to exca_read()/exca_write() and turns the two interrupt sources (card
 * status change, card IREQ#) into whatever its bus offers.  A front end
 * with status registers of its own learns of insertions and removals
 * through the optional card_changed hook.  The core owns the socket's
 * slot bus, its power and reset sequencing, and the I/O and memory
 * windows (pcmcia-window.c), which it maps into the address spaces the
 * front end supplies at the addresses the guest programs.  A CardBus
 * front end whose own socket registers switch Vcc mirrors them into
 * EXCA_POWER with exca_write(), so that POWERON, READY and card power
 * stay in one place.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_EXCA_H
#define HW_PCMCIA_EXCA_H

#include "exec/memory.h"
#include "pcmcia-slot.h"
#include "pcmcia-window.h"

#define EXCA_IO_WINDOWS         2
#define EXCA_MEM_WINDOWS        5
#define EXCA_REGS               0x40

/* Register offsets (one socket) */
#define EXCA_IDENT              0x00
#define EXCA_STATUS             0x01
#define EXCA_POWER              0x02
#define EXCA_INTCTL             0x03
#define EXCA_CSC                0x04
#define EXCA_CSCINT             0x05
#define EXCA_WINEN              0x06
#define EXCA_IOCTL              0x07
#define EXCA_IO_BASE(n)         (0x08 + 4 * (n))
#define EXCA_GENCTL             0x16
#define EXCA_GBLCTL             0x1e
#define EXCA_MEM_BASE(n)        (0x10 + 8 * (n))
#define EXCA_PAGE(n)            (0x40 + (n))    /* CardBus bridges only */

/* Interface status */
#define EXCA_STATUS_BVD1        0x01
#define EXCA_STATUS_BVD2        0x02
#define EXCA_STATUS_CD          0x0c
#define EXCA_STATUS_WP          0x10
#define EXCA_STATUS_READY       0x20
#define EXCA_STATUS_POWERON     0x40

/* Power and RESETDRV control */
#define EXCA_POWER_OUTPUT       0x80
#define EXCA_POWER_VCC_ON       0x10
#define EXCA_POWER_VCC_3V       0x08    /* with VCC_ON, on DF-step parts */

/* Interrupt and general control */
#define EXCA_INTCTL_NORESET     0x40    /* 0 holds the card in RESET */
#define EXCA_INTCTL_IOCARD      0x20
#define EXCA_INTCTL_IRQ         0x0f

/* Card status change (and the enables in CSCINT 3:0) */
#define EXCA_CSC_BVD1           0x01
#define EXCA_CSC_BVD2           0x02
#define EXCA_CSC_READY          0x04
#define EXCA_CSC_DETECT         0x08
#define EXCA_CSC_EVENTS         0x0f

#define EXCA_GENCTL_SW_CD       0x20    /* software card detect interrupt */
#define EXCA_GBLCTL_WRBACK      0x04    /* CSC is write-1-to-clear */

typedef struct ExcaSocket ExcaSocket;


struct ExcaSocket {
    PCMCIASlotBus slot;

    /* set by the front end before exca_socket_init() */
    uint8_t ident;              /* register 0x00 */
    bool page_regs;             /* 0x40-0x44 hold A31:24 of memory windows */
    bool vcc_3v;                /* Vcc 3.3 V selectable (DF step) */
    /* optional: runs after a card was inserted or removed */
    void (*card_changed)(void *opaque);
    /* optional: the socket holds a card of another kind (CardBus) */
    bool (*occupied)(void *opaque);

    uint8_t regs[EXCA_REGS];
    uint8_t page[EXCA_MEM_WINDOWS];
    uint8_t csc;                /* latched card status changes */
    bool ready;                 /* READY as last reported, for its CSC */

    PCMCIAWindow io_win[EXCA_IO_WINDOWS];
    PCMCIAWindow mem_win[EXCA_MEM_WINDOWS];

    void (*irq_update)(void *opaque);
    void *opaque;
};

/*
 * Set up socket @index of @bridge: its slot bus and its windows, which
 * are added (disabled) to @mem_space and @io_space.  @irq_update runs
 * whenever exca_csc_irq() or exca_card_irq() may have changed.
 */
void exca_socket_init(ExcaSocket *s, DeviceState *bridge, unsigned index,
                      MemoryRegion *mem_space, MemoryRegion *io_space,
                      void (*irq_update)(void *opaque), void *opaque);
void exca_socket_exit(ExcaSocket *s);
/* Power-on register state; the card, if any, stays inserted. */
void exca_socket_reset(ExcaSocket *s);
/* Restore the windows and slot state after migration. */
void exca_socket_post_load(ExcaSocket *s);

uint8_t exca_read(ExcaSocket *s, uint8_t reg);
void exca_write(ExcaSocket *s, uint8_t reg, uint8_t val);

/* A card status change interrupt is pending (CSC & its enables). */
bool exca_csc_irq(ExcaSocket *s);
/* The ISA IRQ that CSCINT selects for it. */
static inline unsigned exca_csc_irq_line(ExcaSocket *s)
{
    return s->regs[EXCA_CSCINT] >> 4;
}
/* The card's IREQ# is asserted and passed on (I/O card mode, live card). */
bool exca_card_irq(ExcaSocket *s);
/* The ISA IRQ that INTCTL selects for it. */
static inline unsigned exca_card_irq_line(ExcaSocket *s)
{
    return s->regs[EXCA_INTCTL] & EXCA_INTCTL_IRQ;
}

extern const VMStateDescription vmstate_exca_socket;

#define VMSTATE_EXCA_SOCKET(_field, _state) \
    VMSTATE_STRUCT(_field, _state, 1, vmstate_exca_socket, ExcaSocket)

#endif
