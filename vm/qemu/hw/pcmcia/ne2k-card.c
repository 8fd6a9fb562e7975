/*
 * NE2000-class PC Cards: the PC Card front end of QEMU's NE2000 core.
 * See ne2k-card.h for what lives here and what the card types add.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/net.h"
#include "ne2k-card.h"
#include "pcmcia-slot.h"
#include "trace.h"

/* 8390 registers and bits the front end handles itself */
#define NE2K_CNTR2              0x0f    /* page 0 read: missed frames */
#define NE2K_TSR_PTX            0x01
#define NE2K_ISR_TX             0x02
#define NE2K_ISR_OVER           0x10
#define NE2K_ISR_RESET          0x80
#define NE2K_ISR_MASKABLE       0x7f
#define NE2K_DATA_LAST          0x17    /* 0x10-0x17: data port */

#define COR_INDEX               0x3f
#define COR_SRESET              0x80
#define CCSR_INTR               0x02

/* Longest frame the core's ring-space check covers (no FCS) */
#define NE2K_MAX_FRAME          1518

/* --- Interrupts --- */

/* IREQ# follows the 8390's INT once the host has chosen a configuration. */
static void ne2k_card_update_ireq(PCLNe2kCard *s)
{
    PCMCIACardState *card = PCMCIA_CARD(s);
    uint8_t cor = s->cfg[NE2K_CFG_COR / 2];
    bool level = s->nic_irq && (cor & COR_INDEX) && !(cor & COR_SRESET);

    if (card->slot) {
        qemu_set_irq(card->slot->irq, level);
    }
}

static void ne2k_card_nic_irq(void *opaque, int n, int level)
{
    PCLNe2kCard *s = opaque;

    s->nic_irq = level;
    ne2k_card_update_ireq(s);
}

void ne2k_card_update_irq(PCLNe2kCard *s)
{
    NE2000State *ne = &s->ne2k;

    qemu_set_irq(ne->irq, (ne->isr & ne->imr & NE2K_ISR_MASKABLE) != 0);
}

static bool ne2k_card_live(PCLNe2kCard *s)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(s));

    return bus && PCMCIA_SLOT_BUS(bus)->live;
}

/* --- Transmitter --- */

/* The frame has left: hand it to the network, report PTX. */
static void ne2k_card_tx_done(PCLNe2kCard *s)
{
    NE2000State *ne = &s->ne2k;
    uint32_t index = s->tx_page << 8;

    /* page numbers past the buffer wrap into it, as the core does */
    if (index >= NE2000_PMEM_END) {
        index -= NE2000_PMEM_SIZE;
    }
    s->tx_busy = false;
    ne->cmd &= ~NE2K_CMD_TRANS;
    trace_pcl_ne2k_tx(s->tx_page, s->tx_len);
    if (index + s->tx_len <= NE2000_PMEM_END) {
        qemu_send_packet(qemu_get_queue(ne->nic), ne->mem + index, s->tx_len);
    }
    ne->tsr = NE2K_TSR_PTX;
    ne->isr |= NE2K_ISR_TX;
    ne2k_card_update_irq(s);
}

static void ne2k_card_tx_timer(void *opaque)
{
    PCLNe2kCard *s = opaque;

    nic_wire_tx_fired(&s->wire, s->tx_len);
    ne2k_card_tx_done(s);
}

static void ne2k_card_tx_start(PCLNe2kCard *s)
{
    int64_t end;

    if (s->tx_busy) {
        return;                 /* TXP is already set: nothing new */
    }
    s->tx_busy = true;
    s->tx_page = s->ne2k.tpsr;
    s->tx_len = s->ne2k.tcnt;
    s->ne2k.cmd |= NE2K_CMD_TRANS;
    end = nic_wire_tx_slot(&s->wire, s->tx_len);
    if (end == NIC_WIRE_NEVER) {
        return;                 /* a mute card: it stays on the wire */
    }
    if (!end) {
        ne2k_card_tx_done(s);
        return;
    }
    timer_mod(s->tx_timer, end);
}

/* --- Receiver --- */

static ssize_t ne2k_card_receive(NetClientState *nc, const uint8_t *buf,
                                 size_t size)
{
    NE2000State *ne = qemu_get_nic_opaque(nc);
    PCLNe2kCard *s = container_of(ne, PCLNe2kCard, ne2k);
    ssize_t ret;

    if (!ne2k_card_live(s) || size > NE2K_MAX_FRAME) {
        trace_pcl_ne2k_rx_drop(size);
        return size;
    }
    if (!nic_wire_rx_ready(&s->wire, size)) {
        return 0;
    }
    ret = ne2000_receive(nc, buf, size);
    if (ret < 0 && !(ne->cmd & NE2K_CMD_STOP)) {
        /* started but no room in the ring: overwrite warning, frame lost */
        trace_pcl_ne2k_rx_overflow(size, ne->curpag, ne->boundary);
        ne->isr |= NE2K_ISR_OVER;
        if (s->missed < 0xff) {
            s->missed++;
        }
        ne2k_card_update_irq(s);
    } else if (ret >= 0) {
        trace_pcl_ne2k_rx(size, ne->curpag);
    }
    return size;
}

static void ne2k_card_link_status_changed(NetClientState *nc)
{
    NE2000State *ne = qemu_get_nic_opaque(nc);
    PCLNe2kCard *s = container_of(ne, PCLNe2kCard, ne2k);
    PCLNe2kCardClass *ncc = PCL_NE2K_CARD_GET_CLASS(s);

    trace_pcl_ne2k_link(!nc->link_down);
    if (ncc->link_changed) {
        ncc->link_changed(s, !nc->link_down);
    }
}

static NetClientInfo ne2k_card_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = ne2k_card_receive,
    .link_status_changed = ne2k_card_link_status_changed,
};

/* --- The NE2000 register file --- */

unsigned ne2k_card_page(PCLNe2kCard *s)
{
    return s->ne2k.cmd >> 6;
}

static uint16_t ne2k_card_dispatch_read(PCLNe2kCard *s, hwaddr addr,
                                        unsigned size)
{
    uint64_t val = 0;

    memory_region_dispatch_read(&s->ne2k.io, addr, &val,
                                size_memop(size) | MO_LE,
                                MEMTXATTRS_UNSPECIFIED);
    return val;
}

static void ne2k_card_dispatch_write(PCLNe2kCard *s, hwaddr addr,
                                     uint16_t val, unsigned size)
{
    memory_region_dispatch_write(&s->ne2k.io, addr, val,
                                 size_memop(size) | MO_LE,
                                 MEMTXATTRS_UNSPECIFIED);
}

static uint8_t ne2k_card_reg_read(PCLNe2kCard *s, unsigned off)
{
    uint8_t val;

    if (off == NE2K_CNTR2 && ne2k_card_page(s) == 0) {
        /* the tally counters clear when read */
        val = s->missed;
        s->missed = 0;
        return val;
    }
    return ne2k_card_dispatch_read(s, off, 1);
}

static void ne2k_card_reg_write(PCLNe2kCard *s, unsigned off, uint8_t val)
{
    if (off != NE2K_CMD) {
        ne2k_card_dispatch_write(s, off, val, 1);
        return;
    }
    /* the front end runs the transmitter; TXP cannot be cleared by hand */
    ne2k_card_dispatch_write(s, off, val & ~NE2K_CMD_TRANS, 1);
    if ((val & NE2K_CMD_TRANS) && !(val & NE2K_CMD_STOP)) {
        ne2k_card_tx_start(s);
    }
    if (s->tx_busy) {
        s->ne2k.cmd |= NE2K_CMD_TRANS;
    }
}

/*
 * NE2000 decoding of the 32 ports: 8390 registers at 0x00-0x0f, the
 * remote DMA data port at 0x10-0x17, the reset port at 0x18-0x1f.
 */
/* The fault option: the chip never flags a finished reset. */
static void ne2k_card_reset_status(PCLNe2kCard *s)
{
    if (s->stuck_reset) {
        s->ne2k.isr &= ~NE2K_ISR_RESET;
    }
}

uint16_t ne2k_card_core_read(PCLNe2kCard *s, unsigned off)
{
    bool wide = pcmcia_slot_cycle_is_16bit(PCMCIA_CARD(s));
    uint16_t val;

    if (off < NE2K_DATA) {
        return ne2k_card_reg_read(s, off) |
               (wide ? ne2k_card_reg_read(s, off + 1) << 8 : 0);
    }
    if (off <= NE2K_DATA_LAST) {
        return ne2k_card_dispatch_read(s, NE2K_DATA, wide ? 2 : 1);
    }
    /* a read of the reset port resets the chip */
    trace_pcl_ne2k_chip_reset();
    timer_del(s->tx_timer);
    s->tx_busy = false;
    /* the aborted frame no longer holds the wire */
    nic_wire_tx_abort(&s->wire);
    val = ne2k_card_dispatch_read(s, NE2K_RESET, 1);
    ne2k_card_reset_status(s);
    return val;
}

void ne2k_card_core_write(PCLNe2kCard *s, unsigned off, uint16_t val)
{
    bool wide = pcmcia_slot_cycle_is_16bit(PCMCIA_CARD(s));

    if (off < NE2K_DATA) {
        ne2k_card_reg_write(s, off, val & 0xff);
        if (wide) {
            ne2k_card_reg_write(s, off + 1, val >> 8);
        }
    } else if (off <= NE2K_DATA_LAST) {
        ne2k_card_dispatch_write(s, NE2K_DATA, val, wide ? 2 : 1);
    } else {
        ne2k_card_dispatch_write(s, NE2K_RESET, val & 0xff, 1);
    }
}

static uint16_t ne2k_card_io_read(PCMCIACardState *card, uint32_t addr)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(card);
    PCLNe2kCardClass *nc = PCL_NE2K_CARD_GET_CLASS(s);
    unsigned off = addr & 0x1f;
    uint16_t val;

    if (!nc->port_read || !nc->port_read(s, off, &val)) {
        val = ne2k_card_core_read(s, off);
    }
    return val;
}

static void ne2k_card_io_write(PCMCIACardState *card, uint32_t addr,
                               uint16_t val)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(card);
    PCLNe2kCardClass *nc = PCL_NE2K_CARD_GET_CLASS(s);
    unsigned off = addr & 0x1f;

    if (!nc->port_write || !nc->port_write(s, off, val)) {
        ne2k_card_core_write(s, off, val);
    }
}

/* --- Attribute memory: CIS and configuration registers --- */

static int ne2k_card_cfg_index(PCLNe2kCard *s, uint32_t addr)
{
    uint32_t base = PCL_NE2K_CARD_GET_CLASS(s)->config_base;

    if (addr < base || (addr & 1) || addr - base >= 2 * NE2K_CFG_REGS) {
        return -1;
    }
    return (addr - base) / 2;
}

static uint8_t ne2k_card_attr_read(PCMCIACardState *card, uint32_t addr)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(card);
    int i = ne2k_card_cfg_index(s, addr);
    uint8_t val;

    if (addr < PCL_NE2K_CARD_GET_CLASS(s)->config_base) {
        return pcmcia_cis_read(s->cis, s->cis_len, addr);
    }
    if (i < 0) {
        return 0xff;
    }
    val = s->cfg[i];
    if (i == NE2K_CFG_CCSR / 2) {
        val = (val & ~CCSR_INTR) | (s->nic_irq ? CCSR_INTR : 0);
    }
    trace_pcl_ne2k_config_read(addr, val);
    return val;
}

static void ne2k_card_reset(DeviceState *dev);

static void ne2k_card_attr_write(PCMCIACardState *card, uint32_t addr,
                                 uint8_t val)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(card);
    int i = ne2k_card_cfg_index(s, addr);

    if (i < 0) {
        return;
    }
    trace_pcl_ne2k_config_write(addr, val);
    if (i == NE2K_CFG_COR / 2 && (val & COR_SRESET)) {
        /* soft reset: the whole card but the COR itself */
        ne2k_card_reset(DEVICE(s));
    }
    s->cfg[i] = val;
    ne2k_card_update_ireq(s);
}

/* --- Life cycle --- */

/*
 * Power-on state of the whole card.  ne2000_reset() only reloads the
 * PROM and flags the reset in ISR; everything else is cleared here.
 */
static void ne2k_card_reset(DeviceState *dev)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(dev);
    PCLNe2kCardClass *nc = PCL_NE2K_CARD_GET_CLASS(s);
    NE2000State *ne = &s->ne2k;
    bool held;

    trace_pcl_ne2k_reset();
    timer_del(s->tx_timer);
    held = nic_wire_reset(&s->wire);
    s->tx_busy = false;
    s->tx_page = 0;
    s->tx_len = 0;
    s->missed = 0;
    memset(s->cfg, 0, sizeof(s->cfg));

    ne->cmd = NE2K_CMD_NODMA | NE2K_CMD_STOP;
    ne->start = ne->stop = 0;
    ne->boundary = ne->tsr = ne->tpsr = 0;
    ne->tcnt = ne->rcnt = 0;
    ne->rsar = 0;
    ne->rsr = ne->rxcr = ne->dcfg = ne->imr = 0;
    ne->curpag = 0;
    memset(ne->phys, 0, sizeof(ne->phys));
    memset(ne->mult, 0, sizeof(ne->mult));
    memset(ne->mem, 0, sizeof(ne->mem));
    ne2000_reset(ne);
    ne2k_card_reset_status(s);
    if (nc->card_reset) {
        nc->card_reset(s);
    }
    ne2k_card_update_irq(s);
    ne2k_card_update_ireq(s);
    if (held && ne->nic) {
        /* frames the peer held for us meet a stopped chip now */
        qemu_flush_queued_packets(qemu_get_queue(ne->nic));
    }
}

/* The NIC and its configuration are the NE2000 core's. */
#define NE2K_CARD_PARTS(s) NIC_CARD_PARTS_AT(s, ne2k.c, ne2k.nic)

static void ne2k_card_realize(DeviceState *dev, Error **errp)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(dev);
    PCLNe2kCardClass *nc = PCL_NE2K_CARD_GET_CLASS(s);
    NE2000State *ne = &s->ne2k;

    nic_card_realize(NE2K_CARD_PARTS(s), &nc->id, ne2k_card_tx_timer, s);
    ne2000_setup_io(ne, dev, 0x20);
    ne->irq = qemu_allocate_irq(ne2k_card_nic_irq, s, 0);
    ne2k_card_reset(dev);
    nic_card_new_nic(dev, NE2K_CARD_PARTS(s), &ne2k_card_net_info, ne);
}

static void ne2k_card_unrealize(DeviceState *dev)
{
    PCLNe2kCard *s = PCL_NE2K_CARD(dev);

    nic_card_unrealize(NE2K_CARD_PARTS(s));
    qemu_free_irq(s->ne2k.irq);
    s->ne2k.irq = NULL;
}

const VMStateDescription vmstate_pcl_ne2k_card = {
    .name = TYPE_PCL_NE2K_CARD,
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(ne2k, PCLNe2kCard, 0, vmstate_ne2000, NE2000State),
        VMSTATE_UINT8_ARRAY(cfg, PCLNe2kCard, NE2K_CFG_REGS),
        VMSTATE_BOOL(nic_irq, PCLNe2kCard),
        VMSTATE_BOOL(tx_busy, PCLNe2kCard),
        VMSTATE_UINT8(tx_page, PCLNe2kCard),
        VMSTATE_UINT16(tx_len, PCLNe2kCard),
        VMSTATE_TIMER_PTR(tx_timer, PCLNe2kCard),
        VMSTATE_NIC_WIRE(wire, PCLNe2kCard),
        VMSTATE_UINT8(missed, PCLNe2kCard),
        VMSTATE_END_OF_LIST()
    }
};

static Property ne2k_card_properties[] = {
    DEFINE_NIC_PROPERTIES(PCLNe2kCard, ne2k.c),
    DEFINE_PROP_UINT64("wire-rate", PCLNe2kCard, wire.rate, 0),
    DEFINE_PROP_BOOL("stuck-reset", PCLNe2kCard, stuck_reset, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void ne2k_card_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);

    pcc->attr_read = ne2k_card_attr_read;
    pcc->attr_write = ne2k_card_attr_write;
    pcc->io_read = ne2k_card_io_read;
    pcc->io_write = ne2k_card_io_write;

    dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
    dc->realize = ne2k_card_realize;
    dc->unrealize = ne2k_card_unrealize;
    dc->reset = ne2k_card_reset;
    dc->vmsd = &vmstate_pcl_ne2k_card;
    device_class_set_props(dc, ne2k_card_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo ne2k_card_info = {
    .name = TYPE_PCL_NE2K_CARD,
    .parent = TYPE_PCL_CARD,
    .instance_size = sizeof(PCLNe2kCard),
    .class_size = sizeof(PCLNe2kCardClass),
    .class_init = ne2k_card_class_init,
    .abstract = true,
};

static void ne2k_card_register_types(void)
{
    type_register_static(&ne2k_card_info);
}

type_init(ne2k_card_register_types)
