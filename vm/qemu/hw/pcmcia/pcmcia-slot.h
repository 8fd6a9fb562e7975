/*
 * PC Card slots as QEMU buses: the contract between socket front ends
 * (PC Card bridges) and card models.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 *
 * HOW A CARD PLUGS IN
 *
 * A card is a QOM type derived from TYPE_PCL_CARD (below; itself a
 * TYPE_PCMCIA_CARD of QEMU's include/hw/pcmcia.h) that fills in
 * PCMCIACardClass and, in its class_init, sets
 *
 *     dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
 *
 * Every socket of a bridge is one PCMCIASlotBus holding at most one card.
 * Buses are named after the bridge's id: "-device i82092,id=pcc" gives
 * "pcc.0" (socket A) and "pcc.1" (socket B).  A bridge without an id
 * gets "pcmcia-slot.N", N counting sockets in creation order.
 *
 *   -device CARD,bus=pcc.0,...        card present at power-on
 *   device_add CARD,bus=pcc.1,id=c1   insertion at run time
 *   device_del c1                     surprise removal, effective at once
 *
 * Life cycle, as the slot drives it (attach and detach are optional):
 *  - realize: the card builds its state; card->slot is still NULL.
 *  - insertion: card->slot points at the socket, then attach() runs,
 *    then the bridge sees the card (card detect, status change event).
 *  - power: whenever the host applies power or releases RESET, the slot
 *    resets the card (device_cold_reset), so a card's reset handler
 *    describes its state right after power-up.
 *  - access hooks run only while the card is inserted, powered and out of
 *    RESET.  Anything else reads as a floating bus (0xff) at the bridge.
 *  - removal: the bridge sees the card gone first, then detach() runs,
 *    then card->slot becomes NULL, then the card is unrealized.  The host
 *    gets no warning (a surprise eject), so unrealize must cancel timers
 *    and drain block I/O, and the card must not touch card->slot after
 *    detach().
 *
 * The access hooks of PCMCIACardClass:
 *  - attr_read/attr_write: attribute memory, byte address A25..A0 as the
 *    card sees it.  The CIS lives at even addresses; see pcmcia_cis_read().
 *  - common_read/common_write: common memory, card address A25..A0.
 *  - io_read/io_write: I/O space, the address as the card sees it (Intel
 *    bridges pass the host port unchanged; other bridges may add an
 *    offset).  Cards decode only the address lines they implement.
 *  Each call is one card bus cycle.  A 16-bit cycle happens only at an
 *  even address and carries D15..D0; an 8-bit cycle carries its byte in
 *  bits 7..0, also at odd addresses.  pcmcia_slot_cycle_is_16bit() tells
 *  which one is in progress, for registers that behave differently (an
 *  ATA data register); most cards can ignore it.
 *
 * Interrupts: a card asserts its IREQ# pin with
 *     qemu_set_irq(card->slot->irq, 1)       (and 0 to release it),
 * a level, active high on the QEMU side.  Check card->slot != NULL first.
 * The bridge decides whether and where the level goes (I/O card mode,
 * routing registers).
 */

#ifndef HW_PCMCIA_PCMCIA_SLOT_H
#define HW_PCMCIA_PCMCIA_SLOT_H

#include "hw/qdev-core.h"
#include "hw/pcmcia.h"
#include "qom/object.h"

#define TYPE_PCMCIA_SLOT_BUS "pcmcia-slot"
OBJECT_DECLARE_SIMPLE_TYPE(PCMCIASlotBus, PCMCIA_SLOT_BUS)

/*
 * TYPE_PCL_CARD, the base of every card model here, carries what the slot
 * does for any card, so that no card needs code of its own for it:
 *
 *   cis        hex string: a CIS image that replaces the card's own (CIS
 *              fuzzing).  Byte i reads at attribute address 2*i, odd
 *              addresses below 2*length read 0xff; attribute memory from
 *              2*length up (the configuration registers) and every write
 *              still reach the card.  Pad an image with 0xff up to the
 *              card's COR to hide all of its own CIS.
 *   cis-file   the same, from a binary file.
 *   fault      string, run time: a misbehaving card (fault injection).
 *              "none" (default); "all-ones": every read of the card
 *              returns all ones and writes are lost; "vanish": the card's
 *              contacts break (the bridge sees an empty socket, as on a
 *              surprise eject, while the device stays until device_del);
 *              "irq-storm": the card's IREQ# stays asserted; "not-ready":
 *              READY never comes (from the next reset on); "mute": work
 *              the card was given never completes (a model that supports
 *              it says so; the readers withhold every reply, the NICs
 *              every frame to send, nic-card.h).  It strikes
 *              once fault-after more card cycles have run (of any space),
 *              or at once, or at insertion when given then.
 *   fault-after  uint32, run time: see fault (default 0); set it first.
 *
 * cis and cis-file are read when the card goes into its slot; a bad value
 * makes the insertion fail.  A card's state starts with a PCLCardState.
 */
#define TYPE_PCL_CARD "pcl-card"
OBJECT_DECLARE_SIMPLE_TYPE(PCLCardState, PCL_CARD)

typedef enum PCLCardFault {
    PCL_FAULT_NONE,
    PCL_FAULT_ALL_ONES,
    PCL_FAULT_VANISH,
    PCL_FAULT_IRQ_STORM,
    PCL_FAULT_NOT_READY,
    PCL_FAULT_MUTE,
} PCLCardFault;

struct PCLCardState {
    /*< private >*/
    PCMCIACardState parent_obj;
    /*< public >*/

    char *cis_hex;
    char *cis_file;
    uint8_t *cis;               /* the replacement CIS, if any */
    size_t cis_len;
    PCLCardFault fault;
    uint32_t fault_after;
    uint32_t fault_countdown;   /* card cycles until the fault strikes */
    bool fault_struck;
};

/* Whether @card's fault is @fault and has struck. */
static inline bool pcl_card_faulted(const PCLCardState *card,
                                    PCLCardFault fault)
{
    return card->fault == fault && card->fault_struck;
}

/* Card address spaces of a 16-bit PC Card. */
typedef enum PCMCIASpace {
    PCMCIA_SPACE_ATTR,
    PCMCIA_SPACE_COMMON,
    PCMCIA_SPACE_IO,
} PCMCIASpace;

/* What a bridge front end learns from its slot. */
typedef struct PCMCIASlotOps {
    /* A card was inserted or removed (pcmcia_slot_card() tells which). */
    void (*card_changed)(void *opaque);
    /* The card's IREQ# level changed. */
    void (*ireq_changed)(void *opaque, bool level);
    /*
     * Optional: the socket holds another kind of card (a CardBus card
     * in a CardBus socket), so a 16-bit card cannot go in.
     */
    bool (*occupied)(void *opaque);
} PCMCIASlotOps;

struct PCMCIASlotBus {
    /*< private >*/
    BusState parent_obj;
    /*< public >*/

    /* card->slot points here while a card is inserted */
    PCMCIASocket socket;
    PCMCIACardState *card;
    unsigned index;             /* socket number on its bridge */

    const PCMCIASlotOps *ops;
    void *opaque;

    bool ireq;                  /* IREQ# as the bridge sees it */
    bool card_ireq;             /* last IREQ# level from the card */
    bool live;                  /* powered and out of RESET */
    bool cycle16;               /* width of the cycle in progress */
    PCLCardState *pcl_card;     /* the card as a TYPE_PCL_CARD, if it is */
};

/* --- For card models --- */

/*
 * One byte of a CIS kept as a plain tuple chain: byte i of @cis appears
 * at attribute address 2*i; odd addresses and addresses past the end read
 * 0xff.  Cards point PCMCIACardClass.cis/cis_len at such a chain and call
 * this from attr_read for addresses below their configuration registers.
 */
uint8_t pcmcia_cis_read(const uint8_t *cis, int cis_len, uint32_t addr);

/*
 * The function configuration registers of a single-function card, for
 * the many cards that have them alike: the COR at attribute address
 * @base, the CCSR at @base + 2 and, with @prr_scr, a PRR and an SCR at
 * +4 and +6 that read 0 (no pin replacement, socket 0); the CIS below
 * @base; anything else reads 0xff.  Setting the COR's soft reset bit runs
 * the card's power-on reset, then the COR takes the value written; the
 * interrupt bit of the CCSR is the card's own, a write keeps it.
 */
typedef struct PCMCIAConfigRegs {
    uint32_t base;              /* attribute address of the COR */
    bool prr_scr;               /* a PRR and an SCR too */
    DeviceReset reset;          /* the card's power-on reset */
    /* the card's own trace events for register accesses */
    void (*trace_read)(uint32_t addr, uint8_t val);
    void (*trace_write)(uint32_t addr, uint8_t val);
    void (*trace_ireq)(int level);
} PCMCIAConfigRegs;

/*
 * Where the card keeps its CIS (as for pcmcia_cis_read()), its COR and
 * CCSR and its IREQ# level: fields of its own state, which its VMState
 * names.
 */
typedef struct PCMCIAConfigState {
    const uint8_t *cis;
    int cis_len;
    uint8_t *cor;
    uint8_t *ccsr;
    bool *ireq;
} PCMCIAConfigState;

/* The same for a card state @s that names them cis, cis_len, cor... */
#define PCMCIA_CONFIG_STATE(s) (&(PCMCIAConfigState) {               \
        .cis = (s)->cis, .cis_len = (s)->cis_len,                     \
        .cor = &(s)->cor, .ccsr = &(s)->ccsr, .ireq = &(s)->ireq })

/* The card's attr_read. */
uint8_t pcmcia_config_read(const PCMCIAConfigRegs *r,
                           const PCMCIAConfigState *st, uint32_t addr);
/*
 * The card's attr_write, @dev being the card; returns whether the COR or
 * the CCSR was written (the card then updates its IREQ#).
 */
bool pcmcia_config_write(const PCMCIAConfigRegs *r,
                         const PCMCIAConfigState *st, DeviceState *dev,
                         uint32_t addr, uint8_t val);
/*
 * The card's interrupt request is @level: the CCSR's interrupt bit shows
 * it, and IREQ# follows it while the host has chosen a configuration,
 * holds no soft reset and, on a card with an interrupt enable of its own
 * in the path to IREQ# only, @enabled.
 */
void pcmcia_config_set_irq(const PCMCIAConfigRegs *r,
                           const PCMCIAConfigState *st,
                           PCMCIACardState *card, bool level, bool enabled);

/* Whether the card cycle in progress is a 16-bit one. */
bool pcmcia_slot_cycle_is_16bit(PCMCIACardState *card);

/* --- For bridge front ends --- */

/*
 * Create the slot bus in place (@bus is usually embedded in the bridge's
 * state).  The bus is its own hotplug handler.
 */
void pcmcia_slot_bus_init(PCMCIASlotBus *bus, size_t bus_size,
                          DeviceState *bridge, unsigned index,
                          const PCMCIASlotOps *ops, void *opaque);

static inline PCMCIACardState *pcmcia_slot_card(PCMCIASlotBus *bus)
{
    return bus->card;
}

/*
 * Whether the card in the slot lets READY come up once it is powered and
 * out of RESET (bridges AND it into their READY status).
 */
static inline bool pcmcia_slot_card_ready(PCMCIASlotBus *bus)
{
    return !(bus->pcl_card &&
             pcl_card_faulted(bus->pcl_card, PCL_FAULT_NOT_READY));
}

/*
 * Power and RESET as the bridge drives them.  A card becomes live when
 * it is powered with RESET released; it is reset on that edge.
 */
void pcmcia_slot_set_live(PCMCIASlotBus *bus, bool live);

/*
 * One host access of @size bytes (1 or 2) at card address @addr.
 * @wide: the bridge runs 16-bit cycles for this window; otherwise, and
 * at odd addresses, a 2-byte access becomes two 8-bit cycles.  Without a
 * live card, reads return all ones and writes go nowhere.
 */
uint32_t pcmcia_slot_read(PCMCIASlotBus *bus, PCMCIASpace space,
                          uint32_t addr, unsigned size, bool wide);
void pcmcia_slot_write(PCMCIASlotBus *bus, PCMCIASpace space,
                       uint32_t addr, uint32_t val, unsigned size, bool wide);

#endif
