/*
 * A bridge's card window: a range of host memory or I/O space that the
 * bridge forwards, one card bus cycle per access, to the socket it
 * points at.  The ExCA core and the TCIC-2 decode their registers
 * differently but forward the same way, through these.
 *
 * The owner decodes its registers into the public fields (slot, wide,
 * attr, wp, card_off) and then places the window with
 * pcmcia_window_place().  I/O windows pass the host port unchanged; a
 * memory window adds card_off to the host address, modulo the card's
 * 64 MB.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_PCMCIA_WINDOW_H
#define HW_PCMCIA_PCMCIA_WINDOW_H

#include "exec/memory.h"
#include "pcmcia-slot.h"

#define PCMCIA_CARD_SPACE_MASK 0x3ffffff    /* card address lines A25..A0 */

typedef struct PCMCIAWindow {
    MemoryRegion mr;
    MemoryRegion *space;
    unsigned num;               /* for traces */
    bool io;

    /* decoded by the owner */
    PCMCIASlotBus *slot;        /* where cycles go; NULL: nowhere */
    bool wide;                  /* 16-bit cycles */
    bool attr;                  /* memory: attribute space */
    bool wp;                    /* memory: writes are dropped */
    uint32_t card_off;          /* memory: card address = host + card_off */

    /* where the window is placed now */
    bool mapped;
    uint64_t base;
    uint64_t size;
} PCMCIAWindow;

/* Add the window, disabled, to @space (ISA or PCI memory or I/O). */
void pcmcia_window_init(PCMCIAWindow *w, Object *owner, const char *name,
                        bool io, unsigned num, MemoryRegion *space);
void pcmcia_window_exit(PCMCIAWindow *w);
/* Map it at @base, @size bytes long, or unmap it. */
void pcmcia_window_place(PCMCIAWindow *w, bool mapped, uint64_t base,
                         uint64_t size);
/* After migration: the next pcmcia_window_place() maps it again. */
void pcmcia_window_invalidate(PCMCIAWindow *w);

#endif
