/*
 * ISA PC Card controller of the 82365SL family (a "PCIC"): two sockets
 * behind one ExCA register file, reached through an index/data port pair
 * in ISA I/O space (0x3e0/0x3e1 by default; a second chip of a machine
 * usually sits at 0x3e2).  Card windows decode in ISA memory and I/O
 * space; each socket's card IREQ# and status change interrupt drive the
 * ISA IRQ pins that its ExCA IRQ fields select.
 *
 * The identity comes from the "variant" property; each variant says what
 * its identification register reads, which IRQ pins the chip has,
 * whether Vcc can be 3.3 V and whether it has the Cirrus Logic extension
 * registers.  Everything about the sockets themselves is the ExCA core's
 * (exca.c).
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"
#include "exca.h"
#include "trace.h"

#define TYPE_ISA_I82365 "isa-i82365"
OBJECT_DECLARE_SIMPLE_TYPE(ISAI82365State, ISA_I82365)

#define I82365_SOCKETS          2
#define I82365_PORTS            2       /* index, data */
#define I82365_ISA_IRQS         16

/* index register: bits 7:6 socket (2 and 3 belong to a second chip) */
#define INDEX_SOCKET(i)         ((i) >> 6)
#define INDEX_REG(i)            ((i) & 0x3f)

/*
 * Cirrus Logic CL-PD67xx registers that differ from the Intel chip's:
 * 0x1e is Misc Control 2 instead of Global Control (so there is no CSC
 * write-back mode), and 0x1f identifies the chip: bits 7:6 read 11 and 00
 * on alternate reads (a write restarts with 11), which an Intel part
 * cannot mimic.  Misc Control 1 (0x16, with Vcc 3.3 V in bit 1), the
 * extension index (0x2e) and the timing sets (0x3a-0x3f) are plain
 * registers the ExCA core keeps.  Misc Control 2 is kept too; its
 * low-power bit has no effect here (nothing in the model runs slower).
 */
#define PD67_FIFO_CTL           0x17
#define PD67_FIFO_EMPTY         0x80    /* no posted write is pending */
#define PD67_MISC_CTL_2         0x1e
#define PD67_CHIP_INFO          0x1f
#define PD67_INFO_ID            0xc0
#define PD67_EXT_INDEX          0x2e
#define PD67_EXT_DATA           0x2f

typedef struct I82365Variant {
    const char *name;
    const char *desc;
    uint8_t ident;
    bool vcc_3v;
    uint16_t irq_pins;          /* ISA IRQs the IRQ fields can select */
    /* Cirrus chips: chip information bits 5:0 (slots, revision), or 0 */
    uint8_t cirrus_info;
} I82365Variant;

static const I82365Variant i82365_variants[] = {
    {
        /*
         * Ident: interface type 10 (memory and I/O) in 7:6, revision 4
         * (the DF step) in 3:0.  IRQ field values 1, 2, 6, 8 and 13 are
         * reserved: the chip has no pins for those lines.
         */
        .name = "i82365sl-df",
        .desc = "Intel 82365SL-DF",
        .ident = 0x84,
        .vcc_3v = true,
        .irq_pins = 0xdeb8,
    },
    {
        /*
         * Ident 0x83: an 82365SL B step to software that knows no better.
         * Chip information: two slots (bit 5), revision 2 in 4:2.  The
         * IRQ pins are the Intel part's.
         */
        .name = "cirrus-pd6722",
        .desc = "Cirrus Logic CL-PD6722",
        .ident = 0x83,
        .vcc_3v = false,
        .irq_pins = 0xdeb8,
        .cirrus_info = 0x20 | (2 << 2),
    },
};

struct ISAI82365State {
    /*< private >*/
    ISADevice parent_obj;
    /*< public >*/

    /* properties */
    uint32_t iobase;
    char *variant_name;

    const I82365Variant *variant;
    MemoryRegion io;
    qemu_irq irq[I82365_ISA_IRQS];
    uint8_t index;
    uint16_t irq_level;         /* bit n: ISA IRQ n as the chip drives it */
    ExcaSocket sock[I82365_SOCKETS];
    /* Cirrus chips */
    bool info_id_next;          /* the next CHIP_INFO read shows the ID */
    uint8_t misc2[I82365_SOCKETS];
};

/*
 * Every source (two per socket) drives the line its IRQ field selects;
 * sources on the same line are ORed.  A line is set only when its level
 * changes, so that the chip leaves alone the lines it does not drive.
 */
static void i82365_irq_update(void *opaque)
{
    ISAI82365State *s = opaque;
    uint16_t level = 0, changed;
    unsigned n;

    for (n = 0; n < I82365_SOCKETS; n++) {
        ExcaSocket *sock = &s->sock[n];

        if (exca_csc_irq(sock)) {
            level |= 1 << exca_csc_irq_line(sock);
        }
        if (exca_card_irq(sock)) {
            level |= 1 << exca_card_irq_line(sock);
        }
    }
    level &= s->variant->irq_pins;

    changed = level ^ s->irq_level;
    s->irq_level = level;
    for (n = 0; n < I82365_ISA_IRQS; n++) {
        if (changed & (1 << n)) {
            trace_pcl_i82365_irq(s->iobase, n, !!(level & (1 << n)));
            qemu_set_irq(s->irq[n], !!(level & (1 << n)));
        }
    }
}

static ExcaSocket *selected_socket(ISAI82365State *s)
{
    unsigned n = INDEX_SOCKET(s->index);

    return n < I82365_SOCKETS ? &s->sock[n] : NULL;
}

/* A Cirrus chip's own registers; false for those the ExCA core has. */
static bool cirrus_read(ISAI82365State *s, unsigned n, uint8_t reg,
                        uint8_t *val)
{
    switch (reg) {
    case PD67_FIFO_CTL:
        /* writes to the card complete at once: the FIFO is always empty */
        *val = exca_read(&s->sock[n], reg) | PD67_FIFO_EMPTY;
        return true;
    case PD67_MISC_CTL_2:
        *val = s->misc2[n];
        return true;
    case PD67_CHIP_INFO:
        *val = s->variant->cirrus_info | (s->info_id_next ? PD67_INFO_ID : 0);
        s->info_id_next = !s->info_id_next;
        return true;
    case PD67_EXT_DATA:
        qemu_log_mask(LOG_UNIMP, "isa-i82365: extension register 0x%02x\n",
                      exca_read(&s->sock[n], PD67_EXT_INDEX));
        *val = 0;
        return true;
    }
    return false;
}

static bool cirrus_write(ISAI82365State *s, unsigned n, uint8_t reg,
                         uint8_t val)
{
    switch (reg) {
    case PD67_MISC_CTL_2:
        trace_pcl_i82365_misc2(s->iobase, n, val);
        s->misc2[n] = val;
        return true;
    case PD67_CHIP_INFO:
        s->info_id_next = true;
        return true;
    case PD67_EXT_DATA:
        qemu_log_mask(LOG_UNIMP, "isa-i82365: extension register 0x%02x\n",
                      exca_read(&s->sock[n], PD67_EXT_INDEX));
        return true;
    }
    return false;
}

static uint64_t i82365_io_read(void *opaque, hwaddr addr, unsigned size)
{
    ISAI82365State *s = opaque;
    ExcaSocket *sock;
    uint8_t val;

    if (addr == 0) {
        return s->index;
    }
    /* sockets 2 and 3 are another chip's: nobody drives the bus here */
    sock = selected_socket(s);
    if (!sock) {
        return 0xff;
    }
    if (s->variant->cirrus_info &&
        cirrus_read(s, INDEX_SOCKET(s->index), INDEX_REG(s->index), &val)) {
        return val;
    }
    return exca_read(sock, INDEX_REG(s->index));
}

static void i82365_io_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    ISAI82365State *s = opaque;
    ExcaSocket *sock;

    if (addr == 0) {
        s->index = val;
        trace_pcl_i82365_index(s->iobase, s->index);
        return;
    }
    sock = selected_socket(s);
    if (!sock || (s->variant->cirrus_info &&
                  cirrus_write(s, INDEX_SOCKET(s->index), INDEX_REG(s->index),
                               val))) {
        return;
    }
    exca_write(sock, INDEX_REG(s->index), val);
}

static const MemoryRegionOps i82365_io_ops = {
    .read = i82365_io_read,
    .write = i82365_io_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .impl = { .min_access_size = 1, .max_access_size = 1 },
};

static const I82365Variant *find_variant(const char *name)
{
    unsigned n;

    for (n = 0; n < ARRAY_SIZE(i82365_variants); n++) {
        if (!strcmp(i82365_variants[n].name, name)) {
            return &i82365_variants[n];
        }
    }
    return NULL;
}

static void i82365_realize(DeviceState *dev, Error **errp)
{
    ERRP_GUARD();
    ISAI82365State *s = ISA_I82365(dev);
    ISADevice *isa = ISA_DEVICE(dev);
    unsigned n;

    /* without the property: the first variant */
    s->variant = s->variant_name ? find_variant(s->variant_name)
                                 : &i82365_variants[0];
    if (!s->variant) {
        error_setg(errp, "isa-i82365: unknown variant '%s'",
                   s->variant_name);
        error_append_hint(errp, "Known variants:");
        for (n = 0; n < ARRAY_SIZE(i82365_variants); n++) {
            error_append_hint(errp, " %s", i82365_variants[n].name);
        }
        error_append_hint(errp, "\n");
        return;
    }
    if (s->iobase > 0xffff - (I82365_PORTS - 1)) {
        error_setg(errp, "isa-i82365: iobase 0x%x is out of range",
                   s->iobase);
        return;
    }

    for (n = 0; n < I82365_ISA_IRQS; n++) {
        if (s->variant->irq_pins & (1 << n)) {
            s->irq[n] = isa_get_irq(isa, n);
        }
    }

    memory_region_init_io(&s->io, OBJECT(s), &i82365_io_ops, s,
                          "isa-i82365", I82365_PORTS);
    isa_register_ioport(isa, &s->io, s->iobase);

    for (n = 0; n < I82365_SOCKETS; n++) {
        s->sock[n].ident = s->variant->ident;
        s->sock[n].vcc_3v = s->variant->vcc_3v;
        exca_socket_init(&s->sock[n], dev, n, isa_address_space(isa),
                         isa_address_space_io(isa), i82365_irq_update, s);
    }
}

static void i82365_unrealize(DeviceState *dev)
{
    ISAI82365State *s = ISA_I82365(dev);
    unsigned n;

    for (n = 0; n < I82365_SOCKETS; n++) {
        exca_socket_exit(&s->sock[n]);
    }
}

static void i82365_reset(DeviceState *dev)
{
    ISAI82365State *s = ISA_I82365(dev);
    unsigned n;

    s->index = 0;
    s->info_id_next = true;
    memset(s->misc2, 0, sizeof(s->misc2));
    for (n = 0; n < I82365_SOCKETS; n++) {
        exca_socket_reset(&s->sock[n]);
    }
}

static int i82365_post_load(void *opaque, int version_id)
{
    ISAI82365State *s = opaque;
    unsigned n;

    for (n = 0; n < I82365_SOCKETS; n++) {
        exca_socket_post_load(&s->sock[n]);
    }
    /* sets only the lines whose level differs from the migrated one */
    i82365_irq_update(s);
    return 0;
}

static const VMStateDescription vmstate_isa_i82365 = {
    .name = "isa-i82365",
    .version_id = 2,
    .minimum_version_id = 1,
    .post_load = i82365_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(index, ISAI82365State),
        VMSTATE_UINT16(irq_level, ISAI82365State),
        VMSTATE_STRUCT_ARRAY(sock, ISAI82365State, I82365_SOCKETS, 1,
                             vmstate_exca_socket, ExcaSocket),
        VMSTATE_BOOL_V(info_id_next, ISAI82365State, 2),
        VMSTATE_UINT8_ARRAY_V(misc2, ISAI82365State, I82365_SOCKETS, 2),
        VMSTATE_END_OF_LIST()
    }
};

static Property i82365_properties[] = {
    DEFINE_PROP_UINT32("iobase", ISAI82365State, iobase, 0x3e0),
    DEFINE_PROP_STRING("variant", ISAI82365State, variant_name),
    DEFINE_PROP_END_OF_LIST(),
};

static void i82365_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = i82365_realize;
    dc->unrealize = i82365_unrealize;
    dc->reset = i82365_reset;
    dc->vmsd = &vmstate_isa_i82365;
    dc->desc = "ISA PC Card controller, 82365SL family (two sockets)";
    device_class_set_props(dc, i82365_properties);
    set_bit(DEVICE_CATEGORY_BRIDGE, dc->categories);
}

static const TypeInfo i82365_info = {
    .name = TYPE_ISA_I82365,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISAI82365State),
    .class_init = i82365_class_init,
};

static void i82365_register_types(void)
{
    type_register_static(&i82365_info);
}

type_init(i82365_register_types)
