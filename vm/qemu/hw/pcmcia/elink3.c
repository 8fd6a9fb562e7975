/*
 * 3Com EtherLink III PC Cards: chip core and PC Card front end.
 * See elink3.h for the register windows and what the card types add.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/eth.h"
#include "net/net.h"
#include "elink3.h"
#include "pcmcia-slot.h"
#include "trace.h"

/* Ports */
#define EL3_CMD                 0x0e

#define W0_MANUFACTURER         0x00
#define W0_PRODUCT              0x02
#define W0_CONFIG_CTRL          0x04
#define W0_ADDR_CFG             0x06
#define W0_RESOURCE_CFG         0x08
#define W0_EEPROM_CMD           0x0a
#define W0_EEPROM_DATA          0x0c
#define W1_RX_STATUS            0x08
#define W1_TIMER                0x0a
#define W1_TX_STATUS            0x0b
#define W1_TX_FREE              0x0c
#define W4_FIFO_DIAG            0x04
#define W4_MEDIA                0x0a
#define W6_RX_OCTETS            0x0a
#define W6_TX_OCTETS            0x0c

/* Commands: bits 15:11, argument in 10:0 */
enum {
    CMD_TOTAL_RESET = 0,
    CMD_SELECT_WINDOW = 1,
    CMD_START_COAX = 2,
    CMD_RX_DISABLE = 3,
    CMD_RX_ENABLE = 4,
    CMD_RX_RESET = 5,
    CMD_RX_DISCARD = 8,
    CMD_TX_ENABLE = 9,
    CMD_TX_DISABLE = 10,
    CMD_TX_RESET = 11,
    CMD_FAKE_INTR = 12,
    CMD_ACK_INTR = 13,
    CMD_SET_INTR_ENB = 14,
    CMD_SET_STATUS_ENB = 15,
    CMD_SET_RX_FILTER = 16,
    CMD_SET_RX_THRESHOLD = 17,
    CMD_SET_TX_THRESHOLD = 18,
    CMD_SET_TX_START = 19,
    CMD_STATS_ENABLE = 21,
    CMD_STATS_DISABLE = 22,
    CMD_STOP_COAX = 23,
};

/* Status bits */
#define ST_INT_LATCH            0x0001
#define ST_ADAPTER_FAILURE      0x0002
#define ST_TX_COMPLETE          0x0004
#define ST_TX_AVAILABLE         0x0008
#define ST_RX_COMPLETE          0x0010
#define ST_RX_EARLY             0x0020
#define ST_INT_REQ              0x0040
#define ST_STATS_FULL           0x0080
#define ST_CMD_BUSY             0x1000
#define ST_WINDOW_SHIFT         13
/* the bits AckIntr clears; the others follow the chip's state */
#define ST_ACKABLE              (ST_INT_LATCH | ST_ADAPTER_FAILURE | \
                                 ST_TX_AVAILABLE | ST_RX_EARLY | ST_INT_REQ)

/* SetRxFilter */
#define RXF_STATION             0x01
#define RXF_MULTICAST           0x02
#define RXF_BROADCAST           0x04
#define RXF_PROMISC             0x08

/* RX status */
#define RXS_INCOMPLETE          0x8000
#define RXS_ERROR               0x4000
#define RXS_ERR_OVERRUN         0x0000
#define RXS_ERR_OVERSIZE        0x0800
#define RXS_LEN_MASK            0x07ff

/* TX header and TX status */
#define TXH_LEN_MASK            0x07ff
#define TXH_INTR                0x8000
#define TXS_COMPLETE            0x80
#define TXS_INTR                0x40
#define TXS_OVERFLOW            0x04

/* EEPROM command: opcode in the 2 bits above the address */
#define EEPROM_BUSY             0x8000
#define EEPROM_OP_READ          2
#define EEPROM_READ_NS          162000

#define CONFIG_CTRL_ENA         0x0001
#define FIFO_DIAG_TX_OVERRUN    0x0400
#define MEDIA_TP_PORT           0x8000  /* this card's 10BASE-T port */
#define MEDIA_LINK_BEAT         0x0800
#define MEDIA_WRITABLE          0x00ff

#define STAT_RX_OVERRUNS        5
#define STAT_TX_FRAMES          6
#define STAT_RX_FRAMES          7

#define EL3_MANUFACTURER_ID     0x6d50
#define EL3_THRESH_OFF          0xffff
#define EL3_MAX_FRAME           1514    /* without FCS */

static uint32_t rx_size(PCLElink3Card *s)
{
    return PCL_ELINK3_CARD_GET_CLASS(s)->rx_fifo_size;
}

static uint32_t tx_size(PCLElink3Card *s)
{
    return PCL_ELINK3_CARD_GET_CLASS(s)->tx_fifo_size;
}

static bool el3_live(PCLElink3Card *s)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(s));

    return bus && PCMCIA_SLOT_BUS(bus)->live;
}

/* --- Status and interrupts --- */

static uint16_t el3_raw_status(PCLElink3Card *s)
{
    uint16_t st = s->latched;
    int i;

    if (s->tx_status_count) {
        st |= ST_TX_COMPLETE;
    }
    if (s->rx_count) {
        st |= ST_RX_COMPLETE;
    }
    for (i = 0; i < EL3_STATS_BYTES; i++) {
        if (s->stats[i] & 0x80) {
            st |= ST_STATS_FULL;
        }
    }
    if ((s->rx_octets | s->tx_octets) & 0x8000) {
        st |= ST_STATS_FULL;
    }
    return st;
}

static void el3_reset(DeviceState *dev);

/* The card type tells the base: see el3_config_regs(). */
static const PCMCIAConfigRegs el3_config_regs_any = {
    .reset = el3_reset,
    .trace_read = trace_pcl_el3_config_read,
    .trace_write = trace_pcl_el3_config_write,
    .trace_ireq = trace_pcl_el3_ireq,
};

static PCMCIAConfigRegs el3_config_regs(PCLElink3Card *s)
{
    PCMCIAConfigRegs r = el3_config_regs_any;

    r.base = PCL_ELINK3_CARD_GET_CLASS(s)->config_base;
    return r;
}

/*
 * IREQ# follows the enabled status bits once the host has chosen a
 * configuration and (on chips that have the bit) activated the adapter.
 */
static void el3_update_irq(PCLElink3Card *s)
{
    bool active = (s->config_ctrl & CONFIG_CTRL_ENA) ||
                  !PCL_ELINK3_CARD_GET_CLASS(s)->adapter_enable;
    bool level = (el3_raw_status(s) & s->int_enable) && active;
    PCMCIAConfigRegs r = el3_config_regs(s);

    pcmcia_config_set_irq(&r, PCMCIA_CONFIG_STATE(s), PCMCIA_CARD(s), level,
                          true);
}

/* An event: its status bit is set, and latches the interrupt if enabled. */
static void el3_event(PCLElink3Card *s, uint16_t bit)
{
    s->latched |= bit & ST_ACKABLE;
    if (bit & s->int_enable) {
        s->latched |= ST_INT_LATCH;
    }
    el3_update_irq(s);
}

/* --- Statistics --- */

static void el3_count(PCLElink3Card *s, unsigned reg)
{
    bool full = el3_raw_status(s) & ST_STATS_FULL;

    if (!s->stats_enabled) {
        return;
    }
    s->stats[reg]++;
    if (!full && (el3_raw_status(s) & ST_STATS_FULL)) {
        el3_event(s, ST_STATS_FULL);
    }
}

static void el3_count_octets(PCLElink3Card *s, uint16_t *ctr, size_t len)
{
    bool full = el3_raw_status(s) & ST_STATS_FULL;

    if (!s->stats_enabled) {
        return;
    }
    *ctr += len;
    if (!full && (el3_raw_status(s) & ST_STATS_FULL)) {
        el3_event(s, ST_STATS_FULL);
    }
}

/* --- RX FIFO --- */

static unsigned rx_slot(PCLElink3Card *s, unsigned n)
{
    return (s->rx_first + n) % EL3_RX_SLOTS;
}

static void rx_put(PCLElink3Card *s, const uint8_t *buf, size_t len,
                   uint16_t error)
{
    uint32_t size = rx_size(s);
    uint32_t pos = (s->rx_start + s->rx_used) % size;
    unsigned slot = rx_slot(s, s->rx_count);
    size_t i;

    for (i = 0; i < len; i++) {
        s->rx_buf[(pos + i) % size] = buf[i];
    }
    s->rx_len[slot] = len;
    s->rx_error[slot] = error;
    s->rx_used += ROUND_UP(len, 4);
    s->rx_count++;
}

/* RxDiscard: the oldest frame leaves the FIFO, read or not. */
static void rx_discard(PCLElink3Card *s)
{
    unsigned slot = s->rx_first;
    uint32_t room;

    if (!s->rx_count) {
        return;
    }
    room = ROUND_UP(s->rx_len[slot], 4);
    s->rx_start = (s->rx_start + room) % rx_size(s);
    s->rx_used -= room;
    s->rx_first = rx_slot(s, 1);
    s->rx_count--;
    s->rx_read = 0;
    if (!s->rx_count) {
        s->rx_start = 0;
    }
}

static void rx_flush(PCLElink3Card *s)
{
    s->rx_start = s->rx_used = 0;
    s->rx_read = 0;
    s->rx_first = s->rx_count = 0;
}

static uint16_t rx_status(PCLElink3Card *s)
{
    unsigned slot = s->rx_first;

    if (!s->rx_count) {
        return RXS_INCOMPLETE;
    }
    return s->rx_error[slot] |
           ((s->rx_len[slot] - MIN(s->rx_read, s->rx_len[slot])) &
            RXS_LEN_MASK);
}

/* One byte of the oldest frame; past its end the FIFO gives zeroes. */
static uint8_t rx_byte(PCLElink3Card *s)
{
    uint8_t val = 0;

    if (s->rx_count && s->rx_read < ROUND_UP(s->rx_len[s->rx_first], 4)) {
        val = s->rx_buf[(s->rx_start + s->rx_read) % rx_size(s)];
        s->rx_read++;
    }
    return val;
}

static bool el3_accepts(PCLElink3Card *s, const uint8_t *buf)
{
    if (s->rx_filter & RXF_PROMISC) {
        return true;
    }
    if (is_broadcast_ether_addr(buf)) {
        return s->rx_filter & RXF_BROADCAST;
    }
    if (is_multicast_ether_addr(buf)) {
        /* no group filter: all multicast frames or none */
        return s->rx_filter & RXF_MULTICAST;
    }
    return (s->rx_filter & RXF_STATION) && !memcmp(buf, s->station, 6);
}

static ssize_t el3_receive(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    PCLElink3Card *s = qemu_get_nic_opaque(nc);
    uint8_t padded[ETH_ZLEN];
    uint32_t room;
    size_t len = size;

    if (!el3_live(s)) {
        trace_pcl_el3_rx_drop(size, "card not live");
        return size;
    }
    if (!nic_wire_rx_ready(&s->wire, size)) {
        return 0;
    }
    if (!s->rx_enabled || size < 6 || !el3_accepts(s, buf)) {
        trace_pcl_el3_rx_drop(size, "receiver off or filtered");
        return size;
    }
    if (s->rx_count == EL3_RX_SLOTS) {
        room = 0;
    } else {
        room = rx_size(s) - s->rx_used;
    }
    if (len > EL3_MAX_FRAME) {
        /* reported, its data not kept: the host drops it anyway */
        if (room >= 4) {
            trace_pcl_el3_rx_error(size, RXS_ERR_OVERSIZE);
            rx_put(s, buf, 0, RXS_ERROR | RXS_ERR_OVERSIZE);
            el3_event(s, ST_RX_COMPLETE);
        }
        return size;
    }
    if (len < ETH_ZLEN) {
        memcpy(padded, buf, len);
        memset(padded + len, 0, ETH_ZLEN - len);
        buf = padded;
        len = ETH_ZLEN;
    }
    if (room >= ROUND_UP(len, 4)) {
        trace_pcl_el3_rx(len, s->rx_used);
        rx_put(s, buf, len, 0);
        el3_count(s, STAT_RX_FRAMES);
        el3_count_octets(s, &s->rx_octets, len);
        el3_event(s, ST_RX_COMPLETE);
    } else if (room >= 4) {
        /* the FIFO fills up during the frame: what fits, marked overrun */
        trace_pcl_el3_rx_overrun(len, room);
        rx_put(s, buf, room & ~3, RXS_ERROR | RXS_ERR_OVERRUN);
        el3_count(s, STAT_RX_OVERRUNS);
        el3_event(s, ST_RX_COMPLETE);
    } else {
        /* full: the frame is lost */
        trace_pcl_el3_rx_overrun(len, room);
        el3_count(s, STAT_RX_OVERRUNS);
        el3_update_irq(s);
    }
    return size;
}

static void el3_link_status_changed(NetClientState *nc)
{
    PCLElink3Card *s = qemu_get_nic_opaque(nc);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);

    trace_pcl_el3_link(!nc->link_down);
    if (ec->link_changed) {
        ec->link_changed(s, !nc->link_down);
    }
}

static NetClientInfo el3_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = el3_receive,
    .link_status_changed = el3_link_status_changed,
};

/* --- TX FIFO --- */

static uint32_t tx_free(PCLElink3Card *s)
{
    return tx_size(s) - s->tx_used;
}

/* Bytes the first frame takes in the FIFO, or 0 while it is incomplete. */
static uint32_t tx_first_frame(PCLElink3Card *s)
{
    uint32_t need;

    if (s->tx_used < 4) {
        return 0;
    }
    need = 4 + ROUND_UP(lduw_le_p(s->tx_buf) & TXH_LEN_MASK, 4);
    return s->tx_used >= need ? need : 0;
}

static void tx_check_available(PCLElink3Card *s)
{
    if (s->tx_avail != EL3_THRESH_OFF && tx_free(s) >= s->tx_avail) {
        /* one event per threshold set */
        s->tx_avail = EL3_THRESH_OFF;
        el3_event(s, ST_TX_AVAILABLE);
    }
}

static void tx_push_status(PCLElink3Card *s, uint8_t status)
{
    if (s->tx_status_count == EL3_TX_STATUS_DEPTH) {
        s->tx_status[EL3_TX_STATUS_DEPTH - 1] |= TXS_OVERFLOW;
        return;
    }
    s->tx_status[s->tx_status_count++] = status;
    el3_event(s, ST_TX_COMPLETE);
}

static void tx_start(PCLElink3Card *s);

/* The first frame has left: to the network, out of the FIFO. */
static void tx_done(PCLElink3Card *s)
{
    uint32_t need = tx_first_frame(s);
    uint16_t head = lduw_le_p(s->tx_buf);
    uint16_t len = head & TXH_LEN_MASK;
    uint8_t frame[TXH_LEN_MASK + 1];

    s->tx_on_wire = false;
    if (!need) {
        return;
    }
    memcpy(frame, s->tx_buf + 4, len);
    if (len < ETH_ZLEN) {
        /* the chip pads short frames */
        memset(frame + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    s->tx_used -= need;
    memmove(s->tx_buf, s->tx_buf + need, s->tx_used);
    trace_pcl_el3_tx(len, s->tx_used);
    el3_count(s, STAT_TX_FRAMES);
    el3_count_octets(s, &s->tx_octets, len);
    if (head & TXH_INTR) {
        tx_push_status(s, TXS_COMPLETE | TXS_INTR);
    }
    tx_check_available(s);
    qemu_send_packet(qemu_get_queue(s->nic), frame, len);
    tx_start(s);
}

static void tx_timer_cb(void *opaque)
{
    PCLElink3Card *s = opaque;

    nic_wire_tx_fired(&s->wire, lduw_le_p(s->tx_buf) & TXH_LEN_MASK);
    tx_done(s);
}

/* Send the first frame if it is complete, the transmitter on, the wire free. */
static void tx_start(PCLElink3Card *s)
{
    int64_t end;

    if (s->tx_on_wire || !s->tx_enabled || !tx_first_frame(s)) {
        return;
    }
    s->tx_on_wire = true;
    end = nic_wire_tx_slot(&s->wire, lduw_le_p(s->tx_buf) & TXH_LEN_MASK);
    if (end == NIC_WIRE_NEVER) {
        return;                 /* a mute card: it stays on the wire */
    }
    if (end) {
        timer_mod(s->tx_timer, end);
    } else {
        tx_done(s);         /* which starts the next one */
    }
}

static void tx_write(PCLElink3Card *s, uint32_t val, unsigned bytes)
{
    if (s->tx_used + bytes > tx_size(s)) {
        /* more than the FIFO holds: the data is lost */
        trace_pcl_el3_tx_overrun(s->tx_used, bytes);
        s->fifo_diag |= FIFO_DIAG_TX_OVERRUN;
        el3_event(s, ST_ADAPTER_FAILURE);
        return;
    }
    if (bytes == 2) {
        stw_le_p(s->tx_buf + s->tx_used, val);
    } else {
        s->tx_buf[s->tx_used] = val;
    }
    s->tx_used += bytes;
    tx_start(s);
}

static void tx_reset(PCLElink3Card *s)
{
    timer_del(s->tx_timer);
    if (s->tx_on_wire) {
        nic_wire_tx_abort(&s->wire);
    }
    s->tx_on_wire = false;
    s->tx_used = 0;
    s->tx_status_count = 0;
    s->tx_enabled = false;
    s->fifo_diag &= ~FIFO_DIAG_TX_OVERRUN;
}

/* --- Reset --- */

/* TotalReset and power-on: everything but the EEPROM and the COR. */
static void el3_chip_reset(PCLElink3Card *s)
{
    tx_reset(s);
    rx_flush(s);
    s->window = 0;
    s->cmd_busy = false;
    s->latched = 0;
    s->int_enable = 0;
    s->status_enable = 0;
    s->rx_filter = 0;
    s->rx_enabled = false;
    s->stats_enabled = false;
    s->rx_early = EL3_THRESH_OFF;
    s->tx_avail = EL3_THRESH_OFF;
    s->tx_start = 0;
    s->config_ctrl = 0;
    s->addr_cfg = s->eeprom[EL3_EE_ADDR_CFG];
    s->resource_cfg = s->eeprom[EL3_EE_RESOURCE_CFG];
    s->media = 0;
    s->fifo_diag = 0;
    memset(s->station, 0, sizeof(s->station));
    memset(s->stats, 0, sizeof(s->stats));
    s->rx_octets = s->tx_octets = 0;
    s->eeprom_cmd = 0;
    s->eeprom_data = 0;
    s->eeprom_ready = 0;
}

/* TotalReset: the chip and the card's own registers. */
static void el3_total_reset(PCLElink3Card *s)
{
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);

    el3_chip_reset(s);
    if (ec->card_reset) {
        ec->card_reset(s, false);
    }
}

/* The fault option: a reset command never reports that it finished. */
static void el3_reset_command(PCLElink3Card *s)
{
    if (s->stuck_reset) {
        s->cmd_busy = true;
    }
}

/* --- Commands --- */

static void el3_command(PCLElink3Card *s, uint16_t val)
{
    unsigned cmd = val >> 11;
    unsigned arg = val & 0x7ff;

    trace_pcl_el3_command(cmd, arg);
    switch (cmd) {
    case CMD_TOTAL_RESET:
        el3_total_reset(s);
        el3_reset_command(s);
        break;
    case CMD_SELECT_WINDOW:
        s->window = arg & 7;
        break;
    case CMD_START_COAX:
    case CMD_STOP_COAX:
        break;                  /* no coax transceiver on this card */
    case CMD_RX_DISABLE:
        s->rx_enabled = false;
        break;
    case CMD_RX_ENABLE:
        s->rx_enabled = true;
        break;
    case CMD_RX_RESET:
        rx_flush(s);
        s->rx_enabled = false;
        s->rx_filter = 0;
        el3_reset_command(s);
        break;
    case CMD_RX_DISCARD:
        rx_discard(s);
        break;
    case CMD_TX_ENABLE:
        s->tx_enabled = true;
        tx_start(s);
        break;
    case CMD_TX_DISABLE:
        s->tx_enabled = false;
        break;
    case CMD_TX_RESET:
        tx_reset(s);
        el3_reset_command(s);
        tx_check_available(s);
        break;
    case CMD_FAKE_INTR:
        el3_event(s, ST_INT_REQ);
        break;
    case CMD_ACK_INTR:
        s->latched &= ~(arg & ST_ACKABLE);
        break;
    case CMD_SET_INTR_ENB:
        s->int_enable = arg & 0xff;
        break;
    case CMD_SET_STATUS_ENB:
        s->status_enable = arg & 0xff;
        break;
    case CMD_SET_RX_FILTER:
        s->rx_filter = arg & 0x0f;
        break;
    case CMD_SET_RX_THRESHOLD:
        /* kept, but no early receive: frames are whole when they arrive */
        s->rx_early = arg;
        break;
    case CMD_SET_TX_THRESHOLD:
        s->tx_avail = arg << PCL_ELINK3_CARD_GET_CLASS(s)->threshold_shift;
        tx_check_available(s);
        break;
    case CMD_SET_TX_START:
        /* kept; a frame leaves once it is complete in the FIFO */
        s->tx_start = arg;
        break;
    case CMD_STATS_ENABLE:
        s->stats_enabled = true;
        break;
    case CMD_STATS_DISABLE:
        s->stats_enabled = false;
        break;
    default:
        trace_pcl_el3_unknown_command(cmd, arg);
        break;
    }
    el3_update_irq(s);
}

static uint16_t el3_status(PCLElink3Card *s)
{
    return (el3_raw_status(s) & s->status_enable) |
           (s->cmd_busy ? ST_CMD_BUSY : 0) |
           (s->window << ST_WINDOW_SHIFT);
}

/* --- Registers --- */

static uint16_t el3_eeprom_cmd_read(PCLElink3Card *s)
{
    bool busy = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) < s->eeprom_ready;

    return s->eeprom_cmd | (busy ? EEPROM_BUSY : 0);
}

static void el3_eeprom_cmd_write(PCLElink3Card *s, uint16_t val)
{
    unsigned bits = PCL_ELINK3_CARD_GET_CLASS(s)->eeprom_addr_bits;
    unsigned addr = val & ((1u << bits) - 1);

    s->eeprom_cmd = val & ~EEPROM_BUSY;
    if (((val >> bits) & 3) == EEPROM_OP_READ) {
        s->eeprom_data = s->eeprom[addr];
        s->eeprom_ready = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                          EEPROM_READ_NS;
        trace_pcl_el3_eeprom_read(addr, s->eeprom_data);
    }
}

static uint16_t el3_media(PCLElink3Card *s)
{
    bool link = s->nic && !qemu_get_queue(s->nic)->link_down;

    return (s->media & MEDIA_WRITABLE) | MEDIA_TP_PORT |
           (link ? MEDIA_LINK_BEAT : 0);
}

static uint16_t el3_stat_word(PCLElink3Card *s, uint16_t *ctr)
{
    uint16_t val = *ctr;

    *ctr = 0;
    return val;
}

/*
 * Word registers of window @win at even offset @off (reads may have side
 * effects).
 */
static bool el3_word_reg(PCLElink3Card *s, unsigned win, unsigned off,
                         uint16_t *val)
{
    switch (win << 4 | off) {
    case 0x00 | W0_MANUFACTURER:
        *val = EL3_MANUFACTURER_ID;
        break;
    case 0x00 | W0_PRODUCT:
        *val = PCL_ELINK3_CARD_GET_CLASS(s)->product_id;
        break;
    case 0x00 | W0_CONFIG_CTRL:
        *val = s->config_ctrl;
        break;
    case 0x00 | W0_ADDR_CFG:
        *val = s->addr_cfg;
        break;
    case 0x00 | W0_RESOURCE_CFG:
        *val = s->resource_cfg;
        break;
    case 0x00 | W0_EEPROM_CMD:
        *val = el3_eeprom_cmd_read(s);
        break;
    case 0x00 | W0_EEPROM_DATA:
        *val = s->eeprom_data;
        break;
    case 0x10 | EL3_DATA:
    case 0x10 | EL3_DATA_HI:
        *val = rx_byte(s);
        *val |= rx_byte(s) << 8;
        break;
    case 0x10 | W1_RX_STATUS:
        *val = rx_status(s);
        break;
    case 0x10 | W1_TX_FREE:
        *val = tx_free(s);
        break;
    case 0x40 | W4_FIFO_DIAG:
        *val = s->fifo_diag;
        break;
    case 0x40 | W4_MEDIA:
        *val = el3_media(s);
        break;
    case 0x60 | W6_RX_OCTETS:
        *val = el3_stat_word(s, &s->rx_octets);
        break;
    case 0x60 | W6_TX_OCTETS:
        *val = el3_stat_word(s, &s->tx_octets);
        break;
    default:
        return false;
    }
    return true;
}

/* Registers that are bytes. */
static bool el3_byte_reg(PCLElink3Card *s, unsigned win, unsigned off,
                         uint8_t *val)
{
    switch (win << 4 | off) {
    case 0x10 | EL3_DATA ... 0x10 | (EL3_DATA_HI + 1):
        *val = rx_byte(s);
        break;
    case 0x10 | W1_TIMER:
        /* interrupts are never held back here: no latency to show */
        *val = 0;
        break;
    case 0x10 | W1_TX_STATUS:
        *val = s->tx_status_count ? s->tx_status[0] : 0;
        break;
    case 0x20 ... 0x25:
        *val = s->station[off];
        break;
    case 0x60 ... 0x60 + EL3_STATS_BYTES - 1:
        /* reading clears a counter */
        *val = s->stats[off];
        s->stats[off] = 0;
        break;
    default:
        return false;
    }
    return true;
}

/* An 8-bit cycle: a byte register, or half of a word register. */
static uint8_t el3_read_byte(PCLElink3Card *s, unsigned win, unsigned off)
{
    uint16_t word;
    uint8_t val;

    if (el3_byte_reg(s, win, off, &val)) {
        return val;
    }
    if (el3_word_reg(s, win, off & ~1, &word)) {
        return off & 1 ? word >> 8 : word & 0xff;
    }
    return 0;
}

/* A 16-bit cycle at even @off: a word register, or two byte registers. */
static uint16_t el3_read_word(PCLElink3Card *s, unsigned win, unsigned off)
{
    uint16_t val;

    if (el3_word_reg(s, win, off, &val)) {
        return val;
    }
    return el3_read_byte(s, win, off) |
           el3_read_byte(s, win, off + 1) << 8;
}

static void el3_write_byte(PCLElink3Card *s, unsigned win, unsigned off,
                           uint8_t val);

static void el3_write_word(PCLElink3Card *s, unsigned win, unsigned off,
                           uint16_t val)
{
    switch (win << 4 | off) {
    case 0x00 | W0_CONFIG_CTRL:
        s->config_ctrl = val;
        el3_update_irq(s);
        return;
    case 0x00 | W0_ADDR_CFG:
        s->addr_cfg = val;
        return;
    case 0x00 | W0_RESOURCE_CFG:
        s->resource_cfg = val;
        return;
    case 0x00 | W0_EEPROM_CMD:
        el3_eeprom_cmd_write(s, val);
        return;
    case 0x10 | EL3_DATA:
    case 0x10 | EL3_DATA_HI:
        tx_write(s, val, 2);
        return;
    case 0x40 | W4_MEDIA:
        s->media = val;
        return;
    }
    el3_write_byte(s, win, off, val & 0xff);
    el3_write_byte(s, win, off + 1, val >> 8);
}

static void el3_write_byte(PCLElink3Card *s, unsigned win, unsigned off,
                           uint8_t val)
{
    switch (win) {
    case 1:
        switch (off) {
        case EL3_DATA ... EL3_DATA_HI + 1:
            tx_write(s, val, 1);
            return;
        case W1_TX_STATUS:
            /* pop the TX status stack */
            if (s->tx_status_count) {
                s->tx_status_count--;
                memmove(s->tx_status, s->tx_status + 1, s->tx_status_count);
            }
            el3_update_irq(s);
            return;
        }
        break;
    case 2:
        if (off < 6) {
            s->station[off] = val;
        }
        return;
    }
    trace_pcl_el3_ignored_write(win, off, val);
}

/* --- PC Card front end: I/O ports --- */

/*
 * The window port @port of the card's range shows: the upper half of a
 * 32-port card is window 1 whatever window is selected.
 */
static unsigned el3_port_window(PCLElink3Card *s, unsigned port)
{
    return port >= 16 ? 1 : s->window;
}

static uint16_t el3_io_read(PCMCIACardState *card, uint32_t addr)
{
    PCLElink3Card *s = PCL_ELINK3_CARD(card);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);
    bool wide = pcmcia_slot_cycle_is_16bit(card);
    unsigned port = addr & (ec->io_ports - 1);
    unsigned win = el3_port_window(s, port);
    unsigned off = port & 0x0f;
    uint16_t val;

    if ((off & ~1) == EL3_CMD) {
        val = el3_status(s);
        val = wide ? val : (off & 1 ? val >> 8 : val & 0xff);
    } else if (ec->port_read && ec->port_read(s, win, port, wide, &val)) {
        /* the card's own register */
    } else if (wide) {
        val = el3_read_word(s, win, off);
    } else {
        val = el3_read_byte(s, win, off);
    }
    trace_pcl_el3_read(win, port, wide ? 2 : 1, val);
    return val;
}

static void el3_io_write(PCMCIACardState *card, uint32_t addr, uint16_t val)
{
    PCLElink3Card *s = PCL_ELINK3_CARD(card);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);
    bool wide = pcmcia_slot_cycle_is_16bit(card);
    unsigned port = addr & (ec->io_ports - 1);
    unsigned win = el3_port_window(s, port);
    unsigned off = port & 0x0f;

    trace_pcl_el3_write(win, port, wide ? 2 : 1, val);
    if ((off & ~1) == EL3_CMD) {
        /* commands are words; a byte write there goes nowhere */
        if (wide) {
            el3_command(s, val);
        }
    } else if (ec->port_write && ec->port_write(s, win, port, wide, val)) {
        /* the card's own register */
    } else if (wide) {
        el3_write_word(s, win, off, val);
    } else {
        el3_write_byte(s, win, off, val);
    }
}

/* --- PC Card front end: attribute memory --- */

static uint8_t el3_attr_read(PCMCIACardState *card, uint32_t addr)
{
    PCLElink3Card *s = PCL_ELINK3_CARD(card);
    PCMCIAConfigRegs r = el3_config_regs(s);

    return pcmcia_config_read(&r, PCMCIA_CONFIG_STATE(s), addr);
}

static void el3_attr_write(PCMCIACardState *card, uint32_t addr, uint8_t val)
{
    PCLElink3Card *s = PCL_ELINK3_CARD(card);
    PCMCIAConfigRegs r = el3_config_regs(s);

    if (pcmcia_config_write(&r, PCMCIA_CONFIG_STATE(s), DEVICE(s), addr,
                            val)) {
        el3_update_irq(s);
    }
}

/* --- Life cycle --- */

static void el3_build_eeprom(PCLElink3Card *s)
{
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);
    const uint8_t *mac = s->conf.macaddr.a;
    int i;

    memset(s->eeprom, 0, sizeof(s->eeprom));
    for (i = 0; i < 3; i++) {
        s->eeprom[EL3_EE_NODE + i] = mac[2 * i] << 8 | mac[2 * i + 1];
        s->eeprom[EL3_EE_OEM_NODE + i] = s->eeprom[EL3_EE_NODE + i];
    }
    s->eeprom[EL3_EE_PRODUCT] = ec->product_id;
    s->eeprom[EL3_EE_MANUFACTURER] = EL3_MANUFACTURER_ID;
    s->eeprom[EL3_EE_ADDR_CFG] = 0;             /* 10BASE-T, no ISA base */
    s->eeprom[EL3_EE_RESOURCE_CFG] = 0x3f00;    /* IRQ 3: PC Card default */
}

/* Power-on state of the whole card. */
static void el3_reset(DeviceState *dev)
{
    PCLElink3Card *s = PCL_ELINK3_CARD(dev);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);
    bool held;

    trace_pcl_el3_reset();
    held = nic_wire_reset(&s->wire);
    el3_chip_reset(s);
    if (ec->card_reset) {
        ec->card_reset(s, true);
    }
    s->cor = 0;
    s->ccsr = 0;
    el3_update_irq(s);
    if (held && s->nic) {
        /* frames the peer held for us meet a stopped receiver now */
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

static void el3_realize(DeviceState *dev, Error **errp)
{
    PCLElink3Card *s = PCL_ELINK3_CARD(dev);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_GET_CLASS(s);

    assert(ec->rx_fifo_size <= EL3_FIFO_MAX &&
           ec->tx_fifo_size <= EL3_FIFO_MAX);
    assert((ec->io_ports == 16 || ec->io_ports == 32) &&
           (1u << ec->eeprom_addr_bits) <= EL3_EEPROM_WORDS);
    nic_card_realize(NIC_CARD_PARTS(s), &ec->id, tx_timer_cb, s);
    el3_build_eeprom(s);
    el3_reset(dev);
    nic_card_new_nic(dev, NIC_CARD_PARTS(s), &el3_net_info, s);
}

static void el3_unrealize(DeviceState *dev)
{
    nic_card_unrealize(NIC_CARD_PARTS(PCL_ELINK3_CARD(dev)));
}

static bool el3_post_load_ok(void *opaque, int version_id)
{
    PCLElink3Card *s = opaque;

    return s->rx_used <= rx_size(s) && s->tx_used <= tx_size(s) &&
           s->rx_count <= EL3_RX_SLOTS &&
           s->tx_status_count <= EL3_TX_STATUS_DEPTH;
}

static int el3_post_load(void *opaque, int version_id)
{
    return el3_post_load_ok(opaque, version_id) ? 0 : -EINVAL;
}

const VMStateDescription vmstate_pcl_elink3_card = {
    .name = TYPE_PCL_ELINK3_CARD,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = el3_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(cor, PCLElink3Card),
        VMSTATE_UINT8(ccsr, PCLElink3Card),
        VMSTATE_BOOL(ireq, PCLElink3Card),
        VMSTATE_UINT16_ARRAY(eeprom, PCLElink3Card, EL3_EEPROM_WORDS),
        VMSTATE_UINT16(eeprom_cmd, PCLElink3Card),
        VMSTATE_UINT16(eeprom_data, PCLElink3Card),
        VMSTATE_INT64(eeprom_ready, PCLElink3Card),
        VMSTATE_UINT8(window, PCLElink3Card),
        VMSTATE_BOOL(cmd_busy, PCLElink3Card),
        VMSTATE_UINT8(latched, PCLElink3Card),
        VMSTATE_UINT8(int_enable, PCLElink3Card),
        VMSTATE_UINT8(status_enable, PCLElink3Card),
        VMSTATE_UINT8(rx_filter, PCLElink3Card),
        VMSTATE_BOOL(rx_enabled, PCLElink3Card),
        VMSTATE_BOOL(tx_enabled, PCLElink3Card),
        VMSTATE_BOOL(stats_enabled, PCLElink3Card),
        VMSTATE_UINT16(rx_early, PCLElink3Card),
        VMSTATE_UINT16(tx_avail, PCLElink3Card),
        VMSTATE_UINT16(tx_start, PCLElink3Card),
        VMSTATE_UINT16(config_ctrl, PCLElink3Card),
        VMSTATE_UINT16(addr_cfg, PCLElink3Card),
        VMSTATE_UINT16(resource_cfg, PCLElink3Card),
        VMSTATE_UINT8_ARRAY(station, PCLElink3Card, 6),
        VMSTATE_UINT16(media, PCLElink3Card),
        VMSTATE_UINT16(fifo_diag, PCLElink3Card),
        VMSTATE_UINT8_ARRAY(stats, PCLElink3Card, EL3_STATS_BYTES),
        VMSTATE_UINT16(rx_octets, PCLElink3Card),
        VMSTATE_UINT16(tx_octets, PCLElink3Card),
        VMSTATE_UINT8_ARRAY(rx_buf, PCLElink3Card, EL3_FIFO_MAX),
        VMSTATE_UINT32(rx_start, PCLElink3Card),
        VMSTATE_UINT32(rx_used, PCLElink3Card),
        VMSTATE_UINT16(rx_read, PCLElink3Card),
        VMSTATE_UINT16_ARRAY(rx_len, PCLElink3Card, EL3_RX_SLOTS),
        VMSTATE_UINT16_ARRAY(rx_error, PCLElink3Card, EL3_RX_SLOTS),
        VMSTATE_UINT8(rx_first, PCLElink3Card),
        VMSTATE_UINT8(rx_count, PCLElink3Card),
        VMSTATE_UINT8_ARRAY(tx_buf, PCLElink3Card, EL3_FIFO_MAX),
        VMSTATE_UINT32(tx_used, PCLElink3Card),
        VMSTATE_BOOL(tx_on_wire, PCLElink3Card),
        VMSTATE_TIMER_PTR(tx_timer, PCLElink3Card),
        VMSTATE_UINT8_ARRAY(tx_status, PCLElink3Card, EL3_TX_STATUS_DEPTH),
        VMSTATE_UINT8(tx_status_count, PCLElink3Card),
        VMSTATE_NIC_WIRE(wire, PCLElink3Card),
        VMSTATE_END_OF_LIST()
    }
};

static Property el3_properties[] = {
    DEFINE_NIC_PROPERTIES(PCLElink3Card, conf),
    DEFINE_PROP_UINT64("wire-rate", PCLElink3Card, wire.rate, 0),
    DEFINE_PROP_BOOL("stuck-reset", PCLElink3Card, stuck_reset, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void el3_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_CLASS(oc);

    /* the 3c509 family's: card types change what differs */
    ec->io_ports = 16;
    ec->eeprom_addr_bits = 6;
    ec->threshold_shift = 0;
    ec->adapter_enable = true;

    pcc->attr_read = el3_attr_read;
    pcc->attr_write = el3_attr_write;
    pcc->io_read = el3_io_read;
    pcc->io_write = el3_io_write;

    dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
    dc->realize = el3_realize;
    dc->unrealize = el3_unrealize;
    dc->reset = el3_reset;
    dc->vmsd = &vmstate_pcl_elink3_card;
    device_class_set_props(dc, el3_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo el3_info = {
    .name = TYPE_PCL_ELINK3_CARD,
    .parent = TYPE_PCL_CARD,
    .instance_size = sizeof(PCLElink3Card),
    .class_size = sizeof(PCLElink3CardClass),
    .class_init = el3_class_init,
    .abstract = true,
};

static void el3_register_types(void)
{
    type_register_static(&el3_info);
}

type_init(el3_register_types)
