/*
 * PCI-to-CardBus bridge core: one socket with the CardBus socket
 * registers and an ExCA block in memory BAR 0, a header-type-2
 * configuration space and a 16-bit PC Card slot.  See cardbus.h.
 *
 * QEMU 7.2 knows header type 2 only by name, so this is a plain PCI
 * function (not a PCIBridge, whose code assumes the type-1 layout) that
 * sets up the type-2 registers itself.
 *
 * CardBus cards: the secondary PCI bus "<id>.cb" takes any conventional
 * PCI device as the card's function(s) at device 0; config cycles reach
 * it through QEMU's own routing by bus number (0x19/0x1a sit where a
 * type-1 header has them, and CRST blocks them like a secondary reset);
 * the four windows forward primary memory and I/O to it; its INTx is the
 * card's CINT#.  The bus is its own hotplug controller: device_add is an
 * insertion, device_del a surprise removal that takes effect at once.
 *
 * 16-bit cards: the slot bus "<id>.0" takes every card model of ours.
 * Card power follows the socket CONTROL register (how yenta powers both
 * kinds of cards on TI and Ricoh parts); the core mirrors it into the
 * ExCA power register, where the ExCA core keeps card power, RESET and
 * READY.  The card's windows decode on the primary PCI bus, as on the
 * chips (their memory windows have page registers: anywhere in 4 GiB).
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/hotplug.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "cardbus.h"
#include "trace.h"

#define CB_EXCA_IDENT           0x84    /* 82365SL DF compatible */

static bool card16_present(CardBusBridge *s)
{
    return pcmcia_slot_card(&s->exca.slot) != NULL;
}

static bool cbcard_present(CardBusBridge *s)
{
    return s->cb_functions > 0;
}

static bool card_present(CardBusBridge *s)
{
    return card16_present(s) || cbcard_present(s);
}

static uint16_t bridge_control(CardBusBridge *s)
{
    return pci_get_word(PCI_DEVICE(s)->config + CB_CFG_BRIDGE_CTL);
}

/* Vcc as CONTROL requests it: 5 V and 3.3 V are the ones our cards take. */
static bool vcc_requested(CardBusBridge *s)
{
    uint32_t vcc = s->control & CB_CTL_VCC_MASK;

    return vcc == CB_CTL_VCC_5V || vcc == CB_CTL_VCC_3V;
}

static uint32_t socket_state(CardBusBridge *s)
{
    uint32_t state = CB_ST_5VSOCKET | CB_ST_3VSOCKET;

    if (!card_present(s)) {
        return state | CB_ST_CD1 | CB_ST_CD2;
    }
    if (cbcard_present(s)) {
        /* CardBus cards are 3.3 V cards */
        state |= CB_ST_CBCARD | CB_ST_3VCARD;
    } else {
        /* every 16-bit card model of ours is a 5 V card (no voltage keys) */
        state |= CB_ST_16BIT | CB_ST_5VCARD;
    }
    if (s->powered) {
        state |= CB_ST_PWRCYCLE;
    }
    return state;
}

void cardbus_irq_update(CardBusBridge *s)
{
    CardBusBridgeClass *cc = CARDBUS_BRIDGE_GET_CLASS(s);
    bool csc_pci = cc->csc_to_pci ? cc->csc_to_pci(s)
                                  : exca_csc_irq_line(&s->exca) == 0;
    bool level = false;

    /*
     * Status changes (socket events and the ExCA CSC) go where CSCINT
     * says: to INTx when it selects no ISA IRQ.  A 16-bit card's IREQ#
     * goes to INTx unless bridge control sends it to ISA.  ISA IRQ lines
     * are not wired on a PCI add-in board: what goes there is lost.
     */
    if (csc_pci && ((s->event & s->mask & CB_EV_ALL) ||
                    exca_csc_irq(&s->exca))) {
        level = true;
    }
    if (!(bridge_control(s) & CB_BCTL_16BIT_ISA) &&
        (exca_card_irq(&s->exca) || s->cint)) {
        level = true;
    }
    if (cc->pin_enabled && !cc->pin_enabled(s)) {
        level = false;
    }
    if (level != s->irq_level) {
        s->irq_level = level;
        trace_pcl_cardbus_irq(PCI_SLOT(PCI_DEVICE(s)->devfn),
                              PCI_FUNC(PCI_DEVICE(s)->devfn), level);
    }
    pci_set_irq(PCI_DEVICE(s), level);
}

static void exca_irq_update(void *opaque)
{
    cardbus_irq_update(opaque);
}

/*
 * CONTROL drives card power.  The ExCA power register follows it, so that
 * the ExCA core (STATUS.POWERON, READY, the card's reset edge) sees the
 * same Vcc; yenta later writes that register keeping the Vcc/Vpp bits it
 * reads and setting only output enable, auto power and NORESET.
 */
static void power_update(CardBusBridge *s)
{
    uint8_t old = exca_read(&s->exca, EXCA_POWER);
    uint8_t pwr = old & ~(EXCA_POWER_VCC_ON | EXCA_POWER_VCC_3V | 0x03);
    uint32_t vpp = s->control & CB_CTL_VPP_MASK;
    bool powered;

    if (vcc_requested(s)) {
        pwr |= EXCA_POWER_VCC_ON;
        if ((s->control & CB_CTL_VCC_MASK) == CB_CTL_VCC_3V) {
            pwr |= EXCA_POWER_VCC_3V;
        }
    }
    if (vpp == 1) {
        pwr |= 0x02;                    /* Vpp1 12 V */
    } else if (vpp == 2 || vpp == 3) {
        pwr |= 0x01;                    /* Vpp1 = Vcc */
    }
    if (pwr != old) {
        exca_write(&s->exca, EXCA_POWER, pwr);
    }
    powered = card_present(s) && vcc_requested(s);
    if (powered != s->powered) {
        s->powered = powered;
        s->event |= CB_EV_POWER;
    }
    trace_pcl_cardbus_power(s->control, card_present(s), powered);
}

/* Insertion or removal of either kind of card: both detect pins change. */
static void card_changed(CardBusBridge *s)
{
    s->event |= CB_EV_CD1 | CB_EV_CD2;
    trace_pcl_cardbus_card(card_present(s), socket_state(s));
    power_update(s);
    cardbus_irq_update(s);
}

static void exca_card_changed(void *opaque)
{
    card_changed(opaque);
}

static bool exca_occupied(void *opaque)
{
    return cbcard_present(opaque);
}

/* --- The CardBus side: secondary bus, windows, hotplug --- */

static void sec_set_irq(void *opaque, int pin, int level)
{
    CardBusBridge *s = opaque;

    s->cint = level;
    cardbus_irq_update(s);
}

/* Every INTx pin of the card is the socket's one CINT# line. */
static int sec_map_irq(PCIDevice *dev, int pin)
{
    return 0;
}

/*
 * The windows as aliases of the secondary spaces in the primary ones,
 * below everything else there (priority -1): the chips decode only what
 * no one else claims, and SeaBIOS leaves values in these registers that
 * would otherwise cover legacy devices until Linux rewrites them.
 */
static void windows_update(CardBusBridge *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    uint16_t cmd = pci_get_word(pd->config + PCI_COMMAND);
    unsigned i;

    memory_region_transaction_begin();
    for (i = 0; i < ARRAY_SIZE(s->win); i++) {
        bool io = i >= 2;
        uint32_t reg = PCI_CB_MEMORY_BASE_0 + 8 * i;
        uint64_t gran = io ? 4 : 4 * KiB;
        uint64_t base = pci_get_long(pd->config + reg) & ~(gran - 1);
        uint64_t limit = pci_get_long(pd->config + reg + 4) | (gran - 1);
        bool on = (cmd & (io ? PCI_COMMAND_IO : PCI_COMMAND_MEMORY)) &&
                  base <= limit;

        if (on) {
            memory_region_set_alias_offset(&s->win[i], base);
            memory_region_set_size(&s->win[i], limit - base + 1);
            memory_region_set_address(&s->win[i], base);
        }
        memory_region_set_enabled(&s->win[i], on);
        trace_pcl_cardbus_window(i, on, base, limit);
    }
    memory_region_transaction_commit();
}

/*
 * A cycle the bridge forwards and no card function claims ends in a master
 * abort: reads return all ones (what a driver sees after a surprise
 * removal), writes go nowhere.
 */
static uint64_t abort_read(void *opaque, hwaddr addr, unsigned size)
{
    return ~0ULL;
}

static void abort_write(void *opaque, hwaddr addr, uint64_t val,
                        unsigned size)
{
}

static const MemoryRegionOps abort_ops = {
    .read = abort_read,
    .write = abort_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
};

static void sec_bus_init(CardBusBridge *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    const char *id = DEVICE(s)->id;
    g_autofree char *name = id ? g_strdup_printf("%s.cb", id) : NULL;
    static const char *const win_names[] = {
        "cardbus-mem0", "cardbus-mem1", "cardbus-io0", "cardbus-io1"
    };
    unsigned i;

    memory_region_init(&s->sec_mem, OBJECT(s), "cardbus-memory", UINT64_MAX);
    memory_region_init(&s->sec_io, OBJECT(s), "cardbus-io", 4 * GiB);
    memory_region_init_io(&s->abort_mem, OBJECT(s), &abort_ops, s,
                          "cardbus-master-abort", UINT64_MAX);
    memory_region_add_subregion_overlap(&s->sec_mem, 0, &s->abort_mem, -1);
    memory_region_init_io(&s->abort_io, OBJECT(s), &abort_ops, s,
                          "cardbus-master-abort-io", 4 * GiB);
    memory_region_add_subregion_overlap(&s->sec_io, 0, &s->abort_io, -1);
    qbus_init(&s->sec_bus, sizeof(s->sec_bus), TYPE_PCI_BUS, DEVICE(s), name);
    s->sec_bus.parent_dev = pd;
    s->sec_bus.address_space_mem = &s->sec_mem;
    s->sec_bus.address_space_io = &s->sec_io;
    QLIST_INIT(&s->sec_bus.child);
    QLIST_INSERT_HEAD(&pci_get_bus(pd)->child, &s->sec_bus, sibling);
    pci_bus_irqs(&s->sec_bus, sec_set_irq, sec_map_irq, s, 1);
    qbus_set_hotplug_handler(BUS(&s->sec_bus), OBJECT(s));

    for (i = 0; i < ARRAY_SIZE(s->win); i++) {
        bool io = i >= 2;

        memory_region_init_alias(&s->win[i], OBJECT(s), win_names[i],
                                 io ? &s->sec_io : &s->sec_mem, 0, 1);
        memory_region_set_enabled(&s->win[i], false);
        memory_region_add_subregion_overlap(io ? pci_address_space_io(pd)
                                               : pci_address_space(pd),
                                            0, &s->win[i], -1);
    }
}

static void sec_bus_exit(CardBusBridge *s)
{
    PCIDevice *pd = PCI_DEVICE(s);
    unsigned i;

    QLIST_REMOVE(&s->sec_bus, sibling);
    for (i = 0; i < ARRAY_SIZE(s->win); i++) {
        memory_region_del_subregion(i >= 2 ? pci_address_space_io(pd)
                                           : pci_address_space(pd),
                                    &s->win[i]);
    }
}

/* A CardBus card is device 0 of the secondary bus, in an empty socket. */
static void cb_plug(HotplugHandler *hh, DeviceState *dev, Error **errp)
{
    CardBusBridge *s = CARDBUS_BRIDGE(hh);
    PCIDevice *card = PCI_DEVICE(dev);

    if (PCI_SLOT(card->devfn) != 0) {
        error_setg(errp, "a CardBus card is device 0 of its bus (addr=0.N)");
        return;
    }
    if (card16_present(s)) {
        error_setg(errp, "the socket holds a 16-bit PC Card");
        return;
    }
    s->cb_functions++;
    trace_pcl_cardbus_cb_insert(object_get_typename(OBJECT(dev)),
                                PCI_FUNC(card->devfn));
    if (s->cb_functions == 1) {
        card_changed(s);
    }
}

/* device_del: the card is gone at once, as when pulled out. */
static void cb_unplug(HotplugHandler *hh, DeviceState *dev, Error **errp)
{
    CardBusBridge *s = CARDBUS_BRIDGE(hh);

    trace_pcl_cardbus_cb_eject(object_get_typename(OBJECT(dev)));
    s->cb_functions--;
    if (s->cb_functions == 0) {
        card_changed(s);
    }
}

/* --- Socket register BAR --- */

static uint32_t socket_reg_read(CardBusBridge *s, hwaddr reg)
{
    switch (reg) {
    case CB_SOCKET_EVENT:
        return s->event;
    case CB_SOCKET_MASK:
        return s->mask;
    case CB_SOCKET_STATE:
        return socket_state(s);
    case CB_SOCKET_CONTROL:
        return s->control;
    default:
        /* FORCE reads 0; registers past CONTROL are not modelled */
        return 0;
    }
}

static void socket_reg_write(CardBusBridge *s, hwaddr reg, uint32_t val,
                             uint32_t bytes)
{
    switch (reg) {
    case CB_SOCKET_EVENT:
        s->event &= ~(val & bytes);
        break;
    case CB_SOCKET_MASK:
        s->mask = ((s->mask & ~bytes) | (val & bytes)) & CB_EV_ALL;
        break;
    case CB_SOCKET_FORCE:
        /*
         * Bits 3:0 raise the matching events (yenta's interrupt probes).
         * CVSTEST asks for a new voltage interrogation, whose result
         * STATE always shows here; the other state bits cannot be forced
         * in this model.
         */
        s->event |= val & bytes & CB_EV_ALL;
        if (val & bytes & CB_FORCE_CVSTEST) {
            trace_pcl_cardbus_cvstest(socket_state(s));
        }
        break;
    case CB_SOCKET_CONTROL:
        s->control = ((s->control & ~bytes) | (val & bytes)) & 0xff;
        power_update(s);
        break;
    default:
        return;
    }
    cardbus_irq_update(s);
}

static uint64_t cb_regs_read(void *opaque, hwaddr addr, unsigned size)
{
    CardBusBridge *s = opaque;
    uint64_t val = 0;
    unsigned i;

    if (addr >= CB_EXCA_OFFSET) {
        for (i = 0; i < size; i++) {
            hwaddr reg = addr - CB_EXCA_OFFSET + i;

            val |= (uint64_t)(reg < 0x100 ? exca_read(&s->exca, reg) : 0xff)
                   << (8 * i);
        }
    } else {
        unsigned shift = 8 * (addr & 3);

        val = socket_reg_read(s, addr & ~3) >> shift;
        if (size < 4) {
            val &= (1ULL << (8 * size)) - 1;
        }
        trace_pcl_cardbus_reg_read(addr, size, val);
    }
    return val;
}

static void cb_regs_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    CardBusBridge *s = opaque;
    unsigned i;

    if (addr >= CB_EXCA_OFFSET) {
        for (i = 0; i < size; i++) {
            hwaddr reg = addr - CB_EXCA_OFFSET + i;

            if (reg < 0x100) {
                exca_write(&s->exca, reg, val >> (8 * i));
            }
        }
    } else {
        unsigned shift = 8 * (addr & 3);
        uint32_t bytes = size < 4 ? ((1U << (8 * size)) - 1) << shift
                                  : 0xffffffffU;

        trace_pcl_cardbus_reg_write(addr, size, val);
        socket_reg_write(s, addr & ~3, (uint32_t)(val << shift), bytes);
    }
}

static const MemoryRegionOps cb_regs_ops = {
    .read = cb_regs_read,
    .write = cb_regs_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* --- Configuration space --- */

static void cb_config_write(PCIDevice *pd, uint32_t addr, uint32_t val,
                            int len)
{
    CardBusBridge *s = CARDBUS_BRIDGE(pd);
    CardBusBridgeClass *cc = CARDBUS_BRIDGE_GET_CLASS(s);

    bool crst = bridge_control(s) & CB_BCTL_CRST;

    pci_default_write_config(pd, addr, val, len);
    if (cc->chip_config_write) {
        cc->chip_config_write(s, addr, len);
    }
    if (ranges_overlap(addr, len, PCI_COMMAND, 2) ||
        ranges_overlap(addr, len, PCI_CB_MEMORY_BASE_0,
                       PCI_INTERRUPT_LINE - PCI_CB_MEMORY_BASE_0)) {
        windows_update(s);
    }
    if (ranges_overlap(addr, len, CB_CFG_BRIDGE_CTL, 2)) {
        /* CRST asserted: the card sees RST# */
        if (!crst && (bridge_control(s) & CB_BCTL_CRST)) {
            bus_cold_reset(BUS(&s->sec_bus));
        }
        cardbus_irq_update(s);
    }
}

/*
 * The type-2 header's registers at their power-on values.  Where SeaBIOS
 * 1.16 forces a deviation from the real chips, it is said here: SeaBIOS
 * sizes every function as a type-0 header (BARs at 0x10-0x24, ROM at
 * 0x30) and stops with "PCI: out of 32bit address space" when what it
 * reads back there does not look like a BAR.  So:
 *  - capability pointer (0x14) and secondary status (0x16) read 0: the
 *    chips have a power management capability there and report
 *    66 MHz-capable/medium DEVSEL timing in the secondary status;
 *  - the I/O windows (0x2c-0x3b) decode 32 bits with every upper bit
 *    writable; on the chips the upper halves are writable only in
 *    32-bit I/O mode, which yenta never asks for;
 *  - SeaBIOS writes its "BAR" addresses into the bus numbers and the
 *    window registers, which Linux (always renumbering CardBus bridges
 *    and sizing their windows) rewrites before yenta runs.
 */
static void cb_header_reset(CardBusBridge *s)
{
    uint8_t *c = PCI_DEVICE(s)->config;

    memset(c + PCI_CB_CAPABILITY_LIST, 0,
           PCI_INTERRUPT_LINE - PCI_CB_CAPABILITY_LIST);
    c[PCI_LATENCY_TIMER] = 0;
    pci_set_word(c + CB_CFG_BRIDGE_CTL, CB_BCTL_RESET_VALUE);
    pci_set_word(c + CB_CFG_SSVID, s->ssvid);
    pci_set_word(c + CB_CFG_SSID, s->ssid);
    /* legacy-mode ExCA index/data base: bit 0 reads 1, not decoded here */
    pci_set_long(c + CB_CFG_LEGACY_BASE, 1);
}

static void chip_reg_set(uint8_t *bytes, const CardBusChipReg *r,
                         uint32_t val)
{
    unsigned i;

    for (i = 0; i < r->size; i++) {
        bytes[r->offset + i] = val >> (8 * i);
    }
}

static void cb_realize(PCIDevice *pd, Error **errp)
{
    CardBusBridge *s = CARDBUS_BRIDGE(pd);
    CardBusBridgeClass *cc = CARDBUS_BRIDGE_GET_CLASS(s);
    uint8_t *c = pd->config, *w = pd->wmask;
    const CardBusChipReg *r;
    unsigned off;

    c[PCI_HEADER_TYPE] = (c[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MULTI_FUNCTION)
                         | PCI_HEADER_TYPE_CARDBUS;
    c[PCI_INTERRUPT_PIN] = PCI_FUNC(pd->devfn) ? 2 : 1;

    /*
     * Write masks: QEMU set them up for a type-0 header with everything
     * above 0x40 writable.  Type 2: latency timer, bus numbers, the four
     * windows, bridge control; above 0x40 only the legacy base and
     * whatever the chip adds.
     */
    w[PCI_LATENCY_TIMER] = 0xff;
    memset(w + PCI_CB_CAPABILITY_LIST, 0, PCI_CB_PRIMARY_BUS -
           PCI_CB_CAPABILITY_LIST);
    memset(w + PCI_CB_PRIMARY_BUS, 0xff, 4);
    for (off = PCI_CB_MEMORY_BASE_0; off <= PCI_CB_MEMORY_LIMIT_1; off += 4) {
        pci_set_long(w + off, 0xfffff000);
    }
    for (off = PCI_CB_IO_BASE_0; off <= PCI_CB_IO_LIMIT_1; off += 4) {
        pci_set_long(w + off, 0xfffffffc);
    }
    pci_set_word(w + CB_CFG_BRIDGE_CTL, 0x07ef);
    memset(w + PCI_CONFIG_HEADER_SIZE, 0,
           PCI_CONFIG_SPACE_SIZE - PCI_CONFIG_HEADER_SIZE);
    pci_set_long(w + CB_CFG_LEGACY_BASE, 0x0000fffe);
    /* 0x2c-0x2f: the type-0 subsystem IDs QEMU wrote are I/O base 0 here */
    cb_header_reset(s);

    memory_region_init_io(&s->regs, OBJECT(s), &cb_regs_ops, s,
                          "cardbus-socket", CB_BAR_SIZE);
    pci_register_bar(pd, 0, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->regs);

    s->exca.ident = CB_EXCA_IDENT;
    s->exca.page_regs = true;
    s->exca.vcc_3v = true;
    s->exca.card_changed = exca_card_changed;
    s->exca.occupied = exca_occupied;
    exca_socket_init(&s->exca, DEVICE(s), 0, pci_address_space(pd),
                     pci_address_space_io(pd), exca_irq_update, s);
    sec_bus_init(s);

    for (r = cc->chip_regs; r && r->size; r++) {
        chip_reg_set(w, r, r->wmask);
    }
    if (cc->chip_realize) {
        cc->chip_realize(s);
    }
}

static void cb_exit(PCIDevice *pd)
{
    exca_socket_exit(&CARDBUS_BRIDGE(pd)->exca);
    sec_bus_exit(CARDBUS_BRIDGE(pd));
}

static void cb_reset(DeviceState *dev)
{
    CardBusBridge *s = CARDBUS_BRIDGE(dev);
    CardBusBridgeClass *cc = CARDBUS_BRIDGE_GET_CLASS(s);
    const CardBusChipReg *r;

    cb_header_reset(s);
    for (r = cc->chip_regs; r && r->size; r++) {
        chip_reg_set(PCI_DEVICE(s)->config, r, r->reset);
    }
    if (cc->chip_reset) {
        cc->chip_reset(s);
    }
    s->control = 0;
    s->mask = 0;
    s->event = 0;
    s->powered = false;
    exca_socket_reset(&s->exca);
    power_update(s);
    s->event = 0;
    windows_update(s);
    cardbus_irq_update(s);
}

static int cb_post_load(void *opaque, int version_id)
{
    CardBusBridge *s = opaque;

    exca_socket_post_load(&s->exca);
    windows_update(s);
    cardbus_irq_update(s);
    return 0;
}

const VMStateDescription vmstate_cardbus_bridge = {
    .name = "pcl-cardbus-bridge",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = cb_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, CardBusBridge),
        VMSTATE_UINT32(event, CardBusBridge),
        VMSTATE_UINT32(mask, CardBusBridge),
        VMSTATE_UINT32(control, CardBusBridge),
        VMSTATE_BOOL(powered, CardBusBridge),
        VMSTATE_BOOL(cint, CardBusBridge),
        VMSTATE_EXCA_SOCKET(exca, CardBusBridge),
        VMSTATE_END_OF_LIST()
    }
};

static Property cb_properties[] = {
    DEFINE_PROP_UINT16("ssvid", CardBusBridge, ssvid,
                       PCI_SUBVENDOR_ID_REDHAT_QUMRANET),
    DEFINE_PROP_UINT16("ssid", CardBusBridge, ssid, PCI_SUBDEVICE_ID_QEMU),
    DEFINE_PROP_END_OF_LIST(),
};

static void cb_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);
    HotplugHandlerClass *hc = HOTPLUG_HANDLER_CLASS(oc);

    hc->plug = cb_plug;
    hc->unplug = cb_unplug;
    k->realize = cb_realize;
    k->exit = cb_exit;
    k->config_write = cb_config_write;
    k->class_id = PCI_CLASS_BRIDGE_CARDBUS;
    dc->reset = cb_reset;
    dc->vmsd = &vmstate_cardbus_bridge;
    device_class_set_props(dc, cb_properties);
    set_bit(DEVICE_CATEGORY_BRIDGE, dc->categories);
}

static const TypeInfo cb_info = {
    .name = TYPE_CARDBUS_BRIDGE,
    .parent = TYPE_PCI_DEVICE,
    .abstract = true,
    .instance_size = sizeof(CardBusBridge),
    .class_size = sizeof(CardBusBridgeClass),
    .class_init = cb_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { TYPE_HOTPLUG_HANDLER },
        { }
    },
};

static void cb_register_types(void)
{
    type_register_static(&cb_info);
}

type_init(cb_register_types)
