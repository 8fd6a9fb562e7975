/*
 * PC Card slot bus: one socket holding at most one card, with hot
 * insertion and surprise removal.  See pcmcia-slot.h for the contract.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/hotplug.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"
#include "qapi/visitor.h"
#include "pcmcia-slot.h"
#include "trace.h"

/* Function configuration register bits (pcmcia_config_*()) */
#define COR_INDEX               0x3f
#define COR_SRESET              0x80
#define CCSR_INTR               0x02

static const char *space_name(PCMCIASpace space)
{
    switch (space) {
    case PCMCIA_SPACE_ATTR:
        return "attr";
    case PCMCIA_SPACE_COMMON:
        return "common";
    default:
        return "io";
    }
}

uint8_t pcmcia_cis_read(const uint8_t *cis, int cis_len, uint32_t addr)
{
    if ((addr & 1) || addr / 2 >= cis_len) {
        return 0xff;
    }
    return cis[addr / 2];
}

uint8_t pcmcia_config_read(const PCMCIAConfigRegs *r,
                           const PCMCIAConfigState *st, uint32_t addr)
{
    uint8_t val;

    if (addr < r->base) {
        return pcmcia_cis_read(st->cis, st->cis_len, addr);
    }
    switch (addr - r->base) {
    case 0:
        val = *st->cor;
        break;
    case 2:
        val = *st->ccsr;
        break;
    case 4:
    case 6:
        if (!r->prr_scr) {
            return 0xff;
        }
        val = 0;
        break;
    default:
        return 0xff;
    }
    r->trace_read(addr, val);
    return val;
}

bool pcmcia_config_write(const PCMCIAConfigRegs *r,
                         const PCMCIAConfigState *st, DeviceState *dev,
                         uint32_t addr, uint8_t val)
{
    if (addr < r->base) {
        return false;
    }
    r->trace_write(addr, val);
    switch (addr - r->base) {
    case 0:
        if (val & COR_SRESET) {
            /* the whole card but the COR itself */
            r->reset(dev);
        }
        *st->cor = val;
        return true;
    case 2:
        *st->ccsr = (*st->ccsr & CCSR_INTR) | (val & ~CCSR_INTR);
        return true;
    default:
        return false;
    }
}

void pcmcia_config_set_irq(const PCMCIAConfigRegs *r,
                           const PCMCIAConfigState *st,
                           PCMCIACardState *card, bool level, bool enabled)
{
    bool ireq = level && enabled &&
                (*st->cor & COR_INDEX) && !(*st->cor & COR_SRESET);

    *st->ccsr = (*st->ccsr & ~CCSR_INTR) | (level ? CCSR_INTR : 0);
    if (ireq != *st->ireq) {
        r->trace_ireq(ireq);
    }
    *st->ireq = ireq;
    if (card->slot) {
        qemu_set_irq(card->slot->irq, ireq);
    }
}

bool pcmcia_slot_cycle_is_16bit(PCMCIACardState *card)
{
    BusState *bus = qdev_get_parent_bus(DEVICE(card));

    return bus && PCMCIA_SLOT_BUS(bus)->cycle16;
}

static bool slot_fault(PCMCIASlotBus *bus, PCLCardFault fault)
{
    return bus->pcl_card && pcl_card_faulted(bus->pcl_card, fault);
}

/* IREQ# to the bridge: the card's, or stuck asserted by an IRQ storm. */
static void slot_ireq_update(PCMCIASlotBus *bus)
{
    bool level = bus->card &&
                 (bus->card_ireq || slot_fault(bus, PCL_FAULT_IRQ_STORM));

    if (bus->ireq == level) {
        return;
    }
    bus->ireq = level;
    trace_pcl_slot_ireq(bus->index, level);
    if (bus->ops->ireq_changed) {
        bus->ops->ireq_changed(bus->opaque, bus->ireq);
    }
}

/* The card's IREQ# pin, as the card drives it through socket.irq. */
static void slot_ireq_handler(void *opaque, int n, int level)
{
    PCMCIASlotBus *bus = opaque;

    bus->card_ireq = bus->card && level;
    slot_ireq_update(bus);
}

/* The contacts break: the bridge sees an empty socket at once. */
static void slot_contacts_break(PCMCIASlotBus *bus)
{
    bus->card = NULL;
    bus->live = false;
    bus->card_ireq = false;
    bus->socket.attached = false;
    slot_ireq_update(bus);
    bus->ops->card_changed(bus->opaque);
}

static const char *const fault_names[] = {
    [PCL_FAULT_NONE] = "none",
    [PCL_FAULT_ALL_ONES] = "all-ones",
    [PCL_FAULT_VANISH] = "vanish",
    [PCL_FAULT_IRQ_STORM] = "irq-storm",
    [PCL_FAULT_NOT_READY] = "not-ready",
    [PCL_FAULT_MUTE] = "mute",
};

static void slot_fault_strike(PCMCIASlotBus *bus)
{
    PCLCardState *pcl = bus->pcl_card;

    trace_pcl_slot_fault(bus->index, fault_names[pcl->fault]);
    pcl->fault_struck = true;
    switch (pcl->fault) {
    case PCL_FAULT_VANISH:
        slot_contacts_break(bus);
        break;
    case PCL_FAULT_IRQ_STORM:
        slot_ireq_update(bus);
        break;
    default:
        /* the others act where the card is read or works */
        break;
    }
}

/* One more card cycle: a fault counting down may strike before it. */
static void slot_fault_count(PCMCIASlotBus *bus)
{
    PCLCardState *pcl = bus->pcl_card;

    if (!pcl || pcl->fault == PCL_FAULT_NONE || pcl->fault_struck) {
        return;
    }
    if (pcl->fault_countdown) {
        pcl->fault_countdown--;
    } else {
        slot_fault_strike(bus);
    }
}

/* A card cycle reaches the card (a struck fault may have taken it away). */
static bool slot_card_answers(PCMCIASlotBus *bus)
{
    if (!bus->card || !bus->live) {
        return false;
    }
    slot_fault_count(bus);
    return bus->card && !slot_fault(bus, PCL_FAULT_ALL_ONES);
}

void pcmcia_slot_set_live(PCMCIASlotBus *bus, bool live)
{
    bool was = bus->live;

    bus->live = live && bus->card;
    if (bus->live && !was) {
        /* power applied or RESET released: the card starts afresh */
        trace_pcl_slot_card_reset(bus->index);
        device_cold_reset(DEVICE(bus->card));
    }
}

/* Attribute memory, with a replacement CIS in front of the card's own. */
static uint8_t slot_attr_read(PCMCIASlotBus *bus, PCMCIACardClass *pcc,
                              uint32_t addr)
{
    PCLCardState *pcl = bus->pcl_card;

    if (pcl && pcl->cis && addr / 2 < pcl->cis_len) {
        return pcmcia_cis_read(pcl->cis, pcl->cis_len, addr);
    }
    return pcc->attr_read ? pcc->attr_read(bus->card, addr) : 0xff;
}

/* One card cycle. */
static uint16_t slot_cycle_read(PCMCIASlotBus *bus, PCMCIACardClass *pcc,
                                PCMCIASpace space, uint32_t addr, bool wide)
{
    PCMCIACardState *card = bus->card;
    uint16_t val;

    bus->cycle16 = wide;
    switch (space) {
    case PCMCIA_SPACE_ATTR:
        /* attribute memory is byte wide; a 16-bit cycle reads both lanes */
        val = slot_attr_read(bus, pcc, addr);
        if (wide) {
            val |= slot_attr_read(bus, pcc, addr + 1) << 8;
        }
        break;
    case PCMCIA_SPACE_COMMON:
        val = pcc->common_read ? pcc->common_read(card, addr) : 0xffff;
        break;
    default:
        val = pcc->io_read ? pcc->io_read(card, addr) : 0xffff;
        break;
    }
    bus->cycle16 = false;
    return wide ? val : (val & 0xff);
}

static void slot_cycle_write(PCMCIASlotBus *bus, PCMCIACardClass *pcc,
                             PCMCIASpace space, uint32_t addr, uint16_t val,
                             bool wide)
{
    PCMCIACardState *card = bus->card;

    bus->cycle16 = wide;
    switch (space) {
    case PCMCIA_SPACE_ATTR:
        if (pcc->attr_write) {
            pcc->attr_write(card, addr, val & 0xff);
            if (wide) {
                pcc->attr_write(card, addr + 1, val >> 8);
            }
        }
        break;
    case PCMCIA_SPACE_COMMON:
        if (pcc->common_write) {
            pcc->common_write(card, addr, wide ? val : (val & 0xff));
        }
        break;
    default:
        if (pcc->io_write) {
            pcc->io_write(card, addr, wide ? val : (val & 0xff));
        }
        break;
    }
    bus->cycle16 = false;
}

uint32_t pcmcia_slot_read(PCMCIASlotBus *bus, PCMCIASpace space,
                          uint32_t addr, unsigned size, bool wide)
{
    PCMCIACardClass *pcc;
    uint32_t val;

    if (!slot_card_answers(bus)) {
        val = size == 2 ? 0xffff : 0xff;
    } else {
        pcc = PCMCIA_CARD_GET_CLASS(bus->card);
        if (size == 2 && wide && !(addr & 1)) {
            val = slot_cycle_read(bus, pcc, space, addr, true);
        } else if (size == 2) {
            val = slot_cycle_read(bus, pcc, space, addr, false);
            val |= slot_cycle_read(bus, pcc, space, addr + 1, false) << 8;
        } else {
            val = slot_cycle_read(bus, pcc, space, addr, false);
        }
    }
    trace_pcl_slot_read(bus->index, space_name(space), addr, size, val);
    return val;
}

void pcmcia_slot_write(PCMCIASlotBus *bus, PCMCIASpace space,
                       uint32_t addr, uint32_t val, unsigned size, bool wide)
{
    PCMCIACardClass *pcc;

    trace_pcl_slot_write(bus->index, space_name(space), addr, size, val);
    if (!slot_card_answers(bus)) {
        return;
    }
    pcc = PCMCIA_CARD_GET_CLASS(bus->card);
    if (size == 2 && wide && !(addr & 1)) {
        slot_cycle_write(bus, pcc, space, addr, val, true);
    } else if (size == 2) {
        slot_cycle_write(bus, pcc, space, addr, val & 0xff, false);
        slot_cycle_write(bus, pcc, space, addr + 1, (val >> 8) & 0xff, false);
    } else {
        slot_cycle_write(bus, pcc, space, addr, val & 0xff, false);
    }
}

/* Read a card's replacement CIS, if it has one; false on error. */
static bool pcl_card_load_cis(PCLCardState *pcl, Error **errp)
{
    g_autofree uint8_t *image = NULL;
    gsize len = 0;
    GError *err = NULL;

    g_clear_pointer(&pcl->cis, g_free);
    pcl->cis_len = 0;
    if (pcl->cis_hex && pcl->cis_file) {
        error_setg(errp, "give cis or cis-file, not both");
        return false;
    }
    if (pcl->cis_file) {
        if (!g_file_get_contents(pcl->cis_file, (gchar **)&image, &len, &err)) {
            error_setg(errp, "cis-file: %s", err->message);
            g_error_free(err);
            return false;
        }
    } else if (pcl->cis_hex) {
        const char *p = pcl->cis_hex;

        len = strlen(p) / 2;
        if (strlen(p) % 2) {
            error_setg(errp, "cis: odd number of hex digits");
            return false;
        }
        image = g_malloc(len ? len : 1);
        for (gsize i = 0; i < len; i++) {
            int hi = g_ascii_xdigit_value(p[2 * i]);
            int lo = g_ascii_xdigit_value(p[2 * i + 1]);

            if (hi < 0 || lo < 0) {
                error_setg(errp, "cis: '%.2s' is not a hex byte", p + 2 * i);
                return false;
            }
            image[i] = hi << 4 | lo;
        }
    } else {
        return true;
    }
    /* attribute addresses are 26 bits: the image ends below 2^25 bytes */
    if (len == 0 || len > (1u << 25)) {
        error_setg(errp, "a CIS image of %zu bytes", (size_t)len);
        return false;
    }
    pcl->cis = g_steal_pointer(&image);
    pcl->cis_len = len;
    return true;
}

/* Hotplug: the bus is its own handler, so any bridge gets it for free. */

static void slot_plug(HotplugHandler *hotplug_dev, DeviceState *dev,
                      Error **errp)
{
    PCMCIASlotBus *bus = PCMCIA_SLOT_BUS(hotplug_dev);
    PCMCIACardState *card = PCMCIA_CARD(dev);
    PCMCIACardClass *pcc = PCMCIA_CARD_GET_CLASS(card);

    if (bus->ops->occupied && bus->ops->occupied(bus->opaque)) {
        error_setg(errp, "socket %s holds a CardBus card", BUS(bus)->name);
        return;
    }
    bus->pcl_card = (PCLCardState *)object_dynamic_cast(OBJECT(dev),
                                                         TYPE_PCL_CARD);
    if (bus->pcl_card && !pcl_card_load_cis(bus->pcl_card, errp)) {
        bus->pcl_card = NULL;
        return;
    }
    card->slot = &bus->socket;
    bus->card = card;
    bus->ireq = false;
    bus->card_ireq = false;
    bus->live = false;
    bus->socket.attached = true;
    if (pcc->attach && pcc->attach(card) < 0) {
        card->slot = NULL;
        bus->card = NULL;
        bus->pcl_card = NULL;
        bus->socket.attached = false;
        error_setg(errp, "%s: card refused to attach",
                   object_get_typename(OBJECT(dev)));
        return;
    }
    trace_pcl_slot_insert(bus->index, object_get_typename(OBJECT(dev)));
    bus->ops->card_changed(bus->opaque);
    if (bus->pcl_card && bus->pcl_card->fault != PCL_FAULT_NONE &&
        !bus->pcl_card->fault_countdown) {
        /* a card that misbehaves from the start (one that vanishes bounces) */
        slot_fault_strike(bus);
    }
}

static void slot_unplug(HotplugHandler *hotplug_dev, DeviceState *dev,
                        Error **errp)
{
    PCMCIASlotBus *bus = PCMCIA_SLOT_BUS(hotplug_dev);
    PCMCIACardState *card = PCMCIA_CARD(dev);
    PCMCIACardClass *pcc = PCMCIA_CARD_GET_CLASS(card);

    trace_pcl_slot_eject(bus->index, object_get_typename(OBJECT(dev)));
    /* the contacts break first (unless a fault broke them already) */
    if (bus->card == card) {
        slot_contacts_break(bus);
    }
    bus->pcl_card = NULL;
    if (pcc->detach) {
        pcc->detach(card);
    }
    card->slot = NULL;
}

void pcmcia_slot_bus_init(PCMCIASlotBus *bus, size_t bus_size,
                          DeviceState *bridge, unsigned index,
                          const PCMCIASlotOps *ops, void *opaque)
{
    qbus_init(bus, bus_size, TYPE_PCMCIA_SLOT_BUS, bridge, NULL);
    bus->index = index;
    bus->ops = ops;
    bus->opaque = opaque;
    bus->socket.irq = qemu_allocate_irq(slot_ireq_handler, bus, 0);
    qbus_set_bus_hotplug_handler(BUS(bus));
}

static void slot_bus_finalize(Object *obj)
{
    PCMCIASlotBus *bus = PCMCIA_SLOT_BUS(obj);

    qemu_free_irq(bus->socket.irq);
}

/*
 * The card's migration name: its slot under its bridge.  ISA devices have
 * no device path, and two ISA bridges' cards would then share a name (and
 * collide when both are realized): those bridges go by their firmware
 * path, which names their I/O port.
 */
static char *slot_get_dev_path(DeviceState *dev)
{
    PCMCIASlotBus *bus = PCMCIA_SLOT_BUS(qdev_get_parent_bus(dev));
    DeviceState *bridge = BUS(bus)->parent;
    g_autofree char *bridge_path = NULL;

    if (bridge) {
        bridge_path = qdev_get_dev_path(bridge);
        if (!bridge_path) {
            bridge_path = qdev_get_fw_dev_path(bridge);
        }
    }

    return g_strdup_printf("%s/pcmcia@%u", bridge_path ? bridge_path : "",
                           bus->index);
}

static void slot_bus_class_init(ObjectClass *oc, void *data)
{
    BusClass *bc = BUS_CLASS(oc);
    HotplugHandlerClass *hc = HOTPLUG_HANDLER_CLASS(oc);

    bc->max_dev = 1;
    bc->get_dev_path = slot_get_dev_path;
    hc->plug = slot_plug;
    hc->unplug = slot_unplug;
}

static const TypeInfo slot_bus_info = {
    .name = TYPE_PCMCIA_SLOT_BUS,
    .parent = TYPE_BUS,
    .instance_size = sizeof(PCMCIASlotBus),
    .instance_finalize = slot_bus_finalize,
    .class_init = slot_bus_class_init,
    .interfaces = (InterfaceInfo[]) {
        { TYPE_HOTPLUG_HANDLER },
        { }
    },
};

static Property pcl_card_properties[] = {
    DEFINE_PROP_STRING("cis", PCLCardState, cis_hex),
    DEFINE_PROP_STRING("cis-file", PCLCardState, cis_file),
    DEFINE_PROP_END_OF_LIST(),
};

static char *pcl_card_get_fault(Object *obj, Error **errp)
{
    return g_strdup(fault_names[PCL_CARD(obj)->fault]);
}

static void pcl_card_set_fault(Object *obj, const char *value, Error **errp)
{
    PCLCardState *pcl = PCL_CARD(obj);
    BusState *parent = qdev_get_parent_bus(DEVICE(obj));
    PCMCIASlotBus *bus = parent ? PCMCIA_SLOT_BUS(parent) : NULL;
    unsigned n;

    for (n = 0; n < ARRAY_SIZE(fault_names); n++) {
        if (!strcmp(value, fault_names[n])) {
            break;
        }
    }
    if (n == ARRAY_SIZE(fault_names)) {
        error_setg(errp, "fault: '%s' is none of none, all-ones, vanish, "
                   "irq-storm, not-ready, mute", value);
        return;
    }
    pcl->fault = n;
    pcl->fault_struck = false;
    pcl->fault_countdown = pcl->fault_after;
    if (!bus || bus->pcl_card != pcl) {
        return;                 /* not in its slot (yet, or any more) */
    }
    if (pcl->fault != PCL_FAULT_NONE && !pcl->fault_countdown) {
        slot_fault_strike(bus);
    } else {
        slot_ireq_update(bus);  /* an IRQ storm may have ended */
    }
}

static void pcl_card_get_fault_after(Object *obj, Visitor *v, const char *name,
                                     void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &PCL_CARD(obj)->fault_after, errp);
}

static void pcl_card_set_fault_after(Object *obj, Visitor *v, const char *name,
                                     void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &PCL_CARD(obj)->fault_after, errp);
}

static void pcl_card_finalize(Object *obj)
{
    PCLCardState *pcl = PCL_CARD(obj);

    g_free(pcl->cis);
}

static void pcl_card_class_init(ObjectClass *oc, void *data)
{
    device_class_set_props(DEVICE_CLASS(oc), pcl_card_properties);
    object_class_property_add_str(oc, "fault", pcl_card_get_fault,
                                  pcl_card_set_fault);
    object_class_property_set_description(oc, "fault",
        "none, all-ones, vanish, irq-storm or not-ready (run time)");
    object_class_property_add(oc, "fault-after", "uint32",
                              pcl_card_get_fault_after,
                              pcl_card_set_fault_after, NULL, NULL);
    object_class_property_set_description(oc, "fault-after",
        "card cycles before a fault strikes (run time)");
}

static const TypeInfo pcl_card_info = {
    .name = TYPE_PCL_CARD,
    .parent = TYPE_PCMCIA_CARD,
    .abstract = true,
    .instance_size = sizeof(PCLCardState),
    .instance_finalize = pcl_card_finalize,
    .class_init = pcl_card_class_init,
};

static void slot_register_types(void)
{
    type_register_static(&slot_bus_info);
    type_register_static(&pcl_card_info);
}

type_init(slot_register_types)
