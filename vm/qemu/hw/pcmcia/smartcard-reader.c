/*
 * Shared part of the emulated PC Card smart card readers: the smart card
 * slot (with its QOM properties), the PC Card configuration registers and
 * wire timing.  See smartcard-reader.h.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "pcmcia-slot.h"
#include "smartcard-reader.h"
#include "trace.h"

int64_t smartcard_reader_clocks_ns(SmartcardReaderState *s, uint64_t clocks)
{
    int64_t ns = muldiv64(clocks, NANOSECONDS_PER_SECOND, s->clock_hz);

    s->wire_ns += ns;
    return ns;
}

int64_t smartcard_reader_wire_time(SmartcardReaderState *s, unsigned chars,
                                   unsigned etus, unsigned idle_etus,
                                   unsigned etu_clocks)
{
    uint64_t clocks = ((uint64_t)chars * etus + idle_etus) * etu_clocks;

    s->wire_chars += chars;
    return smartcard_reader_clocks_ns(s, clocks);
}

void smartcard_reader_schedule(SmartcardReaderState *s, int64_t delay_ns)
{
    if (pcl_card_faulted(PCL_CARD(s), PCL_FAULT_MUTE)) {
        /* a reply slower than any timeout: the host must give up */
        timer_del(s->timer);
        return;
    }
    if (!s->wire_timing || delay_ns <= 0) {
        timer_del(s->timer);
        PCL_SMARTCARD_READER_GET_CLASS(s)->reply_due(s);
        return;
    }
    timer_mod(s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + delay_ns);
}

void smartcard_reader_cancel(SmartcardReaderState *s)
{
    timer_del(s->timer);
}

static void reply_timer(void *opaque)
{
    SmartcardReaderState *s = opaque;

    if (!pcl_card_faulted(PCL_CARD(s), PCL_FAULT_MUTE)) {
        PCL_SMARTCARD_READER_GET_CLASS(s)->reply_due(s);
    }
}

/* ---- PC Card side: CIS and configuration registers ---- */

static void function_reset(SmartcardReaderState *s)
{
    SmartcardReaderClass *src = PCL_SMARTCARD_READER_GET_CLASS(s);

    timer_del(s->timer);
    iso7816_deactivate(&s->card);
    if (src->function_reset) {
        src->function_reset(s);
    }
}

static uint8_t reader_attr_read(PCMCIACardState *card, uint32_t addr)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(card);
    PCMCIACardClass *pcc = PCMCIA_CARD_GET_CLASS(card);
    uint8_t val;

    if (addr < SCR_CONFIG_BASE) {
        return pcmcia_cis_read(pcc->cis, pcc->cis_len, addr);
    }
    switch (addr - SCR_CONFIG_BASE) {
    case 0:
        val = s->cor;
        break;
    case 2:
        val = s->ccsr;
        break;
    default:
        val = 0xff;
        break;
    }
    trace_pcl_screader_config_read(addr, val);
    return val;
}

static void reader_attr_write(PCMCIACardState *card, uint32_t addr,
                              uint8_t val)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(card);

    if (addr < SCR_CONFIG_BASE) {
        return;
    }
    trace_pcl_screader_config_write(addr, val);
    switch (addr - SCR_CONFIG_BASE) {
    case 0:
        if (val & SCR_COR_SRESET) {
            function_reset(s);
            s->cor = SCR_COR_SRESET;
            s->ccsr = 0;
        } else {
            s->cor = val;
        }
        break;
    case 2:
        /* only the power-down request bit is writable; we ignore it */
        s->ccsr = val & 0x04;
        break;
    }
}

static int reader_detach(PCMCIACardState *card)
{
    function_reset(PCL_SMARTCARD_READER(card));
    return 0;
}

static void reader_reset(DeviceState *dev)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(dev);

    s->cor = 0;
    s->ccsr = 0;
    function_reset(s);
}

/* ---- The smart card slot ---- */

static bool get_card_present(Object *obj, Error **errp)
{
    return PCL_SMARTCARD_READER(obj)->card_present;
}

static void set_card_present(Object *obj, bool value, Error **errp)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(obj);
    SmartcardReaderClass *src = PCL_SMARTCARD_READER_GET_CLASS(s);

    if (s->card_present == value) {
        return;
    }
    trace_pcl_screader_card_present(object_get_typename(obj), value);
    s->card_present = value;
    iso7816_deactivate(&s->card);
    if (src->card_changed && DEVICE(obj)->realized) {
        src->card_changed(s);
    }
}

static char *get_atr(Object *obj, Error **errp)
{
    return iso7816_get_atr_hex(&PCL_SMARTCARD_READER(obj)->card);
}

static void set_atr(Object *obj, const char *value, Error **errp)
{
    iso7816_set_atr_hex(&PCL_SMARTCARD_READER(obj)->card, value, errp);
}

static bool get_wire_timing(Object *obj, Error **errp)
{
    return PCL_SMARTCARD_READER(obj)->wire_timing;
}

static void set_wire_timing(Object *obj, bool value, Error **errp)
{
    PCL_SMARTCARD_READER(obj)->wire_timing = value;
}

static void get_seed(Object *obj, Visitor *v, const char *name,
                     void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &PCL_SMARTCARD_READER(obj)->card.seed, errp);
}

static void set_seed(Object *obj, Visitor *v, const char *name,
                     void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &PCL_SMARTCARD_READER(obj)->card.seed, errp);
}

static void get_card_etu(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    ISO7816Card *card = &PCL_SMARTCARD_READER(obj)->card;
    uint32_t etu = card->state == ISO7816_INACTIVE ? 0 :
                   iso7816_card_etu(card);

    visit_type_uint32(v, name, &etu, errp);
}

static char *get_card_protocol(Object *obj, Error **errp)
{
    ISO7816Card *card = &PCL_SMARTCARD_READER(obj)->card;

    if (card->state == ISO7816_INACTIVE) {
        return g_strdup("inactive");
    }
    return g_strdup_printf("T=%d", card->proto);
}

static void reader_instance_init(Object *obj)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(obj);

    iso7816_init(&s->card);
    s->card_present = true;
    s->wire_timing = true;
    object_property_add_uint64_ptr(obj, "wire-ns", &s->wire_ns,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint64_ptr(obj, "wire-chars", &s->wire_chars,
                                   OBJ_PROP_FLAG_READ);
}

static void reader_realize(DeviceState *dev, Error **errp)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(dev);

    if (!s->clock_hz) {
        error_setg(errp, "clock-hz must not be 0");
        return;
    }
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, reply_timer, s);
}

static void reader_unrealize(DeviceState *dev)
{
    SmartcardReaderState *s = PCL_SMARTCARD_READER(dev);

    timer_free(s->timer);
    s->timer = NULL;
}

static Property reader_properties[] = {
    DEFINE_PROP_UINT32("clock-hz", SmartcardReaderState, clock_hz,
                       ISO7816_DEFAULT_CLOCK),
    DEFINE_PROP_END_OF_LIST(),
};

const VMStateDescription vmstate_smartcard_reader = {
    .name = "pcl-smartcard-reader",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(card, SmartcardReaderState, 1, vmstate_iso7816_card,
                       ISO7816Card),
        VMSTATE_TIMER_PTR(timer, SmartcardReaderState),
        VMSTATE_BOOL(card_present, SmartcardReaderState),
        VMSTATE_BOOL(wire_timing, SmartcardReaderState),
        VMSTATE_UINT8(cor, SmartcardReaderState),
        VMSTATE_UINT8(ccsr, SmartcardReaderState),
        VMSTATE_UINT64(wire_ns, SmartcardReaderState),
        VMSTATE_UINT64(wire_chars, SmartcardReaderState),
        VMSTATE_END_OF_LIST()
    }
};

static void reader_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);

    dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
    dc->realize = reader_realize;
    dc->unrealize = reader_unrealize;
    dc->reset = reader_reset;
    dc->hotpluggable = true;
    dc->user_creatable = true;
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
    device_class_set_props(dc, reader_properties);

    pcc->attr_read = reader_attr_read;
    pcc->attr_write = reader_attr_write;
    pcc->detach = reader_detach;

    object_class_property_add_bool(oc, "card-present", get_card_present,
                                   set_card_present);
    object_class_property_set_description(oc, "card-present",
        "a smart card sits in the reader (settable at run time)");
    object_class_property_add_str(oc, "atr", get_atr, set_atr);
    object_class_property_set_description(oc, "atr",
        "the smart card's ATR in hex, used from its next activation");
    object_class_property_add_bool(oc, "wire-timing", get_wire_timing,
                                   set_wire_timing);
    object_class_property_set_description(oc, "wire-timing",
        "delay replies by their time on the card's wire (off: no delay)");
    object_class_property_add(oc, "challenge-seed", "uint64", get_seed,
                              set_seed, NULL, NULL);
    object_class_property_set_description(oc, "challenge-seed",
        "seed of GET CHALLENGE's PRNG, used from the next activation");
    object_class_property_add(oc, "card-etu", "uint32", get_card_etu,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "card-etu",
        "card clocks per ETU the smart card runs at (0: not active)");
    object_class_property_add_str(oc, "card-protocol", get_card_protocol,
                                  NULL);
    object_class_property_set_description(oc, "card-protocol",
        "protocol the smart card runs (T=0, T=1) or inactive");
}

static const TypeInfo reader_info = {
    .name = TYPE_PCL_SMARTCARD_READER,
    .parent = TYPE_PCL_CARD,
    .instance_size = sizeof(SmartcardReaderState),
    .instance_init = reader_instance_init,
    .class_size = sizeof(SmartcardReaderClass),
    .class_init = reader_class_init,
    .abstract = true,
};

static void reader_register_types(void)
{
    type_register_static(&reader_info);
}

type_init(reader_register_types)
