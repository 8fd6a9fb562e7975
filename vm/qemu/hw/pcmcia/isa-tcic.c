/*
 * Databook TCIC-2 ISA PC Card controller (DB86082A): two sockets behind
 * a register file of its own, unrelated to the 82365SL's ExCA.  Sixteen
 * ports in ISA I/O space (0x240 by default) hold the direct registers:
 *
 *   0x0  DATA   16 bit: the indirect register (or card byte) that ADDR
 *               points at
 *   0x2  ADDR   32 bit: socket select (30:28), indirect register access
 *               (27), card I/O space (26), attribute space (31), offset
 *   0x6  SCTRL  the selected socket's control (access enable, reset)
 *   0x7  SSTAT  the selected socket's status: card detect, ready, ...
 *   0x8  MODE   auxiliary register select (7:5)
 *   0x9  PWR    Vcc/Vpp switches of both sockets
 *   0xc  ICSR   the selected socket's interrupt status, written with
 *               set/clear/jam semantics in bits 1:0
 *   0xd  IENA   the selected socket's interrupt enables and pin mode
 *   0xe  AUX    16 bit: the auxiliary register MODE selects (SYSCFG holds
 *               the status change IRQ, ILOCK the card's RESET, TEST the
 *               diagnostic mode that shows the chip ID in ILOCK)
 *
 * Indirect registers: per socket SCF1 (card IRQ, I/O card mode) and SCF2
 * (status change masks); a pool of eight memory and four I/O windows,
 * each naming the socket it maps to.  Windows decode in ISA memory and
 * I/O space and reach the card through the slot bus (pcmcia-window.c).
 *
 * IRQ fields select ISA lines 3-7, 10 and 14 directly; code 1 is the
 * chip's SKTIRQ pin, which boards wire to IRQ 11 (property "sktirq").
 * Other codes drive nothing.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/isa/isa.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"
#include "pcmcia-slot.h"
#include "pcmcia-window.h"
#include "trace.h"

#define TYPE_ISA_TCIC "isa-tcic"
OBJECT_DECLARE_SIMPLE_TYPE(ISATcicState, ISA_TCIC)

#define TCIC_SOCKETS            2
#define TCIC_PORTS              16
#define TCIC_MEM_WINDOWS        8
#define TCIC_IO_WINDOWS         4
#define TCIC_ISA_IRQS           16
#define TCIC_DIRECT_PINS        0x44f8  /* ISA IRQ 3-7, 10, 14 */

/* Direct registers (port offsets) */
#define R_DATA                  0x0
#define R_ADDR                  0x2
#define R_SCTRL                 0x6
#define R_SSTAT                 0x7
#define R_MODE                  0x8
#define R_PWR                   0x9
#define R_EDC                   0xa
#define R_ICSR                  0xc
#define R_IENA                  0xd
#define R_AUX                   0xe

#define ADDR_ATTR               0x80000000u
#define ADDR_SOCKET(a)          (((a) >> 28) & 7)
#define ADDR_INDIRECT           0x08000000u
#define ADDR_IO                 0x04000000u
#define ADDR_INDIRECT_REG(a)    ((a) & 0xffe)

#define SCTRL_ENA               0x01
#define SCTRL_RESET             0x80
#define SCTRL_WRITABLE          0x39

#define SSTAT_RDY               0x20
#define SSTAT_CD                0x80
#define SSTAT_EVENTS            0xf8    /* bits that SCF2 masks 1:1 */

#define MODE_AUX(m)             ((m) >> 5)

#define PWR_VCC(n)              (0x01 << (n))
#define PWR_VPP(n)              (0x08 << (n))
#define PWR_WRITABLE            0x5b

#define ICSR_CLEAR              0x01
#define ICSR_SET                0x02
#define ICSR_BITS               0xfc
#define IENA_CFG                0x03
#define IENA_CFG_HIGH           0x03
#define IENA_SOURCES            0x78    /* ILOCK, PROGTIME, ERR, CDCHG */
#define ICSR_CDCHG              0x40

enum { AUX_TCTL, AUX_PCTL, AUX_WCTL, AUX_EXTERN, AUX_PDATA, AUX_SYSCFG,
       AUX_ILOCK, AUX_TEST };

#define SYSCFG_IRQ(v)           ((v) & 0x0f)
#define ILOCK_CRESET            0x04
#define ILOCK_CRESENA           0x08
#define TEST_DIAG               0x8000

/* Indirect registers */
#define IR_SCF_END              0x010
#define IR_MWIN                 0x100
#define IR_MWIN_END             (IR_MWIN + 8 * TCIC_MEM_WINDOWS)
#define IR_IWIN                 0x200
#define IR_IWIN_END             (IR_IWIN + 4 * TCIC_IO_WINDOWS)

#define SCF1_IRQ(v)             ((v) & 0x0f)
#define SCF1_IOSTS              0x0800

enum { MW_EXT, MW_BASE, MW_MAP, MW_CTL };
enum { IW_BASE, IW_CTL };
#define MBASE_4K                0x4000
#define MBASE_ADDR              0x0fff
#define MMAP_ATTR               0x8000
#define MMAP_OFFSET             0x3fff
#define WCTL_ENA                0x8000
#define WCTL_SOCKET(v)          (((v) >> 12) & 7)
#define WCTL_B8                 0x0800
#define MCTL_WP                 0x0080
#define ICTL_TINY               0x0200

typedef struct ISATcicState ISATcicState;

typedef struct TcicSocket {
    PCMCIASlotBus slot;
    ISATcicState *chip;
    uint8_t sctrl;
    uint8_t sstat;              /* as last computed, for change events */
    uint8_t icsr;
    uint8_t iena;
    uint16_t wctl;
    uint16_t ilock;
    uint16_t scf1;
    uint16_t scf2;
} TcicSocket;

struct ISATcicState {
    /*< private >*/
    ISADevice parent_obj;
    /*< public >*/

    /* properties */
    uint32_t iobase;
    uint8_t chip_id;
    uint8_t sktirq;

    MemoryRegion io;
    qemu_irq irq[TCIC_ISA_IRQS];
    uint16_t irq_pins;
    uint16_t irq_level;

    uint32_t addr;
    uint8_t mode;
    uint8_t pwr;
    uint16_t edc;
    uint16_t tctl;
    uint16_t pctl;
    uint16_t pdata;
    uint16_t syscfg;
    uint16_t test;
    uint16_t mwin[TCIC_MEM_WINDOWS][4];
    uint16_t iwin[TCIC_IO_WINDOWS][2];
    PCMCIAWindow mem_win[TCIC_MEM_WINDOWS];
    PCMCIAWindow io_win[TCIC_IO_WINDOWS];
    TcicSocket sock[TCIC_SOCKETS];
};

/* --- Interrupts --- */

/* The ISA line an IRQ field value drives, or -1. */
static int irq_pin(ISATcicState *s, unsigned code)
{
    if (code == 1) {
        return s->sktirq;
    }
    return (TCIC_DIRECT_PINS & (1 << code)) ? code : -1;
}

static bool card_present(TcicSocket *so)
{
    return pcmcia_slot_card(&so->slot) != NULL;
}

static bool csc_pending(TcicSocket *so)
{
    return (so->iena & IENA_CFG) == IENA_CFG_HIGH &&
           (so->icsr & so->iena & IENA_SOURCES);
}

static bool card_irq_pending(TcicSocket *so)
{
    return so->slot.ireq && so->slot.live && (so->scf1 & SCF1_IOSTS);
}

/* Sources on one line are ORed; only lines whose level changes are set. */
static void tcic_irq_update(ISATcicState *s)
{
    uint16_t level = 0, changed;
    unsigned n;
    int pin;

    for (n = 0; n < TCIC_SOCKETS; n++) {
        TcicSocket *so = &s->sock[n];

        pin = irq_pin(s, SYSCFG_IRQ(s->syscfg));
        if (csc_pending(so) && pin >= 0) {
            level |= 1 << pin;
        }
        pin = irq_pin(s, SCF1_IRQ(so->scf1));
        if (card_irq_pending(so) && pin >= 0) {
            level |= 1 << pin;
        }
    }
    changed = level ^ s->irq_level;
    s->irq_level = level;
    for (n = 0; n < TCIC_ISA_IRQS; n++) {
        if (changed & (1 << n)) {
            trace_pcl_tcic_irq(s->iobase, n, !!(level & (1 << n)));
            qemu_set_irq(s->irq[n], !!(level & (1 << n)));
        }
    }
}

/* --- Sockets --- */

static bool card_powered(TcicSocket *so)
{
    unsigned n = so->slot.index;

    return card_present(so) &&
           (so->chip->pwr & (PWR_VCC(n) | PWR_VPP(n)));
}

/* Powered, access enabled, RESET driven and released. */
static bool card_live(TcicSocket *so)
{
    return card_powered(so) && (so->sctrl & SCTRL_ENA) &&
           (so->ilock & (ILOCK_CRESENA | ILOCK_CRESET)) == ILOCK_CRESENA;
}

/* Battery and write protect read as good and off: no card has them. */
static uint8_t sstat_now(TcicSocket *so)
{
    uint8_t val = 0;

    if (card_present(so)) {
        val |= SSTAT_CD;
    }
    if (card_live(so) && pcmcia_slot_card_ready(&so->slot)) {
        val |= SSTAT_RDY;
    }
    return val;
}

/*
 * Re-evaluate the card's power and RESET, and latch a status change for
 * every status bit that moved and that SCF2 does not mask.
 */
static void socket_update(TcicSocket *so)
{
    uint8_t sstat = sstat_now(so);
    uint8_t changed = (sstat ^ so->sstat) & SSTAT_EVENTS & ~so->scf2;

    trace_pcl_tcic_socket(so->slot.index, card_present(so),
                          card_powered(so), card_live(so), sstat);
    pcmcia_slot_set_live(&so->slot, card_live(so));
    so->sstat = sstat;
    if (changed) {
        so->icsr |= ICSR_CDCHG;
        trace_pcl_tcic_csc(so->slot.index, changed, so->icsr);
    }
    tcic_irq_update(so->chip);
}

static void sockets_update(ISATcicState *s)
{
    unsigned n;

    for (n = 0; n < TCIC_SOCKETS; n++) {
        socket_update(&s->sock[n]);
    }
}

static TcicSocket *selected_socket(ISATcicState *s)
{
    unsigned n = ADDR_SOCKET(s->addr);

    return n < TCIC_SOCKETS ? &s->sock[n] : NULL;
}

/* --- Windows --- */

static PCMCIASlotBus *window_slot(ISATcicState *s, uint16_t ctl)
{
    unsigned n = WCTL_SOCKET(ctl);

    return n < TCIC_SOCKETS ? &s->sock[n].slot : NULL;
}

/*
 * Base registers hold the start and, in their lowest set bit, half the
 * size (windows are aligned to their size); MBASE_4K and ICTL_TINY mark
 * the smallest windows, whose base is the whole field.
 */
static void mem_window_update(ISATcicState *s, unsigned n)
{
    PCMCIAWindow *w = &s->mem_win[n];
    uint16_t base = s->mwin[n][MW_BASE] & MBASE_ADDR;
    uint16_t map = s->mwin[n][MW_MAP];
    uint16_t ctl = s->mwin[n][MW_CTL];
    bool on = (ctl & WCTL_ENA) && window_slot(s, ctl);
    uint64_t start, size;

    if (s->mwin[n][MW_BASE] & MBASE_4K) {
        start = (uint64_t)base << 12;
        size = 0x1000;
    } else {
        uint16_t half = base & -base;

        on = on && half;
        start = (uint64_t)(base & ~half) << 12;
        size = (uint64_t)half << 13;
    }
    w->slot = window_slot(s, ctl);
    w->wide = !(ctl & WCTL_B8);
    w->attr = map & MMAP_ATTR;
    w->wp = ctl & MCTL_WP;
    w->card_off = ((uint32_t)(map & MMAP_OFFSET) << 12) &
                  PCMCIA_CARD_SPACE_MASK;
    trace_pcl_tcic_mem_window(n, WCTL_SOCKET(ctl), on, start, size,
                              (uint32_t)((start + w->card_off) &
                                         PCMCIA_CARD_SPACE_MASK),
                              w->attr, w->wide);
    pcmcia_window_place(w, on, start, size);
}

static void io_window_update(ISATcicState *s, unsigned n)
{
    PCMCIAWindow *w = &s->io_win[n];
    uint16_t base = s->iwin[n][IW_BASE];
    uint16_t ctl = s->iwin[n][IW_CTL];
    bool on = (ctl & WCTL_ENA) && window_slot(s, ctl);
    uint32_t start, size;

    if (ctl & ICTL_TINY) {
        start = base;
        size = 1;
    } else {
        uint16_t half = base & -base;

        on = on && half;
        start = base & ~half;
        size = (uint32_t)half << 1;
    }
    w->slot = window_slot(s, ctl);
    /*
     * 8-bit only when forced: dynamic sizing follows IOIS16#, which our
     * cards assert
     */
    w->wide = (ctl & (WCTL_B8 | 0x0400)) != WCTL_B8;
    trace_pcl_tcic_io_window(n, WCTL_SOCKET(ctl), on, start, size, w->wide);
    pcmcia_window_place(w, on, start, size);
}

static void windows_update(ISATcicState *s)
{
    unsigned n;

    for (n = 0; n < TCIC_MEM_WINDOWS; n++) {
        mem_window_update(s, n);
    }
    for (n = 0; n < TCIC_IO_WINDOWS; n++) {
        io_window_update(s, n);
    }
}

/* --- Indirect registers (16 bit, at even addresses) --- */

static uint16_t *indirect_reg(ISATcicState *s, unsigned reg)
{
    if (reg < IR_SCF_END) {
        TcicSocket *so = &s->sock[reg >> 3];

        switch (reg & 7) {
        case 0:
            return &so->scf1;
        case 2:
            return &so->scf2;
        }
        return NULL;
    }
    if (reg >= IR_MWIN && reg < IR_MWIN_END) {
        return &s->mwin[(reg - IR_MWIN) >> 3][(reg >> 1) & 3];
    }
    if (reg >= IR_IWIN && reg < IR_IWIN_END) {
        return &s->iwin[(reg - IR_IWIN) >> 2][(reg >> 1) & 1];
    }
    return NULL;
}

static void indirect_changed(ISATcicState *s, unsigned reg)
{
    if (reg < IR_SCF_END) {
        /* a status bit unmasked now reports its next change */
        tcic_irq_update(s);
    } else if (reg < IR_MWIN_END) {
        mem_window_update(s, (reg - IR_MWIN) >> 3);
    } else {
        io_window_update(s, (reg - IR_IWIN) >> 2);
    }
}

/* --- Card access through DATA (ADDR without the indirect bit) --- */

static PCMCIASpace data_space(ISATcicState *s)
{
    if (s->addr & ADDR_IO) {
        return PCMCIA_SPACE_IO;
    }
    return (s->addr & ADDR_ATTR) ? PCMCIA_SPACE_ATTR : PCMCIA_SPACE_COMMON;
}

static uint32_t data_card_addr(ISATcicState *s, unsigned byte)
{
    return ((s->addr & PCMCIA_CARD_SPACE_MASK) + byte) &
           PCMCIA_CARD_SPACE_MASK;
}

/* --- Auxiliary registers --- */

static uint16_t *aux_reg(ISATcicState *s, TcicSocket *so)
{
    switch (MODE_AUX(s->mode)) {
    case AUX_TCTL:
        return &s->tctl;
    case AUX_PCTL:
        return &s->pctl;
    case AUX_WCTL:
        return so ? &so->wctl : NULL;
    case AUX_PDATA:
        return &s->pdata;
    case AUX_SYSCFG:
        return &s->syscfg;
    case AUX_ILOCK:
        return so ? &so->ilock : NULL;
    case AUX_TEST:
        return &s->test;
    }
    return NULL;                /* EXTERN: nothing behind it here */
}

static uint16_t aux_read(ISATcicState *s, TcicSocket *so)
{
    uint16_t *r = aux_reg(s, so);
    uint16_t val = r ? *r : 0xffff;

    /* in diagnostic mode ILOCK's high byte is the silicon's ID */
    if (r && MODE_AUX(s->mode) == AUX_ILOCK) {
        val &= 0x00ff;
        if (s->test & TEST_DIAG) {
            val |= (uint16_t)(s->chip_id & 0x7f) << 8;
        }
    }
    return val;
}

static void aux_written(ISATcicState *s, TcicSocket *so)
{
    switch (MODE_AUX(s->mode)) {
    case AUX_SYSCFG:
        tcic_irq_update(s);
        break;
    case AUX_ILOCK:
        socket_update(so);
        break;
    }
}

/* --- Direct registers --- */

static uint8_t byte_of(uint32_t val, unsigned byte)
{
    return val >> (8 * byte);
}

static void set_byte16(uint16_t *r, unsigned byte, uint8_t val)
{
    *r = (*r & ~(0xff << (8 * byte))) | (uint16_t)val << (8 * byte);
}

static uint64_t tcic_io_read(void *opaque, hwaddr port, unsigned size)
{
    ISATcicState *s = opaque;
    TcicSocket *so = selected_socket(s);
    unsigned byte = port & 1;
    uint8_t val = 0xff;
    uint16_t *r;

    switch (port) {
    case R_DATA:
    case R_DATA + 1:
        if (s->addr & ADDR_INDIRECT) {
            r = indirect_reg(s, ADDR_INDIRECT_REG(s->addr));
            val = r ? byte_of(*r, byte) : 0xff;
        } else if (so) {
            val = pcmcia_slot_read(&so->slot, data_space(s),
                                   data_card_addr(s, byte), 1, false);
        }
        break;
    case R_ADDR ... R_ADDR + 3:
        val = byte_of(s->addr, port - R_ADDR);
        break;
    case R_SCTRL:
        val = so ? so->sctrl : 0xff;
        break;
    case R_SSTAT:
        val = so ? so->sstat : 0xff;
        break;
    case R_MODE:
        val = s->mode;
        break;
    case R_PWR:
        val = s->pwr;
        break;
    case R_EDC:
    case R_EDC + 1:
        val = byte_of(s->edc, byte);
        break;
    case R_ICSR:
        val = so ? so->icsr : 0xff;
        break;
    case R_IENA:
        val = so ? so->iena : 0xff;
        break;
    case R_AUX:
    case R_AUX + 1:
        val = byte_of(aux_read(s, so), byte);
        break;
    }
    trace_pcl_tcic_read(s->iobase, port, val);
    return val;
}

static void icsr_write(TcicSocket *so, uint8_t val)
{
    switch (val & (ICSR_SET | ICSR_CLEAR)) {
    case ICSR_SET:
        so->icsr |= val & ICSR_BITS;
        break;
    case ICSR_CLEAR:
        /* bits written as 0 are cleared */
        so->icsr &= val & ICSR_BITS;
        break;
    case ICSR_SET | ICSR_CLEAR:
        so->icsr = val & ICSR_BITS;
        break;
    }
}

static void tcic_chip_reset(ISATcicState *s);

static void tcic_io_write(void *opaque, hwaddr port, uint64_t val64,
                          unsigned size)
{
    ISATcicState *s = opaque;
    TcicSocket *so = selected_socket(s);
    unsigned byte = port & 1;
    uint8_t val = val64;
    unsigned reg;
    uint16_t *r;

    trace_pcl_tcic_write(s->iobase, port, val);
    switch (port) {
    case R_DATA:
    case R_DATA + 1:
        if (s->addr & ADDR_INDIRECT) {
            reg = ADDR_INDIRECT_REG(s->addr);
            r = indirect_reg(s, reg);
            if (r) {
                set_byte16(r, byte, val);
                indirect_changed(s, reg);
            }
        } else if (so) {
            pcmcia_slot_write(&so->slot, data_space(s),
                              data_card_addr(s, byte), val, 1, false);
        }
        break;
    case R_ADDR ... R_ADDR + 3:
        reg = 8 * (port - R_ADDR);
        s->addr = (s->addr & ~(0xffu << reg)) | (uint32_t)val << reg;
        break;
    case R_SCTRL:
        if (val & SCTRL_RESET) {
            tcic_chip_reset(s);
        } else if (so) {
            so->sctrl = val & SCTRL_WRITABLE;
            socket_update(so);
        }
        break;
    case R_MODE:
        s->mode = val;
        break;
    case R_PWR:
        s->pwr = val & PWR_WRITABLE;
        sockets_update(s);
        break;
    case R_EDC:
    case R_EDC + 1:
        set_byte16(&s->edc, byte, val);
        break;
    case R_ICSR:
        if (so) {
            icsr_write(so, val);
            tcic_irq_update(s);
        }
        break;
    case R_IENA:
        if (so) {
            so->iena = val;
            tcic_irq_update(s);
        }
        break;
    case R_AUX:
    case R_AUX + 1:
        r = aux_reg(s, so);
        if (r) {
            set_byte16(r, byte, val);
            aux_written(s, so);
        }
        break;
    }
}

/* 16- and 32-bit accesses arrive as bytes, lowest address first. */
static const MemoryRegionOps tcic_io_ops = {
    .read = tcic_io_read,
    .write = tcic_io_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 1 },
};

/* --- Slot events --- */

static void tcic_card_changed(void *opaque)
{
    socket_update(opaque);
}

static void tcic_ireq_changed(void *opaque, bool level)
{
    TcicSocket *so = opaque;

    tcic_irq_update(so->chip);
}

static const PCMCIASlotOps tcic_slot_ops = {
    .card_changed = tcic_card_changed,
    .ireq_changed = tcic_ireq_changed,
};

/* --- Life cycle --- */

/* Power-on state (also SCTRL's software reset); cards stay inserted. */
static void tcic_chip_reset(ISATcicState *s)
{
    unsigned n;

    s->addr = 0;
    s->mode = 0;
    s->pwr = 0;
    s->edc = 0;
    s->tctl = s->pctl = s->pdata = s->syscfg = s->test = 0;
    memset(s->mwin, 0, sizeof(s->mwin));
    memset(s->iwin, 0, sizeof(s->iwin));
    for (n = 0; n < TCIC_SOCKETS; n++) {
        TcicSocket *so = &s->sock[n];

        so->sctrl = so->icsr = so->iena = 0;
        so->wctl = so->ilock = so->scf1 = so->scf2 = 0;
        so->sstat = sstat_now(so);
    }
    windows_update(s);
    sockets_update(s);
}

static void tcic_realize(DeviceState *dev, Error **errp)
{
    ISATcicState *s = ISA_TCIC(dev);
    ISADevice *isa = ISA_DEVICE(dev);
    unsigned n;

    if (s->iobase > 0xffff - (TCIC_PORTS - 1)) {
        error_setg(errp, "isa-tcic: iobase 0x%x is out of range", s->iobase);
        return;
    }
    if (s->sktirq < 2 || s->sktirq >= TCIC_ISA_IRQS) {
        error_setg(errp, "isa-tcic: sktirq %u is not an ISA IRQ line",
                   s->sktirq);
        return;
    }
    s->irq_pins = TCIC_DIRECT_PINS | 1 << s->sktirq;
    for (n = 0; n < TCIC_ISA_IRQS; n++) {
        if (s->irq_pins & (1 << n)) {
            s->irq[n] = isa_get_irq(isa, n);
        }
    }

    memory_region_init_io(&s->io, OBJECT(s), &tcic_io_ops, s, "isa-tcic",
                          TCIC_PORTS);
    isa_register_ioport(isa, &s->io, s->iobase);

    for (n = 0; n < TCIC_SOCKETS; n++) {
        s->sock[n].chip = s;
        pcmcia_slot_bus_init(&s->sock[n].slot, sizeof(s->sock[n].slot), dev,
                             n, &tcic_slot_ops, &s->sock[n]);
    }
    for (n = 0; n < TCIC_MEM_WINDOWS; n++) {
        g_autofree char *name = g_strdup_printf("tcic-mem%u", n);

        pcmcia_window_init(&s->mem_win[n], OBJECT(s), name, false, n,
                           isa_address_space(isa));
    }
    for (n = 0; n < TCIC_IO_WINDOWS; n++) {
        g_autofree char *name = g_strdup_printf("tcic-io%u", n);

        pcmcia_window_init(&s->io_win[n], OBJECT(s), name, true, n,
                           isa_address_space_io(isa));
    }
}

static void tcic_unrealize(DeviceState *dev)
{
    ISATcicState *s = ISA_TCIC(dev);
    unsigned n;

    for (n = 0; n < TCIC_MEM_WINDOWS; n++) {
        pcmcia_window_exit(&s->mem_win[n]);
    }
    for (n = 0; n < TCIC_IO_WINDOWS; n++) {
        pcmcia_window_exit(&s->io_win[n]);
    }
}

static void tcic_reset(DeviceState *dev)
{
    tcic_chip_reset(ISA_TCIC(dev));
}

static int tcic_post_load(void *opaque, int version_id)
{
    ISATcicState *s = opaque;
    unsigned n;

    for (n = 0; n < TCIC_MEM_WINDOWS; n++) {
        pcmcia_window_invalidate(&s->mem_win[n]);
    }
    for (n = 0; n < TCIC_IO_WINDOWS; n++) {
        pcmcia_window_invalidate(&s->io_win[n]);
    }
    windows_update(s);
    /* the cards migrated in their own state: no reset edge here */
    for (n = 0; n < TCIC_SOCKETS; n++) {
        s->sock[n].slot.live = card_live(&s->sock[n]);
    }
    tcic_irq_update(s);
    return 0;
}

static const VMStateDescription vmstate_tcic_socket = {
    .name = "isa-tcic-socket",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(sctrl, TcicSocket),
        VMSTATE_UINT8(sstat, TcicSocket),
        VMSTATE_UINT8(icsr, TcicSocket),
        VMSTATE_UINT8(iena, TcicSocket),
        VMSTATE_UINT16(wctl, TcicSocket),
        VMSTATE_UINT16(ilock, TcicSocket),
        VMSTATE_UINT16(scf1, TcicSocket),
        VMSTATE_UINT16(scf2, TcicSocket),
        VMSTATE_BOOL(slot.ireq, TcicSocket),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_isa_tcic = {
    .name = "isa-tcic",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = tcic_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT16(irq_level, ISATcicState),
        VMSTATE_UINT32(addr, ISATcicState),
        VMSTATE_UINT8(mode, ISATcicState),
        VMSTATE_UINT8(pwr, ISATcicState),
        VMSTATE_UINT16(edc, ISATcicState),
        VMSTATE_UINT16(tctl, ISATcicState),
        VMSTATE_UINT16(pctl, ISATcicState),
        VMSTATE_UINT16(pdata, ISATcicState),
        VMSTATE_UINT16(syscfg, ISATcicState),
        VMSTATE_UINT16(test, ISATcicState),
        VMSTATE_UINT16_2DARRAY(mwin, ISATcicState, TCIC_MEM_WINDOWS, 4),
        VMSTATE_UINT16_2DARRAY(iwin, ISATcicState, TCIC_IO_WINDOWS, 2),
        VMSTATE_STRUCT_ARRAY(sock, ISATcicState, TCIC_SOCKETS, 1,
                             vmstate_tcic_socket, TcicSocket),
        VMSTATE_END_OF_LIST()
    }
};

static Property tcic_properties[] = {
    DEFINE_PROP_UINT32("iobase", ISATcicState, iobase, 0x240),
    /* DB86082A; 0x02 DB86082, 0x17 DB86082B, 0x04/0x08 DB86084(A) */
    DEFINE_PROP_UINT8("chip-id", ISATcicState, chip_id, 0x03),
    DEFINE_PROP_UINT8("sktirq", ISATcicState, sktirq, 11),
    DEFINE_PROP_END_OF_LIST(),
};

static void tcic_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = tcic_realize;
    dc->unrealize = tcic_unrealize;
    dc->reset = tcic_reset;
    dc->vmsd = &vmstate_isa_tcic;
    dc->desc = "Databook TCIC-2 ISA PC Card controller (two sockets)";
    device_class_set_props(dc, tcic_properties);
    set_bit(DEVICE_CATEGORY_BRIDGE, dc->categories);
}

static const TypeInfo tcic_info = {
    .name = TYPE_ISA_TCIC,
    .parent = TYPE_ISA_DEVICE,
    .instance_size = sizeof(ISATcicState),
    .class_init = tcic_class_init,
};

static void tcic_register_types(void)
{
    type_register_static(&tcic_info);
}

type_init(tcic_register_types)
