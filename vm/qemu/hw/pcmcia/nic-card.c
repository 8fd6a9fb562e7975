/*
 * Ethernet PC Cards: the CIS, the wire timing and the life cycle every
 * card model shares.
 * See nic-card.h.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "hw/pcmcia.h"
#include "hw/qdev-core.h"
#include "nic-card.h"
#include "trace.h"

/* Per frame on the wire besides the data: FCS, preamble+SFD, gap */
#define WIRE_OVERHEAD           (4 + 8 + 12)
#define WIRE_MIN_FRAME          60

/* --- CIS --- */

typedef struct CISWriter {
    uint8_t *buf;
    int size;
    int len;
} CISWriter;

static void cis_tuple(CISWriter *w, uint8_t code, const void *data, int len)
{
    assert(w->len + 2 + len <= w->size);
    w->buf[w->len++] = code;
    w->buf[w->len++] = len;
    memcpy(w->buf + w->len, data, len);
    w->len += len;
}

int nic_card_build_cis(uint8_t *cis, int size, const NICCardIdentity *id,
                       const uint8_t *mac)
{
    static const uint8_t device[] = { 0x00, 0x00, 0xff };
    static const uint8_t funcid[] = { 0x06, 0x00 };
    CISWriter w = { .buf = cis, .size = size };
    uint8_t buf[128];
    int len = 0, i;

    cis_tuple(&w, CISTPL_DEVICE, device, sizeof(device));

    buf[len++] = 0x04;          /* PC Card standard 4.1 */
    buf[len++] = 0x01;
    for (i = 0; i < ARRAY_SIZE(id->vers1) && id->vers1[i]; i++) {
        int n = strlen(id->vers1[i]) + 1;

        assert(len + n < sizeof(buf));
        memcpy(buf + len, id->vers1[i], n);
        len += n;
    }
    buf[len++] = 0xff;
    cis_tuple(&w, CISTPL_VERS_1, buf, len);

    if (!id->no_manfid) {
        stw_le_p(buf, id->manfid[0]);
        stw_le_p(buf + 2, id->manfid[1]);
        cis_tuple(&w, CISTPL_MANFID, buf, 4);
    }
    cis_tuple(&w, CISTPL_FUNCID, funcid, sizeof(funcid));

    if (id->node_tuple) {
        cis_tuple(&w, id->node_tuple, mac, 6);
    } else if (!id->no_node_id) {
        buf[0] = 0x04;          /* LAN node ID */
        buf[1] = 6;
        memcpy(buf + 2, mac, 6);
        cis_tuple(&w, CISTPL_FUNCE, buf, 8);
    }

    assert(w.len + id->config_tuples_len + 3 <= size);
    memcpy(cis + w.len, id->config_tuples, id->config_tuples_len);
    w.len += id->config_tuples_len;
    cis_tuple(&w, CISTPL_NO_LINK, NULL, 0);
    cis[w.len++] = CISTPL_END;
    return w.len;
}

/* --- Wire timing --- */

int64_t nic_wire_frame_ns(const NICWire *w, size_t len)
{
    uint64_t bits = (MAX(len, WIRE_MIN_FRAME) + WIRE_OVERHEAD) * 8;

    return muldiv64(bits, NANOSECONDS_PER_SECOND, w->rate);
}

static void nic_wire_rx_timer(void *opaque)
{
    NICWire *w = opaque;

    if (w->nic) {
        qemu_flush_queued_packets(qemu_get_queue(w->nic));
    }
}

void nic_wire_init(NICWire *w)
{
    w->rx_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, nic_wire_rx_timer, w);
    w->tx_free = w->rx_free = 0;
    w->tx_late = 0;
    w->rx_held = false;
    w->nic = NULL;
    w->card = NULL;
}

void nic_wire_attach(NICWire *w, NICState *nic, PCLCardState *card)
{
    w->nic = nic;
    w->card = card;
}

void nic_wire_free(NICWire *w)
{
    timer_free(w->rx_timer);
    w->rx_timer = NULL;
    w->nic = NULL;
    w->card = NULL;
}

bool nic_wire_reset(NICWire *w)
{
    bool held = timer_pending(w->rx_timer);

    timer_del(w->rx_timer);
    w->tx_free = w->rx_free = 0;
    w->tx_late = 0;
    w->rx_held = false;
    return held;
}

bool nic_wire_rx_ready(NICWire *w, size_t len)
{
    int64_t now, start;

    if (!w->rate) {
        return true;
    }
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    if (now < w->rx_free) {
        /* still busy with the previous frame: the peer holds this one */
        timer_mod(w->rx_timer, w->rx_free);
        w->rx_held = true;
        return false;
    }
    start = now;
    if (w->rx_held) {
        /*
         * The peer held this frame: on a wire it would follow the last
         * one at once.  The timer that brings it fires late under
         * emulation; an eighth of a frame of that is forgiven, so the
         * wire does not idle for the emulator, while frames still never
         * come much closer together than the wire carries them (a card
         * with a FIFO of a few frames depends on that).
         */
        start = MAX(w->rx_free, now - nic_wire_frame_ns(w, len) / 8);
        w->rx_held = false;
    }
    w->rx_free = start + nic_wire_frame_ns(w, len);
    return true;
}

int64_t nic_wire_tx_slot(NICWire *w, size_t len)
{
    int64_t now;

    if (w->card && pcl_card_faulted(w->card, PCL_FAULT_MUTE)) {
        trace_pcl_nic_wire_mute(len);
        return NIC_WIRE_NEVER;
    }
    if (!w->rate) {
        return 0;
    }
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    w->tx_free = MAX(now - w->tx_late, w->tx_free) +
                 nic_wire_frame_ns(w, len);
    w->tx_late = 0;
    return w->tx_free;
}

/*
 * Under emulation the timer fires later than the frame left the wire.
 * The guest sees TX done only then, so the lateness (up to one frame)
 * is taken off the next frame's start: the wire then idles for the
 * driver's own latency only, as it would on the real card.
 */
void nic_wire_tx_fired(NICWire *w, size_t len)
{
    int64_t late = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - w->tx_free;

    w->tx_late = MIN(MAX(late, 0), nic_wire_frame_ns(w, len));
}

void nic_wire_tx_abort(NICWire *w)
{
    w->tx_free = 0;
    w->tx_late = 0;
}

const VMStateDescription vmstate_nic_wire = {
    .name = "pcl-nic-wire",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (VMStateField[]) {
        VMSTATE_INT64(tx_free, NICWire),
        VMSTATE_INT64(rx_free, NICWire),
        VMSTATE_INT64(tx_late, NICWire),
        VMSTATE_BOOL(rx_held, NICWire),
        VMSTATE_TIMER_PTR(rx_timer, NICWire),
        VMSTATE_END_OF_LIST()
    }
};

/* --- Life cycle --- */

void nic_card_realize(const NICCardParts *p, const NICCardIdentity *id,
                      QEMUTimerCB *tx_cb, void *opaque)
{
    qemu_macaddr_default_if_unset(&p->conf->macaddr);
    *p->cis_len = nic_card_build_cis(p->cis, p->cis_size, id,
                                     p->conf->macaddr.a);
    *p->tx_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, tx_cb, opaque);
    nic_wire_init(p->wire);
}

void nic_card_new_nic(DeviceState *dev, const NICCardParts *p,
                      NetClientInfo *info, void *opaque)
{
    *p->nic = qemu_new_nic(info, p->conf, object_get_typename(OBJECT(dev)),
                           dev->id, &dev->mem_reentrancy_guard, opaque);
    nic_wire_attach(p->wire, *p->nic, PCL_CARD(dev));
    qemu_format_nic_info_str(qemu_get_queue(*p->nic), p->conf->macaddr.a);
}

void nic_card_unrealize(const NICCardParts *p)
{
    timer_free(*p->tx_timer);
    *p->tx_timer = NULL;
    nic_wire_free(p->wire);
    qemu_del_nic(*p->nic);
    *p->nic = NULL;
}
