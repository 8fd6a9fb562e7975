/*
 * pcmcia-nmclan: the New Media Ethernet PC Card, an AMD Am79C940 MACE
 * behind the Am2150 reference design's glue (a Xilinx FPGA and 32 KB of
 * SRAM), which Linux's nmclan_cs drives.
 *
 *   -netdev hubport,id=net0,hubid=0
 *   -device pcmcia-nmclan,bus=pcc.0,netdev=net0,mac=00:c0:ad:12:34:56
 *
 * 32 I/O ports, 5 address lines:
 *
 *   0x00  receive port (read): the oldest frame the glue holds, byte
 *         after byte (a 16-bit cycle takes two): four status bytes -
 *         RCVCNT[7:0], RCVSTS[3:0]:RCVCNT[11:8], runt count, receive
 *         collision count - then the frame with its FCS (the MACE's
 *         automatic pad stripping is off on this card); past its end
 *         the port reads 0.  Also at 0x01-0x03.
 *   0x04  transmit port (write): a 16-bit byte count, then exactly that
 *         many bytes of frame; the frame leaves once complete.  Also at
 *         0x05-0x07.
 *   0x09  transmit skip (write): the frame being written is abandoned.
 *   0x0a  receive next (write): the oldest frame is dropped, read or not.
 *   0x0b  receive frame count (read): complete frames held, 0-12.
 *   0x0c  MACE bank (write, bit 0): ports 0x10-0x1f show MACE registers
 *         0-15 (bank 0) or 16-31 (bank 1).
 *   0x10  the MACE's registers, one byte each.
 *
 * The glue divides its SRAM into 16 pages of 2 KB: 12 for frames
 * received, 4 for frames to send.  A frame that arrives with the 12 all
 * full is missed (the MACE's missed packet count).
 *
 * The MACE: receive filter (physical address PADR, logical address
 * filter LADRF over the upper 6 bits of the destination's little-endian
 * CRC-32, broadcast unless DRCVBC, all frames in PROM), the address
 * registers loaded through IAC (ADDRCHG clears at once: no frame is ever
 * half received here), interrupt register IR (read clears) under its
 * mask IMR (bits set mask), the poll register, software reset (BIUCC bit
 * 0, self-clearing), transmit frame status XMTFS and retry count XMTRC
 * (0: an emulated wire has no collisions) of each frame sent, frame
 * counts FIFOFC (XMTFC: frames handed to the MACE whose status the host
 * has not read yet, which nmclan_cs takes as a transmit that went
 * wrong when 0), the counters MPC, RNTPC, RCVCC (8 bits, read clears,
 * MPCO/RNTPCO/RCVCCO in IR when one wraps), automatic transmit padding
 * (APADXMT, on after reset), the 10BASE-T link state in PHYCC's LNKFL
 * bit, following QMP set_link.  A frame sent with the link down reaches
 * no one and reports loss of carrier (LCAR).  Frames longer than 1518
 * bytes with their FCS are cut there and reported as an overflow (OFLO);
 * frames longer than 1514 bytes sent raise BABL.  The chip ID reads
 * 0x3940 (part 940, version 3).
 *
 * Kept but without effect: the FIFO and bus configuration (FIFOCC,
 * BIUCC but its reset bit), receive frame control (automatic strip),
 * the port selection (PLSCC, PHYCC but LNKFL), the user test register
 * (its loopback modes are never used on a wire here).  The MACE's own
 * FIFO registers (0, 1) are the glue's: reads give 0, writes go nowhere.
 *
 * The card: COR at 0x200 (soft reset resets the glue and the MACE; IREQ#
 * only with a configuration index), CCSR's interrupt bit.  stuck-reset:
 * the MACE's software reset never finishes (a fault for the tests).
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include <zlib.h>
#include "qapi/error.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/pcmcia.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/eth.h"
#include "net/net.h"
#include "qom/object.h"
#include "nic-card.h"
#include "pcmcia-slot.h"
#include "trace.h"

#define TYPE_PCMCIA_NMCLAN "pcmcia-nmclan"
OBJECT_DECLARE_SIMPLE_TYPE(PCLNmclanState, PCMCIA_NMCLAN)

#define NM_CONFIG_BASE          0x200
#define NM_MAX_CIS              256
#define NM_PAGE                 2048
#define NM_RX_PAGES             12
#define NM_TX_PAGES             4
#define NM_RX_HEAD              4       /* status bytes before each frame */
#define NM_MAX_RX               1518    /* frame and FCS */
#define NM_MAX_TX               1514    /* without FCS */
#define NM_FCS                  4

/* Glue ports */
#define AM_RCV                  0x00
#define AM_XMT                  0x04
#define AM_XMT_SKIP             0x09
#define AM_RCV_NEXT             0x0a
#define AM_RCV_COUNT            0x0b
#define AM_MACE_BANK            0x0c
#define AM_MACE                 0x10

/* MACE registers */
enum {
    MACE_RCVFIFO = 0,
    MACE_XMTFIFO = 1,
    MACE_XMTFC = 2,
    MACE_XMTFS = 3,
    MACE_XMTRC = 4,
    MACE_RCVFC = 5,
    MACE_RCVFS = 6,
    MACE_FIFOFC = 7,
    MACE_IR = 8,
    MACE_IMR = 9,
    MACE_PR = 10,
    MACE_BIUCC = 11,
    MACE_FIFOCC = 12,
    MACE_MACCC = 13,
    MACE_PLSCC = 14,
    MACE_PHYCC = 15,
    MACE_CHIPIDL = 16,
    MACE_CHIPIDH = 17,
    MACE_IAC = 18,
    MACE_LADRF = 20,
    MACE_PADR = 21,
    MACE_MPC = 24,
    MACE_RNTPC = 26,
    MACE_RCVCC = 27,
    MACE_UTR = 29,
    MACE_REGS = 32,
};

#define XMTFC_APADXMT           0x01
#define XMTFS_XMTSV             0x80
#define XMTFS_LCAR              0x02
#define RCVSTS_OFLO             0x8
#define IR_BABL                 0x40
#define IR_RCVCCO               0x10
#define IR_RNTPCO               0x08
#define IR_MPCO                 0x04
#define IR_RCVINT               0x02
#define IR_XMTINT               0x01
#define PR_XMTSV                0x80
#define PR_TDTREQ               0x40
#define PR_RDTREQ               0x20
#define BIUCC_SWRST             0x01
#define MACCC_PROM              0x80
#define MACCC_DRCVPA            0x08
#define MACCC_DRCVBC            0x04
#define MACCC_ENXMT             0x02
#define MACCC_ENRCV             0x01
#define PHYCC_LNKFL             0x80
#define IAC_ADDRCHG             0x80
#define IAC_PHYADDR             0x04
#define IAC_LOGADDR             0x02
#define NM_CHIP_ID              0x3940

struct PCLNmclanState {
    /*< private >*/
    PCLCardState parent_obj;
    /*< public >*/

    NICConf conf;
    NICState *nic;
    NICWire wire;               /* its rate is the wire-rate property */
    bool stuck_reset;           /* fault: the MACE's reset never ends */

    uint8_t cis[NM_MAX_CIS];
    int cis_len;
    uint8_t cor;
    uint8_t ccsr;
    bool ireq;

    /* the glue */
    uint8_t bank;
    uint8_t rx_buf[NM_RX_PAGES * NM_PAGE];
    uint16_t rx_len[NM_RX_PAGES];   /* bytes held, status included */
    uint8_t rx_first;
    uint8_t rx_count;
    uint16_t rx_read;               /* bytes of the oldest page read */
    uint8_t tx_buf[NM_TX_PAGES * NM_PAGE];
    uint16_t tx_len[NM_TX_PAGES];   /* the byte count each frame gave */
    uint8_t tx_status[NM_TX_PAGES]; /* XMTFS of each frame sent */
    uint8_t tx_first;               /* oldest page in use */
    uint8_t tx_count;               /* pages complete: queued or sent */
    uint8_t tx_sent;                /* of them sent, status not read */
    uint16_t tx_fill;               /* bytes written to the next page */
    bool tx_on_wire;                /* page tx_first + tx_sent leaving */
    QEMUTimer *tx_timer;

    /* the MACE */
    uint8_t reg[MACE_REGS];         /* registers kept as written */
    uint8_t ir;
    bool resetting;                 /* stuck-reset: BIUCC's bit stays */
    uint8_t padr[6];
    uint8_t ladrf[8];
    uint8_t padr_ptr;
    uint8_t ladrf_ptr;
    uint8_t mpc;
    uint8_t rntpc;
    uint8_t rcvcc;
};

static bool nm_live(PCLNmclanState *s)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(s));

    return bus && PCMCIA_SLOT_BUS(bus)->live;
}

static bool nm_link_up(PCLNmclanState *s)
{
    return s->nic && !qemu_get_queue(s->nic)->link_down;
}

/* --- Configuration registers and interrupts --- */

static void nm_reset(DeviceState *dev);

static const PCMCIAConfigRegs nm_config_regs = {
    .base = NM_CONFIG_BASE,
    .reset = nm_reset,
    .trace_read = trace_pcl_nm_config_read,
    .trace_write = trace_pcl_nm_config_write,
    .trace_ireq = trace_pcl_nm_ireq,
};

static void nm_update_irq(PCLNmclanState *s)
{
    pcmcia_config_set_irq(&nm_config_regs, PCMCIA_CONFIG_STATE(s),
                          PCMCIA_CARD(s), s->ir & ~s->reg[MACE_IMR], true);
}

static void nm_event(PCLNmclanState *s, uint8_t bits)
{
    s->ir |= bits;
    nm_update_irq(s);
}

/* One more in an 8-bit counter; its overflow bit in IR when it wraps. */
static void nm_count(PCLNmclanState *s, uint8_t *ctr, uint8_t overflow)
{
    if (++*ctr == 0) {
        nm_event(s, overflow);
    }
}

/* --- Receive --- */

static bool nm_accepts(PCLNmclanState *s, const uint8_t *buf)
{
    uint8_t maccc = s->reg[MACE_MACCC];
    unsigned bin;

    if (maccc & MACCC_PROM) {
        return true;
    }
    if (is_broadcast_ether_addr(buf)) {
        return !(maccc & MACCC_DRCVBC);
    }
    if (is_multicast_ether_addr(buf)) {
        bin = net_crc32_le(buf, ETH_ALEN) >> 26;
        return s->ladrf[bin >> 3] & (1 << (bin & 7));
    }
    return !(maccc & MACCC_DRCVPA) && !memcmp(buf, s->padr, ETH_ALEN);
}

static void nm_rx_drop_oldest(PCLNmclanState *s)
{
    if (s->rx_count) {
        s->rx_first = (s->rx_first + 1) % NM_RX_PAGES;
        s->rx_count--;
    }
    s->rx_read = 0;
}

static ssize_t nm_receive(NetClientState *nc, const uint8_t *buf, size_t size)
{
    PCLNmclanState *s = qemu_get_nic_opaque(nc);
    uint8_t *page;
    size_t len = size;
    uint8_t status = 0;
    uint32_t fcs;
    unsigned n;

    if (!nm_live(s)) {
        trace_pcl_nm_rx_drop(size, "card not live");
        return size;
    }
    if (!nic_wire_rx_ready(&s->wire, size)) {
        return 0;
    }
    if (!(s->reg[MACE_MACCC] & MACCC_ENRCV) || s->resetting ||
        size < ETH_ALEN || !nm_accepts(s, buf)) {
        trace_pcl_nm_rx_drop(size, "receiver off or filtered");
        return size;
    }
    if (s->rx_count == NM_RX_PAGES) {
        trace_pcl_nm_rx_drop(size, "all receive pages full: missed");
        nm_count(s, &s->mpc, IR_MPCO);
        return size;
    }
    n = (s->rx_first + s->rx_count) % NM_RX_PAGES;
    page = s->rx_buf + n * NM_PAGE;
    len = MIN(len, NM_MAX_RX - NM_FCS);
    memcpy(page + NM_RX_HEAD, buf, len);
    if (len < ETH_ZLEN) {
        /* the sender's padding, which an emulated peer leaves out */
        memset(page + NM_RX_HEAD + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    fcs = crc32(0, page + NM_RX_HEAD, len);
    if (size > NM_MAX_RX - NM_FCS) {
        /* cut: the MACE never saw its end, nor its FCS */
        status = RCVSTS_OFLO;
        fcs = ~fcs;
    }
    stl_le_p(page + NM_RX_HEAD + len, fcs);
    len += NM_FCS;
    page[0] = len & 0xff;
    page[1] = status << 4 | len >> 8;
    page[2] = 0;                /* runts and collisions: none here */
    page[3] = 0;
    s->rx_len[n] = NM_RX_HEAD + len;
    s->rx_count++;
    trace_pcl_nm_rx(size, status, s->rx_count);
    nm_event(s, IR_RCVINT);
    return size;
}

static uint8_t nm_rx_byte(PCLNmclanState *s)
{
    uint8_t val;

    if (!s->rx_count || s->rx_read >= s->rx_len[s->rx_first]) {
        return 0;
    }
    val = s->rx_buf[s->rx_first * NM_PAGE + s->rx_read++];
    return val;
}

static void nm_link_status_changed(NetClientState *nc)
{
    trace_pcl_nm_link(!nc->link_down);
}

static NetClientInfo nm_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = nm_receive,
    .link_status_changed = nm_link_status_changed,
};

/* --- Transmit --- */

static unsigned nm_tx_page(PCLNmclanState *s, unsigned nth)
{
    return (s->tx_first + nth) % NM_TX_PAGES;
}

static void nm_tx_start(PCLNmclanState *s);

/* The frame on the wire has left. */
static void nm_tx_done(PCLNmclanState *s)
{
    unsigned n = nm_tx_page(s, s->tx_sent);
    uint16_t len = MIN(s->tx_len[n], NM_PAGE - 2);
    uint8_t frame[NM_PAGE];
    uint8_t status = XMTFS_XMTSV;

    s->tx_on_wire = false;
    memcpy(frame, s->tx_buf + n * NM_PAGE + 2, len);
    if (len < ETH_ZLEN && (s->reg[MACE_XMTFC] & XMTFC_APADXMT)) {
        memset(frame + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    if (!nm_link_up(s)) {
        status |= XMTFS_LCAR;
    }
    s->tx_status[n] = status;
    s->tx_sent++;
    trace_pcl_nm_tx(len, status);
    if (len > NM_MAX_TX) {
        nm_event(s, IR_BABL);
    }
    nm_event(s, IR_XMTINT);
    if (!(status & XMTFS_LCAR)) {
        qemu_send_packet(qemu_get_queue(s->nic), frame, len);
    }
    nm_tx_start(s);
}

static void nm_tx_timer_cb(void *opaque)
{
    PCLNmclanState *s = opaque;

    nic_wire_tx_fired(&s->wire, s->tx_len[nm_tx_page(s, s->tx_sent)]);
    nm_tx_done(s);
}

/* The next complete frame leaves when the transmitter is on. */
static void nm_tx_start(PCLNmclanState *s)
{
    int64_t end;

    if (s->tx_on_wire || s->tx_sent == s->tx_count || s->resetting ||
        !(s->reg[MACE_MACCC] & MACCC_ENXMT)) {
        return;
    }
    s->tx_on_wire = true;
    end = nic_wire_tx_slot(&s->wire, s->tx_len[nm_tx_page(s, s->tx_sent)]);
    if (end == NIC_WIRE_NEVER) {
        return;                 /* a mute card: it stays on the wire */
    }
    if (end) {
        timer_mod(s->tx_timer, end);
    } else {
        nm_tx_done(s);
    }
}

static void nm_tx_write(PCLNmclanState *s, uint8_t val)
{
    unsigned n = nm_tx_page(s, s->tx_count);
    uint16_t want;

    if (s->tx_count == NM_TX_PAGES) {
        trace_pcl_nm_tx_drop("all transmit pages in use");
        return;
    }
    if (s->tx_fill < NM_PAGE) {
        s->tx_buf[n * NM_PAGE + s->tx_fill] = val;
    }
    s->tx_fill++;
    if (s->tx_fill < 2) {
        return;
    }
    want = lduw_le_p(s->tx_buf + n * NM_PAGE);
    if (s->tx_fill == 2 + want || s->tx_fill == NM_PAGE) {
        /* complete (or the page full: the rest is lost) */
        s->tx_len[n] = s->tx_fill - 2;
        s->tx_fill = 0;
        s->tx_count++;
        nm_tx_start(s);
    }
}

/* XMTFS read: the oldest sent frame's status; its page is free again. */
static uint8_t nm_tx_status(PCLNmclanState *s)
{
    uint8_t status;

    if (!s->tx_sent) {
        return 0;
    }
    status = s->tx_status[s->tx_first];
    s->tx_first = nm_tx_page(s, 1);
    s->tx_count--;
    s->tx_sent--;
    return status;
}

static void nm_tx_cancel(PCLNmclanState *s)
{
    timer_del(s->tx_timer);
    if (s->tx_on_wire) {
        nic_wire_tx_abort(&s->wire);
    }
    s->tx_on_wire = false;
}

/* --- Reset --- */

/* The MACE's registers after its reset (BIUCC's SWRST, or power). */
static void nm_mace_reset(PCLNmclanState *s)
{
    memset(s->reg, 0, sizeof(s->reg));
    s->reg[MACE_XMTFC] = XMTFC_APADXMT;
    s->ir = 0;
    s->padr_ptr = 0;
    s->ladrf_ptr = 0;
    s->mpc = s->rntpc = s->rcvcc = 0;
    /* the frame leaving is cut off; the glue keeps what it holds */
    nm_tx_cancel(s);
}

static void nm_glue_reset(PCLNmclanState *s)
{
    nm_tx_cancel(s);
    s->bank = 0;
    s->rx_first = s->rx_count = 0;
    s->rx_read = 0;
    s->tx_first = s->tx_count = s->tx_sent = 0;
    s->tx_fill = 0;
}

static void nm_reset(DeviceState *dev)
{
    PCLNmclanState *s = PCMCIA_NMCLAN(dev);
    bool held;

    trace_pcl_nm_reset();
    held = nic_wire_reset(&s->wire);
    nm_glue_reset(s);
    nm_mace_reset(s);
    memset(s->padr, 0, sizeof(s->padr));
    memset(s->ladrf, 0, sizeof(s->ladrf));
    s->resetting = false;
    s->cor = 0;
    s->ccsr = 0;
    nm_update_irq(s);
    if (held && s->nic) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

/* --- MACE registers --- */

static uint8_t nm_clear_on_read(uint8_t *reg)
{
    uint8_t val = *reg;

    *reg = 0;
    return val;
}

static uint8_t nm_mace_read(PCLNmclanState *s, unsigned reg)
{
    uint8_t val;

    switch (reg) {
    case MACE_XMTFS:
        val = nm_tx_status(s);
        break;
    case MACE_XMTRC:
        val = 0;
        break;
    case MACE_RCVFIFO:
    case MACE_XMTFIFO:
    case MACE_RCVFS:
        val = 0;
        break;
    case MACE_FIFOFC:
        val = MIN(s->rx_count, 15) << 4 | s->tx_count;
        break;
    case MACE_IR:
        val = nm_clear_on_read(&s->ir);
        nm_update_irq(s);
        break;
    case MACE_PR:
        val = (s->tx_sent ? PR_XMTSV : 0) |
              (s->tx_count < NM_TX_PAGES ? PR_TDTREQ : 0) |
              (s->rx_count ? PR_RDTREQ : 0);
        break;
    case MACE_BIUCC:
        val = s->reg[reg] | (s->resetting ? BIUCC_SWRST : 0);
        break;
    case MACE_PHYCC:
        val = (s->reg[reg] & ~PHYCC_LNKFL) |
              (nm_link_up(s) ? 0 : PHYCC_LNKFL);
        break;
    case MACE_CHIPIDL:
        val = NM_CHIP_ID & 0xff;
        break;
    case MACE_CHIPIDH:
        val = NM_CHIP_ID >> 8;
        break;
    case MACE_IAC:
        val = s->reg[reg] & ~IAC_ADDRCHG;
        break;
    case MACE_LADRF:
        val = s->ladrf[s->ladrf_ptr];
        s->ladrf_ptr = (s->ladrf_ptr + 1) % sizeof(s->ladrf);
        break;
    case MACE_PADR:
        val = s->padr[s->padr_ptr];
        s->padr_ptr = (s->padr_ptr + 1) % sizeof(s->padr);
        break;
    case MACE_MPC:
        val = nm_clear_on_read(&s->mpc);
        break;
    case MACE_RNTPC:
        val = nm_clear_on_read(&s->rntpc);
        break;
    case MACE_RCVCC:
        val = nm_clear_on_read(&s->rcvcc);
        break;
    case MACE_XMTFC:
    case MACE_RCVFC:
    case MACE_IMR:
    case MACE_FIFOCC:
    case MACE_MACCC:
    case MACE_PLSCC:
    case MACE_UTR:
        val = s->reg[reg];
        break;
    default:
        val = 0;                /* reserved */
        break;
    }
    return val;
}

static void nm_mace_write(PCLNmclanState *s, unsigned reg, uint8_t val)
{
    switch (reg) {
    case MACE_BIUCC:
        if (val & BIUCC_SWRST) {
            trace_pcl_nm_mace_reset(s->stuck_reset);
            nm_mace_reset(s);
            s->resetting = s->stuck_reset;
            nm_update_irq(s);
            return;
        }
        s->reg[reg] = val;
        return;
    case MACE_IMR:
        s->reg[reg] = val;
        nm_update_irq(s);
        return;
    case MACE_MACCC:
        s->reg[reg] = val;
        nm_tx_start(s);
        return;
    case MACE_IAC:
        s->reg[reg] = val & (IAC_PHYADDR | IAC_LOGADDR);
        if (val & IAC_PHYADDR) {
            s->padr_ptr = 0;
        }
        if (val & IAC_LOGADDR) {
            s->ladrf_ptr = 0;
        }
        return;
    case MACE_LADRF:
        s->ladrf[s->ladrf_ptr] = val;
        s->ladrf_ptr = (s->ladrf_ptr + 1) % sizeof(s->ladrf);
        return;
    case MACE_PADR:
        s->padr[s->padr_ptr] = val;
        s->padr_ptr = (s->padr_ptr + 1) % sizeof(s->padr);
        return;
    case MACE_XMTFC:
    case MACE_RCVFC:
    case MACE_FIFOCC:
    case MACE_PLSCC:
    case MACE_UTR:
        s->reg[reg] = val;
        return;
    case MACE_PHYCC:
        s->reg[reg] = val & ~PHYCC_LNKFL;
        return;
    }
    trace_pcl_nm_ignored_write(reg, val);
}

/* --- PC Card front end --- */

static uint8_t nm_read_byte(PCLNmclanState *s, unsigned port)
{
    if (port >= AM_MACE) {
        return nm_mace_read(s, (port - AM_MACE) | (s->bank & 1) << 4);
    }
    switch (port) {
    case AM_RCV ... AM_RCV + 3:
        return nm_rx_byte(s);
    case AM_RCV_COUNT:
        return s->rx_count;
    case AM_MACE_BANK:
        return s->bank;
    }
    return 0;
}

static void nm_write_byte(PCLNmclanState *s, unsigned port, uint8_t val)
{
    if (port >= AM_MACE) {
        nm_mace_write(s, (port - AM_MACE) | (s->bank & 1) << 4, val);
        return;
    }
    switch (port) {
    case AM_XMT ... AM_XMT + 3:
        nm_tx_write(s, val);
        return;
    case AM_XMT_SKIP:
        s->tx_fill = 0;
        return;
    case AM_RCV_NEXT:
        nm_rx_drop_oldest(s);
        return;
    case AM_MACE_BANK:
        s->bank = val & 1;
        return;
    }
    trace_pcl_nm_ignored_write(port, val);
}

static uint16_t nm_io_read(PCMCIACardState *card, uint32_t addr)
{
    PCLNmclanState *s = PCMCIA_NMCLAN(card);
    bool wide = pcmcia_slot_cycle_is_16bit(card);
    unsigned port = addr & 0x1f;
    uint16_t val;

    if (wide && port < AM_MACE) {
        /* the glue's ports are byte ports seen twice */
        val = nm_read_byte(s, port);
        val |= nm_read_byte(s, port + 1) << 8;
    } else if (wide) {
        /* the MACE is on the low byte lane */
        val = nm_read_byte(s, port) | 0xff00;
    } else {
        val = nm_read_byte(s, port);
    }
    trace_pcl_nm_read(port, wide ? 2 : 1, val);
    return val;
}

static void nm_io_write(PCMCIACardState *card, uint32_t addr, uint16_t val)
{
    PCLNmclanState *s = PCMCIA_NMCLAN(card);
    bool wide = pcmcia_slot_cycle_is_16bit(card);
    unsigned port = addr & 0x1f;

    trace_pcl_nm_write(port, wide ? 2 : 1, val);
    nm_write_byte(s, port, val & 0xff);
    if (wide && port < AM_MACE) {
        nm_write_byte(s, port + 1, val >> 8);
    }
}

static uint8_t nm_attr_read(PCMCIACardState *card, uint32_t addr)
{
    return pcmcia_config_read(&nm_config_regs,
                              PCMCIA_CONFIG_STATE(PCMCIA_NMCLAN(card)), addr);
}

static void nm_attr_write(PCMCIACardState *card, uint32_t addr, uint8_t val)
{
    PCLNmclanState *s = PCMCIA_NMCLAN(card);

    if (pcmcia_config_write(&nm_config_regs, PCMCIA_CONFIG_STATE(s),
                            DEVICE(s), addr, val)) {
        nm_update_irq(s);
    }
}

/* --- Life cycle --- */

/*
 * CONFIG: the COR at 0x200, last index 1.
 * CFTABLE_ENTRY 1 (default): I/O, Vcc 5 V, 32 ports on any 32-port
 * boundary (5 address lines) with 8- and 16-bit cycles, any level-mode
 * IRQ.
 */
static const uint8_t nm_config[] = {
    0x1a, 0x05,  0x01, 0x01, 0x00, 0x02, 0x01,
    0x1b, 0x09,  0xc1, 0x01, 0x19, 0x01, 0x55, 0x65, 0x30, 0xff, 0xff,
};

static const NICCardIdentity nm_identity = {
    /* nmclan_cs binds by these two strings */
    .vers1 = { "New Media Corporation", "Ethernet" },
    .no_manfid = true,
    /* nmclan_cs reads the MAC from the vendor tuple 0x80 */
    .node_tuple = 0x80,
    .config_tuples = nm_config,
    .config_tuples_len = sizeof(nm_config),
};

static void nm_realize(DeviceState *dev, Error **errp)
{
    PCLNmclanState *s = PCMCIA_NMCLAN(dev);

    nic_card_realize(NIC_CARD_PARTS(s), &nm_identity, nm_tx_timer_cb, s);
    nm_reset(dev);
    nic_card_new_nic(dev, NIC_CARD_PARTS(s), &nm_net_info, s);
}

static void nm_unrealize(DeviceState *dev)
{
    nic_card_unrealize(NIC_CARD_PARTS(PCMCIA_NMCLAN(dev)));
}

static int nm_post_load(void *opaque, int version_id)
{
    PCLNmclanState *s = opaque;
    int i;

    if (s->rx_first >= NM_RX_PAGES || s->rx_count > NM_RX_PAGES ||
        s->tx_first >= NM_TX_PAGES || s->tx_count > NM_TX_PAGES ||
        s->tx_sent > s->tx_count || s->tx_fill > NM_PAGE ||
        s->padr_ptr >= sizeof(s->padr) || s->ladrf_ptr >= sizeof(s->ladrf)) {
        return -EINVAL;
    }
    for (i = 0; i < NM_RX_PAGES; i++) {
        if (s->rx_len[i] > NM_PAGE) {
            return -EINVAL;
        }
    }
    for (i = 0; i < NM_TX_PAGES; i++) {
        if (s->tx_len[i] > NM_PAGE - 2) {
            return -EINVAL;
        }
    }
    return 0;
}

static const VMStateDescription vmstate_pcmcia_nmclan = {
    .name = TYPE_PCMCIA_NMCLAN,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = nm_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(cor, PCLNmclanState),
        VMSTATE_UINT8(ccsr, PCLNmclanState),
        VMSTATE_BOOL(ireq, PCLNmclanState),
        VMSTATE_UINT8(bank, PCLNmclanState),
        VMSTATE_BUFFER(rx_buf, PCLNmclanState),
        VMSTATE_UINT16_ARRAY(rx_len, PCLNmclanState, NM_RX_PAGES),
        VMSTATE_UINT8(rx_first, PCLNmclanState),
        VMSTATE_UINT8(rx_count, PCLNmclanState),
        VMSTATE_UINT16(rx_read, PCLNmclanState),
        VMSTATE_BUFFER(tx_buf, PCLNmclanState),
        VMSTATE_UINT16_ARRAY(tx_len, PCLNmclanState, NM_TX_PAGES),
        VMSTATE_UINT8_ARRAY(tx_status, PCLNmclanState, NM_TX_PAGES),
        VMSTATE_UINT8(tx_first, PCLNmclanState),
        VMSTATE_UINT8(tx_count, PCLNmclanState),
        VMSTATE_UINT8(tx_sent, PCLNmclanState),
        VMSTATE_UINT16(tx_fill, PCLNmclanState),
        VMSTATE_BOOL(tx_on_wire, PCLNmclanState),
        VMSTATE_TIMER_PTR(tx_timer, PCLNmclanState),
        VMSTATE_UINT8_ARRAY(reg, PCLNmclanState, MACE_REGS),
        VMSTATE_UINT8(ir, PCLNmclanState),
        VMSTATE_BOOL(resetting, PCLNmclanState),
        VMSTATE_UINT8_ARRAY(padr, PCLNmclanState, 6),
        VMSTATE_UINT8_ARRAY(ladrf, PCLNmclanState, 8),
        VMSTATE_UINT8(padr_ptr, PCLNmclanState),
        VMSTATE_UINT8(ladrf_ptr, PCLNmclanState),
        VMSTATE_UINT8(mpc, PCLNmclanState),
        VMSTATE_UINT8(rntpc, PCLNmclanState),
        VMSTATE_UINT8(rcvcc, PCLNmclanState),
        VMSTATE_NIC_WIRE(wire, PCLNmclanState),
        VMSTATE_END_OF_LIST()
    }
};

static Property nm_properties[] = {
    DEFINE_NIC_PROPERTIES(PCLNmclanState, conf),
    DEFINE_PROP_UINT64("wire-rate", PCLNmclanState, wire.rate, 0),
    DEFINE_PROP_BOOL("stuck-reset", PCLNmclanState, stuck_reset, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void nm_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);

    pcc->attr_read = nm_attr_read;
    pcc->attr_write = nm_attr_write;
    pcc->io_read = nm_io_read;
    pcc->io_write = nm_io_write;

    dc->desc = "New Media Ethernet PC Card (Am79C940 MACE)";
    dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
    dc->realize = nm_realize;
    dc->unrealize = nm_unrealize;
    dc->reset = nm_reset;
    dc->vmsd = &vmstate_pcmcia_nmclan;
    device_class_set_props(dc, nm_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo nm_info = {
    .name = TYPE_PCMCIA_NMCLAN,
    .parent = TYPE_PCL_CARD,
    .instance_size = sizeof(PCLNmclanState),
    .class_init = nm_class_init,
};

static void nm_register_types(void)
{
    type_register_static(&nm_info);
}

type_init(nm_register_types)
