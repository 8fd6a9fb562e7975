/*
 * Omnikey CardMan 4040: a PC Card smart card reader that is a CCID device
 * behind an I/O-mapped FIFO.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   -device cm4040,bus=pcc.0,id=rdr1[,atr=HEX][,card-present=off]
 *          [,challenge-seed=N][,wire-timing=off][,clock-hz=HZ]
 * Properties: see smartcard-reader.h.
 *
 * Ports:
 *   +0 bulk-out (write) / bulk-in (read) data
 *   +1 buffer status: 01 bulk-out full (never: the reader takes a byte at
 *      once), 02 bulk-in full: a reply byte waits, and once more after
 *      the last one until the host signals it is done
 *   +2 sync control (write): 80 a message starts (drops an unread reply),
 *      04 the host has written the message, 08 the host has read the
 *      reply (the next bulk-in read is a dummy one), 40 abort; 01 power
 *      down, 20/10/02 (notification, interrupt) are accepted and ignored
 *
 * The reader answers one CCID message at a time, slot 0 only, at TPDU
 * level: XfrBlock carries T=0 TPDUs (header + data; the reply is data
 * and SW1 SW2, procedure bytes handled by the reader) or T=1 blocks as
 * they go on the wire (the host runs the T=1 protocol).  A PPS request
 * (FF ...) in an XfrBlock right after the ATR goes to the card as is.
 * IccPowerOn activates (or resets) the card and returns the ATR; the
 * slot parameters go back to their defaults from the ATR (Fi/Di 11, the
 * first offered protocol).  SetParameters changes protocol or Fi/Di
 * with a PPS (after a warm reset if the card is past its ATR); a short
 * PPS reply leaves Fi/Di 11 and fails with bError 10, an unaccepted one
 * fails with ICC_PROTOCOL_NOT_SUPPORTED.  GetSlotStatus reports a
 * removed card as absent (bmICCStatus 2); the 4040 has no interrupt
 * pipe here, so there is no NotifySlotChange.  Replies are held back by
 * the wire time of the exchange at the Fi/Di in use.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
#include "pcmcia-slot.h"
#include "smartcard-reader.h"
#include "trace.h"

#define TYPE_CM4040 "cm4040"
OBJECT_DECLARE_SIMPLE_TYPE(CM4040State, CM4040)

#define CX_IO_MASK          0x3
#define CX_MSG_MAX          512

#define REG_DATA            0
#define REG_STATUS          1
#define REG_SYNC            2

#define ST_BULK_OUT_FULL    0x01
#define ST_BULK_IN_FULL     0x02

#define SYNC_START          0x80
#define SYNC_ABORT          0x40
#define SYNC_R2H_DONE       0x08
#define SYNC_H2R_DONE       0x04

/* CCID message types and codes */
#define PC_SET_PARAMETERS   0x61
#define PC_POWER_ON         0x62
#define PC_POWER_OFF        0x63
#define PC_GET_SLOT_STATUS  0x65
#define PC_SECURE           0x69
#define PC_ESCAPE           0x6b
#define PC_GET_PARAMETERS   0x6c
#define PC_RESET_PARAMETERS 0x6d
#define PC_ICC_CLOCK        0x6e
#define PC_XFR_BLOCK        0x6f
#define PC_ABORT            0x72
#define PC_SET_RATE         0x73
#define RDR_DATA_BLOCK      0x80
#define RDR_SLOT_STATUS     0x81
#define RDR_PARAMETERS      0x82
#define RDR_ESCAPE          0x83
#define RDR_RATE            0x84

#define CMD_FAILED          0x40
#define ICC_ACTIVE          0
#define ICC_INACTIVE        1
#define ICC_ABSENT          2

#define ERR_NOT_SUPPORTED   0x00
#define ERR_LENGTH          0x01    /* offset of dwLength */
#define ERR_SLOT            0x05    /* offset of bSlot */
#define ERR_PROTOCOL_NUM    0x07    /* offset of bProtocolNum */
#define ERR_FIDI            0x0a    /* offset of bmFindexDindex */
#define ERR_PROTO_UNSUPP    0xf6
#define ERR_ICC_MUTE        0xfe

#define ATR_DELAY_CLOCKS    10000
#define T1_BGT              22

enum { CX_IDLE, CX_RECEIVING, CX_BUSY, CX_REPLY, CX_TRAILER };

struct CM4040State {
    /*< private >*/
    SmartcardReaderState parent_obj;
    /*< public >*/

    uint8_t out[CX_MSG_MAX];    /* host to reader */
    uint16_t out_len;
    bool overrun;
    uint8_t in[CX_MSG_MAX];     /* reader to host */
    uint16_t in_len;
    uint16_t in_pos;
    uint8_t state;
    bool card_pulled;           /* while a message was being answered */

    /* slot parameters (abProtocolDataStructure) */
    uint8_t proto;
    uint8_t params[7];
};

static const uint8_t cm4040_cis[] = {
    0x01, 0x03, 0x00, 0x00, 0xff,                   /* DEVICE: none */
    0x15, 0x18, 0x04, 0x01,                         /* VERS_1 4.1 */
    'O', 'M', 'N', 'I', 'K', 'E', 'Y', 0x00,
    'C', 'a', 'r', 'd', 'M', 'a', 'n', ' ', '4', '0', '4', '0', 0x00,
    0xff,
    0x20, 0x04, 0x23, 0x02, 0x00, 0x02,             /* MANFID 0223:0200 */
    0x1a, 0x05, 0x01, 0x01, 0x00, 0x02, 0x03,       /* CONFIG: COR, CCSR */
    0x1b, 0x06, 0xc1, 0x01, 0x09,                   /* CFTABLE 1, I/O */
    0x01, 0x55,                                     /* Vcc 5 V */
    0x22,                                           /* 4 ports, 8-bit */
    0x14, 0x00,                                     /* NO_LINK */
    0xff,
};

static uint8_t icc_status(CM4040State *s)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);

    if (!r->card_present) {
        return ICC_ABSENT;
    }
    return r->card.state == ISO7816_INACTIVE ? ICC_INACTIVE : ICC_ACTIVE;
}

/* Build a reply message to the command in out[]. */
static void reply(CM4040State *s, uint8_t type, bool failed, uint8_t error,
                  uint8_t b9, const uint8_t *data, unsigned len)
{
    len = MIN(len, CX_MSG_MAX - 10);
    s->in[0] = type;
    stl_le_p(s->in + 1, len);
    s->in[5] = 0;
    s->in[6] = s->out_len > 6 ? s->out[6] : 0;
    s->in[7] = (failed ? CMD_FAILED : 0) | icc_status(s);
    s->in[8] = failed ? error : 0;
    s->in[9] = b9;
    if (len) {
        memcpy(s->in + 10, data, len);
    }
    s->in_len = 10 + len;
    s->in_pos = 0;
    trace_pcl_cm4040_reply(type, s->in[7], s->in[8], len);
}

static uint8_t reply_type(uint8_t cmd)
{
    switch (cmd) {
    case PC_POWER_ON:
    case PC_XFR_BLOCK:
    case PC_SECURE:
        return RDR_DATA_BLOCK;
    case PC_GET_PARAMETERS:
    case PC_SET_PARAMETERS:
    case PC_RESET_PARAMETERS:
        return RDR_PARAMETERS;
    case PC_ESCAPE:
        return RDR_ESCAPE;
    case PC_SET_RATE:
        return RDR_RATE;
    default:
        return RDR_SLOT_STATUS;
    }
}

static void fail(CM4040State *s, uint8_t error)
{
    reply(s, reply_type(s->out[0]), true, error, 0, NULL, 0);
}

static unsigned param_len(uint8_t proto)
{
    return proto ? 7 : 5;
}

/* Slot parameters for @proto at @fidi, the rest as the ATR implies. */
static void set_params(CM4040State *s, uint8_t proto, uint8_t fidi)
{
    ISO7816Card *card = &PCL_SMARTCARD_READER(s)->card;

    s->proto = proto;
    memset(s->params, 0, sizeof(s->params));
    s->params[0] = fidi;
    s->params[1] = (proto ? 0x10 : 0) | (card->inverse ? 0x02 : 0);
    s->params[3] = proto ? 0x4d : 0x0a;
    s->params[5] = card->ifsc;
}

static void default_params(CM4040State *s)
{
    ISO7816Card *card = &PCL_SMARTCARD_READER(s)->card;

    set_params(s, card->first_proto, card->specific ? card->ta1 : 0x11);
}

static void params_reply(CM4040State *s, bool failed, uint8_t error)
{
    reply(s, RDR_PARAMETERS, failed, error, s->proto, s->params,
          param_len(s->proto));
}

static unsigned slot_etu(CM4040State *s)
{
    unsigned etu = iso7816_etu_clocks(s->params[0]);

    return etu ? etu : 372;
}

static int64_t power_on(CM4040State *s, uint8_t *atr, int *len)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    int n = iso7816_activate(&r->card, atr);

    if (len) {
        *len = n;
    }
    default_params(s);
    return smartcard_reader_clocks_ns(r, ATR_DELAY_CLOCKS) +
           smartcard_reader_wire_time(r, n, 12, 0, 372);
}

static int64_t do_power_on(CM4040State *s)
{
    uint8_t atr[ISO7816_ATR_MAX];
    int64_t ns;
    int n;

    if (icc_status(s) == ICC_ABSENT) {
        fail(s, ERR_ICC_MUTE);
        return 0;
    }
    ns = power_on(s, atr, &n);
    reply(s, RDR_DATA_BLOCK, false, 0, 0, atr, n);
    return ns;
}

/* A T=0 TPDU: header (P3 = 0 if only four bytes) and command data. */
static int64_t xfr_t0(CM4040State *s, const uint8_t *tpdu, unsigned len)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    ISO7816Card *card = &r->card;
    uint8_t hdr[5] = { 0 }, out[ISO7816_RESP_MAX + 1];
    unsigned etu = slot_etu(s), chr = 12 + (s->params[2] == 0xff ? 0 :
                                             s->params[2]);
    int64_t ns;
    int n;

    if (len < 4) {
        fail(s, ERR_LENGTH);
        return 0;
    }
    memcpy(hdr, tpdu, MIN(len, 5));
    ns = smartcard_reader_wire_time(r, 5, chr, 0, etu);
    n = iso7816_t0_header(card, hdr, out);
    if (n == ISO7816_MUTE) {
        fail(s, ERR_ICC_MUTE);
        return ns;
    }
    ns += smartcard_reader_wire_time(r, n, 12, 0, etu);
    if (n == 1) {
        if (len <= 5) {
            fail(s, ERR_ICC_MUTE);      /* the card waits for data */
            return ns;
        }
        ns += smartcard_reader_wire_time(r, len - 5, chr, 0, etu);
        n = iso7816_t0_data(card, tpdu + 5, len - 5, out);
        if (n == ISO7816_MUTE) {
            fail(s, ERR_ICC_MUTE);
            return ns;
        }
        ns += smartcard_reader_wire_time(r, n, 12, 0, etu);
        reply(s, RDR_DATA_BLOCK, false, 0, 0, out, n);
    } else if (n == 2) {
        reply(s, RDR_DATA_BLOCK, false, 0, 0, out, 2);
    } else {
        reply(s, RDR_DATA_BLOCK, false, 0, 0, out + 1, n - 1);
    }
    return ns;
}

static int64_t do_xfr_block(CM4040State *s, const uint8_t *data,
                            unsigned len)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    ISO7816Card *card = &r->card;
    uint8_t out[ISO7816_T1_BLOCK_MAX];
    unsigned etu = slot_etu(s);
    int64_t ns;
    int n;

    if (icc_status(s) != ICC_ACTIVE) {
        fail(s, ERR_ICC_MUTE);
        return 0;
    }
    if (!smartcard_reader_etu_match(etu, iso7816_card_etu(card))) {
        trace_pcl_cm4040_mute(etu, iso7816_card_etu(card));
        fail(s, ERR_ICC_MUTE);
        return 0;
    }
    if (card->state == ISO7816_NEGOTIABLE && len && data[0] == 0xff) {
        ns = smartcard_reader_wire_time(r, len, 12, 0, etu);
        n = iso7816_pps(card, data, len, out);
        if (n == ISO7816_MUTE) {
            fail(s, ERR_ICC_MUTE);
            return ns;
        }
        /* follow the card: the host asked for it */
        set_params(s, card->proto, card->fidi);
        reply(s, RDR_DATA_BLOCK, false, 0, 0, out, n);
        return ns + smartcard_reader_wire_time(r, n, 12, 0, etu);
    }
    if (!iso7816_use_protocol(card, s->proto)) {
        fail(s, ERR_ICC_MUTE);
        return 0;
    }
    if (s->proto == 0) {
        return xfr_t0(s, data, len);
    }
    ns = smartcard_reader_wire_time(r, len, 11, T1_BGT, etu);
    n = iso7816_t1_block(card, data, len, out);
    if (n == ISO7816_MUTE) {
        fail(s, ERR_ICC_MUTE);
        return ns;
    }
    reply(s, RDR_DATA_BLOCK, false, 0, 0, out, n);
    return ns + smartcard_reader_wire_time(r, n, 11, 0, etu);
}

static int64_t do_set_parameters(CM4040State *s, const uint8_t *data,
                                 unsigned len)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    ISO7816Card *card = &r->card;
    uint8_t proto = s->out[7], req[4], ans[4];
    int64_t ns = 0;
    int n;

    if (proto > 1) {
        params_reply(s, true, ERR_PROTOCOL_NUM);
        return 0;
    }
    if (len != param_len(proto)) {
        params_reply(s, true, ERR_LENGTH);
        return 0;
    }
    if (!iso7816_etu_clocks(data[0])) {
        params_reply(s, true, ERR_FIDI);
        return 0;
    }
    if (icc_status(s) == ICC_ABSENT) {
        params_reply(s, true, ERR_ICC_MUTE);
        return 0;
    }
    if (icc_status(s) == ICC_INACTIVE ||
        (card->state == ISO7816_ACTIVE && card->proto == proto &&
         card->fidi == data[0])) {
        s->proto = proto;
        memcpy(s->params, data, len);
        params_reply(s, false, 0);
        return 0;
    }
    if (card->specific) {
        params_reply(s, true, card->proto != proto ? ERR_PROTOCOL_NUM :
                     ERR_FIDI);
        return 0;
    }
    if (card->state != ISO7816_NEGOTIABLE) {
        ns = power_on(s, ans, NULL);        /* warm reset, ATR dropped */
    }
    req[0] = 0xff;
    req[1] = 0x10 | proto;
    req[2] = data[0];
    req[3] = req[0] ^ req[1] ^ req[2];
    ns += smartcard_reader_wire_time(r, 4, 12, 0, 372);
    n = iso7816_pps(card, req, 4, ans);
    if (n == ISO7816_MUTE) {
        params_reply(s, true, ERR_PROTO_UNSUPP);
        return ns;
    }
    ns += smartcard_reader_wire_time(r, n, 12, 0, 372);
    s->proto = proto;
    memcpy(s->params, data, len);
    s->params[0] = card->fidi;
    if (n == 4) {
        params_reply(s, false, 0);
    } else {
        params_reply(s, true, ERR_FIDI);
    }
    return ns;
}

/* Answer the message in out[]; returns the wire time to hold it back. */
static int64_t process(CM4040State *s)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    const uint8_t *data = s->out + 10;
    uint32_t len;

    if (s->out_len < 10 || s->overrun) {
        fail(s, ERR_LENGTH);
        return 0;
    }
    len = ldl_le_p(s->out + 1);
    trace_pcl_cm4040_command(s->out[0], s->out[6], len);
    if (len != s->out_len - 10) {
        fail(s, ERR_LENGTH);
        return 0;
    }
    if (s->out[5] != 0) {
        fail(s, ERR_SLOT);
        return 0;
    }
    switch (s->out[0]) {
    case PC_POWER_ON:
        return do_power_on(s);
    case PC_POWER_OFF:
        iso7816_deactivate(&r->card);
        reply(s, RDR_SLOT_STATUS, false, 0, 0, NULL, 0);
        return 0;
    case PC_GET_SLOT_STATUS:
    case PC_ICC_CLOCK:
    case PC_ABORT:
        reply(s, RDR_SLOT_STATUS, false, 0, 0, NULL, 0);
        return 0;
    case PC_XFR_BLOCK:
        return do_xfr_block(s, data, len);
    case PC_GET_PARAMETERS:
        params_reply(s, icc_status(s) == ICC_ABSENT, ERR_ICC_MUTE);
        return 0;
    case PC_SET_PARAMETERS:
        return do_set_parameters(s, data, len);
    case PC_RESET_PARAMETERS:
        if (icc_status(s) == ICC_ABSENT) {
            params_reply(s, true, ERR_ICC_MUTE);
            return 0;
        }
        if (icc_status(s) == ICC_ACTIVE &&
            (r->card.state != ISO7816_NEGOTIABLE || r->card.fidi != 0x11)) {
            uint8_t atr[ISO7816_ATR_MAX];
            int64_t ns = power_on(s, atr, NULL);

            params_reply(s, false, 0);
            return ns;
        }
        default_params(s);
        params_reply(s, false, 0);
        return 0;
    default:
        fail(s, ERR_NOT_SUPPORTED);
        return 0;
    }
}

static void cm4040_reply_due(SmartcardReaderState *r)
{
    CM4040State *s = CM4040(r);

    if (s->state != CX_BUSY) {
        return;
    }
    if (s->card_pulled) {
        /* the card went away mid-exchange: answer as the slot is now */
        process(s);
    }
    s->state = CX_REPLY;
}

static void cm4040_sync(CM4040State *s, uint8_t val)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);

    if (val & (SYNC_ABORT | SYNC_START)) {
        smartcard_reader_cancel(r);
        s->in_len = s->in_pos = 0;
        s->out_len = 0;
        s->overrun = false;
        s->state = val & SYNC_START ? CX_RECEIVING : CX_IDLE;
    }
    if ((val & SYNC_H2R_DONE) && s->state == CX_RECEIVING) {
        s->state = CX_BUSY;
        s->card_pulled = false;
        smartcard_reader_schedule(r, process(s));
    }
    if ((val & SYNC_R2H_DONE) && s->state == CX_REPLY) {
        s->state = CX_TRAILER;
    }
}

static uint16_t cm4040_io_read(PCMCIACardState *card, uint32_t addr)
{
    CM4040State *s = CM4040(card);
    uint8_t val = 0;

    if (!smartcard_reader_io_enabled(PCL_SMARTCARD_READER(s))) {
        return 0xff;
    }
    switch (addr & CX_IO_MASK) {
    case REG_DATA:
        if (s->state == CX_REPLY && s->in_pos < s->in_len) {
            val = s->in[s->in_pos++];
        } else if (s->state == CX_TRAILER) {
            s->state = CX_IDLE;
        }
        break;
    case REG_STATUS:
        if (s->state == CX_REPLY || s->state == CX_TRAILER) {
            val |= ST_BULK_IN_FULL;
        }
        break;
    }
    trace_pcl_cm4040_read(addr & CX_IO_MASK, val);
    return val;
}

static void cm4040_io_write(PCMCIACardState *card, uint32_t addr,
                            uint16_t value)
{
    CM4040State *s = CM4040(card);
    uint8_t val = value;

    if (!smartcard_reader_io_enabled(PCL_SMARTCARD_READER(s))) {
        return;
    }
    trace_pcl_cm4040_write(addr & CX_IO_MASK, val);
    switch (addr & CX_IO_MASK) {
    case REG_DATA:
        if (s->state != CX_RECEIVING) {
            break;
        }
        if (s->out_len < CX_MSG_MAX) {
            s->out[s->out_len++] = val;
        } else {
            s->overrun = true;
        }
        break;
    case REG_SYNC:
        cm4040_sync(s, val);
        break;
    }
}

static void cm4040_card_changed(SmartcardReaderState *r)
{
    CM4040State *s = CM4040(r);

    if (s->state == CX_BUSY && !r->card_present) {
        s->card_pulled = true;
    }
}

static void cm4040_function_reset(SmartcardReaderState *r)
{
    CM4040State *s = CM4040(r);

    s->out_len = s->in_len = s->in_pos = 0;
    s->overrun = false;
    s->state = CX_IDLE;
    s->card_pulled = false;
    default_params(s);
}

static const VMStateDescription vmstate_cm4040 = {
    .name = "cm4040",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(parent_obj, CM4040State, 1, vmstate_smartcard_reader,
                       SmartcardReaderState),
        VMSTATE_UINT8_ARRAY(out, CM4040State, CX_MSG_MAX),
        VMSTATE_UINT16(out_len, CM4040State),
        VMSTATE_BOOL(overrun, CM4040State),
        VMSTATE_UINT8_ARRAY(in, CM4040State, CX_MSG_MAX),
        VMSTATE_UINT16(in_len, CM4040State),
        VMSTATE_UINT16(in_pos, CM4040State),
        VMSTATE_UINT8(state, CM4040State),
        VMSTATE_BOOL(card_pulled, CM4040State),
        VMSTATE_UINT8(proto, CM4040State),
        VMSTATE_UINT8_ARRAY(params, CM4040State, 7),
        VMSTATE_END_OF_LIST()
    }
};

static void cm4040_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);
    SmartcardReaderClass *src = PCL_SMARTCARD_READER_CLASS(oc);

    dc->desc = "Omnikey CardMan 4040 PC Card smart card reader (CCID)";
    dc->vmsd = &vmstate_cm4040;

    pcc->cis = cm4040_cis;
    pcc->cis_len = sizeof(cm4040_cis);
    pcc->io_read = cm4040_io_read;
    pcc->io_write = cm4040_io_write;

    src->card_changed = cm4040_card_changed;
    src->function_reset = cm4040_function_reset;
    src->reply_due = cm4040_reply_due;
}

static const TypeInfo cm4040_info = {
    .name = TYPE_CM4040,
    .parent = TYPE_PCL_SMARTCARD_READER,
    .instance_size = sizeof(CM4040State),
    .class_init = cm4040_class_init,
};

static void cm4040_register_types(void)
{
    type_register_static(&cm4040_info);
}

type_init(cm4040_register_types)
