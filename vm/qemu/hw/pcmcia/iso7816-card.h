/*
 * A virtual ISO/IEC 7816 smart card for the emulated smart card readers.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The card is plain state plus functions; a reader model embeds one and
 * drives it at the level its own hardware works at: activation (ATR),
 * PPS, T=0 character exchanges (header, procedure bytes, data) and T=1
 * blocks.  Everything is deterministic, so tests can predict every byte.
 *
 * THE CARD
 *
 * ATR: configurable (the readers' "atr" property, hex).  The card derives
 * from it what it offers: protocols (TD1/TD2; none means T=0 only), its
 * maximum Fi/Di (TA1), specific mode (TA2 present: no PPS, TA1 applies at
 * once), the convention (TS 3B direct, 3F inverse) and IFSC (the first
 * T=1 TA, default 32).  Until a PPS or the first exchange the card is in
 * negotiable mode at Fi/Di 372/1; the first exchange fixes the first
 * offered protocol.  ISO7816_DEFAULT_ATR offers T=0 and T=1, TA1 = 13
 * (372/4), no TA3 (IFSC 32).
 *
 * PPS: only as the first exchange after the ATR (PPSS = FF); the card
 * accepts an offered protocol and, in PPS1, Fi equal to TA1's with any
 * Di up to TA1's (or the default 11).  An acceptable request is echoed;
 * an unacceptable PPS1 is left out of the reply (Fi/Di stay 372/1); a
 * malformed request or an unoffered protocol gets no reply (mute).
 *
 * Files: MF 3F00; transparent EFs 0101 (128 bytes) and 0102 (1024 bytes):
 *   EF 0101: bytes 0-31 "pcmcia-legacy test file EF0101.\n", byte i >= 32
 *            is i;
 *   EF 0102: byte i is (i * 31 + 7) & 0xff.
 * Commands (short APDUs; CLA 00 unless noted):
 *   SELECT        00 A4 P1 P2 Lc FID: P1 00 or 02, P2 0C (no reply data)
 *                 or 00/04 (FCP: 62 .. 80 size 82 type 83 FID); no data
 *                 with P1 00 selects the MF.  6A82 unknown file.
 *   READ BINARY   00 B0 off_hi off_lo Le: from the selected EF; 6986 if no
 *                 EF is selected, 6B00 offset past the end; T=1 returns
 *                 what is left with 6282 when Le asks for more; T=0 answers
 *                 6Cxx when P3 is not what is left (or more).
 *   GET CHALLENGE 00 84 00 00 Le: Le bytes (0 = 256) of a PRNG restarted
 *                 from the "challenge-seed" property at every activation:
 *                 xorshift64* (s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
 *                 byte = (s * 0x2545F4914F6CDD1D) >> 56), s = seed, or
 *                 0x9E3779B97F4A7C15 when the seed is 0.
 *   GET RESPONSE  00 C0 00 00 Le: T=0 only, after 61xx.
 *   ECHO          80 EC P1 P2 Lc data [Le]: proprietary, for benchmarks;
 *                 case 4 returns the data (T=0: 61xx, then GET RESPONSE).
 * Errors: 6D00 unknown INS, 6E00 wrong CLA, 6700 wrong length, 6A86 wrong
 * P1/P2.
 *
 * T=1: LRC only; NAD 00; I-block chaining both ways (the host chains
 * above IFSC, the card above IFSD, 32 until S(IFS request)); R-blocks
 * (retransmission, chain continuation, error reply to a bad LRC or
 * length); S(RESYNCH), S(IFS), S(ABORT) requests answered.
 */

#ifndef HW_PCMCIA_ISO7816_CARD_H
#define HW_PCMCIA_ISO7816_CARD_H

#include "qapi/error.h"

#define ISO7816_DEFAULT_ATR     "3B981380214550434C766361726452"
#define ISO7816_ATR_MAX         33
#define ISO7816_APDU_MAX        261     /* 4 + 1 + 255 + 1 */
#define ISO7816_RESP_MAX        258     /* 256 + SW1 SW2 */
#define ISO7816_T1_BLOCK_MAX    (3 + 254 + 1)
#define ISO7816_DEFAULT_CLOCK   3571200 /* Hz: 372 clocks a bit = 9600 bps */

/* A reply that never comes: the card stays silent. */
#define ISO7816_MUTE            (-1)

typedef enum ISO7816State {
    ISO7816_INACTIVE,       /* not powered (or in reset) */
    ISO7816_NEGOTIABLE,     /* ATR sent; a PPS may follow */
    ISO7816_ACTIVE,         /* protocol fixed */
} ISO7816State;

typedef struct ISO7816Card {
    /* configuration */
    uint8_t atr[ISO7816_ATR_MAX];
    uint8_t atr_len;
    uint64_t seed;

    /* what the ATR offers */
    uint8_t protocols;      /* bit n: T=n offered */
    uint8_t first_proto;
    uint8_t ta1;            /* maximum Fi/Di, 0x11 when absent */
    bool specific;          /* TA2 present */
    bool inverse;           /* inverse convention */
    uint8_t ifsc;

    /* session */
    uint8_t state;          /* ISO7816State */
    uint8_t proto;
    uint8_t fidi;           /* Fi/Di in use, TA1 coding */
    uint64_t prng;
    uint16_t cur_file;      /* 0: none selected */

    /* T=0: command waiting for its data, reply kept for GET RESPONSE */
    uint8_t t0_hdr[5];
    bool t0_want_data;
    uint8_t pending[ISO7816_RESP_MAX];
    uint16_t pending_len;

    /* T=1 */
    uint8_t ns;             /* N(S) of the card's next I-block */
    uint8_t nr;             /* N(S) expected from the host */
    uint8_t ifsd;
    uint8_t rx[ISO7816_APDU_MAX];
    uint16_t rx_len;
    bool rx_overflow;
    uint8_t tx[ISO7816_RESP_MAX];
    uint16_t tx_len;
    uint16_t tx_pos;        /* start of the chunk last sent */
    uint16_t tx_chunk;      /* its length */
    bool tx_chaining;
    uint8_t last[ISO7816_T1_BLOCK_MAX];
    uint16_t last_len;
} ISO7816Card;

extern const VMStateDescription vmstate_iso7816_card;

/* Defaults: ISO7816_DEFAULT_ATR, seed 0, inactive. */
void iso7816_init(ISO7816Card *c);

/* Configuration.  The ATR is taken as given (2..33 bytes), valid or not. */
bool iso7816_set_atr_hex(ISO7816Card *c, const char *hex, Error **errp);
char *iso7816_get_atr_hex(const ISO7816Card *c);

/* Power: activation returns the ATR (logical bytes) and its length. */
int iso7816_activate(ISO7816Card *c, uint8_t *atr);
void iso7816_deactivate(ISO7816Card *c);

/*
 * PPS request/reply; ISO7816_MUTE when the card does not answer.  The new
 * Fi/Di and protocol apply after the reply.
 */
int iso7816_pps(ISO7816Card *c, const uint8_t *req, int len, uint8_t *reply);

/*
 * T=0.  The header returns what the card sends next: ACK (INS) alone when
 * it wants the command data (call iso7816_t0_data with P3 bytes), else
 * ACK + P3 data bytes + SW1 SW2, or just SW1 SW2.  Data returns SW1 SW2.
 * ISO7816_MUTE when the card is not in T=0 (or not expecting this).
 */
int iso7816_t0_header(ISO7816Card *c, const uint8_t *hdr, uint8_t *out);
int iso7816_t0_data(ISO7816Card *c, const uint8_t *data, int len,
                    uint8_t *out);

/* T=1: one block in, one block out (or ISO7816_MUTE). */
int iso7816_t1_block(ISO7816Card *c, const uint8_t *blk, int len,
                     uint8_t *out);

/*
 * Protocol a reader is about to use for an exchange: fixes the first
 * offered protocol after the ATR; false when the card runs another one.
 */
bool iso7816_use_protocol(ISO7816Card *c, int proto);

/* Fi/Di (TA1 coding) to clocks per ETU (F / D); 0 for RFU values. */
unsigned iso7816_etu_clocks(uint8_t fidi);
/* Current clocks per ETU of the card (372 before a PPS). */
unsigned iso7816_card_etu(const ISO7816Card *c);

#endif
