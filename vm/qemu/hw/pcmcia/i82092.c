/*
 * Intel 82092AA PCI-to-PCMCIA bridge (PPEC): two 16-bit PC Card sockets
 * behind an ExCA register file reached through an index/data pair in I/O
 * BAR 0.  Card windows decode in the PCI I/O and memory spaces at the
 * addresses the guest programs; card IREQ# and status changes go to INTA#.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "hw/pci/pci.h"
#include "migration/vmstate.h"
#include "qom/object.h"
#include "exca.h"
#include "trace.h"

#define TYPE_I82092 "i82092"
OBJECT_DECLARE_SIMPLE_TYPE(I82092State, I82092)

#define I82092_DEVICE_ID        0x1221
#define I82092_SOCKETS          2       /* PCICON 2:1 = 00 */
#define I82092_IDENT            0x84    /* reads like an 82365SL DF */
#define I82092_BAR_SIZE         4

/* PCI configuration registers */
#define I82092_PCICON           0x40    /* 2:1 socket count, 00 = two */
#define I82092_IRQ_ROUTE        0x50    /* one bit per source, 1 = INTA# */

/*
 * The routing bits' exact assignment is not documented where we looked
 * (Linux writes 0xff): this model gives bits 0-3 the card IREQ# of
 * sockets A-D and bits 4-7 their status change interrupt.  A source
 * routed to ISA goes to the chip's ISA IRQ pins, which a PCI add-in
 * board does not wire, so it is lost.
 */
#define ROUTE_IREQ(n)           (1 << (n))
#define ROUTE_CSC(n)            (1 << (4 + (n)))

/* index register: bits 7:6 socket, 5:0 ExCA register */
#define INDEX_SOCKET(i)         ((i) >> 6)
#define INDEX_REG(i)            ((i) & 0x3f)

struct I82092State {
    /*< private >*/
    PCIDevice parent_obj;
    /*< public >*/

    MemoryRegion io;
    uint8_t index;
    ExcaSocket sock[I82092_SOCKETS];
    bool irq_level;             /* for tracing changes only */
};

static void i82092_irq_update(void *opaque)
{
    I82092State *s = opaque;
    PCIDevice *pd = PCI_DEVICE(s);
    uint8_t route = pd->config[I82092_IRQ_ROUTE];
    bool level = false;
    unsigned n;

    for (n = 0; n < I82092_SOCKETS; n++) {
        if ((exca_csc_irq(&s->sock[n]) && (route & ROUTE_CSC(n))) ||
            (exca_card_irq(&s->sock[n]) && (route & ROUTE_IREQ(n)))) {
            level = true;
        }
    }
    if (level != s->irq_level) {
        s->irq_level = level;
        trace_pcl_i82092_irq(level);
    }
    pci_set_irq(pd, level);
}

static ExcaSocket *selected_socket(I82092State *s)
{
    unsigned n = INDEX_SOCKET(s->index);

    return n < I82092_SOCKETS ? &s->sock[n] : NULL;
}

static uint64_t i82092_io_read(void *opaque, hwaddr addr, unsigned size)
{
    I82092State *s = opaque;
    ExcaSocket *sock;

    switch (addr) {
    case 0:
        return s->index;
    case 1:
        sock = selected_socket(s);
        return sock ? exca_read(sock, INDEX_REG(s->index)) : 0xff;
    default:
        return 0xff;
    }
}

static void i82092_io_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    I82092State *s = opaque;
    ExcaSocket *sock;

    switch (addr) {
    case 0:
        s->index = val;
        trace_pcl_i82092_index(s->index);
        break;
    case 1:
        sock = selected_socket(s);
        if (sock) {
            exca_write(sock, INDEX_REG(s->index), val);
        }
        break;
    }
}

static const MemoryRegionOps i82092_io_ops = {
    .read = i82092_io_read,
    .write = i82092_io_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .impl = { .min_access_size = 1, .max_access_size = 1 },
};

static void i82092_config_write(PCIDevice *pd, uint32_t addr, uint32_t val,
                                int len)
{
    pci_default_write_config(pd, addr, val, len);
    if (ranges_overlap(addr, len, I82092_IRQ_ROUTE, 1)) {
        i82092_irq_update(I82092(pd));
    }
}

static void i82092_realize(PCIDevice *pd, Error **errp)
{
    I82092State *s = I82092(pd);
    unsigned n;

    pd->config[PCI_INTERRUPT_PIN] = 1;
    pd->config[I82092_PCICON] = 0x00;
    pd->wmask[I82092_IRQ_ROUTE] = 0xff;

    memory_region_init_io(&s->io, OBJECT(s), &i82092_io_ops, s, "i82092",
                          I82092_BAR_SIZE);
    pci_register_bar(pd, 0, PCI_BASE_ADDRESS_SPACE_IO, &s->io);

    for (n = 0; n < I82092_SOCKETS; n++) {
        s->sock[n].ident = I82092_IDENT;
        exca_socket_init(&s->sock[n], DEVICE(s), n, pci_address_space(pd),
                         pci_address_space_io(pd), i82092_irq_update, s);
    }
}

static void i82092_exit(PCIDevice *pd)
{
    I82092State *s = I82092(pd);
    unsigned n;

    for (n = 0; n < I82092_SOCKETS; n++) {
        exca_socket_exit(&s->sock[n]);
    }
}

static void i82092_reset(DeviceState *dev)
{
    I82092State *s = I82092(dev);
    unsigned n;

    s->index = 0;
    PCI_DEVICE(s)->config[I82092_IRQ_ROUTE] = 0;
    for (n = 0; n < I82092_SOCKETS; n++) {
        exca_socket_reset(&s->sock[n]);
    }
}

static int i82092_post_load(void *opaque, int version_id)
{
    I82092State *s = opaque;
    unsigned n;

    for (n = 0; n < I82092_SOCKETS; n++) {
        exca_socket_post_load(&s->sock[n]);
    }
    i82092_irq_update(s);
    return 0;
}

static const VMStateDescription vmstate_i82092 = {
    .name = "i82092",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = i82092_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, I82092State),
        VMSTATE_UINT8(index, I82092State),
        VMSTATE_STRUCT_ARRAY(sock, I82092State, I82092_SOCKETS, 1,
                             vmstate_exca_socket, ExcaSocket),
        VMSTATE_END_OF_LIST()
    }
};

static void i82092_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);

    k->realize = i82092_realize;
    k->exit = i82092_exit;
    k->config_write = i82092_config_write;
    k->vendor_id = PCI_VENDOR_ID_INTEL;
    k->device_id = I82092_DEVICE_ID;
    k->class_id = PCI_CLASS_BRIDGE_PCMCIA;
    dc->desc = "Intel 82092AA PCI-to-PCMCIA bridge (two PC Card sockets)";
    dc->reset = i82092_reset;
    dc->vmsd = &vmstate_i82092;
    set_bit(DEVICE_CATEGORY_BRIDGE, dc->categories);
}

static const TypeInfo i82092_info = {
    .name = TYPE_I82092,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(I82092State),
    .class_init = i82092_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { }
    },
};

static void i82092_register_types(void)
{
    type_register_static(&i82092_info);
}

type_init(i82092_register_types)
