/*
 * pcmcia-smc91c92: an SMC 91C92 (or 91C94) Ethernet PC Card, which
 * Linux's smc91c92_cs drives.
 *
 *   -netdev hubport,id=net0,hubid=0
 *   -device pcmcia-smc91c92,bus=pcc.0,netdev=net0,mac=00:00:c0:12:34:56
 *   -device pcmcia-smc91c92,bus=pcc.1,revision=91c94,...
 *
 * The card as a whole: 16 I/O ports, the function configuration
 * registers (COR, CCSR) at attribute address 0x8000, a CIS with the
 * card's identity and its MAC address in a LAN node ID tuple, and the
 * chip behind them.  `revision` picks the chip and with it the card:
 *
 *   91c92  "SMC", "EtherEZ Ethernet 8020" (MANFID 0x0108): chip ID 3;
 *          10BASE-T with its link test, and an AUI/10BASE2 port with no
 *          cable on it (every frame sent there meets 16 collisions).
 *   91c94  "BASICS by New Media Corporation", "Ethernet", "SMC91C94"
 *          (MANFID 0x0057): chip ID 4, a 10 Mbit/s MAC whose EEPROM
 *          configures the MII port (CONFIG bit 15) to an external PHY
 *          (mii-phy.c, a National DP83840 at address 0, partner a
 *          10BASE-T switch port) behind bank 3's management register.
 *
 * The chip shows four banks of registers at 0x00-0x0d, chosen through
 * the bank select register at 0x0e, whose high byte always reads 0x33:
 *
 *   bank 0  TCR (0), EPH status (2: last TX status, link), RCR (4),
 *           collision counters (6), memory information (8: total and
 *           free 256-byte pages), memory configuration (0x0a)
 *   bank 1  CONFIG (0), BASE (2: I/O base in the high byte, its two
 *           bytes differ), station address (4-9), general purpose (0x0a:
 *           EEPROM data), CONTROL (0x0c: EEPROM store/reload, EPH
 *           interrupt sources, auto release, power down)
 *   bank 2  MMU command (0), packet number (2) / allocation result (3),
 *           FIFO ports (4: TX done, 6: RX), pointer (6), data (8-0x0b),
 *           interrupt status/acknowledge (0x0c) and mask (0x0d)
 *   bank 3  multicast hash table (0-7), MII management (8), revision
 *           (0x0a), early receive (0x0c)
 *
 * Packet memory: 6 KB in 256-byte pages.  The host allocates pages for a
 * frame (the MMU answers with a packet number, at once or through the
 * allocation interrupt when memory frees up), writes status, byte count,
 * data and control byte through the pointer and data registers, and
 * enqueues the packet; once sent, it is released by itself (auto
 * release) or goes to the TX done FIFO with its status.  Received frames
 * take pages of their own and queue in the RX FIFO until the host
 * releases them; a frame that finds no memory is lost and raises the
 * RX overrun interrupt.  The multicast table is indexed by the upper six
 * bits of the frame's CRC; broadcast frames always pass.
 *
 * Faults: stuck-reset leaves the MMU busy after every reset (allocation
 * never completes, nothing is received).  Not modelled: the attribute
 * memory window onto the chip's registers, early receive and transmit,
 * collisions on the 10BASE-T port, bus width (CONFIG bit 7 is stored).
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
#include "mii-phy.h"
#include "nic-card.h"
#include "pcmcia-slot.h"
#include "trace.h"

#define TYPE_PCMCIA_SMC91C92 "pcmcia-smc91c92"
OBJECT_DECLARE_SIMPLE_TYPE(PCLSmc91c92State, PCMCIA_SMC91C92)

#define SMC_CONFIG_BASE         0x8000
#define SMC_MAX_CIS             256
#define SMC_IO_PORTS            16

#define SMC_PAGE                256
#define SMC_PAGES               24      /* 6 KB */
#define SMC_PACKETS             SMC_PAGES
#define SMC_PACKET_BYTES        2048    /* what the pointer reaches */
#define SMC_MAX_FRAME           1514    /* without FCS */
#define SMC_EEPROM_WORDS        64
#define SMC_EE_NODE             0x20

/* Bank select, at 0x0e in every bank */
#define SMC_BANK_SELECT         0x0e
#define SMC_BANK_ID             0x3300

/* Bank 0 */
#define B0_TCR                  0x00
#define B0_EPH                  0x02
#define B0_RCR                  0x04
#define B0_COUNTER              0x06
#define B0_MIR                  0x08
#define B0_MCR                  0x0a

#define TCR_TXENA               0x0001
#define TCR_PAD_EN              0x0080
#define TCR_MON_CSN             0x0400

#define EPH_TX_SUC              0x0001
#define EPH_16COL               0x0010
#define EPH_LTX_MULT            0x0008
#define EPH_LTX_BRD             0x0040
#define EPH_LOST_CAR            0x0400
#define EPH_CTR_ROL             0x1000
#define EPH_RX_OVRN             0x2000
#define EPH_LINK_OK             0x4000

#define RCR_PRMS                0x0002
#define RCR_ALMUL               0x0004
#define RCR_RXEN                0x0100
#define RCR_STRIP_CRC           0x0200
#define RCR_SOFT_RST            0x8000

/* memory multiplier 1: pages of 256 bytes */
#define SMC_MCR                 0x0200

/* Bank 1 */
#define B1_CONFIG               0x00
#define B1_BASE                 0x02
#define B1_IA                   0x04
#define B1_GENERAL              0x0a
#define B1_CONTROL              0x0c

#define CFG_AUI_SELECT          0x0100
#define CFG_MII_SELECT          0x8000
/* power-on CONFIG from the EEPROM: 16-bit bus, the chip's static bits */
#define SMC_CONFIG_POWER_ON     0x00b0
/* I/O base 0x300 in the high byte (A9-A5), the ROM disabled */
#define SMC_BASE_POWER_ON       0x1801

/* CONTROL: EEPROM access, EPH interrupt sources, release, sleep */
#define CONTROL_EE_STORE        0x0001
#define CONTROL_EE_RELOAD       0x0002
#define CONTROL_EE_GENERAL      0x0004  /* one word through GENERAL */
#define CONTROL_AUTO_RELEASE    0x0800
#define CONTROL_SLEEP           0x2000
#define CONTROL_TX_ERR_INT      0x0020
#define CONTROL_COUNTER_INT     0x0040
#define CONTROL_LINK_INT        0x0080

/* Bank 2 */
#define B2_MMU                  0x00
#define B2_PNR                  0x02
#define B2_ARR                  0x03
#define B2_FIFO                 0x04
#define B2_POINTER              0x06
#define B2_DATA                 0x08
#define B2_INT                  0x0c
#define B2_MASK                 0x0d

#define MMU_BUSY                0x0001
#define MMU_NOOP                0
#define MMU_ALLOC               1
#define MMU_RESET               2
#define MMU_RX_REMOVE           3
#define MMU_RX_RELEASE          4
#define MMU_FREE                5
#define MMU_ENQUEUE             6
#define MMU_TX_RESET            7

#define ARR_FAILED              0x80
#define FIFO_EMPTY              0x80

#define PTR_MASK                0x07ff
#define PTR_AUTOINC             0x4000
#define PTR_RCV                 0x8000

#define INT_RCV                 0x01
#define INT_TX                  0x02
#define INT_TX_EMPTY            0x04
#define INT_ALLOC               0x08
#define INT_RX_OVRN             0x10
#define INT_EPH                 0x20
/* the latched bits that a write of 1 acknowledges */
#define INT_ACKABLE             (INT_TX_EMPTY | INT_ALLOC | INT_RX_OVRN)

/* Bank 3 */
#define B3_MCAST                0x00
#define B3_MGMT                 0x08
#define B3_REVISION             0x0a
#define B3_ERCV                 0x0c

#define MGMT_MDO                0x01
#define MGMT_MDI                0x02
#define MGMT_MCLK               0x04
#define MGMT_MDOE               0x08

/* Packet layout: status, byte count, data, control byte */
#define RS_BRODCAST             0x4000
#define RS_ODDFRM               0x1000
#define RS_TOOLNG               0x0800
#define RS_MULTCAST             0x0001
#define CTLB_ODD                0x20
#define SMC_PKT_OVERHEAD        6

#define COR_INDEX               0x3f
#define COR_SRESET              0x80

/* DP83840 */
#define SMC_PHY_ID              0x20005c01
#define SMC_PHY_ADDR            0

typedef struct SMCChip {
    const char *name;
    uint8_t revision;           /* chip ID in bits 7:4, revision 3:0 */
    bool mii;                   /* the EEPROM selects the MII port */
    NICCardIdentity id;
} SMCChip;

/*
 * CONFIG: registers at 0x8000 (COR, CCSR), last index 1.
 * CFTABLE_ENTRY 1 (default): I/O, Vcc 5 V, 16 ports on any 16-port
 * boundary with 8- and 16-bit cycles, any level-mode IRQ.
 */
static const uint8_t smc_config_tuples[] = {
    0x1a, 0x05,  0x01, 0x01, 0x00, 0x80, 0x03,
    0x1b, 0x09,  0xc1, 0x01, 0x19, 0x01, 0x55, 0x64, 0x30, 0xff, 0xff,
};

/* Card IDs: the drivers look at the manufacturer code only. */
static const SMCChip smc_chips[] = {
    {
        .name = "91c92",
        .revision = 0x32,
        .id = {
            .vers1 = { "SMC", "EtherEZ Ethernet 8020" },
            .manfid = { 0x0108, 0x0105 },
            .config_tuples = smc_config_tuples,
            .config_tuples_len = sizeof(smc_config_tuples),
        },
    }, {
        .name = "91c94",
        .revision = 0x41,
        .mii = true,
        .id = {
            .vers1 = { "BASICS by New Media Corporation", "Ethernet",
                       "SMC91C94" },
            .manfid = { 0x0057, 0x1022 },
            .config_tuples = smc_config_tuples,
            .config_tuples_len = sizeof(smc_config_tuples),
        },
    },
};

typedef struct SMCFifo {
    uint8_t slot[SMC_PACKETS];
    uint8_t first;
    uint8_t count;
} SMCFifo;

struct PCLSmc91c92State {
    /*< private >*/
    PCLCardState parent_obj;
    /*< public >*/

    NICConf conf;
    NICState *nic;
    NICWire wire;               /* its rate is the wire-rate property */
    char *revision_name;
    bool stuck_reset;           /* fault: the MMU's reset never ends */
    const SMCChip *chip;
    MIIPhy phy;
    MDIOBitBang mdio;
    bool link;

    uint8_t cis[SMC_MAX_CIS];
    int cis_len;
    uint8_t cor;
    uint8_t ccsr;
    bool ireq;
    uint16_t eeprom[SMC_EEPROM_WORDS];

    uint8_t bank;
    bool powerdown;
    /* bank 0 */
    uint16_t tcr;
    uint16_t eph;
    uint16_t rcr;
    uint16_t counter;
    bool tx_error;              /* EPH source: TXENA cleared by an error */
    bool link_error;            /* EPH source: link test failed */
    /* bank 1 */
    uint16_t config;
    uint16_t base;
    uint8_t ia[6];
    uint16_t general;
    uint16_t control;
    /* bank 2 */
    bool mmu_busy;
    uint8_t pnr;
    uint8_t arr;
    uint8_t alloc_pending;      /* pages of an allocation waiting, or 0 */
    uint16_t pointer;
    uint8_t int_latched;
    uint8_t int_mask;
    /* bank 3 */
    uint8_t mcast[8];
    uint8_t mgmt;
    uint16_t ercv;

    /* packet memory */
    uint8_t pkt[SMC_PACKETS][SMC_PACKET_BYTES];
    uint8_t pkt_pages[SMC_PACKETS];     /* 0: packet number free */
    SMCFifo rx_fifo;
    SMCFifo tx_fifo;            /* enqueued, first one on the wire */
    SMCFifo done_fifo;          /* sent, not released */
    bool tx_on_wire;
    QEMUTimer *tx_timer;
};

static void smc_fifo_reset(SMCFifo *f)
{
    f->first = f->count = 0;
}

static void smc_fifo_push(SMCFifo *f, uint8_t n)
{
    assert(f->count < SMC_PACKETS);
    f->slot[(f->first + f->count) % SMC_PACKETS] = n;
    f->count++;
}

static uint8_t smc_fifo_top(const SMCFifo *f)
{
    return f->count ? f->slot[f->first] : FIFO_EMPTY;
}

static void smc_fifo_pop(SMCFifo *f)
{
    if (f->count) {
        f->first = (f->first + 1) % SMC_PACKETS;
        f->count--;
    }
}

static bool smc_live(PCLSmc91c92State *s)
{
    PCMCIACardState *card = PCMCIA_CARD(s);

    return card->slot && (s->cor & COR_INDEX) && !(s->cor & COR_SRESET);
}

static bool smc_uses_mii(PCLSmc91c92State *s)
{
    return s->chip->mii && (s->config & CFG_MII_SELECT);
}

/* --- Interrupts --- */

static uint8_t smc_int_status(PCLSmc91c92State *s)
{
    uint8_t st = s->int_latched;

    if (s->rx_fifo.count) {
        st |= INT_RCV;
    }
    if (s->done_fifo.count) {
        st |= INT_TX;
    }
    if ((s->tx_error && (s->control & CONTROL_TX_ERR_INT)) ||
        ((s->eph & EPH_CTR_ROL) && (s->control & CONTROL_COUNTER_INT)) ||
        (s->link_error && (s->control & CONTROL_LINK_INT))) {
        st |= INT_EPH;
    }
    return st;
}

static void smc_reset(DeviceState *dev);

static const PCMCIAConfigRegs smc_config_regs = {
    .base = SMC_CONFIG_BASE,
    .reset = smc_reset,
    .trace_read = trace_pcl_smc_config_read,
    .trace_write = trace_pcl_smc_config_write,
    .trace_ireq = trace_pcl_smc_ireq,
};

static void smc_update_irq(PCLSmc91c92State *s)
{
    pcmcia_config_set_irq(&smc_config_regs, PCMCIA_CONFIG_STATE(s),
                          PCMCIA_CARD(s), smc_int_status(s) & s->int_mask,
                          true);
}

/* --- Packet memory --- */

static unsigned smc_free_pages(PCLSmc91c92State *s)
{
    unsigned used = 0;
    int i;

    for (i = 0; i < SMC_PACKETS; i++) {
        used += s->pkt_pages[i];
    }
    return SMC_PAGES - used;
}

/* A packet number with @pages pages, or -1 when memory is short. */
static int smc_alloc(PCLSmc91c92State *s, unsigned pages)
{
    int i;

    if (s->mmu_busy || pages > smc_free_pages(s)) {
        return -1;
    }
    for (i = 0; i < SMC_PACKETS; i++) {
        if (!s->pkt_pages[i]) {
            s->pkt_pages[i] = pages;
            return i;
        }
    }
    return -1;
}

/* An allocation that waited for memory completes when it can. */
static void smc_alloc_retry(PCLSmc91c92State *s)
{
    int n;

    if (!s->alloc_pending) {
        return;
    }
    n = smc_alloc(s, s->alloc_pending);
    if (n >= 0) {
        trace_pcl_smc_alloc(s->alloc_pending, n);
        s->alloc_pending = 0;
        s->arr = n;
        s->int_latched |= INT_ALLOC;
    }
}

static void smc_release(PCLSmc91c92State *s, uint8_t n)
{
    if (n < SMC_PACKETS) {
        s->pkt_pages[n] = 0;
        smc_alloc_retry(s);
    }
}

static void smc_mmu_reset(PCLSmc91c92State *s)
{
    memset(s->pkt_pages, 0, sizeof(s->pkt_pages));
    smc_fifo_reset(&s->rx_fifo);
    smc_fifo_reset(&s->tx_fifo);
    smc_fifo_reset(&s->done_fifo);
    timer_del(s->tx_timer);
    if (s->tx_on_wire) {
        nic_wire_tx_abort(&s->wire);
    }
    s->tx_on_wire = false;
    s->alloc_pending = 0;
    s->arr = ARR_FAILED;
    s->mmu_busy = s->stuck_reset;
}

/* --- Receive --- */

static bool smc_accepts(PCLSmc91c92State *s, const uint8_t *buf,
                        uint16_t *status)
{
    if (is_broadcast_ether_addr(buf)) {
        *status |= RS_BRODCAST;
        return true;
    }
    if (is_multicast_ether_addr(buf)) {
        unsigned bit = net_crc32(buf, ETH_ALEN) >> 26;

        *status |= RS_MULTCAST;
        return (s->rcr & (RCR_PRMS | RCR_ALMUL)) ||
               (s->mcast[bit >> 3] & (1 << (bit & 7)));
    }
    return (s->rcr & RCR_PRMS) || !memcmp(buf, s->ia, ETH_ALEN);
}

static ssize_t smc_receive(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    PCLSmc91c92State *s = qemu_get_nic_opaque(nc);
    uint16_t status = 0;
    size_t len = size, stored, count;
    unsigned pages;
    uint8_t *p;
    int n;

    if (!smc_live(s)) {
        trace_pcl_smc_rx_drop(size, "card not live");
        return size;
    }
    if (!nic_wire_rx_ready(&s->wire, size)) {
        return 0;
    }
    if (!(s->rcr & RCR_RXEN) || s->powerdown || s->mmu_busy ||
        size < ETH_ALEN ||
        !smc_accepts(s, buf, &status)) {
        trace_pcl_smc_rx_drop(size, "receiver off or filtered");
        return size;
    }
    if (len > SMC_MAX_FRAME) {
        /* reported, its data not kept */
        status |= RS_TOOLNG;
        len = 0;
    }
    stored = len ? MAX(len, ETH_ZLEN) : 0;
    if (stored && !(s->rcr & RCR_STRIP_CRC)) {
        stored += 4;
    }
    /* an odd last byte shares the word of the control byte */
    count = SMC_PKT_OVERHEAD + (stored & ~1);
    if (stored & 1) {
        status |= RS_ODDFRM;
    }
    pages = DIV_ROUND_UP(count, SMC_PAGE);
    n = smc_alloc(s, pages);
    if (n < 0) {
        trace_pcl_smc_rx_overrun(size, smc_free_pages(s));
        s->eph |= EPH_RX_OVRN;
        s->int_latched |= INT_RX_OVRN;
        smc_update_irq(s);
        return size;
    }
    p = s->pkt[n];
    memset(p, 0, SMC_PACKET_BYTES);
    memcpy(p + 4, buf, len);
    if (stored > MAX(len, (size_t)ETH_ZLEN)) {
        stl_le_p(p + 4 + stored - 4, net_crc32_le(p + 4, stored - 4));
    }
    stw_le_p(p, status);
    stw_le_p(p + 2, count);
    p[count - 1] = stored & 1 ? CTLB_ODD : 0;
    trace_pcl_smc_rx(size, n, status);
    smc_fifo_push(&s->rx_fifo, n);
    smc_update_irq(s);
    return size;
}

static void smc_link_status_changed(NetClientState *nc)
{
    PCLSmc91c92State *s = qemu_get_nic_opaque(nc);
    bool up = !nc->link_down;

    trace_pcl_smc_link(up);
    if (s->link && !up) {
        s->link_error = true;
    }
    s->link = up;
    mii_phy_set_link(&s->phy, up);
    smc_update_irq(s);
}

static NetClientInfo smc_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = smc_receive,
    .link_status_changed = smc_link_status_changed,
};

/* --- Transmit --- */

/* Frame length of packet @n: byte count less overhead, plus the odd byte. */
static unsigned smc_tx_len(PCLSmc91c92State *s, uint8_t n)
{
    const uint8_t *p = s->pkt[n];
    unsigned count = lduw_le_p(p + 2) & PTR_MASK & ~1;
    unsigned len;

    if (count < SMC_PKT_OVERHEAD) {
        return 0;
    }
    len = count - SMC_PKT_OVERHEAD;
    if (p[count - 1] & CTLB_ODD) {
        len++;
    }
    return MIN(len, SMC_PACKET_BYTES - 4);
}

static void smc_tx_start(PCLSmc91c92State *s);

/* The first enqueued packet has been on the wire: what became of it. */
static void smc_tx_done(PCLSmc91c92State *s)
{
    uint8_t n = smc_fifo_top(&s->tx_fifo);
    uint8_t frame[SMC_PACKET_BYTES];
    uint16_t status;
    unsigned len;

    s->tx_on_wire = false;
    if (n >= SMC_PACKETS) {
        return;
    }
    len = smc_tx_len(s, n);
    smc_fifo_pop(&s->tx_fifo);
    memcpy(frame, s->pkt[n] + 4, len);
    if (len < ETH_ZLEN && (s->tcr & TCR_PAD_EN)) {
        memset(frame + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    if ((s->config & CFG_AUI_SELECT) && !smc_uses_mii(s)) {
        /* the 10BASE2 port has no cable: 16 collisions */
        status = EPH_16COL;
    } else if (!s->link && (s->tcr & TCR_MON_CSN)) {
        status = EPH_LOST_CAR;
    } else {
        status = EPH_TX_SUC;
        if (is_broadcast_ether_addr(frame)) {
            status |= EPH_LTX_BRD;
        } else if (is_multicast_ether_addr(frame)) {
            status |= EPH_LTX_MULT;
        }
    }
    trace_pcl_smc_tx(len, n, status);
    s->eph = (s->eph & EPH_RX_OVRN) | status;
    stw_le_p(s->pkt[n], status);
    if (!(status & EPH_TX_SUC)) {
        /* the transmitter stops until the host enables it again */
        s->tcr &= ~TCR_TXENA;
        s->tx_error = true;
        smc_fifo_push(&s->done_fifo, n);
    } else if (s->control & CONTROL_AUTO_RELEASE) {
        smc_release(s, n);
    } else {
        smc_fifo_push(&s->done_fifo, n);
    }
    if (!s->tx_fifo.count) {
        s->int_latched |= INT_TX_EMPTY;
    }
    smc_update_irq(s);
    if ((status & EPH_TX_SUC) && s->link) {
        qemu_send_packet(qemu_get_queue(s->nic), frame, len);
    }
    smc_tx_start(s);
}

static void smc_tx_timer_cb(void *opaque)
{
    PCLSmc91c92State *s = opaque;
    uint8_t n = smc_fifo_top(&s->tx_fifo);

    if (n < SMC_PACKETS) {
        nic_wire_tx_fired(&s->wire, smc_tx_len(s, n));
    }
    smc_tx_done(s);
}

/* Send the first enqueued packet if the transmitter is on, the wire free. */
static void smc_tx_start(PCLSmc91c92State *s)
{
    int64_t end;

    if (s->tx_on_wire || !(s->tcr & TCR_TXENA) || !s->tx_fifo.count ||
        s->powerdown) {
        return;
    }
    s->tx_on_wire = true;
    end = nic_wire_tx_slot(&s->wire,
                           smc_tx_len(s, smc_fifo_top(&s->tx_fifo)));
    if (end == NIC_WIRE_NEVER) {
        return;                 /* a mute card: it stays on the wire */
    }
    if (end) {
        timer_mod(s->tx_timer, end);
    } else {
        smc_tx_done(s);     /* which starts the next one */
    }
}

/* --- MMU commands --- */

static void smc_mmu_command(PCLSmc91c92State *s, uint8_t val)
{
    unsigned op = val >> 5;
    int n;

    trace_pcl_smc_mmu(op, val & 0x1f);
    if (s->mmu_busy) {
        return;
    }
    switch (op) {
    case MMU_NOOP:
        break;
    case MMU_ALLOC:
        s->int_latched &= ~INT_ALLOC;
        s->alloc_pending = (val & 7) + 1;
        s->arr = ARR_FAILED;
        n = smc_alloc(s, s->alloc_pending);
        if (n >= 0) {
            trace_pcl_smc_alloc(s->alloc_pending, n);
            s->alloc_pending = 0;
            s->arr = n;
            s->int_latched |= INT_ALLOC;
        }
        break;
    case MMU_RESET:
        smc_mmu_reset(s);
        break;
    case MMU_RX_REMOVE:
        smc_fifo_pop(&s->rx_fifo);
        break;
    case MMU_RX_RELEASE:
        n = smc_fifo_top(&s->rx_fifo);
        smc_fifo_pop(&s->rx_fifo);
        if (n != FIFO_EMPTY) {
            smc_release(s, n);
        }
        break;
    case MMU_FREE:
        smc_release(s, s->pnr);
        break;
    case MMU_ENQUEUE:
        if (s->pnr < SMC_PACKETS && s->pkt_pages[s->pnr] &&
            s->tx_fifo.count < SMC_PACKETS) {
            smc_fifo_push(&s->tx_fifo, s->pnr);
            smc_tx_start(s);
        }
        break;
    case MMU_TX_RESET:
        timer_del(s->tx_timer);
        if (s->tx_on_wire) {
            nic_wire_tx_abort(&s->wire);
        }
        s->tx_on_wire = false;
        smc_fifo_reset(&s->tx_fifo);
        smc_fifo_reset(&s->done_fifo);
        break;
    }
    smc_update_irq(s);
}

/* --- Data register: packet memory through the pointer --- */

static uint8_t *smc_data_byte(PCLSmc91c92State *s)
{
    uint8_t n = s->pointer & PTR_RCV ? smc_fifo_top(&s->rx_fifo) : s->pnr;
    uint8_t *p;

    if (n >= SMC_PACKETS) {
        return NULL;
    }
    p = &s->pkt[n][s->pointer & PTR_MASK];
    if (s->pointer & PTR_AUTOINC) {
        s->pointer = (s->pointer & ~PTR_MASK) |
                     ((s->pointer + 1) & PTR_MASK);
    }
    return p;
}

static uint8_t smc_data_read(PCLSmc91c92State *s)
{
    uint8_t *p = smc_data_byte(s);

    return p ? *p : 0xff;
}

static void smc_data_write(PCLSmc91c92State *s, uint8_t val)
{
    uint8_t *p = smc_data_byte(s);

    if (p) {
        *p = val;
    }
}

/* --- Reset --- */

static void smc_load_eeprom(PCLSmc91c92State *s)
{
    int i;

    s->config = SMC_CONFIG_POWER_ON | (s->chip->mii ? CFG_MII_SELECT : 0);
    s->base = SMC_BASE_POWER_ON;
    for (i = 0; i < 3; i++) {
        stw_le_p(s->ia + 2 * i, s->eeprom[SMC_EE_NODE + i]);
    }
}

/* Soft reset and power-on: the chip, its EEPROM reloaded. */
static void smc_chip_reset(PCLSmc91c92State *s)
{
    trace_pcl_smc_chip_reset();
    s->bank = 0;
    s->powerdown = false;
    s->tcr = 0;
    s->eph = 0;
    s->rcr = 0;
    s->counter = 0;
    s->tx_error = false;
    s->link_error = false;
    s->general = 0;
    s->control = 0;
    s->pnr = 0;
    s->pointer = 0;
    s->int_latched = 0;
    s->int_mask = 0;
    memset(s->mcast, 0, sizeof(s->mcast));
    s->mgmt = 0;
    s->ercv = 0;
    smc_load_eeprom(s);
    smc_mmu_reset(s);
}

static void smc_reset(DeviceState *dev)
{
    PCLSmc91c92State *s = PCMCIA_SMC91C92(dev);
    bool held;

    trace_pcl_smc_reset();
    held = nic_wire_reset(&s->wire);
    smc_chip_reset(s);
    mii_phy_reset(&s->phy);
    mdio_bb_reset(&s->mdio);
    s->cor = 0;
    s->ccsr = 0;
    smc_update_irq(s);
    if (held && s->nic) {
        /* frames the peer held for us meet a stopped receiver now */
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

/* --- Registers --- */

static uint16_t smc_mgmt_read(PCLSmc91c92State *s)
{
    bool line = s->mgmt & MGMT_MDOE ? s->mgmt & MGMT_MDO
                                    : mdio_bb_mdi(&s->mdio);

    return (s->mgmt & ~MGMT_MDI) | (line ? MGMT_MDI : 0);
}

/* A register word without side effects on reading, by bank and offset. */
static uint16_t smc_reg_word(PCLSmc91c92State *s, unsigned off)
{
    uint16_t word;

    switch (s->bank << 4 | off) {
    case 0x00 | B0_TCR:
        return s->tcr;
    case 0x00 | B0_EPH:
        return (s->eph & ~EPH_LINK_OK) | (s->link ? EPH_LINK_OK : 0);
    case 0x00 | B0_RCR:
        return s->rcr;
    case 0x00 | B0_COUNTER:
        return s->counter;
    case 0x00 | B0_MIR:
        return smc_free_pages(s) << 8 | SMC_PAGES;
    case 0x00 | B0_MCR:
        return SMC_MCR;
    case 0x10 | B1_CONFIG:
        return s->config;
    case 0x10 | B1_BASE:
        return s->base;
    case 0x10 | B1_IA:
    case 0x10 | (B1_IA + 2):
    case 0x10 | (B1_IA + 4):
        return lduw_le_p(s->ia + off - B1_IA);
    case 0x10 | B1_GENERAL:
        return s->general;
    case 0x10 | B1_CONTROL:
        return s->control;
    case 0x20 | B2_MMU:
        return s->mmu_busy ? MMU_BUSY : 0;
    case 0x20 | B2_PNR:
        return s->arr << 8 | s->pnr;
    case 0x20 | B2_FIFO:
        word = smc_fifo_top(&s->done_fifo);
        return word | smc_fifo_top(&s->rx_fifo) << 8;
    case 0x20 | B2_POINTER:
        return s->pointer;
    case 0x20 | B2_INT:
        return s->int_mask << 8 | smc_int_status(s);
    case 0x30 | B3_MCAST:
    case 0x30 | (B3_MCAST + 2):
    case 0x30 | (B3_MCAST + 4):
    case 0x30 | (B3_MCAST + 6):
        return lduw_le_p(s->mcast + off);
    case 0x30 | B3_MGMT:
        return s->chip->mii ? smc_mgmt_read(s) : 0;
    case 0x30 | B3_REVISION:
        return SMC_BANK_ID | s->chip->revision;
    case 0x30 | B3_ERCV:
        return s->ercv;
    }
    return 0;
}

static bool smc_is_data(PCLSmc91c92State *s, unsigned port)
{
    return s->bank == 2 && port >= B2_DATA && port < B2_INT;
}

static uint16_t smc_io_read(PCMCIACardState *card, uint32_t addr)
{
    PCLSmc91c92State *s = PCMCIA_SMC91C92(card);
    bool wide = pcmcia_slot_cycle_is_16bit(card);
    unsigned port = addr & (SMC_IO_PORTS - 1);
    uint16_t val;

    if ((port & ~1) == SMC_BANK_SELECT) {
        val = SMC_BANK_ID | s->bank;
    } else if (smc_is_data(s, port)) {
        val = smc_data_read(s);
        if (wide) {
            val |= smc_data_read(s) << 8;
        }
        trace_pcl_smc_read(s->bank, port, wide ? 2 : 1, val);
        return val;
    } else {
        val = smc_reg_word(s, port & ~1);
        if (s->bank == 0 && (port & ~1) == B0_COUNTER) {
            /* the counters clear when read */
            s->counter = 0;
            s->eph &= ~EPH_CTR_ROL;
            smc_update_irq(s);
        }
    }
    if (!wide) {
        val = port & 1 ? val >> 8 : val & 0xff;
    }
    trace_pcl_smc_read(s->bank, port, wide ? 2 : 1, val);
    return val;
}

/* Store @val into the 16-bit @reg, one byte of it if not @wide. */
static uint16_t smc_merge(uint16_t reg, unsigned port, bool wide,
                          uint16_t val)
{
    if (wide) {
        return val;
    }
    if (port & 1) {
        return (reg & 0x00ff) | (val & 0xff) << 8;
    }
    return (reg & 0xff00) | (val & 0xff);
}

static void smc_eeprom_access(PCLSmc91c92State *s)
{
    unsigned word = s->pointer & (SMC_EEPROM_WORDS - 1);

    if (s->control & CONTROL_EE_GENERAL) {
        if (s->control & CONTROL_EE_RELOAD) {
            s->general = s->eeprom[word];
        } else if (s->control & CONTROL_EE_STORE) {
            s->eeprom[word] = s->general;
        }
    } else if (s->control & CONTROL_EE_RELOAD) {
        smc_load_eeprom(s);
    } else if (s->control & CONTROL_EE_STORE) {
        s->eeprom[SMC_EE_NODE] = lduw_le_p(s->ia);
        s->eeprom[SMC_EE_NODE + 1] = lduw_le_p(s->ia + 2);
        s->eeprom[SMC_EE_NODE + 2] = lduw_le_p(s->ia + 4);
    }
    /* the serial EEPROM is done by the time the host looks again */
    s->control &= ~(CONTROL_EE_STORE | CONTROL_EE_RELOAD);
}

static void smc_write_b0(PCLSmc91c92State *s, unsigned port, bool wide,
                         uint16_t val)
{
    uint16_t word;

    switch (port & ~1) {
    case B0_TCR:
        s->tcr = smc_merge(s->tcr, port, wide, val);
        if (s->tcr & TCR_TXENA) {
            s->tx_error = false;
        }
        smc_tx_start(s);
        break;
    case B0_RCR:
        word = smc_merge(s->rcr, port, wide, val);
        if (word & RCR_SOFT_RST) {
            smc_chip_reset(s);
        }
        s->rcr = word & ~RCR_SOFT_RST;
        break;
    default:
        trace_pcl_smc_ignored_write(s->bank, port, val);
        break;
    }
}

static void smc_write_b1(PCLSmc91c92State *s, unsigned port, bool wide,
                         uint16_t val)
{
    unsigned off = port & ~1;

    switch (off) {
    case B1_CONFIG:
        s->config = smc_merge(s->config, port, wide, val);
        if (!s->chip->mii) {
            s->config &= ~CFG_MII_SELECT;
        }
        break;
    case B1_BASE:
        s->base = smc_merge(s->base, port, wide, val);
        break;
    case B1_IA:
    case B1_IA + 2:
    case B1_IA + 4:
        stw_le_p(s->ia + off - B1_IA,
                 smc_merge(lduw_le_p(s->ia + off - B1_IA), port, wide, val));
        break;
    case B1_GENERAL:
        s->general = smc_merge(s->general, port, wide, val);
        break;
    case B1_CONTROL:
        s->control = smc_merge(s->control, port, wide, val);
        if (!(s->control & CONTROL_LINK_INT)) {
            s->link_error = false;
        }
        s->powerdown = s->control & CONTROL_SLEEP;
        smc_eeprom_access(s);
        smc_tx_start(s);
        break;
    }
}

static void smc_write_b2(PCLSmc91c92State *s, unsigned port, bool wide,
                         uint16_t val)
{
    switch (port) {
    case B2_MMU:
        smc_mmu_command(s, val & 0xff);
        break;
    case B2_PNR:
        s->pnr = val & 0x3f;
        break;
    case B2_POINTER:
    case B2_POINTER + 1:
        s->pointer = smc_merge(s->pointer, port, wide, val);
        break;
    case B2_INT:
        s->int_latched &= ~(val & INT_ACKABLE);
        if (val & INT_TX) {
            smc_fifo_pop(&s->done_fifo);
        }
        if (wide) {
            s->int_mask = val >> 8;
        }
        break;
    case B2_MASK:
        s->int_mask = val;
        break;
    default:
        /* the upper bytes of MMU command and ARR, the FIFO ports */
        trace_pcl_smc_ignored_write(s->bank, port, val);
        break;
    }
}

static void smc_write_b3(PCLSmc91c92State *s, unsigned port, bool wide,
                         uint16_t val)
{
    unsigned off = port & ~1;

    switch (off) {
    case B3_MCAST:
    case B3_MCAST + 2:
    case B3_MCAST + 4:
    case B3_MCAST + 6:
        stw_le_p(s->mcast + off,
                 smc_merge(lduw_le_p(s->mcast + off), port, wide, val));
        break;
    case B3_MGMT:
        if (port & 1 || !s->chip->mii) {
            break;
        }
        s->mgmt = val & (MGMT_MDO | MGMT_MCLK | MGMT_MDOE);
        mdio_bb_pins(&s->mdio, &s->phy, SMC_PHY_ADDR, val & MGMT_MCLK,
                     val & MGMT_MDOE, val & MGMT_MDO);
        break;
    case B3_ERCV:
        s->ercv = smc_merge(s->ercv, port, wide, val);
        break;
    default:
        trace_pcl_smc_ignored_write(s->bank, port, val);
        break;
    }
}

static void smc_io_write(PCMCIACardState *card, uint32_t addr, uint16_t val)
{
    PCLSmc91c92State *s = PCMCIA_SMC91C92(card);
    bool wide = pcmcia_slot_cycle_is_16bit(card);
    unsigned port = addr & (SMC_IO_PORTS - 1);

    trace_pcl_smc_write(s->bank, port, wide ? 2 : 1, val);
    /* a write of any register wakes the chip from power-down */
    if (s->powerdown) {
        s->powerdown = false;
        s->control &= ~CONTROL_SLEEP;
        smc_tx_start(s);
    }
    if (port == SMC_BANK_SELECT) {
        s->bank = val & 3;
    } else if (port == SMC_BANK_SELECT + 1) {
        /* the chip ID byte is read-only */
    } else if (smc_is_data(s, port)) {
        smc_data_write(s, val);
        if (wide) {
            smc_data_write(s, val >> 8);
        }
    } else {
        switch (s->bank) {
        case 0:
            smc_write_b0(s, port, wide, val);
            break;
        case 1:
            smc_write_b1(s, port, wide, val);
            break;
        case 2:
            smc_write_b2(s, port, wide, val);
            break;
        default:
            smc_write_b3(s, port, wide, val);
            break;
        }
    }
    smc_update_irq(s);
}

/* --- PC Card front end: attribute memory --- */

static uint8_t smc_attr_read(PCMCIACardState *card, uint32_t addr)
{
    return pcmcia_config_read(&smc_config_regs,
                              PCMCIA_CONFIG_STATE(PCMCIA_SMC91C92(card)), addr);
}

static void smc_attr_write(PCMCIACardState *card, uint32_t addr, uint8_t val)
{
    PCLSmc91c92State *s = PCMCIA_SMC91C92(card);

    if (pcmcia_config_write(&smc_config_regs, PCMCIA_CONFIG_STATE(s),
                            DEVICE(s), addr, val)) {
        smc_update_irq(s);
    }
}

/* --- Life cycle --- */

static void smc_realize(DeviceState *dev, Error **errp)
{
    PCLSmc91c92State *s = PCMCIA_SMC91C92(dev);
    const char *want = s->revision_name ? s->revision_name : "91c92";
    const uint8_t *mac;
    int i;

    s->chip = NULL;
    for (i = 0; i < ARRAY_SIZE(smc_chips); i++) {
        if (!strcmp(want, smc_chips[i].name)) {
            s->chip = &smc_chips[i];
        }
    }
    if (!s->chip) {
        error_setg(errp, "revision must be 91c92 or 91c94, not '%s'", want);
        return;
    }
    nic_card_realize(NIC_CARD_PARTS(s), &s->chip->id, smc_tx_timer_cb, s);
    mac = s->conf.macaddr.a;
    memset(s->eeprom, 0, sizeof(s->eeprom));
    for (i = 0; i < 3; i++) {
        s->eeprom[SMC_EE_NODE + i] = mac[2 * i] | mac[2 * i + 1] << 8;
    }
    /* a 10BASE-T switch port that autonegotiates */
    mii_phy_init(&s->phy, SMC_PHY_ID,
                 MII_PHY_AN_10FD | MII_PHY_AN_10HD | MII_PHY_AN_CSMA);
    /* the NIC before the reset: the PHY starts with its link state */
    nic_card_new_nic(dev, NIC_CARD_PARTS(s), &smc_net_info, s);
    s->link = !qemu_get_queue(s->nic)->link_down;
    mii_phy_set_link(&s->phy, s->link);
    smc_reset(dev);
}

static void smc_unrealize(DeviceState *dev)
{
    nic_card_unrealize(NIC_CARD_PARTS(PCMCIA_SMC91C92(dev)));
}

static bool smc_fifo_ok(const SMCFifo *f)
{
    int i;

    if (f->first >= SMC_PACKETS || f->count > SMC_PACKETS) {
        return false;
    }
    for (i = 0; i < f->count; i++) {
        if (f->slot[(f->first + i) % SMC_PACKETS] >= SMC_PACKETS) {
            return false;
        }
    }
    return true;
}

static int smc_post_load(void *opaque, int version_id)
{
    PCLSmc91c92State *s = opaque;
    unsigned pages = 0;
    int i;

    for (i = 0; i < SMC_PACKETS; i++) {
        pages += s->pkt_pages[i];
    }
    if (pages > SMC_PAGES || s->bank > 3 || s->alloc_pending > 8 ||
        !smc_fifo_ok(&s->rx_fifo) || !smc_fifo_ok(&s->tx_fifo) ||
        !smc_fifo_ok(&s->done_fifo) || (s->tx_on_wire && !s->tx_fifo.count)) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_smc_fifo = {
    .name = "pcl-smc-fifo",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8_ARRAY(slot, SMCFifo, SMC_PACKETS),
        VMSTATE_UINT8(first, SMCFifo),
        VMSTATE_UINT8(count, SMCFifo),
        VMSTATE_END_OF_LIST()
    }
};

#define VMSTATE_SMC_FIFO(f, s) \
    VMSTATE_STRUCT(f, s, 1, vmstate_smc_fifo, SMCFifo)

static const VMStateDescription vmstate_pcmcia_smc91c92 = {
    .name = TYPE_PCMCIA_SMC91C92,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = smc_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_MII_PHY(phy, PCLSmc91c92State),
        VMSTATE_MDIO_BB(mdio, PCLSmc91c92State),
        VMSTATE_BOOL(link, PCLSmc91c92State),
        VMSTATE_UINT8(cor, PCLSmc91c92State),
        VMSTATE_UINT8(ccsr, PCLSmc91c92State),
        VMSTATE_BOOL(ireq, PCLSmc91c92State),
        VMSTATE_UINT16_ARRAY(eeprom, PCLSmc91c92State, SMC_EEPROM_WORDS),
        VMSTATE_UINT8(bank, PCLSmc91c92State),
        VMSTATE_BOOL(powerdown, PCLSmc91c92State),
        VMSTATE_UINT16(tcr, PCLSmc91c92State),
        VMSTATE_UINT16(eph, PCLSmc91c92State),
        VMSTATE_UINT16(rcr, PCLSmc91c92State),
        VMSTATE_UINT16(counter, PCLSmc91c92State),
        VMSTATE_BOOL(tx_error, PCLSmc91c92State),
        VMSTATE_BOOL(link_error, PCLSmc91c92State),
        VMSTATE_UINT16(config, PCLSmc91c92State),
        VMSTATE_UINT16(base, PCLSmc91c92State),
        VMSTATE_UINT8_ARRAY(ia, PCLSmc91c92State, 6),
        VMSTATE_UINT16(general, PCLSmc91c92State),
        VMSTATE_UINT16(control, PCLSmc91c92State),
        VMSTATE_BOOL(mmu_busy, PCLSmc91c92State),
        VMSTATE_UINT8(pnr, PCLSmc91c92State),
        VMSTATE_UINT8(arr, PCLSmc91c92State),
        VMSTATE_UINT8(alloc_pending, PCLSmc91c92State),
        VMSTATE_UINT16(pointer, PCLSmc91c92State),
        VMSTATE_UINT8(int_latched, PCLSmc91c92State),
        VMSTATE_UINT8(int_mask, PCLSmc91c92State),
        VMSTATE_UINT8_ARRAY(mcast, PCLSmc91c92State, 8),
        VMSTATE_UINT8(mgmt, PCLSmc91c92State),
        VMSTATE_UINT16(ercv, PCLSmc91c92State),
        VMSTATE_UINT8_2DARRAY(pkt, PCLSmc91c92State, SMC_PACKETS,
                              SMC_PACKET_BYTES),
        VMSTATE_UINT8_ARRAY(pkt_pages, PCLSmc91c92State, SMC_PACKETS),
        VMSTATE_SMC_FIFO(rx_fifo, PCLSmc91c92State),
        VMSTATE_SMC_FIFO(tx_fifo, PCLSmc91c92State),
        VMSTATE_SMC_FIFO(done_fifo, PCLSmc91c92State),
        VMSTATE_BOOL(tx_on_wire, PCLSmc91c92State),
        VMSTATE_TIMER_PTR(tx_timer, PCLSmc91c92State),
        VMSTATE_NIC_WIRE(wire, PCLSmc91c92State),
        VMSTATE_END_OF_LIST()
    }
};

static Property smc_properties[] = {
    DEFINE_NIC_PROPERTIES(PCLSmc91c92State, conf),
    DEFINE_PROP_STRING("revision", PCLSmc91c92State, revision_name),
    DEFINE_PROP_UINT64("wire-rate", PCLSmc91c92State, wire.rate, 0),
    DEFINE_PROP_BOOL("stuck-reset", PCLSmc91c92State, stuck_reset, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void smc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);

    pcc->attr_read = smc_attr_read;
    pcc->attr_write = smc_attr_write;
    pcc->io_read = smc_io_read;
    pcc->io_write = smc_io_write;

    dc->desc = "SMC 91C92/91C94 Ethernet PC Card";
    dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
    dc->realize = smc_realize;
    dc->unrealize = smc_unrealize;
    dc->reset = smc_reset;
    dc->vmsd = &vmstate_pcmcia_smc91c92;
    device_class_set_props(dc, smc_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo smc_info = {
    .name = TYPE_PCMCIA_SMC91C92,
    .parent = TYPE_PCL_CARD,
    .instance_size = sizeof(PCLSmc91c92State),
    .class_init = smc_class_init,
};

static void smc_register_types(void)
{
    type_register_static(&smc_info);
}

type_init(smc_register_types)
