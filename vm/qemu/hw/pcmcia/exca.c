/*
 * ExCA (Intel 82365SL compatible) socket register file, shared by the
 * PC Card bridge models.  See exca.h.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "exca.h"
#include "trace.h"

static unsigned sock_num(ExcaSocket *s)
{
    return s->slot.index;
}

/* --- Socket state as the card and the host see it --- */

static bool card_present(ExcaSocket *s)
{
    return pcmcia_slot_card(&s->slot) != NULL;
}

/* Power-on status follows the Vcc bits (output enable does not matter). */
static bool card_powered(ExcaSocket *s)
{
    return card_present(s) && (s->regs[EXCA_POWER] & EXCA_POWER_VCC_ON);
}

static bool card_in_reset(ExcaSocket *s)
{
    return !(s->regs[EXCA_INTCTL] & EXCA_INTCTL_NORESET);
}

static bool card_out_of_reset(ExcaSocket *s)
{
    return card_powered(s) && !card_in_reset(s);
}

/* READY: at once out of RESET, unless the card is made never ready. */
static bool card_ready(ExcaSocket *s)
{
    return card_out_of_reset(s) && pcmcia_slot_card_ready(&s->slot);
}

/* The card sees cycles: powered, signals driven, out of RESET. */
static bool card_live(ExcaSocket *s)
{
    return card_out_of_reset(s) && (s->regs[EXCA_POWER] & EXCA_POWER_OUTPUT);
}

static uint8_t status_reg(ExcaSocket *s)
{
    uint8_t val = 0;

    if (card_present(s)) {
        val |= EXCA_STATUS_CD;
    }
    if (card_powered(s)) {
        /* battery good (memory cards) / STSCHG# inactive (I/O cards) */
        val |= EXCA_STATUS_POWERON | EXCA_STATUS_BVD1 | EXCA_STATUS_BVD2;
    }
    if (card_ready(s)) {
        val |= EXCA_STATUS_READY;
    }
    return val;
}

bool exca_csc_irq(ExcaSocket *s)
{
    return s->csc & s->regs[EXCA_CSCINT] & EXCA_CSC_EVENTS;
}

bool exca_card_irq(ExcaSocket *s)
{
    return s->slot.ireq && (s->regs[EXCA_INTCTL] & EXCA_INTCTL_IOCARD) &&
           card_live(s);
}

static void irq_update(ExcaSocket *s)
{
    s->irq_update(s->opaque);
}

/* Changes latch only while their interrupt is enabled in CSCINT. */
static void csc_event(ExcaSocket *s, uint8_t events)
{
    s->csc |= events & s->regs[EXCA_CSCINT] & EXCA_CSC_EVENTS;
    trace_pcl_exca_csc(sock_num(s), events, s->csc);
    irq_update(s);
}

/* Re-evaluate power, RESET and READY after any change to them. */
static void socket_update(ExcaSocket *s)
{
    bool ready = card_ready(s);

    trace_pcl_exca_power(sock_num(s), card_present(s),
                         !!(s->regs[EXCA_POWER] & EXCA_POWER_VCC_ON),
                         !!(s->regs[EXCA_POWER] & EXCA_POWER_OUTPUT),
                         card_in_reset(s), card_live(s));
    pcmcia_slot_set_live(&s->slot, card_live(s));
    if (ready && !s->ready) {
        s->ready = true;
        csc_event(s, EXCA_CSC_READY);
    }
    s->ready = ready;
    irq_update(s);
}

/* --- Windows --- */

static void io_window_update(ExcaSocket *s, unsigned n)
{
    PCMCIAWindow *w = &s->io_win[n];
    const uint8_t *r = &s->regs[EXCA_IO_BASE(n)];
    uint32_t start = r[0] | r[1] << 8;
    uint32_t last = r[2] | r[3] << 8;
    bool on = (s->regs[EXCA_WINEN] & (0x40 << n)) && last >= start;

    /* data size bit or "IOCS16# from the card": our cards assert it */
    w->wide = (s->regs[EXCA_IOCTL] >> (4 * n)) & 0x03;
    trace_pcl_exca_io_window(sock_num(s), n, on, start, last, w->wide);
    pcmcia_window_place(w, on, start, (uint64_t)last - start + 1);
}

static void mem_window_update(ExcaSocket *s, unsigned n)
{
    PCMCIAWindow *w = &s->mem_win[n];
    const uint8_t *r = &s->regs[EXCA_MEM_BASE(n)];
    uint64_t page = s->page_regs ? (uint64_t)s->page[n] << 24 : 0;
    uint64_t start = page | (uint64_t)(r[0] | (r[1] & 0x0f) << 8) << 12;
    uint64_t last = page | (uint64_t)(r[2] | (r[3] & 0x0f) << 8) << 12 | 0xfff;
    bool on = (s->regs[EXCA_WINEN] & (1 << n)) && last >= start;

    w->wide = r[1] & 0x80;
    w->attr = r[5] & 0x40;
    w->wp = r[5] & 0x80;
    /* 14-bit two's complement offset in 4 KB units, modulo 64 MB */
    w->card_off = ((r[4] | (r[5] & 0x3f) << 8) << 12) &
                  PCMCIA_CARD_SPACE_MASK;
    trace_pcl_exca_mem_window(sock_num(s), n, on, start, last,
                              (uint32_t)((start + w->card_off) &
                                         PCMCIA_CARD_SPACE_MASK),
                              w->attr, w->wide);
    pcmcia_window_place(w, on, start, last - start + 1);
}

static void windows_update(ExcaSocket *s)
{
    unsigned n;

    for (n = 0; n < EXCA_IO_WINDOWS; n++) {
        io_window_update(s, n);
    }
    for (n = 0; n < EXCA_MEM_WINDOWS; n++) {
        mem_window_update(s, n);
    }
}

/* --- Registers --- */

uint8_t exca_read(ExcaSocket *s, uint8_t reg)
{
    uint8_t val;

    switch (reg) {
    case EXCA_IDENT:
        val = s->ident;
        break;
    case EXCA_STATUS:
        val = status_reg(s);
        break;
    case EXCA_CSC:
        val = s->csc;
        if (!(s->regs[EXCA_GBLCTL] & EXCA_GBLCTL_WRBACK) && val) {
            s->csc = 0;
            irq_update(s);
        }
        break;
    default:
        if (reg < EXCA_REGS) {
            val = s->regs[reg];
        } else if (s->page_regs && reg < EXCA_PAGE(EXCA_MEM_WINDOWS)) {
            val = s->page[reg - EXCA_PAGE(0)];
        } else {
            val = 0xff;
        }
        break;
    }
    trace_pcl_exca_read(sock_num(s), reg, val);
    return val;
}

void exca_write(ExcaSocket *s, uint8_t reg, uint8_t val)
{
    trace_pcl_exca_write(sock_num(s), reg, val);
    switch (reg) {
    case EXCA_IDENT:
    case EXCA_STATUS:
        return;
    case EXCA_CSC:
        if (s->regs[EXCA_GBLCTL] & EXCA_GBLCTL_WRBACK) {
            s->csc &= ~val;
            irq_update(s);
        }
        return;
    case EXCA_POWER:
        if (!s->vcc_3v) {
            val &= ~EXCA_POWER_VCC_3V;
        }
        s->regs[reg] = val;
        socket_update(s);
        return;
    case EXCA_INTCTL:
        s->regs[reg] = val;
        socket_update(s);
        return;
    case EXCA_CSCINT:
    case EXCA_GBLCTL:
        s->regs[reg] = val;
        irq_update(s);
        return;
    case EXCA_WINEN:
    case EXCA_IOCTL:
        s->regs[reg] = val;
        windows_update(s);
        return;
    case EXCA_GENCTL:
        /* the software card detect bit fires once per write, never sticks */
        s->regs[reg] = val & ~EXCA_GENCTL_SW_CD;
        if (val & EXCA_GENCTL_SW_CD) {
            csc_event(s, EXCA_CSC_DETECT);
        }
        return;
    }

    if (reg >= EXCA_IO_BASE(0) && reg < EXCA_MEM_BASE(0)) {
        s->regs[reg] = val;
        io_window_update(s, (reg - EXCA_IO_BASE(0)) / 4);
    } else if (reg >= EXCA_MEM_BASE(0) && reg < EXCA_REGS) {
        s->regs[reg] = val;
        /* bytes 6 and 7 of each window's group are other registers */
        if ((reg - EXCA_MEM_BASE(0)) % 8 < 6 &&
            (reg - EXCA_MEM_BASE(0)) / 8 < EXCA_MEM_WINDOWS) {
            mem_window_update(s, (reg - EXCA_MEM_BASE(0)) / 8);
        }
    } else if (s->page_regs && reg >= EXCA_PAGE(0) &&
               reg < EXCA_PAGE(EXCA_MEM_WINDOWS)) {
        s->page[reg - EXCA_PAGE(0)] = val;
        mem_window_update(s, reg - EXCA_PAGE(0));
    } else if (reg < EXCA_REGS) {
        s->regs[reg] = val;
    }
}

/* --- Slot events --- */

static void exca_card_changed(void *opaque)
{
    ExcaSocket *s = opaque;

    csc_event(s, EXCA_CSC_DETECT);
    socket_update(s);
    if (s->card_changed) {
        s->card_changed(s->opaque);
    }
}

static void exca_ireq_changed(void *opaque, bool level)
{
    ExcaSocket *s = opaque;

    irq_update(s);
}

static bool exca_occupied(void *opaque)
{
    ExcaSocket *s = opaque;

    return s->occupied && s->occupied(s->opaque);
}

static const PCMCIASlotOps exca_slot_ops = {
    .card_changed = exca_card_changed,
    .ireq_changed = exca_ireq_changed,
    .occupied = exca_occupied,
};

/* --- Life cycle --- */

static void window_init(ExcaSocket *s, PCMCIAWindow *w, DeviceState *bridge,
                        unsigned num, bool io, MemoryRegion *space)
{
    g_autofree char *name = g_strdup_printf("pcmcia-socket%u-%s%u",
                                            sock_num(s), io ? "io" : "mem",
                                            num);

    pcmcia_window_init(w, OBJECT(bridge), name, io, num, space);
    w->slot = &s->slot;
}

void exca_socket_init(ExcaSocket *s, DeviceState *bridge, unsigned index,
                      MemoryRegion *mem_space, MemoryRegion *io_space,
                      void (*irq_update)(void *opaque), void *opaque)
{
    unsigned n;

    pcmcia_slot_bus_init(&s->slot, sizeof(s->slot), bridge, index,
                         &exca_slot_ops, s);
    s->irq_update = irq_update;
    s->opaque = opaque;
    for (n = 0; n < EXCA_IO_WINDOWS; n++) {
        window_init(s, &s->io_win[n], bridge, n, true, io_space);
    }
    for (n = 0; n < EXCA_MEM_WINDOWS; n++) {
        window_init(s, &s->mem_win[n], bridge, n, false, mem_space);
    }
}

void exca_socket_exit(ExcaSocket *s)
{
    unsigned n;

    for (n = 0; n < EXCA_IO_WINDOWS; n++) {
        pcmcia_window_exit(&s->io_win[n]);
    }
    for (n = 0; n < EXCA_MEM_WINDOWS; n++) {
        pcmcia_window_exit(&s->mem_win[n]);
    }
}

void exca_socket_reset(ExcaSocket *s)
{
    memset(s->regs, 0, sizeof(s->regs));
    memset(s->page, 0, sizeof(s->page));
    s->csc = 0;
    s->ready = false;
    windows_update(s);
    socket_update(s);
}

void exca_socket_post_load(ExcaSocket *s)
{
    unsigned n;

    /* force the windows to be placed again */
    for (n = 0; n < EXCA_IO_WINDOWS; n++) {
        pcmcia_window_invalidate(&s->io_win[n]);
        io_window_update(s, n);
    }
    for (n = 0; n < EXCA_MEM_WINDOWS; n++) {
        pcmcia_window_invalidate(&s->mem_win[n]);
        mem_window_update(s, n);
    }
    /* the card migrated in its own state: no reset edge here */
    s->slot.live = card_live(s);
}

const VMStateDescription vmstate_exca_socket = {
    .name = "pcl-exca-socket",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8_ARRAY(regs, ExcaSocket, EXCA_REGS),
        VMSTATE_UINT8_ARRAY(page, ExcaSocket, EXCA_MEM_WINDOWS),
        VMSTATE_UINT8(csc, ExcaSocket),
        VMSTATE_BOOL(ready, ExcaSocket),
        VMSTATE_BOOL(slot.ireq, ExcaSocket),
        VMSTATE_END_OF_LIST()
    }
};
