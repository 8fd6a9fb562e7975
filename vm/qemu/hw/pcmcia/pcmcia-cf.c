/*
 * CompactFlash card (PC Card ATA) for the pcmcia-legacy slots: a CIS that
 * Linux's pata_pcmcia binds to, the function configuration registers, and
 * an ATA task file run by QEMU's IDE core in memory-mapped, contiguous
 * I/O, primary or secondary I/O mode.
 *
 *   -blockdev driver=file,filename=cf.img,node-name=cf0
 *   -device pcmcia-cf,bus=pcc.0,drive=cf0,id=card0
 *
 * Use -blockdev backends: a -drive backend is deleted with the device, so
 * re-inserting after device_del would fail.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/block/block.h"
#include "hw/ide/internal.h"
#include "migration/vmstate.h"
#include "sysemu/block-backend.h"
#include "qom/object.h"
#include "pcmcia-slot.h"
#include "trace.h"

#define TYPE_PCMCIA_CF "pcmcia-cf"
OBJECT_DECLARE_SIMPLE_TYPE(PCMCIACFState, PCMCIA_CF)

/* Function configuration registers in attribute memory (CISTPL_CONFIG) */
#define CF_CONFIG_BASE          0x200
#define CF_COR                  0x0     /* configuration option */
#define CF_CCSR                 0x2     /* configuration and status */
#define CF_PRR                  0x4     /* pin replacement */
#define CF_SCR                  0x6     /* socket and copy */

#define COR_INDEX               0x3f
#define COR_LEVIREQ             0x40
#define COR_SRESET              0x80

#define CCSR_INTR               0x02
#define CCSR_WRITABLE           0x7c    /* power down, audio, IOis8, ... */

#define PRR_READY_BVD           0x0e    /* RRdy/-Bsy, RBVD1, RBVD2 */

/* Configuration indexes, as the CIS below lists them */
enum {
    CF_MODE_MEMORY,
    CF_MODE_IO_ANY,             /* 16 contiguous registers anywhere */
    CF_MODE_IO_PRIMARY,         /* 0x1f0-0x1f7, 0x3f6-0x3f7 */
    CF_MODE_IO_SECONDARY,       /* 0x170-0x177, 0x376-0x377 */
};

/* Task file offsets in the 16-register layout */
#define TF_DATA                 0x0
#define TF_ERROR                0x1
#define TF_STATUS               0x7
#define TF_DATA_EVEN            0x8
#define TF_DATA_ODD             0x9
#define TF_ERROR_DUP            0xd
#define TF_ALT_STATUS           0xe     /* write: device control */
#define TF_DRIVE_ADDR           0xf
#define TF_NONE                 -1

#define CF_METADATA_SIZE        0x20

struct PCMCIACFState {
    /*< private >*/
    PCLCardState parent_obj;
    /*< public >*/

    IDEBus bus;
    BlockConf conf;
    char *serial;
    char *model;

    uint8_t cor;
    uint8_t ccsr;
    uint8_t scr;
    bool intrq;                 /* the ATA device's INTRQ */
    bool byte_odd_valid;        /* 8-bit data path: odd byte latched */
    uint8_t byte_latch;
};

/*
 * The CIS as a tuple chain (pcmcia_cis_read() spreads it over even
 * addresses).  Manufacturer/card ID 0x5043/0x4346 is this model's own;
 * Linux binds pata_pcmcia through FUNCID 4 (fixed disk).
 */
static const uint8_t cf_cis[] = {
    /* DEVICE: function specific, 150 ns, 2 KB; end of list */
    0x01, 0x03,  0xd3, 0x01, 0xff,
    /* VERS_1 4.1 */
    0x15, 0x23,  0x04, 0x01,
        'p', 'c', 'm', 'c', 'i', 'a', '-', 'l', 'e', 'g', 'a', 'c', 'y', 0,
        'C', 'o', 'm', 'p', 'a', 'c', 't', 'F', 'l', 'a', 's', 'h', 0,
        'Q', 'E', 'M', 'U', 0,
        0xff,
    /* MANFID */
    0x20, 0x04,  0x43, 0x50, 0x46, 0x43,
    /* FUNCID: fixed disk, POST */
    0x21, 0x02,  0x04, 0x01,
    /* FUNCE: disk interface = PC Card ATA */
    0x22, 0x02,  0x01, 0x01,
    /* FUNCE: basic ATA features: silicon, unique serial; sleep/standby/idle */
    0x22, 0x03,  0x02, 0x0c, 0x0f,
    /* CONFIG: 2-byte base 0x200, last index 3, COR CCSR PRR SCR present */
    0x1a, 0x05,  0x01, 0x03, 0x00, 0x02, 0x0f,
    /* CFTABLE_ENTRY 0: memory mapped, 5 V, 2 KB of common memory */
    0x1b, 0x07,  0x80, 0x40, 0x21, 0x01, 0x55, 0x08, 0x00,
    /* CFTABLE_ENTRY 1: I/O, 16 registers on any 16-port boundary */
    0x1b, 0x09,  0x81, 0x41, 0x19, 0x01, 0x55, 0x64, 0x30, 0xff, 0xff,
    /* CFTABLE_ENTRY 2: I/O, primary ATA ports */
    0x1b, 0x10,  0x82, 0x41, 0x19, 0x01, 0x55, 0xea, 0x61,
        0xf0, 0x01, 0x07,  0xf6, 0x03, 0x01,  0x30, 0xff, 0xff,
    /* CFTABLE_ENTRY 3: I/O, secondary ATA ports */
    0x1b, 0x10,  0x83, 0x41, 0x19, 0x01, 0x55, 0xea, 0x61,
        0x70, 0x01, 0x07,  0x76, 0x03, 0x01,  0x30, 0xff, 0xff,
    /* NO_LINK, END */
    0x14, 0x00,
    0xff,
};

static unsigned cf_mode(PCMCIACFState *s)
{
    return s->cor & COR_INDEX;
}

/* IREQ# follows INTRQ in the I/O modes (in memory mode the pin is RDY). */
static void cf_update_ireq(PCMCIACFState *s)
{
    PCMCIACardState *card = PCMCIA_CARD(s);
    bool level = s->intrq && cf_mode(s) != CF_MODE_MEMORY &&
                 !(s->cor & COR_SRESET) &&
                 !(s->bus.cmd & IDE_CTRL_DISABLE_IRQ);

    if (card->slot) {
        trace_pcl_cf_ireq(level);
        qemu_set_irq(card->slot->irq, level);
    }
}

static void cf_ide_irq(void *opaque, int n, int level)
{
    PCMCIACFState *s = opaque;

    s->intrq = level;
    cf_update_ireq(s);
}

/*
 * Reset the drive as power-on or SRST does: registers, signature, and
 * the diagnostic result "passed" (error register 1) that hosts check.
 */
static void cf_drive_reset(PCMCIACFState *s)
{
    ide_bus_reset(&s->bus);
    if (s->bus.ifs[0].blk) {
        s->bus.ifs[0].error = 0x01;
    }
}

static void cf_reset(DeviceState *dev)
{
    PCMCIACFState *s = PCMCIA_CF(dev);

    trace_pcl_cf_reset();
    s->cor = 0;
    s->ccsr = 0;
    s->scr = 0;
    s->byte_odd_valid = false;
    s->byte_latch = 0;
    cf_drive_reset(s);
    s->intrq = false;
    cf_update_ireq(s);
}

/* --- Function configuration registers --- */

static uint8_t cf_attr_read(PCMCIACardState *card, uint32_t addr)
{
    PCMCIACFState *s = PCMCIA_CF(card);
    uint8_t val;

    if (addr < CF_CONFIG_BASE) {
        return pcmcia_cis_read(cf_cis, sizeof(cf_cis), addr);
    }
    switch (addr - CF_CONFIG_BASE) {
    case CF_COR:
        val = s->cor;
        break;
    case CF_CCSR:
        val = (s->ccsr & CCSR_WRITABLE) | (s->intrq ? CCSR_INTR : 0);
        break;
    case CF_PRR:
        val = PRR_READY_BVD;
        break;
    case CF_SCR:
        val = s->scr;
        break;
    default:
        return 0xff;
    }
    trace_pcl_cf_config_read(addr, val);
    return val;
}

static void cf_attr_write(PCMCIACardState *card, uint32_t addr, uint8_t val)
{
    PCMCIACFState *s = PCMCIA_CF(card);

    if (addr < CF_CONFIG_BASE) {
        return;
    }
    trace_pcl_cf_config_write(addr, val);
    switch (addr - CF_CONFIG_BASE) {
    case CF_COR:
        if (val & COR_SRESET) {
            /* soft reset: everything but the reset bit itself */
            cf_reset(DEVICE(s));
        }
        s->cor = val;
        cf_update_ireq(s);
        break;
    case CF_CCSR:
        s->ccsr = val & CCSR_WRITABLE;
        break;
    case CF_SCR:
        s->scr = val;
        break;
    }
}

/* --- ATA task file --- */

/* Map a card address to the 16-register layout, per configuration. */
static int cf_decode_io(PCMCIACFState *s, uint32_t addr)
{
    uint32_t port = addr & 0x3ff;
    uint32_t cmd_base, ctl_base;

    switch (cf_mode(s)) {
    case CF_MODE_IO_ANY:
        return addr & 0xf;
    case CF_MODE_IO_PRIMARY:
        cmd_base = 0x1f0;
        ctl_base = 0x3f6;
        break;
    case CF_MODE_IO_SECONDARY:
        cmd_base = 0x170;
        ctl_base = 0x376;
        break;
    default:
        return TF_NONE;
    }
    if (port >= cmd_base && port < cmd_base + 8) {
        return port - cmd_base;
    }
    if (port == ctl_base || port == ctl_base + 1) {
        return TF_ALT_STATUS + (port - ctl_base);
    }
    return TF_NONE;
}

/* Memory mode: registers at 0-0xf, the data register at 0x400-0x7ff. */
static int cf_decode_mem(PCMCIACFState *s, uint32_t addr)
{
    if (cf_mode(s) != CF_MODE_MEMORY) {
        return TF_NONE;
    }
    if ((addr & 0x7ff) >= 0x400) {
        return (addr & 1) ? TF_DATA_ODD : TF_DATA;
    }
    return addr & 0xf;
}

static uint8_t cf_drive_address(PCMCIACFState *s)
{
    IDEState *ifs = idebus_active_if(&s->bus);

    /* -WTG high, head bits inverted, -nDS0/-nDS1 low for the chosen unit */
    return 0x40 | ((~ifs->select & 0x0f) << 2) |
           (ifs->unit ? 0x01 : 0x02);
}

static uint8_t cf_reg_read8(PCMCIACFState *s, int reg)
{
    uint16_t word;

    switch (reg) {
    case TF_DATA:
    case TF_DATA_EVEN:
        /* 8-bit data path: even byte first, odd byte latched */
        word = ide_data_readw(&s->bus, 0);
        s->byte_latch = word >> 8;
        s->byte_odd_valid = true;
        return word & 0xff;
    case TF_DATA_ODD:
        s->byte_odd_valid = false;
        return s->byte_latch;
    case TF_ERROR_DUP:
        return ide_ioport_read(&s->bus, TF_ERROR);
    case TF_ALT_STATUS:
        return ide_status_read(&s->bus, 0);
    case TF_DRIVE_ADDR:
        return cf_drive_address(s);
    default:
        if (reg >= 0 && reg < 8) {
            return ide_ioport_read(&s->bus, reg);
        }
        return 0xff;
    }
}

static void cf_reg_write8(PCMCIACFState *s, int reg, uint8_t val)
{
    switch (reg) {
    case TF_DATA:
    case TF_DATA_EVEN:
        s->byte_latch = val;
        s->byte_odd_valid = true;
        break;
    case TF_DATA_ODD:
        if (s->byte_odd_valid) {
            ide_data_writew(&s->bus, 0, s->byte_latch | val << 8);
        }
        s->byte_odd_valid = false;
        break;
    case TF_ERROR_DUP:
        ide_ioport_write(&s->bus, TF_ERROR, val);
        break;
    case TF_ALT_STATUS:
        /* device control: a reset edge resets the drive at once */
        if ((val & IDE_CTRL_RESET) && !(s->bus.cmd & IDE_CTRL_RESET)) {
            cf_drive_reset(s);
        }
        s->bus.cmd = val;
        cf_update_ireq(s);
        break;
    case TF_DRIVE_ADDR:
        break;
    default:
        if (reg >= 0 && reg < 8) {
            ide_ioport_write(&s->bus, reg, val);
        }
        break;
    }
}

static uint16_t cf_reg_read(PCMCIACFState *s, int reg)
{
    if (reg == TF_NONE) {
        return 0xffff;
    }
    if (!pcmcia_slot_cycle_is_16bit(PCMCIA_CARD(s))) {
        return cf_reg_read8(s, reg);
    }
    if (reg == TF_DATA || reg == TF_DATA_EVEN) {
        return ide_data_readw(&s->bus, 0);
    }
    return cf_reg_read8(s, reg) | cf_reg_read8(s, reg + 1) << 8;
}

static void cf_reg_write(PCMCIACFState *s, int reg, uint16_t val)
{
    if (reg == TF_NONE) {
        return;
    }
    if (!pcmcia_slot_cycle_is_16bit(PCMCIA_CARD(s))) {
        cf_reg_write8(s, reg, val);
    } else if (reg == TF_DATA || reg == TF_DATA_EVEN) {
        ide_data_writew(&s->bus, 0, val);
    } else {
        cf_reg_write8(s, reg, val & 0xff);
        cf_reg_write8(s, reg + 1, val >> 8);
    }
}

static uint16_t cf_io_read(PCMCIACardState *card, uint32_t addr)
{
    PCMCIACFState *s = PCMCIA_CF(card);

    return cf_reg_read(s, cf_decode_io(s, addr));
}

static void cf_io_write(PCMCIACardState *card, uint32_t addr, uint16_t val)
{
    PCMCIACFState *s = PCMCIA_CF(card);

    cf_reg_write(s, cf_decode_io(s, addr), val);
}

static uint16_t cf_common_read(PCMCIACardState *card, uint32_t addr)
{
    PCMCIACFState *s = PCMCIA_CF(card);

    return cf_reg_read(s, cf_decode_mem(s, addr));
}

static void cf_common_write(PCMCIACardState *card, uint32_t addr,
                            uint16_t val)
{
    PCMCIACFState *s = PCMCIA_CF(card);

    cf_reg_write(s, cf_decode_mem(s, addr), val);
}

/* --- Life cycle --- */

static void cf_realize(DeviceState *dev, Error **errp)
{
    PCMCIACFState *s = PCMCIA_CF(dev);
    IDEState *ifs = &s->bus.ifs[0];
    int chs_trans = 0;

    if (!s->conf.blk) {
        error_setg(errp, "pcmcia-cf needs a drive (drive=<node-name>)");
        return;
    }
    if (!blkconf_blocksizes(&s->conf, errp)) {
        return;
    }
    if (s->conf.logical_block_size != 512) {
        error_setg(errp, "pcmcia-cf needs 512-byte logical blocks");
        return;
    }
    if (!blkconf_geometry(&s->conf, &chs_trans, 65535, 16, 255, errp)) {
        return;
    }
    if (!blkconf_apply_backend_options(&s->conf, false, true, errp)) {
        return;
    }

    ide_init2(&s->bus, qemu_allocate_irq(cf_ide_irq, s, 0));
    if (ide_init_drive(ifs, s->conf.blk, IDE_CFATA, NULL, s->serial,
                       s->model ? s->model : "QEMU CompactFlash", 0,
                       s->conf.cyls, s->conf.heads, s->conf.secs, chs_trans,
                       errp) < 0) {
        ide_exit(&s->bus.ifs[0]);
        ide_exit(&s->bus.ifs[1]);
        qemu_free_irq(s->bus.irq);
        return;
    }
    ifs->mdata_size = CF_METADATA_SIZE;
    ifs->mdata_storage = g_malloc0(CF_METADATA_SIZE);
}

/* Surprise removal: finish or cancel block I/O before the state goes. */
static void cf_unrealize(DeviceState *dev)
{
    PCMCIACFState *s = PCMCIA_CF(dev);

    blk_drain(s->conf.blk);
    ide_bus_reset(&s->bus);
    g_free(s->bus.ifs[0].mdata_storage);
    s->bus.ifs[0].mdata_storage = NULL;
    ide_exit(&s->bus.ifs[0]);
    ide_exit(&s->bus.ifs[1]);
    qemu_free_irq(s->bus.irq);
    s->bus.irq = NULL;
}

static void cf_instance_init(Object *obj)
{
    PCMCIACFState *s = PCMCIA_CF(obj);

    ide_bus_init(&s->bus, sizeof(s->bus), DEVICE(obj), 0, 1);
    /* the drive is built in: no IDE device may plug in beside it */
    qbus_mark_full(BUS(&s->bus));
}

static const VMStateDescription vmstate_pcmcia_cf = {
    .name = TYPE_PCMCIA_CF,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(cor, PCMCIACFState),
        VMSTATE_UINT8(ccsr, PCMCIACFState),
        VMSTATE_UINT8(scr, PCMCIACFState),
        VMSTATE_BOOL(intrq, PCMCIACFState),
        VMSTATE_BOOL(byte_odd_valid, PCMCIACFState),
        VMSTATE_UINT8(byte_latch, PCMCIACFState),
        VMSTATE_IDE_BUS(bus, PCMCIACFState),
        VMSTATE_IDE_DRIVES(bus.ifs, PCMCIACFState),
        VMSTATE_END_OF_LIST()
    }
};

static Property cf_properties[] = {
    DEFINE_PROP_DRIVE("drive", PCMCIACFState, conf.blk),
    DEFINE_PROP_STRING("serial", PCMCIACFState, serial),
    DEFINE_PROP_STRING("model", PCMCIACFState, model),
    DEFINE_PROP_END_OF_LIST(),
};

static void cf_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCMCIACardClass *pcc = PCMCIA_CARD_CLASS(oc);

    pcc->cis = cf_cis;
    pcc->cis_len = sizeof(cf_cis);
    pcc->attr_read = cf_attr_read;
    pcc->attr_write = cf_attr_write;
    pcc->common_read = cf_common_read;
    pcc->common_write = cf_common_write;
    pcc->io_read = cf_io_read;
    pcc->io_write = cf_io_write;

    dc->bus_type = TYPE_PCMCIA_SLOT_BUS;
    dc->desc = "CompactFlash card (PC Card ATA)";
    dc->realize = cf_realize;
    dc->unrealize = cf_unrealize;
    dc->reset = cf_reset;
    dc->vmsd = &vmstate_pcmcia_cf;
    device_class_set_props(dc, cf_properties);
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
}

static const TypeInfo cf_info = {
    .name = TYPE_PCMCIA_CF,
    .parent = TYPE_PCL_CARD,
    .instance_size = sizeof(PCMCIACFState),
    .instance_init = cf_instance_init,
    .class_init = cf_class_init,
};

static void cf_register_types(void)
{
    type_register_static(&cf_info);
}

type_init(cf_register_types)
