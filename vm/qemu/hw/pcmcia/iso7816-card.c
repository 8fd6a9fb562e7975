/*
 * A virtual ISO/IEC 7816 smart card: ATR, PPS, T=0, T=1 and a small
 * deterministic command set.  See iso7816-card.h for what it offers.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "migration/vmstate.h"
#include "iso7816-card.h"
#include "trace.h"

#define SW(a, b)        (((a) << 8) | (b))
#define SW_OK           SW(0x90, 0x00)
#define SW_EOF          SW(0x62, 0x82)
#define SW_WRONG_LEN    SW(0x67, 0x00)
#define SW_NO_EF        SW(0x69, 0x86)
#define SW_NO_DATA      SW(0x69, 0x85)
#define SW_NOT_FOUND    SW(0x6a, 0x82)
#define SW_BAD_P1P2     SW(0x6a, 0x86)
#define SW_BAD_OFFSET   SW(0x6b, 0x00)
#define SW_BAD_INS      SW(0x6d, 0x00)
#define SW_BAD_CLA      SW(0x6e, 0x00)

#define INS_SELECT      0xa4
#define INS_READ_BINARY 0xb0
#define INS_CHALLENGE   0x84
#define INS_GET_RESP    0xc0
#define INS_ECHO        0xec
#define CLA_PROPRIETARY 0x80

#define FID_MF          0x3f00
#define FID_EF_SMALL    0x0101
#define FID_EF_LARGE    0x0102
#define EF_SMALL_SIZE   128
#define EF_LARGE_SIZE   1024

#define PRNG_ZERO_SEED  0x9E3779B97F4A7C15ULL

static const char ef_small_text[32] = "pcmcia-legacy test file EF0101.\n";

/* ---- Fi/Di ---- */

static unsigned fi_value(uint8_t fidi)
{
    static const uint16_t fi[16] = {
        372, 372, 558, 744, 1116, 1488, 1860, 0,
        0, 512, 768, 1024, 1536, 2048, 0, 0,
    };
    return fi[fidi >> 4];
}

static unsigned di_value(uint8_t fidi)
{
    static const uint8_t di[16] = {
        0, 1, 2, 4, 8, 16, 32, 64, 12, 20, 0, 0, 0, 0, 0, 0,
    };
    return di[fidi & 0xf];
}

unsigned iso7816_etu_clocks(uint8_t fidi)
{
    unsigned f = fi_value(fidi), d = di_value(fidi);

    return f && d ? f / d : 0;
}

unsigned iso7816_card_etu(const ISO7816Card *c)
{
    unsigned etu = iso7816_etu_clocks(c->fidi);

    return etu ? etu : 372;
}

/* ---- ATR ---- */

/*
 * What the ATR offers.  Interface bytes come in groups: group n holds
 * TAn TBn TCn TDn as the Y nibble before it announces; TDn names the
 * protocol that group n + 1 (n >= 2) is about.  A short ATR leaves the
 * defaults.
 */
static void parse_atr(ISO7816Card *c)
{
    unsigned i = 2, n = 1, t = 0;
    uint8_t y = c->atr_len > 1 ? c->atr[1] >> 4 : 0;
    bool have_td = false, have_ifsc = false;

    c->protocols = 0;
    c->first_proto = 0;
    c->ta1 = 0x11;
    c->specific = false;
    c->ifsc = 32;
    c->inverse = c->atr[0] == 0x3f;
    for (;;) {
        if (y & 1) {
            uint8_t ta = i < c->atr_len ? c->atr[i] : 0;

            if (n == 1) {
                c->ta1 = ta;
            } else if (n == 2) {
                c->specific = true;
            } else if (t == 1 && !have_ifsc) {
                c->ifsc = ta && ta != 0xff ? ta : 32;
                have_ifsc = true;
            }
            i++;
        }
        i += !!(y & 2) + !!(y & 4);
        if (!(y & 8) || i >= c->atr_len) {
            break;
        }
        t = c->atr[i++] & 0xf;
        if (!have_td) {
            c->first_proto = t;
            have_td = true;
        }
        if (t <= 1) {
            c->protocols |= 1 << t;
        }
        y = c->atr[i - 1] >> 4;
        n++;
    }
    if (!c->protocols) {
        c->protocols = 1;           /* no TD1, or only unknown ones: T=0 */
    }
    if (!(c->protocols & (1 << c->first_proto))) {
        c->first_proto = c->protocols & 1 ? 0 : 1;
    }
}

bool iso7816_set_atr_hex(ISO7816Card *c, const char *hex, Error **errp)
{
    uint8_t atr[ISO7816_ATR_MAX];
    int len = 0;
    const char *p = hex;

    while (*p) {
        int hi, lo;

        if (*p == ' ' || *p == ':') {
            p++;
            continue;
        }
        hi = g_ascii_xdigit_value(p[0]);
        lo = p[1] ? g_ascii_xdigit_value(p[1]) : -1;
        if (hi < 0 || lo < 0) {
            error_setg(errp, "atr: '%s' is not a string of hex bytes", hex);
            return false;
        }
        if (len == ISO7816_ATR_MAX) {
            error_setg(errp, "atr: longer than %d bytes", ISO7816_ATR_MAX);
            return false;
        }
        atr[len++] = hi << 4 | lo;
        p += 2;
    }
    if (len < 2) {
        error_setg(errp, "atr: needs at least TS and T0");
        return false;
    }
    memcpy(c->atr, atr, len);
    c->atr_len = len;
    parse_atr(c);
    return true;
}

char *iso7816_get_atr_hex(const ISO7816Card *c)
{
    GString *s = g_string_new(NULL);
    int i;

    for (i = 0; i < c->atr_len; i++) {
        g_string_append_printf(s, "%02X", c->atr[i]);
    }
    return g_string_free(s, false);
}

void iso7816_init(ISO7816Card *c)
{
    memset(c, 0, sizeof(*c));
    iso7816_set_atr_hex(c, ISO7816_DEFAULT_ATR, &error_abort);
}

static void reset_session(ISO7816Card *c)
{
    c->proto = c->first_proto;
    c->fidi = c->specific ? c->ta1 : 0x11;
    c->prng = c->seed ? c->seed : PRNG_ZERO_SEED;
    c->cur_file = FID_MF;
    c->t0_want_data = false;
    c->pending_len = 0;
    c->ns = 0;
    c->nr = 0;
    c->ifsd = 32;
    c->rx_len = 0;
    c->rx_overflow = false;
    c->tx_len = 0;
    c->tx_pos = 0;
    c->tx_chunk = 0;
    c->tx_chaining = false;
    c->last_len = 0;
}

int iso7816_activate(ISO7816Card *c, uint8_t *atr)
{
    reset_session(c);
    c->state = c->specific ? ISO7816_ACTIVE : ISO7816_NEGOTIABLE;
    memcpy(atr, c->atr, c->atr_len);
    trace_pcl_iso7816_activate(c->atr_len, c->first_proto, c->ta1);
    return c->atr_len;
}

void iso7816_deactivate(ISO7816Card *c)
{
    if (c->state != ISO7816_INACTIVE) {
        trace_pcl_iso7816_deactivate();
    }
    c->state = ISO7816_INACTIVE;
}

bool iso7816_use_protocol(ISO7816Card *c, int proto)
{
    if (c->state == ISO7816_NEGOTIABLE) {
        c->state = ISO7816_ACTIVE;
    }
    if (c->state != ISO7816_ACTIVE || c->proto != proto) {
        trace_pcl_iso7816_wrong_protocol(c->state, c->proto, proto);
        return false;
    }
    return true;
}

/* ---- PPS ---- */

static bool fidi_acceptable(const ISO7816Card *c, uint8_t fidi)
{
    if (fidi == 0x11) {
        return true;
    }
    return fi_value(fidi) && di_value(fidi) &&
           (fidi >> 4) == (c->ta1 >> 4) &&
           di_value(fidi) <= di_value(c->ta1);
}

int iso7816_pps(ISO7816Card *c, const uint8_t *req, int len, uint8_t *reply)
{
    uint8_t pps0, x = 0, fidi = 0x11;
    int want, i, n = 0;
    unsigned t;

    if (c->state != ISO7816_NEGOTIABLE || len < 3 || req[0] != 0xff) {
        trace_pcl_iso7816_pps_refused(c->state, len);
        return ISO7816_MUTE;
    }
    pps0 = req[1];
    want = 3 + !!(pps0 & 0x10) + !!(pps0 & 0x20) + !!(pps0 & 0x40);
    for (i = 0; i < len; i++) {
        x ^= req[i];
    }
    t = pps0 & 0xf;
    if (len != want || x || t > 1 || !(c->protocols & (1 << t))) {
        trace_pcl_iso7816_pps_refused(c->state, len);
        c->state = ISO7816_INACTIVE;    /* the reader must reset it now */
        return ISO7816_MUTE;
    }
    reply[n++] = 0xff;
    reply[n++] = t;
    if ((pps0 & 0x10) && fidi_acceptable(c, req[2])) {
        reply[1] |= 0x10;
        reply[n++] = req[2];
        fidi = req[2];
    }
    x = 0;
    for (i = 0; i < n; i++) {
        x ^= reply[i];
    }
    reply[n++] = x;
    c->proto = t;
    c->fidi = fidi;
    c->state = ISO7816_ACTIVE;
    trace_pcl_iso7816_pps(t, fidi);
    return n;
}

/* ---- Files and commands ---- */

static int file_size(uint16_t fid)
{
    switch (fid) {
    case FID_EF_SMALL:
        return EF_SMALL_SIZE;
    case FID_EF_LARGE:
        return EF_LARGE_SIZE;
    default:
        return -1;
    }
}

static uint8_t file_byte(uint16_t fid, unsigned i)
{
    if (fid == FID_EF_SMALL) {
        return i < sizeof(ef_small_text) ? ef_small_text[i] : i;
    }
    return (i * 31 + 7) & 0xff;
}

static uint8_t prng_byte(ISO7816Card *c)
{
    uint64_t s = c->prng;

    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    c->prng = s;
    return (s * 0x2545F4914F6CDD1DULL) >> 56;
}

/* Append the status word; returns the reply length. */
static int put_sw(uint8_t *out, int len, unsigned sw)
{
    out[len] = sw >> 8;
    out[len + 1] = sw;
    return len + 2;
}

static int select_file(ISO7816Card *c, const uint8_t *apdu,
                       const uint8_t *data, int lc, uint8_t *out)
{
    uint8_t p1 = apdu[2], p2 = apdu[3];
    uint16_t fid;
    int n = 0, size;

    if (p1 == 0x04) {
        /* the card holds no applications: every AID is unknown */
        trace_pcl_iso7816_select_aid(lc);
        return put_sw(out, 0, SW_NOT_FOUND);
    }
    if ((p1 != 0x00 && p1 != 0x02) ||
        (p2 != 0x00 && p2 != 0x04 && p2 != 0x0c)) {
        return put_sw(out, 0, SW_BAD_P1P2);
    }
    if (lc == 0 && p1 == 0x00) {
        fid = FID_MF;
    } else if (lc == 2) {
        fid = data[0] << 8 | data[1];
    } else {
        return put_sw(out, 0, SW_WRONG_LEN);
    }
    size = file_size(fid);
    if (fid != FID_MF && size < 0) {
        return put_sw(out, 0, SW_NOT_FOUND);
    }
    c->cur_file = fid;
    trace_pcl_iso7816_select(fid);
    if (p2 == 0x0c) {
        return put_sw(out, 0, SW_OK);
    }
    out[n++] = 0x62;
    out[n++] = 0;
    if (size >= 0) {
        out[n++] = 0x80;
        out[n++] = 2;
        out[n++] = size >> 8;
        out[n++] = size;
    }
    out[n++] = 0x82;
    out[n++] = 1;
    out[n++] = size >= 0 ? 0x01 : 0x38;
    out[n++] = 0x83;
    out[n++] = 2;
    out[n++] = fid >> 8;
    out[n++] = fid;
    out[1] = n - 2;
    return put_sw(out, n, SW_OK);
}

/*
 * Run one command APDU.  @le: bytes the host accepts (1..256), 0 when no
 * reply data is expected.  @exact: T=0 case 2, where P3 must match.
 */
static int execute(ISO7816Card *c, const uint8_t *apdu, const uint8_t *data,
                   int lc, int le, bool exact, uint8_t *out)
{
    uint8_t cla = apdu[0], ins = apdu[1];
    int i, n, size;

    trace_pcl_iso7816_command(cla, ins, apdu[2], apdu[3], lc, le);
    if ((ins & 0xf0) == 0x60 || (ins & 0xf0) == 0x90) {
        return put_sw(out, 0, SW_BAD_INS);
    }
    if (cla == CLA_PROPRIETARY) {
        if (ins != INS_ECHO) {
            return put_sw(out, 0, SW_BAD_INS);
        }
        n = MIN(lc, le);
        memcpy(out, data, n);
        return put_sw(out, n, SW_OK);
    }
    if (cla & 0xfc) {
        return put_sw(out, 0, SW_BAD_CLA);
    }
    switch (ins) {
    case INS_SELECT:
        return select_file(c, apdu, data, lc, out);
    case INS_READ_BINARY: {
        unsigned off = (apdu[2] << 8) | apdu[3];

        if (apdu[2] & 0x80) {
            return put_sw(out, 0, SW_BAD_P1P2);
        }
        size = file_size(c->cur_file);
        if (size < 0) {
            return put_sw(out, 0, SW_NO_EF);
        }
        if (off >= size) {
            return put_sw(out, 0, SW_BAD_OFFSET);
        }
        n = MIN(le, size - off);
        if (exact && n != le) {
            return put_sw(out, 0, SW(0x6c, n));
        }
        for (i = 0; i < n; i++) {
            out[i] = file_byte(c->cur_file, off + i);
        }
        return put_sw(out, n, n < le ? SW_EOF : SW_OK);
    }
    case INS_CHALLENGE:
        if (apdu[2] || apdu[3]) {
            return put_sw(out, 0, SW_BAD_P1P2);
        }
        if (le == 0 || lc) {
            return put_sw(out, 0, SW_WRONG_LEN);
        }
        for (i = 0; i < le; i++) {
            out[i] = prng_byte(c);
        }
        return put_sw(out, le, SW_OK);
    default:
        return put_sw(out, 0, SW_BAD_INS);
    }
}

/* ---- T=0 ---- */

static bool t0_takes_data(const uint8_t *hdr)
{
    return (hdr[0] == CLA_PROPRIETARY && hdr[1] == INS_ECHO) ||
           (!(hdr[0] & 0xfc) && hdr[1] == INS_SELECT);
}

/* A case 4 reply in T=0: keep the data, announce it with 61xx. */
static int t0_keep(ISO7816Card *c, const uint8_t *reply, int n, uint8_t *out)
{
    int data = n - 2;

    if (data <= 0 || reply[n - 2] != 0x90) {
        memcpy(out, reply + n - 2, 2);
        return 2;
    }
    memcpy(c->pending, reply, data);
    c->pending_len = data;
    return put_sw(out, 0, SW(0x61, data & 0xff));
}

int iso7816_t0_header(ISO7816Card *c, const uint8_t *hdr, uint8_t *out)
{
    uint8_t reply[ISO7816_RESP_MAX];
    int p3 = hdr[4] ? hdr[4] : 256, n;

    if (c->state != ISO7816_ACTIVE || c->proto != 0 || c->t0_want_data) {
        return ISO7816_MUTE;
    }
    memcpy(c->t0_hdr, hdr, 5);
    if (t0_takes_data(hdr)) {
        c->pending_len = 0;
        if (hdr[4] == 0) {
            n = execute(c, hdr, NULL, 0, 0, false, reply);
            memcpy(out, reply + n - 2, 2);
            return 2;
        }
        c->t0_want_data = true;
        out[0] = hdr[1];
        return 1;
    }
    if (!(hdr[0] & 0xfc) && hdr[1] == INS_GET_RESP) {
        int have = c->pending_len;

        if (!have) {
            return put_sw(out, 0, SW_NO_DATA);
        }
        if (p3 > have) {
            return put_sw(out, 0, SW(0x6c, have & 0xff));
        }
        out[0] = hdr[1];
        memcpy(out + 1, c->pending, p3);
        c->pending_len = have - p3;
        memmove(c->pending, c->pending + p3, c->pending_len);
        return put_sw(out, 1 + p3, c->pending_len ?
                      SW(0x61, c->pending_len & 0xff) : SW_OK);
    }
    c->pending_len = 0;
    n = execute(c, hdr, NULL, 0, p3, true, reply);
    if (n == 2) {
        memcpy(out, reply, 2);
        return 2;
    }
    /* data goes out after the ACK only if it is exactly P3 bytes */
    out[0] = hdr[1];
    memcpy(out + 1, reply, n);
    return n + 1;
}

int iso7816_t0_data(ISO7816Card *c, const uint8_t *data, int len,
                    uint8_t *out)
{
    uint8_t reply[ISO7816_RESP_MAX];
    int n;

    if (!c->t0_want_data || c->state != ISO7816_ACTIVE) {
        return ISO7816_MUTE;
    }
    c->t0_want_data = false;
    if (len != c->t0_hdr[4]) {
        return ISO7816_MUTE;
    }
    n = execute(c, c->t0_hdr, data, len, 256, false, reply);
    return t0_keep(c, reply, n, out);
}

/* ---- T=1 ---- */

#define PCB_I_NS        0x40
#define PCB_I_MORE      0x20
#define PCB_R           0x80
#define PCB_R_NR        0x10
#define PCB_S           0xc0
#define S_RESYNCH       0x00
#define S_IFS           0x01
#define S_ABORT         0x02
#define S_RESPONSE      0x20

static int t1_frame(ISO7816Card *c, uint8_t pcb, const uint8_t *inf,
                    int len, uint8_t *out)
{
    uint8_t lrc = 0;
    int i;

    out[0] = 0;
    out[1] = pcb;
    out[2] = len;
    if (len) {
        memcpy(out + 3, inf, len);
    }
    for (i = 0; i < 3 + len; i++) {
        lrc ^= out[i];
    }
    out[3 + len] = lrc;
    memcpy(c->last, out, 4 + len);
    c->last_len = 4 + len;
    return 4 + len;
}

static int t1_r_block(ISO7816Card *c, int err, uint8_t *out)
{
    return t1_frame(c, PCB_R | (c->nr ? PCB_R_NR : 0) | err, NULL, 0, out);
}

/* Send the next chunk of the reply held in tx[]. */
static int t1_send_chunk(ISO7816Card *c, uint8_t *out)
{
    int left = c->tx_len - c->tx_pos, len = MIN(left, c->ifsd);
    uint8_t pcb = (c->ns ? PCB_I_NS : 0) | (len < left ? PCB_I_MORE : 0);

    c->tx_chunk = len;
    c->tx_chaining = len < left;
    c->ns ^= 1;
    return t1_frame(c, pcb, c->tx + c->tx_pos, len, out);
}

/* Parse a short APDU and run it; reply (data + SW) into c->tx. */
static void t1_apdu(ISO7816Card *c, const uint8_t *apdu, int len)
{
    int lc = 0, le = 0, n;

    if (len < 4) {
        n = put_sw(c->tx, 0, SW_WRONG_LEN);
    } else {
        if (len == 5) {
            le = apdu[4] ? apdu[4] : 256;
        } else if (len > 5) {
            lc = apdu[4];
            if (lc == 0 || (len != 5 + lc && len != 6 + lc)) {
                lc = -1;
            } else if (len == 6 + lc) {
                le = apdu[5 + lc] ? apdu[5 + lc] : 256;
            }
        }
        if (lc < 0) {
            n = put_sw(c->tx, 0, SW_WRONG_LEN);
        } else {
            n = execute(c, apdu, apdu + 5, lc, le, false, c->tx);
        }
    }
    c->tx_len = n;
    c->tx_pos = 0;
}

int iso7816_t1_block(ISO7816Card *c, const uint8_t *blk, int len,
                     uint8_t *out)
{
    uint8_t lrc = 0, pcb, ilen;
    int i;

    if (c->state != ISO7816_ACTIVE || c->proto != 1) {
        return ISO7816_MUTE;
    }
    for (i = 0; i < len; i++) {
        lrc ^= blk[i];
    }
    if (len < 4 || blk[2] != len - 4 || lrc || blk[0] != 0) {
        trace_pcl_iso7816_t1_bad_block(len);
        return t1_r_block(c, 1, out);
    }
    pcb = blk[1];
    ilen = blk[2];
    trace_pcl_iso7816_t1_block(pcb, ilen);

    if (!(pcb & 0x80)) {                            /* I-block */
        if (!!(pcb & PCB_I_NS) != c->nr && c->last_len) {
            /* the host repeats a block: our answer got lost, repeat it */
            memcpy(out, c->last, c->last_len);
            return c->last_len;
        }
        if (!!(pcb & PCB_I_NS) != c->nr || ilen > c->ifsc) {
            return t1_r_block(c, 2, out);
        }
        c->nr ^= 1;
        c->tx_chaining = false;
        if (c->rx_len + ilen > ISO7816_APDU_MAX) {
            c->rx_overflow = true;
        } else {
            memcpy(c->rx + c->rx_len, blk + 3, ilen);
            c->rx_len += ilen;
        }
        if (pcb & PCB_I_MORE) {
            return t1_r_block(c, 0, out);
        }
        if (c->rx_overflow) {
            c->tx_len = put_sw(c->tx, 0, SW_WRONG_LEN);
            c->tx_pos = 0;
        } else {
            t1_apdu(c, c->rx, c->rx_len);
        }
        c->rx_len = 0;
        c->rx_overflow = false;
        return t1_send_chunk(c, out);
    }
    if ((pcb & 0xc0) == PCB_R) {                    /* R-block */
        bool nr = pcb & PCB_R_NR;

        if (c->tx_chaining && nr == c->ns) {
            /* the host acknowledges our chunk and asks for the next one */
            c->tx_pos += c->tx_chunk;
            return t1_send_chunk(c, out);
        }
        if (c->last_len) {
            memcpy(out, c->last, c->last_len);
            return c->last_len;
        }
        return t1_r_block(c, 0, out);
    }
    /* S-block */
    if (pcb & S_RESPONSE) {
        return t1_r_block(c, 2, out);
    }
    switch (pcb & 0x1f) {
    case S_RESYNCH:
        c->ns = c->nr = 0;
        c->rx_len = 0;
        c->tx_chaining = false;
        c->ifsd = 32;
        return t1_frame(c, PCB_S | S_RESPONSE | S_RESYNCH, NULL, 0, out);
    case S_IFS:
        if (ilen != 1 || blk[3] == 0 || blk[3] == 0xff) {
            return t1_r_block(c, 2, out);
        }
        c->ifsd = blk[3];
        return t1_frame(c, PCB_S | S_RESPONSE | S_IFS, blk + 3, 1, out);
    case S_ABORT:
        c->rx_len = 0;
        c->tx_chaining = false;
        return t1_frame(c, PCB_S | S_RESPONSE | S_ABORT, NULL, 0, out);
    default:
        return t1_r_block(c, 2, out);
    }
}

const VMStateDescription vmstate_iso7816_card = {
    .name = "iso7816-card",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8_ARRAY(atr, ISO7816Card, ISO7816_ATR_MAX),
        VMSTATE_UINT8(atr_len, ISO7816Card),
        VMSTATE_UINT64(seed, ISO7816Card),
        VMSTATE_UINT8(protocols, ISO7816Card),
        VMSTATE_UINT8(first_proto, ISO7816Card),
        VMSTATE_UINT8(ta1, ISO7816Card),
        VMSTATE_BOOL(specific, ISO7816Card),
        VMSTATE_BOOL(inverse, ISO7816Card),
        VMSTATE_UINT8(ifsc, ISO7816Card),
        VMSTATE_UINT8(state, ISO7816Card),
        VMSTATE_UINT8(proto, ISO7816Card),
        VMSTATE_UINT8(fidi, ISO7816Card),
        VMSTATE_UINT64(prng, ISO7816Card),
        VMSTATE_UINT16(cur_file, ISO7816Card),
        VMSTATE_UINT8_ARRAY(t0_hdr, ISO7816Card, 5),
        VMSTATE_BOOL(t0_want_data, ISO7816Card),
        VMSTATE_UINT8_ARRAY(pending, ISO7816Card, ISO7816_RESP_MAX),
        VMSTATE_UINT16(pending_len, ISO7816Card),
        VMSTATE_UINT8(ns, ISO7816Card),
        VMSTATE_UINT8(nr, ISO7816Card),
        VMSTATE_UINT8(ifsd, ISO7816Card),
        VMSTATE_UINT8_ARRAY(rx, ISO7816Card, ISO7816_APDU_MAX),
        VMSTATE_UINT16(rx_len, ISO7816Card),
        VMSTATE_BOOL(rx_overflow, ISO7816Card),
        VMSTATE_UINT8_ARRAY(tx, ISO7816Card, ISO7816_RESP_MAX),
        VMSTATE_UINT16(tx_len, ISO7816Card),
        VMSTATE_UINT16(tx_pos, ISO7816Card),
        VMSTATE_UINT16(tx_chunk, ISO7816Card),
        VMSTATE_BOOL(tx_chaining, ISO7816Card),
        VMSTATE_UINT8_ARRAY(last, ISO7816Card, ISO7816_T1_BLOCK_MAX),
        VMSTATE_UINT16(last_len, ISO7816Card),
        VMSTATE_END_OF_LIST()
    }
};
