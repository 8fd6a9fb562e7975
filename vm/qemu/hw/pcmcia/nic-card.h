/*
 * What every Ethernet PC Card model needs besides its chip: a CIS with
 * the card's identity and its MAC address, and a wire that takes time.
 *
 *  - nic_card_build_cis() writes DEVICE (none), VERS_1, MANFID, FUNCID
 *    (network), FUNCE (LAN node ID: the MAC), the card's own CONFIG and
 *    CFTABLE_ENTRY tuples, NO_LINK and END.  A card of the days before
 *    MANFID leaves it out; one that keeps its MAC in a vendor tuple of
 *    its own names that tuple instead of FUNCE, and one that keeps it off
 *    the CIS (in a PROM) has neither.
 *  - NICWire paces frames at the card's `wire-rate` (bits/s, 0: frames
 *    take no time), preamble, FCS and inter-frame gap included.  The
 *    transmit side tells when a frame has left; the receive side holds
 *    a frame that arrives while the previous one is still on the wire
 *    (the receive hook returns 0, QEMU's queue keeps the frame) and
 *    flushes the queue when the wire is free.  A card whose fault=mute
 *    has struck (pcmcia-slot.h) never gets a frame off: the transmitter
 *    stays busy with it until the card is reset.
 *  - nic_card_realize(), nic_card_new_nic() and nic_card_unrealize() set
 *    up and tear down what every card model has (MAC address, CIS, TX
 *    timer, wire, NIC) in one order for all of them.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_NIC_CARD_H
#define HW_PCMCIA_NIC_CARD_H

#include "migration/vmstate.h"
#include "net/net.h"
#include "qemu/timer.h"
#include "pcmcia-slot.h"

/* A card's identity in its CIS. */
typedef struct NICCardIdentity {
    const char *vers1[4];       /* manufacturer, product, more; NULL ends */
    uint16_t manfid[2];         /* manufacturer code, card ID */
    bool no_manfid;             /* no MANFID tuple */
    uint8_t node_tuple;         /* MAC in this tuple code; 0: FUNCE */
    bool no_node_id;            /* the MAC is not in the CIS at all */
    /* CONFIG and CFTABLE_ENTRY tuples, complete with codes and links */
    const uint8_t *config_tuples;
    int config_tuples_len;
} NICCardIdentity;

/* The CIS into @cis (at most @size bytes); returns its length. */
int nic_card_build_cis(uint8_t *cis, int size, const NICCardIdentity *id,
                       const uint8_t *mac);

typedef struct NICWire {
    uint64_t rate;              /* bits/s, 0: frames take no time */
    int64_t tx_free;            /* QEMU_CLOCK_VIRTUAL ns, each direction */
    int64_t rx_free;
    int64_t tx_late;            /* how late the last frame's timer fired */
    bool rx_held;               /* the peer holds a frame for rx_free */
    QEMUTimer *rx_timer;        /* flushes the frames the peer holds */
    NICState *nic;
    PCLCardState *card;         /* whose fault=mute holds frames back */
} NICWire;

/* nic_wire_tx_slot(): the card is mute, the frame never leaves */
#define NIC_WIRE_NEVER  (-1)

/* Time one frame of @len bytes (FCS excluded) takes on the wire. */
int64_t nic_wire_frame_ns(const NICWire *w, size_t len);

void nic_wire_init(NICWire *w);
/* The NIC whose queue the receive side flushes, on @card. */
void nic_wire_attach(NICWire *w, NICState *nic, PCLCardState *card);
void nic_wire_free(NICWire *w);
/*
 * Both directions idle, nothing pending; returns whether frames were
 * held, which the card should flush once its receiver is in shape.
 */
bool nic_wire_reset(NICWire *w);

/*
 * A frame of @len bytes arrives: false when it must wait (the receive
 * hook returns 0 then), true when the card takes it now.
 */
bool nic_wire_rx_ready(NICWire *w, size_t len);

/*
 * A frame of @len bytes starts as soon as the wire is free; returns the
 * QEMU_CLOCK_VIRTUAL time it has left, 0 when it leaves at once (no wire
 * rate), or NIC_WIRE_NEVER when the card is mute: the card then keeps it
 * on the wire, neither sent nor done, until it is reset.
 */
int64_t nic_wire_tx_slot(NICWire *w, size_t len);
/*
 * The card's timer for the frame of @len bytes fired: how late it was
 * (up to one frame) is taken off the next frame's start.
 */
void nic_wire_tx_fired(NICWire *w, size_t len);
/* An aborted transmission no longer holds the wire. */
void nic_wire_tx_abort(NICWire *w);

extern const VMStateDescription vmstate_nic_wire;

/*
 * Where a card model keeps what every Ethernet card has.  The fields stay
 * in the card's own state, under the names its VMState gives them.
 */
typedef struct NICCardParts {
    NICConf *conf;
    NICState **nic;
    NICWire *wire;
    QEMUTimer **tx_timer;
    uint8_t *cis;
    int cis_size;
    int *cis_len;
} NICCardParts;

/*
 * The parts of a card state @s: its fields wire, tx_timer, cis and
 * cis_len, with the NIC's configuration and state in @conf_ and @nic_.
 */
#define NIC_CARD_PARTS_AT(s, conf_, nic_) (&(NICCardParts) {          \
        .conf = &(s)->conf_, .nic = &(s)->nic_, .wire = &(s)->wire,   \
        .tx_timer = &(s)->tx_timer, .cis = (s)->cis,                  \
        .cis_size = sizeof((s)->cis), .cis_len = &(s)->cis_len })
/* The same for a card that names them conf and nic, as most do. */
#define NIC_CARD_PARTS(s) NIC_CARD_PARTS_AT(s, conf, nic)

/*
 * Realize, first step: a MAC address if none was given, the CIS for @id
 * with it, the TX timer (@tx_cb with @opaque) and the wire.  The card
 * then builds what depends on the MAC (an EEPROM), resets itself and
 * creates its NIC with nic_card_new_nic(), in the order it needs.
 */
void nic_card_realize(const NICCardParts *p, const NICCardIdentity *id,
                      QEMUTimerCB *tx_cb, void *opaque);
/* Realize, last step: the NIC (@info, @opaque), on the card's wire. */
void nic_card_new_nic(DeviceState *dev, const NICCardParts *p,
                      NetClientInfo *info, void *opaque);
/*
 * Surprise removal: no timer may fire and no frame may arrive after
 * this; the netdev is left free for the next card.
 */
void nic_card_unrealize(const NICCardParts *p);

#define VMSTATE_NIC_WIRE(f, s) \
    VMSTATE_STRUCT(f, s, 1, vmstate_nic_wire, NICWire)

#endif
