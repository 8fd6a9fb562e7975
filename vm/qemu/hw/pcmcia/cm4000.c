/*
 * Omnikey CardMan 4000: a PC Card smart card reader with a byte-level
 * ISO 7816 engine behind eight I/O ports.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   -device cm4000,bus=pcc.0,id=rdr0[,atr=HEX][,card-present=off]
 *          [,challenge-seed=N][,wire-timing=off][,clock-hz=HZ]
 * Properties: see smartcard-reader.h.
 *
 * The host drives a state machine through a 512-byte buffer:
 *   +0 FLAGS0  read:  1 smart card present, 2 card powered, 4 bit 8 of
 *                     the received count, 8 operation done (with the
 *                     state machine reset: the detectCMM bit of FLAGS1)
 *              write: 80 reset the state machine (the buffer stays);
 *                     40 start, with 04 power on (+02: warm reset) and no
 *                     protocol bit = activation, the ATR lands at buffer 0;
 *                     40|02 = deactivate; 40|08 T=0 exchange; 40|10 block
 *                     exchange (T=1, or a PPS right after the ATR): send
 *                     count bytes from buffer 0, the reply lands at 0;
 *                     04 alongside powers an unpowered card first;
 *                     01 = bit 8 of the send count
 *   +1 FLAGS1  write: 01 bit 8 of the baud divisor, 02 inverse parity,
 *                     08 T=0 send (data follows the header), 10 bit 8 of
 *                     the buffer address, 20 T active, 40 detectCMM
 *              read:  T=0: the last procedure byte (SW1 at the end);
 *                     block: the third byte received (T=1 LEN); either
 *                     way the "procedure byte received" flag clears
 *   +2 read: received count (bits 7..0); write: the INS of a T=0 command
 *   +3 write: buffer address; read: 80 = no procedure byte since the
 *      last FLAGS1 read
 *   +4 buffer data at the address
 *   +5 send count (bits 7..0)
 *   +6 baud divisor: card clocks per ETU minus 1 (bits 7..0)
 *   +7 stop bits: a character is 10 + this many ETU (2: 12 ETU)
 *
 * T=0: the header is buffer 0-4.  Sending (FLAGS1 08), the command data
 * follows up to the send count; receiving, the card's data lands after
 * the header.  The count ends one past SW2, stored after the data; SW1 is
 * the last procedure byte.  Bytes in the buffer are as seen on the wire
 * read in the direct convention: for an inverse convention card they
 * arrive inverted and bit-reversed, and the host must send them so.
 * The card only understands the reader when the baud divisor (+ 1) is
 * within 2 % of the ETU it runs at (372 until a PPS); otherwise it stays
 * mute.  (Linux 6.1 programs 0x172 outside a PPS: 371, close enough.)
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "migration/vmstate.h"
#include "pcmcia-slot.h"
#include "smartcard-reader.h"
#include "trace.h"

#define TYPE_CM4000 "cm4000"
OBJECT_DECLARE_SIMPLE_TYPE(CM4000State, CM4000)

#define CM_IO_MASK          0x7
#define CM_BUF_SIZE         512

#define REG_FLAGS0          0
#define REG_FLAGS1          1
#define REG_COUNT           2
#define REG_ADDR            3
#define REG_DATA            4
#define REG_NSEND           5
#define REG_BAUD            6
#define REG_STOPBITS        7

#define F0_CARD             0x01
#define F0_POWERED          0x02
#define F0_COUNT8           0x04
#define F0_DONE             0x08
#define F0_RESET            0x80
#define F0_START            0x40
#define F0_BLOCK            0x10
#define F0_T0               0x08
#define F0_POWER_ON         0x04
#define F0_WARM_OFF         0x02
#define F0_NSEND8           0x01

#define F1_BAUD8            0x01
#define F1_SEND_T0          0x08
#define F1_ADDR8            0x10
#define F1_DETECT           0x40

#define ADDR_NO_PROCBYTE    0x80

/* clocks from RST high to the ATR (ISO 7816-3: 400..40000) */
#define ATR_DELAY_CLOCKS    10000
/* block guard time between a T=1 block and the reply, in ETU */
#define T1_BGT              22

enum { OP_IDLE, OP_ATR, OP_T0, OP_BLOCK };
enum { PH_NONE, PH_SENT, PH_REPLY };

struct CM4000State {
    /*< private >*/
    SmartcardReaderState parent_obj;
    /*< public >*/

    uint8_t buf[CM_BUF_SIZE];
    uint8_t flags1;
    uint8_t ins;
    uint8_t addr;
    uint8_t nsend;
    uint8_t baud;
    uint8_t stopbits;

    uint8_t op;             /* what the state machine runs */
    uint8_t phase;          /* what the timer completes */
    bool done;
    bool powered;
    uint16_t count;
    uint8_t procbyte;
    bool procbyte_new;

    /* published when the operation ends */
    uint16_t end_count;
    uint8_t end_procbyte;
    int64_t reply_ns;       /* block mode: reply time after sending */
};

static const uint8_t cm4000_cis[] = {
    0x01, 0x03, 0x00, 0x00, 0xff,                   /* DEVICE: none */
    0x15, 0x10, 0x04, 0x01,                         /* VERS_1 4.1 */
    'C', 'a', 'r', 'd', 'M', 'a', 'n', 0x00,
    '4', '0', '0', '0', 0x00,
    0xff,
    0x20, 0x04, 0x23, 0x02, 0x02, 0x00,             /* MANFID 0223:0002 */
    0x1a, 0x05, 0x01, 0x01, 0x00, 0x02, 0x03,       /* CONFIG: COR, CCSR */
    0x1b, 0x06, 0xc1, 0x01, 0x09,                   /* CFTABLE 1, I/O */
    0x01, 0x55,                                     /* Vcc 5 V */
    0x23,                                           /* 8 ports, 8-bit */
    0x14, 0x00,                                     /* NO_LINK */
    0xff,
};

static uint8_t wire_byte(CM4000State *s, uint8_t b)
{
    return s->parent_obj.card.inverse ? revbit8(~b) : b;
}

static unsigned reader_etu(CM4000State *s)
{
    return (s->baud | (s->flags1 & F1_BAUD8) << 8) + 1;
}

static unsigned char_etus(CM4000State *s)
{
    return 10 + s->stopbits;
}

static void cm4000_abort(CM4000State *s)
{
    smartcard_reader_cancel(PCL_SMARTCARD_READER(s));
    s->phase = PH_NONE;
}

static void cm4000_reply_due(SmartcardReaderState *r)
{
    CM4000State *s = CM4000(r);

    switch (s->phase) {
    case PH_SENT:
        /* block mode: sending is over; the reply (if any) comes next */
        s->done = true;
        if (!s->end_count) {
            s->phase = PH_NONE;
            break;
        }
        s->phase = PH_REPLY;
        smartcard_reader_schedule(r, s->reply_ns);
        return;
    case PH_REPLY:
        s->count = s->end_count;
        if (s->op == OP_T0) {
            s->procbyte = s->end_procbyte;
            s->procbyte_new = true;
        }
        s->done = true;
        s->phase = PH_NONE;
        break;
    default:
        return;
    }
    trace_pcl_cm4000_done(s->op, s->count);
}

/* Cold or warm reset of the smart card; the ATR goes to the buffer. */
static int64_t cm4000_activate(CM4000State *s, bool keep_atr)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    uint8_t atr[ISO7816_ATR_MAX];
    int i, n;

    s->powered = true;
    n = iso7816_activate(&r->card, atr);
    if (keep_atr) {
        for (i = 0; i < n; i++) {
            s->buf[i] = wire_byte(s, atr[i]);
        }
    }
    /* the ATR always comes at the initial 372 clocks an ETU */
    return smartcard_reader_clocks_ns(r, ATR_DELAY_CLOCKS) +
           smartcard_reader_wire_time(r, n, 12, 0, 372);
}

static int64_t cm4000_t0(CM4000State *s, unsigned nsend)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    ISO7816Card *card = &r->card;
    uint8_t hdr[5], in[CM_BUF_SIZE], out[ISO7816_RESP_MAX + 1];
    unsigned etu = reader_etu(s), pos = 5, i;
    bool sending = s->flags1 & F1_SEND_T0;
    int64_t ns;
    int n, data;

    for (i = 0; i < 5; i++) {
        hdr[i] = wire_byte(s, s->buf[i]);
    }
    ns = smartcard_reader_wire_time(r, 5, char_etus(s), 0, etu);
    if (!smartcard_reader_etu_match(etu, iso7816_card_etu(card)) ||
        !iso7816_use_protocol(card, 0)) {
        trace_pcl_cm4000_mute(etu, iso7816_card_etu(card));
        return -1;
    }
    n = iso7816_t0_header(card, hdr, out);
    if (n == ISO7816_MUTE) {
        return -1;
    }
    ns += smartcard_reader_wire_time(r, n, 12, 0, etu);
    if (n == 1) {
        /* ACK: the card wants the command data */
        data = nsend > 5 ? nsend - 5 : 0;
        if (!sending || data > CM_BUF_SIZE - 6) {
            return -1;          /* both sides wait: nothing more happens */
        }
        for (i = 0; i < data; i++) {
            in[i] = wire_byte(s, s->buf[5 + i]);
        }
        ns += smartcard_reader_wire_time(r, data, char_etus(s), 0, etu);
        n = iso7816_t0_data(card, in, data, out);
        if (n != 2) {
            return -1;
        }
        ns += smartcard_reader_wire_time(r, 2, 12, 0, etu);
        pos += data;
    } else if (n > 2) {
        /* ACK, data, SW1 SW2 */
        data = MIN(n - 3, CM_BUF_SIZE - 6);
        for (i = 0; i < data; i++) {
            s->buf[pos++] = wire_byte(s, out[1 + i]);
        }
        out[0] = out[n - 2];
        out[1] = out[n - 1];
    }
    s->end_procbyte = wire_byte(s, out[0]);
    s->buf[pos++] = wire_byte(s, out[1]);
    s->end_count = pos;
    return ns;
}

/* Send @nsend bytes from buffer 0: a PPS or a T=1 block. */
static int64_t cm4000_block(CM4000State *s, unsigned nsend)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    ISO7816Card *card = &r->card;
    uint8_t in[CM_BUF_SIZE], out[ISO7816_T1_BLOCK_MAX];
    unsigned etu = reader_etu(s), card_etu = iso7816_card_etu(card), i;
    int64_t ns;
    int n;

    for (i = 0; i < nsend; i++) {
        in[i] = wire_byte(s, s->buf[i]);
    }
    ns = smartcard_reader_wire_time(r, nsend, char_etus(s), 0, etu);
    if (!smartcard_reader_etu_match(etu, card_etu) || !nsend) {
        trace_pcl_cm4000_mute(etu, card_etu);
        return ns;
    }
    if (card->state == ISO7816_NEGOTIABLE && in[0] == 0xff) {
        n = iso7816_pps(card, in, nsend, out);
        s->reply_ns = 0;
    } else if (iso7816_use_protocol(card, 1)) {
        n = iso7816_t1_block(card, in, nsend, out);
        s->reply_ns = smartcard_reader_wire_time(r, 0, 0, T1_BGT, card_etu);
    } else {
        n = ISO7816_MUTE;
    }
    if (n > 0) {
        for (i = 0; i < n; i++) {
            s->buf[i] = wire_byte(s, out[i]);
        }
        s->end_count = n;
        s->reply_ns += smartcard_reader_wire_time(r, n, card->proto ? 11 : 12,
                                                  0, card_etu);
    }
    return ns;
}

static void cm4000_start(CM4000State *s, uint8_t val)
{
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    unsigned nsend = s->nsend | (val & F0_NSEND8) << 8;
    int64_t ns = 0;

    cm4000_abort(s);
    s->done = false;
    s->end_count = 0;
    s->reply_ns = 0;
    trace_pcl_cm4000_start(val, nsend, reader_etu(s));

    if (!(val & (F0_T0 | F0_BLOCK))) {
        if (val & F0_POWER_ON) {
            s->op = OP_ATR;
            s->count = 0;
            if (!r->card_present) {
                return;
            }
            if (!smartcard_reader_etu_match(reader_etu(s), 372)) {
                /* the reader samples the ATR at the wrong rate */
                trace_pcl_cm4000_mute(reader_etu(s), 372);
                cm4000_activate(s, false);
                return;
            }
            s->end_count = r->card.atr_len;
            ns = cm4000_activate(s, true);
        } else if (val & F0_WARM_OFF) {
            s->op = OP_IDLE;
            s->powered = false;
            iso7816_deactivate(&r->card);
            return;
        } else {
            trace_pcl_cm4000_unknown_op(val);
            return;
        }
        s->phase = PH_REPLY;
        smartcard_reader_schedule(r, ns);
        return;
    }

    s->op = val & F0_T0 ? OP_T0 : OP_BLOCK;
    s->count = 0;
    if (!r->card_present) {
        return;
    }
    if ((val & F0_POWER_ON) && !s->powered) {
        ns = cm4000_activate(s, false);
    }
    if (!s->powered || nsend > CM_BUF_SIZE) {
        return;
    }
    if (s->op == OP_T0) {
        int64_t t = cm4000_t0(s, nsend);

        if (t < 0) {
            return;             /* mute card: the host times out */
        }
        s->phase = PH_REPLY;
        smartcard_reader_schedule(r, ns + t);
    } else {
        ns += cm4000_block(s, nsend);
        s->phase = PH_SENT;
        smartcard_reader_schedule(r, ns);
    }
}

static uint16_t cm4000_io_read(PCMCIACardState *card, uint32_t addr)
{
    CM4000State *s = CM4000(card);
    SmartcardReaderState *r = PCL_SMARTCARD_READER(s);
    uint8_t val;

    if (!smartcard_reader_io_enabled(r)) {
        return 0xff;
    }
    switch (addr & CM_IO_MASK) {
    case REG_FLAGS0:
        val = (r->card_present ? F0_CARD : 0) |
              (s->powered ? F0_POWERED : 0) |
              (s->count & 0x100 ? F0_COUNT8 : 0);
        if (s->op != OP_IDLE ? s->done : (s->flags1 & F1_DETECT)) {
            val |= F0_DONE;
        }
        break;
    case REG_FLAGS1:
        if (s->op == OP_BLOCK) {
            val = s->count >= 3 ? s->buf[2] : 0;
        } else {
            val = s->procbyte;
        }
        s->procbyte_new = false;
        break;
    case REG_COUNT:
        val = s->count;
        break;
    case REG_ADDR:
        val = s->procbyte_new ? 0 : ADDR_NO_PROCBYTE;
        break;
    case REG_DATA:
        val = s->buf[s->addr | (s->flags1 & F1_ADDR8) << 4];
        break;
    case REG_NSEND:
        val = s->nsend;
        break;
    case REG_BAUD:
        val = s->baud;
        break;
    default:
        val = s->stopbits;
        break;
    }
    trace_pcl_cm4000_read(addr & CM_IO_MASK, val);
    return val;
}

static void cm4000_io_write(PCMCIACardState *card, uint32_t addr,
                            uint16_t value)
{
    CM4000State *s = CM4000(card);
    uint8_t val = value;

    if (!smartcard_reader_io_enabled(PCL_SMARTCARD_READER(s))) {
        return;
    }
    trace_pcl_cm4000_write(addr & CM_IO_MASK, val);
    switch (addr & CM_IO_MASK) {
    case REG_FLAGS0:
        if (val & F0_RESET) {
            cm4000_abort(s);
            s->op = OP_IDLE;
            s->done = false;
        } else if (val & F0_START) {
            cm4000_start(s, val);
        }
        break;
    case REG_FLAGS1:
        s->flags1 = val;
        break;
    case REG_COUNT:
        s->ins = val;
        break;
    case REG_ADDR:
        s->addr = val;
        break;
    case REG_DATA:
        s->buf[s->addr | (s->flags1 & F1_ADDR8) << 4] = val;
        break;
    case REG_NSEND:
        s->nsend = val;
        break;
    case REG_BAUD:
        s->baud = val;
        break;
    default:
        s->stopbits = val;
        break;
    }
}

static void cm4000_card_changed(SmartcardReaderState *r)
{
    CM4000State *s = CM4000(r);

    if (!r->card_present) {
        /* contacts open: the card loses power, the exchange dies */
        cm4000_abort(s);
        s->powered = false;
    }
}

static void cm4000_function_reset(SmartcardReaderState *r)
{
    CM4000State *s = CM4000(r);

    cm4000_abort(s);
    memset(s->buf, 0, sizeof(s->buf));
    s->flags1 = s->ins = s->addr = s->nsend = s->baud = s->stopbits = 0;
    s->op = OP_IDLE;
    s->done = false;
    s->powered = false;
    s->count = 0;
    s->procbyte = 0;
    s->procbyte_new = false;
    s->end_count = 0;
    s->end_procbyte = 0;
    s->reply_ns = 0;
}

static const VMStateDescription vmstate_cm4000 = {
    .name = "cm4000",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(parent_obj, CM4000State, 1, vmstate_smartcard_reader,
                       SmartcardReaderState),
        VMSTATE_UINT8_ARRAY(buf, CM4000State, CM_BUF_SIZE),
        VMSTATE_UINT8(flags1, CM4000State),
        VMSTATE_UINT8(ins, CM4000State),
        VMSTATE_UINT8(addr, CM4000State),
        VMSTATE_UINT8(nsend, CM4000State),
        VMSTATE_UINT8(baud, CM4000State),
        VMSTATE_UINT8(stopbits, CM4000State),
        VMSTATE_UINT8(op, CM4000State),
        VMSTATE_UINT8(phase, CM4000State),
        VMSTATE_BOOL(done, CM4000State),
        VMSTATE_BOOL(powered, CM4000State),
        VMSTATE_UINT16(count, CM4000State),
        VMSTATE_UINT8(procbyte, CM4000State),
        VMSTATE_BOOL(procbyte_new, CM4000State),
        VMSTATE_UINT16(end_count, CM4000State),
        VMSTATE_UINT8(end_procbyte, CM4000State),
        VMSTATE_INT64(reply_ns, CM4000State),
        VMSTATE_END_OF_LIST()
    }
};

static void cm4000_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);
    SmartcardReaderClass *src = PCL_SMARTCARD_READER_CLASS(oc);

    dc->desc = "Omnikey CardMan 4000 PC Card smart card reader";
    dc->vmsd = &vmstate_cm4000;

    pcc->cis = cm4000_cis;
    pcc->cis_len = sizeof(cm4000_cis);
    pcc->io_read = cm4000_io_read;
    pcc->io_write = cm4000_io_write;

    src->card_changed = cm4000_card_changed;
    src->function_reset = cm4000_function_reset;
    src->reply_due = cm4000_reply_due;
}

static const TypeInfo cm4000_info = {
    .name = TYPE_CM4000,
    .parent = TYPE_PCL_SMARTCARD_READER,
    .instance_size = sizeof(CM4000State),
    .class_init = cm4000_class_init,
};

static void cm4000_register_types(void)
{
    type_register_static(&cm4000_info);
}

type_init(cm4000_register_types)
