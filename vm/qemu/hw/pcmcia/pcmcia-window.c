/*
 * A bridge's card window.  See pcmcia-window.h.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "pcmcia-window.h"
#include "trace.h"

static unsigned win_sock(PCMCIAWindow *w)
{
    return w->slot ? w->slot->index : ~0u;
}

static uint32_t mem_card_addr(PCMCIAWindow *w, hwaddr addr)
{
    return (w->base + addr + w->card_off) & PCMCIA_CARD_SPACE_MASK;
}

static PCMCIASpace mem_space(PCMCIAWindow *w)
{
    return w->attr ? PCMCIA_SPACE_ATTR : PCMCIA_SPACE_COMMON;
}

static uint64_t mem_window_read(void *opaque, hwaddr addr, unsigned size)
{
    PCMCIAWindow *w = opaque;

    if (!w->slot) {
        return size == 1 ? 0xff : 0xffff;
    }
    return pcmcia_slot_read(w->slot, mem_space(w), mem_card_addr(w, addr),
                            size, w->wide);
}

static void mem_window_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    PCMCIAWindow *w = opaque;

    if (!w->slot) {
        return;
    }
    if (w->wp) {
        trace_pcl_window_wp_drop(win_sock(w), w->num, mem_card_addr(w, addr));
        return;
    }
    pcmcia_slot_write(w->slot, mem_space(w), mem_card_addr(w, addr), val,
                      size, w->wide);
}

static uint64_t io_window_read(void *opaque, hwaddr addr, unsigned size)
{
    PCMCIAWindow *w = opaque;

    if (!w->slot) {
        return size == 1 ? 0xff : 0xffff;
    }
    return pcmcia_slot_read(w->slot, PCMCIA_SPACE_IO, w->base + addr, size,
                            w->wide);
}

static void io_window_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    PCMCIAWindow *w = opaque;

    if (w->slot) {
        pcmcia_slot_write(w->slot, PCMCIA_SPACE_IO, w->base + addr, val,
                          size, w->wide);
    }
}

/* Wider accesses reach us as 16-bit pieces; the slot splits the rest. */
static const MemoryRegionOps mem_window_ops = {
    .read = mem_window_read,
    .write = mem_window_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4,
               .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 2,
              .unaligned = true },
};

static const MemoryRegionOps io_window_ops = {
    .read = io_window_read,
    .write = io_window_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4,
               .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 2,
              .unaligned = true },
};

void pcmcia_window_init(PCMCIAWindow *w, Object *owner, const char *name,
                        bool io, unsigned num, MemoryRegion *space)
{
    w->space = space;
    w->num = num;
    w->io = io;
    memory_region_init_io(&w->mr, owner, io ? &io_window_ops : &mem_window_ops,
                          w, name, 1);
    memory_region_set_enabled(&w->mr, false);
    memory_region_add_subregion_overlap(space, 0, &w->mr, 1);
}

void pcmcia_window_exit(PCMCIAWindow *w)
{
    memory_region_del_subregion(w->space, &w->mr);
}

void pcmcia_window_place(PCMCIAWindow *w, bool mapped, uint64_t base,
                         uint64_t size)
{
    if (w->mapped == mapped && (!mapped || (w->base == base &&
                                            w->size == size))) {
        return;
    }
    memory_region_transaction_begin();
    if (mapped) {
        memory_region_set_size(&w->mr, size);
        memory_region_set_address(&w->mr, base);
    }
    memory_region_set_enabled(&w->mr, mapped);
    memory_region_transaction_commit();
    w->mapped = mapped;
    w->base = base;
    w->size = size;
}

void pcmcia_window_invalidate(PCMCIAWindow *w)
{
    w->mapped = !w->mapped;
}
