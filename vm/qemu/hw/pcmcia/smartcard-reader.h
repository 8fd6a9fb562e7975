/*
 * What the emulated PC Card smart card readers (cm4000, cm4040) share:
 * the smart card in the reader and its properties, the PC Card
 * configuration registers, and the wire timing.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-or-later
 *
 * PROPERTIES (on every reader; the ones marked "run time" also work with
 * QMP qom-set on a running reader, e.g.
 *     { "execute": "qom-set", "arguments": { "path": "rdr0",
 *       "property": "card-present", "value": false } })
 *   card-present    bool, run time: a smart card sits in the reader (default
 *                   true).  false pulls it out (the reader sees the contact
 *                   switch open, the card loses power); true puts it back,
 *                   unpowered, for the host to activate.  Independent of
 *                   the PC Card itself, which device_del ejects.
 *   atr             hex string, run time: the card's ATR, taken as given
 *                   (default ISO7816_DEFAULT_ATR); used at the next
 *                   activation.
 *   challenge-seed  uint64, run time: GET CHALLENGE's PRNG seed (default 0);
 *                   used from the next activation on.
 *   wire-timing     bool, run time: delay every reply by the time its
 *                   characters take on the card's wire at the baud rate in
 *                   use (default true); false: replies are ready at once.
 *   clock-hz        uint32: the card clock (default 3571200, so 372 clocks
 *                   an ETU is 9600 bps).
 *   wire-ns         uint64, read-only: modelled wire time of all exchanges
 *                   so far, in ns (counted in both timing modes), for
 *                   benchmarks to compare with their wall-clock time.
 *   wire-chars      uint64, read-only: characters exchanged with the card.
 *   card-etu        uint32, read-only: card clocks per ETU the smart card
 *                   runs at now (372 until a PPS; 0 when not active).
 *   card-protocol   string, read-only: "T=0", "T=1" or "inactive".
 * With the card base's fault=mute (pcmcia-slot.h) no reply comes, not
 * even one already on its way: the host's timeouts must end each wait.
 */

#ifndef HW_PCMCIA_SMARTCARD_READER_H
#define HW_PCMCIA_SMARTCARD_READER_H

#include "pcmcia-slot.h"
#include "qom/object.h"
#include "iso7816-card.h"

#define TYPE_PCL_SMARTCARD_READER "pcl-smartcard-reader"
OBJECT_DECLARE_TYPE(SmartcardReaderState, SmartcardReaderClass,
                    PCL_SMARTCARD_READER)

/* PC Card configuration registers, in attribute memory */
#define SCR_CONFIG_BASE     0x200
#define SCR_COR_INDEX       0x3f
#define SCR_COR_SRESET      0x80

struct SmartcardReaderState {
    /*< private >*/
    PCLCardState parent_obj;
    /*< public >*/

    ISO7816Card card;
    QEMUTimer *timer;       /* one pending reply at a time */
    bool card_present;
    bool wire_timing;
    uint32_t clock_hz;

    uint8_t cor;
    uint8_t ccsr;

    uint64_t wire_ns;
    uint64_t wire_chars;
};

struct SmartcardReaderClass {
    /*< private >*/
    PCMCIACardClass parent_class;
    /*< public >*/

    /* The smart card went in or out (card_present already updated). */
    void (*card_changed)(SmartcardReaderState *s);
    /* The PC Card function is reset (power-up, COR SRESET). */
    void (*function_reset)(SmartcardReaderState *s);
    /* The delay armed by smartcard_reader_schedule() is over. */
    void (*reply_due)(SmartcardReaderState *s);
};

/* Whether the host has configured the card, i.e. its I/O port decodes. */
static inline bool smartcard_reader_io_enabled(SmartcardReaderState *s)
{
    return (s->cor & SCR_COR_INDEX) != 0;
}

/*
 * Wire time of @chars characters of @etus ETU each plus @idle_etus ETU
 * of guard time, at @etu_clocks card clocks per ETU, in ns.  It is added
 * to the wire-ns statistic; the caller delays its reply by the result.
 */
int64_t smartcard_reader_wire_time(SmartcardReaderState *s, unsigned chars,
                                   unsigned etus, unsigned idle_etus,
                                   unsigned etu_clocks);

/*
 * Whether a UART at @reader_etu clocks an ETU understands a card at
 * @card_etu: within 2 %, well inside the half bit a character may drift.
 */
static inline bool smartcard_reader_etu_match(unsigned reader_etu,
                                              unsigned card_etu)
{
    unsigned diff = reader_etu > card_etu ? reader_etu - card_etu :
                                            card_etu - reader_etu;

    return diff * 50 <= card_etu;
}

/* Card clock cycles (e.g. before an ATR) in ns, also counted in wire-ns. */
int64_t smartcard_reader_clocks_ns(SmartcardReaderState *s, uint64_t clocks);

/*
 * Call the class's reply_due() @delay_ns from now: at once (before
 * returning) in zero-delay mode or for a zero delay.  Replaces any delay
 * still pending.
 */
void smartcard_reader_schedule(SmartcardReaderState *s, int64_t delay_ns);
void smartcard_reader_cancel(SmartcardReaderState *s);

extern const VMStateDescription vmstate_smartcard_reader;

#endif
