// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MB86960A side of fmvj18x_cs: two transmit buffers in the card's
 * SRAM, one filled while the other is on the wire, and the receive ring
 * read through the data port in NAPI.
 *
 * The interrupt handler takes the transmitter's "done" itself (the other
 * buffer usually waits for the wire) and hands received frames to NAPI
 * with the receive interrupts masked; NAPI unmasks them when it is done.
 * The chip keeps no counters: the statistics are the driver's, from the
 * status registers and the frames' headers.
 */

#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "fmvj18x.h"

static_assert(offsetof(struct fmv_dev, nic) == 0);

#define FMV_TX_IRQS	(TXS_DONE | TXS_BUSERR)
#define FMV_RX_IRQS	(RXS_READY | RXS_OVERFLOW | RXS_CRC | RXS_ALIGN | \
			 RXS_SHORT | RXS_BUSERR)
#define FMV_MAX_RX	(ETH_FRAME_LEN + ETH_FCS_LEN)

static void fmv_bank(struct fmv_dev *priv, u8 bank)
{
	outb(CONFIG1_POWER | bank, priv->io + NICE_CONFIG1);
}

/* The hash filter and the address filter mode (lock held). */
static void fmv_load_filter(struct fmv_dev *priv)
{
	unsigned long io = priv->io;
	int i;

	/* the chip takes a new hash only with the DLC stopped */
	outb(priv->config0 | CONFIG0_STOP, io + NICE_CONFIG0);
	fmv_bank(priv, CONFIG1_BANK1);
	for (i = 0; i < ARRAY_SIZE(priv->hash); i++)
		outb(priv->hash[i], io + NICE_HASH + i);
	fmv_bank(priv, CONFIG1_BANK2);
	outb(priv->rxmode, io + NICE_RXMODE);
	outb(priv->config0, io + NICE_CONFIG0);
	priv->hash_pending = false;
}

/* Frames written but not yet sent are lost in a reset. */
static void fmv_tx_forget(struct fmv_dev *priv)
{
	priv->stats.tx_dropped += priv->fill_frames + priv->send_frames;
	priv->fill_frames = 0;
	priv->fill_bytes = 0;
	priv->send_frames = 0;
	priv->send_bytes = 0;
}

/* Program the stopped chip and start it, interrupts masked (lock held). */
static void fmv_hw_init(struct fmv_dev *priv)
{
	unsigned long io = priv->io;
	int i;

	outb(priv->config0 | CONFIG0_STOP, io + NICE_CONFIG0);
	outb(0, io + NICE_TXMASK);
	outb(0, io + NICE_RXMASK);
	if (priv->has_lanctl)
		outb(FMV_LANCTL_QUIET, io + FMV_LANCTL);
	fmv_bank(priv, CONFIG1_BANK0);
	for (i = 0; i < ETH_ALEN; i++)
		outb(priv->nic.ndev->dev_addr[i], io + NICE_NODE + i);
	outb(TXMODE_NORMAL, io + NICE_TXMODE);
	fmv_bank(priv, CONFIG1_BANK2);
	outb(COLCTL_SKIP, io + NICE_COLCTL);
	outb(0, io + NICE_DMAEN);
	outb(0, io + NICE_DMACTL);
	fmv_tx_forget(priv);
	/* the DLC starts with the new filter, its buffers empty */
	fmv_load_filter(priv);
	outb(0xff, io + NICE_TXSTAT);
	outb(0xff, io + NICE_RXSTAT);
}

static void fmv_irqs_on(struct fmv_dev *priv)
{
	outb(FMV_TX_IRQS, priv->io + NICE_TXMASK);
	outb(FMV_RX_IRQS, priv->io + NICE_RXMASK);
	if (priv->has_lanctl)
		outb(FMV_LANCTL_IRQ, priv->io + FMV_LANCTL);
}

static void fmv_hw_start(struct fmv_dev *priv)
{
	spin_lock_irq(&priv->lock);
	fmv_hw_init(priv);
	priv->up = true;
	fmv_irqs_on(priv);
	spin_unlock_irq(&priv->lock);
	napi_enable(&priv->napi);
}

/* A chip answers: CONFIG0 reads back what was written. */
bool fmv_chip_answers(struct fmv_dev *priv)
{
	u8 want = priv->config0 | CONFIG0_STOP;

	outb(want, priv->io + NICE_CONFIG0);
	return inb(priv->io + NICE_CONFIG0) == want;
}

/* The chip stopped and in stand-by, its interrupt held back. */
void fmv_chip_standby(struct fmv_dev *priv)
{
	unsigned long io = priv->io;

	outb(0, io + NICE_TXMASK);
	outb(0, io + NICE_RXMASK);
	if (priv->has_lanctl)
		outb(FMV_LANCTL_QUIET, io + FMV_LANCTL);
	outb(priv->config0 | CONFIG0_STOP, io + NICE_CONFIG0);
	outb(CONFIG1_BANK0, io + NICE_CONFIG1);
}

/* Stop the chip and NAPI: process context, the handler still registered. */
static void fmv_quiesce(struct fmv_dev *priv)
{
	spin_lock_irq(&priv->lock);
	priv->up = false;
	fmv_chip_standby(priv);
	spin_unlock_irq(&priv->lock);
	napi_disable(&priv->napi);
	spin_lock_irq(&priv->lock);
	fmv_tx_forget(priv);
	spin_unlock_irq(&priv->lock);
}

/* ---- transmit ---- */

/* Start the filled buffer if the wire is free (lock held). */
static void fmv_tx_kick(struct fmv_dev *priv)
{
	if (priv->send_frames || !priv->fill_frames)
		return;
	outb(TXSTART_GO | priv->fill_frames, priv->io + NICE_TXSTART);
	priv->send_frames = priv->fill_frames;
	priv->send_bytes = priv->fill_bytes;
	priv->fill_frames = 0;
	priv->fill_bytes = 0;
}

/* Room for one more frame of the largest size in the buffer being filled. */
static bool fmv_tx_room(struct fmv_dev *priv)
{
	return priv->fill_frames < TXSTART_MAX &&
	       priv->fill_bytes + 2 + ETH_FRAME_LEN <= priv->tx_room;
}

static void fmv_tx_done(struct fmv_dev *priv, u8 txstat)
{
	struct rtnl_link_stats64 *st = &priv->stats;

	if (txstat & TXS_BUSERR) {
		/* the buffer took less than was written: a driver bug */
		netif_err(&priv->nic, tx_err, priv->nic.ndev,
			  "transmit buffer overrun (status %#04x)\n", txstat);
		st->tx_errors++;
	}
	if (!(txstat & TXS_DONE) || !priv->send_frames)
		return;
	st->tx_packets += priv->send_frames;
	st->tx_bytes += priv->send_bytes;
	if (txstat & TXS_COL16) {
		st->tx_aborted_errors++;
		st->tx_errors++;
	}
	if (txstat & TXS_COL)
		st->collisions++;
	priv->send_frames = 0;
	priv->send_bytes = 0;
	if (priv->hash_pending)
		fmv_load_filter(priv);
	fmv_tx_kick(priv);
	if (priv->up && fmv_tx_room(priv))
		netif_wake_queue(priv->nic.ndev);
}

static netdev_tx_t fmv_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct fmv_dev *priv = netdev_priv(ndev);
	unsigned int len = max_t(unsigned int, skb->len, ETH_ZLEN);
	unsigned long flags;

	/* short frames go out zero-padded; the data port moves words */
	if (skb_padto(skb, ALIGN(len, 2))) {
		spin_lock_irqsave(&priv->lock, flags);
		priv->stats.tx_dropped++;
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_OK;
	}

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->up && !fmv_tx_room(priv)) {
		netif_stop_queue(ndev);
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_BUSY;
	}
	if (priv->up) {
		outw(len, priv->io + NICE_DATA);
		outsw(priv->io + NICE_DATA, skb->data, ALIGN(len, 2) / 2);
		priv->fill_frames++;
		priv->fill_bytes += 2 + ALIGN(len, 2);
		fmv_tx_kick(priv);
		if (!fmv_tx_room(priv))
			netif_stop_queue(ndev);
	} else {
		priv->stats.tx_dropped++;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

static void fmv_tx_timeout(struct net_device *ndev, unsigned int txqueue)
{
	struct fmv_dev *priv = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	netdev_warn(ndev, "transmit timed out (TX status %#04x, %u frames on their way), resetting\n",
		    inb(priv->io + NICE_TXSTAT), priv->send_frames);
	priv->stats.tx_errors++;
	if (priv->up) {
		fmv_hw_init(priv);
		fmv_irqs_on(priv);
		netif_wake_queue(ndev);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* ---- receive ---- */

static void fmv_count_rx_errors(struct fmv_dev *priv, u8 status)
{
	struct rtnl_link_stats64 *st = &priv->stats;

	if (status & (RXS_CRC | RXS_ALIGN | RXS_SHORT))
		st->rx_errors++;
	if (status & RXS_CRC)
		st->rx_crc_errors++;
	if (status & RXS_ALIGN)
		st->rx_frame_errors++;
	if (status & RXS_SHORT)
		st->rx_length_errors++;
}

/*
 * The oldest frame in the ring (lock held): NULL when it was dropped,
 * ERR_PTR(-ENODATA) when the ring is empty or the card gone.
 */
static struct sk_buff *fmv_rx_one(struct fmv_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	unsigned long io = priv->io;
	struct sk_buff *skb;
	u8 mode = inb(io + NICE_RXMODE);
	u16 status, len;

	if (mode == 0xff || (mode & RXMODE_EMPTY))
		return ERR_PTR(-ENODATA);
	status = inw(io + NICE_DATA);
	len = inw(io + NICE_DATA);
	if (!(status & RXS_GOOD) || len < ETH_HLEN || len > FMV_MAX_RX) {
		netif_dbg(&priv->nic, rx_err, priv->nic.ndev,
			  "frame dropped: status %#04x, %u bytes\n", status, len);
		fmv_count_rx_errors(priv, status);
		if (status & RXS_GOOD) {
			st->rx_errors++;
			st->rx_length_errors++;
		}
		outb(RXCTL_SKIP, io + NICE_RXCTL);
		return NULL;
	}
	/* one more byte: the data port moves words */
	skb = netdev_alloc_skb_ip_align(priv->nic.ndev, len + 1);
	if (!skb) {
		st->rx_dropped++;
		outb(RXCTL_SKIP, io + NICE_RXCTL);
		return NULL;
	}
	insw(io + NICE_DATA, skb->data, ALIGN(len, 2) / 2);
	skb_put(skb, len);
	st->rx_packets++;
	st->rx_bytes += len;
	if (is_multicast_ether_addr(skb->data))
		st->multicast++;
	return skb;
}

static int fmv_poll(struct napi_struct *napi, int budget)
{
	struct fmv_dev *priv = container_of(napi, struct fmv_dev, napi);
	struct sk_buff *skb;
	int done = 0;

	while (done < budget) {
		spin_lock_irq(&priv->lock);
		skb = priv->up ? fmv_rx_one(priv) : ERR_PTR(-ENODATA);
		spin_unlock_irq(&priv->lock);
		if (IS_ERR(skb))
			break;
		done++;
		if (skb)
			pcnic_rx(&priv->nic, skb);
	}
	if (done == budget)
		return budget;
	if (napi_complete_done(napi, done)) {
		spin_lock_irq(&priv->lock);
		if (priv->up)
			outb(FMV_RX_IRQS, priv->io + NICE_RXMASK);
		spin_unlock_irq(&priv->lock);
	}
	return done;
}

static irqreturn_t fmv_interrupt(int irq, void *data)
{
	struct fmv_dev *priv = to_fmv(data);
	unsigned long io = priv->io;
	irqreturn_t ret = IRQ_NONE;
	u8 txstat, rxstat, rxmask;

	spin_lock(&priv->lock);
	if (!priv->up)
		goto out;
	txstat = inb(io + NICE_TXSTAT);
	rxstat = inb(io + NICE_RXSTAT);
	rxmask = inb(io + NICE_RXMASK);
	/* all ones: nobody answers, the card is gone */
	if (txstat == 0xff && rxstat == 0xff)
		goto out;
	txstat &= FMV_TX_IRQS;
	rxstat &= rxmask;
	if (!txstat && !rxstat)
		goto out;
	ret = IRQ_HANDLED;
	outb(txstat, io + NICE_TXSTAT);
	outb(rxstat, io + NICE_RXSTAT);
	if (txstat)
		fmv_tx_done(priv, txstat);
	if (rxstat & RXS_OVERFLOW) {
		/* frames the ring had no room for: the only trace of them */
		priv->stats.rx_over_errors++;
		priv->stats.rx_errors++;
	}
	fmv_count_rx_errors(priv, rxstat);
	if (rxstat & RXS_READY) {
		outb(0, io + NICE_RXMASK);
		napi_schedule(&priv->napi);
	}
out:
	spin_unlock(&priv->lock);
	return ret;
}

/* ---- the life cycle (pcnic.c) ---- */

static void fmv_start(struct pcnic *nic)
{
	fmv_hw_start(to_fmv(nic));
	/* the chip has no link status: the wire is taken as there */
	pcnic_link_10(nic, true, false);
}

static void fmv_halt(struct pcnic *nic)
{
	fmv_quiesce(to_fmv(nic));
	netif_carrier_off(nic->ndev);
}

/*
 * The MB86960 has no reset to wait for; what open and resume can check
 * is that the card still answers (one that reads all ones does not).
 */
static int fmv_reset(struct pcnic *nic)
{
	return fmv_chip_answers(to_fmv(nic)) ? 0 : -ENODEV;
}

static const struct pcnic_ops fmv_pcnic_ops = {
	.reset		= fmv_reset,
	.start		= fmv_start,
	.halt		= fmv_halt,
	.interrupt	= fmv_interrupt,
};

/* ---- net_device ---- */

static void fmv_set_rx_mode(struct net_device *ndev)
{
	struct fmv_dev *priv = netdev_priv(ndev);
	u8 rxmode = ndev->flags & IFF_PROMISC ? RXMODE_ALL : RXMODE_HASH;
	u8 hash[PCNIC_MC_FILTER_LEN];
	unsigned long flags;

	pcnic_mc_filter_le(ndev, hash);
	spin_lock_irqsave(&priv->lock, flags);
	priv->rxmode = rxmode;
	memcpy(priv->hash, hash, sizeof(hash));
	/*
	 * Loading the hash stops the DLC, which may cost a frame on its way
	 * out: wait for the transmitter to be idle.
	 */
	priv->hash_pending = true;
	if (priv->up && !priv->send_frames)
		fmv_load_filter(priv);
	spin_unlock_irqrestore(&priv->lock, flags);
}

static void fmv_get_stats64(struct net_device *ndev,
			    struct rtnl_link_stats64 *stats)
{
	struct fmv_dev *priv = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	*stats = priv->stats;
	spin_unlock_irqrestore(&priv->lock, flags);
}

const struct net_device_ops fmv_netdev_ops = {
	PCNIC_NETDEV_OPS,
	.ndo_start_xmit		= fmv_start_xmit,
	.ndo_tx_timeout		= fmv_tx_timeout,
	.ndo_set_rx_mode	= fmv_set_rx_mode,
	.ndo_get_stats64	= fmv_get_stats64,
};

/* The driver's state of a new card, in @ndev's private area. */
struct fmv_dev *fmv_nic_init(struct net_device *ndev,
			     struct pcmcia_device *link, bool big_tx_buffers)
{
	struct fmv_dev *priv = netdev_priv(ndev);

	pcnic_init(&priv->nic, ndev, link, &fmv_pcnic_ops);
	spin_lock_init(&priv->lock);
	netif_napi_add(ndev, &priv->napi, fmv_poll);
	priv->config0 = CONFIG0_BASE |
			(big_tx_buffers ? CONFIG0_TX2x8K : CONFIG0_TX2x4K);
	priv->tx_room = big_tx_buffers ? SZ_8K : SZ_4K;
	priv->rxmode = RXMODE_HASH;
	return priv;
}
