// SPDX-License-Identifier: GPL-2.0-only
/*
 * The network side of the 3c589: frames through the chip's FIFOs, read in
 * NAPI, the counters of window 6, the transceiver and its link beat, and
 * the resets that need process context (transmit timeout, transmitter
 * errors, adapter failure) in a work item.
 *
 * Receive: the interrupt handler takes RX_COMPLETE out of the chip's
 * interrupt mask and schedules NAPI, which reads the frames, drops each
 * from the FIFO with RxDiscard and puts RX_COMPLETE back when the FIFO is
 * empty.  The other events the handler deals with itself, until the
 * status word shows none of them (the IREQ of a card behind an ISA bridge
 * is edge-triggered: a status bit left set would block the next one).
 *
 * Transmit: a frame goes into the TX FIFO whole, behind its length; the
 * chip sends it from there.  When the FIFO has no room for a full-size
 * frame the queue stops, and the chip reports TX_AVAIL once it has: no
 * interrupt per frame.  Frames sent are counted by the chip (window 6);
 * the TX status stack holds entries for failed frames only.
 */

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/linkmode.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "3c589.h"

#define C589_IRQ_ROUNDS		8	/* status words per interrupt */
#define C589_TX_STACK		32	/* entries the TX status stack can hold */
#define C589_MEDIA_POLL		HZ

static void c589_set_irq_mask(struct c589_dev *priv, u16 mask)
{
	priv->irq_mask = mask;
	el3_cmd(priv->io, EL3_OP_SET_INTR_ENB, mask);
}

/* ---- the chip's counters (lock held; window 1 before and after) ---- */

static void c589_read_stats(struct c589_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	unsigned long io = priv->io;
	u8 ctr[C589_STAT_DEFERRED + 1];
	int i;

	if (inw(io + EL3_STATUS_REG) == EL3_GONE)
		return;
	el3_cmd(io, EL3_OP_STATS_DISABLE, 0);
	el3_window(io, 6);
	for (i = 0; i < ARRAY_SIZE(ctr); i++)
		ctr[i] = inb(io + i);
	/* the octet counts clear too: the driver counts bytes itself */
	inw(io + C589_STAT_RX_OCTETS);
	inw(io + C589_STAT_TX_OCTETS);
	el3_window(io, 1);
	el3_cmd(io, EL3_OP_STATS_ENABLE, 0);

	st->tx_packets += ctr[C589_STAT_TX_FRAMES];
	st->tx_carrier_errors += ctr[C589_STAT_CARRIER_LOST];
	st->tx_heartbeat_errors += ctr[C589_STAT_SQE];
	st->tx_window_errors += ctr[C589_STAT_LATE_COLL];
	st->collisions += ctr[C589_STAT_ONE_COLL] + ctr[C589_STAT_MULTI_COLL];
	/* frames the RX FIFO had no room for, whole or in part */
	st->rx_fifo_errors += ctr[C589_STAT_RX_OVERRUN];
}

/* ---- the transceiver ---- */

static const u16 c589_addr_cfg[] = {
	[C589_XCVR_TP]	= 0,
	[C589_XCVR_BNC]	= 3 << 14,
	[C589_XCVR_AUI]	= 1 << 14,
};

static const unsigned char c589_if_port[] = {
	[C589_XCVR_TP]	= IF_PORT_10BASET,
	[C589_XCVR_BNC]	= IF_PORT_10BASE2,
	[C589_XCVR_AUI]	= IF_PORT_AUI,
};

/* Lock held; window 1 before and after. */
static void c589_load_xcvr(struct c589_dev *priv)
{
	unsigned long io = priv->io;
	u16 media = C589_MEDIA_LED;

	el3_window(io, 0);
	outw(c589_addr_cfg[priv->xcvr], io + EL3_W0_ADDR_CFG);
	/* the coax transceiver's power; on 10baseT cards the LED */
	el3_cmd(io, priv->xcvr == C589_XCVR_BNC ?
		EL3_OP_START_COAX : EL3_OP_STOP_COAX, 0);
	if (priv->xcvr == C589_XCVR_TP)
		media |= C589_MEDIA_TP_CHECKS;
	el3_window(io, 4);
	outw(media, io + C589_MEDIA);
	el3_window(io, 1);
}

const char *c589_xcvr_name(enum c589_xcvr xcvr)
{
	static const char * const names[] = {
		[C589_XCVR_AUTO]	= "auto",
		[C589_XCVR_TP]		= "10baseT",
		[C589_XCVR_BNC]		= "10base2",
		[C589_XCVR_AUI]		= "AUI",
	};

	return names[xcvr];
}

void c589_set_xcvr(struct c589_dev *priv, enum c589_xcvr xcvr)
{
	spin_lock_irq(&priv->lock);
	priv->xcvr = xcvr;
	priv->ndev->if_port = c589_if_port[xcvr];
	if (priv->up && !priv->resetting)
		c589_load_xcvr(priv);
	spin_unlock_irq(&priv->lock);
}

/*
 * The link: 10baseT's link beat, polled once a second.  Coax and AUI
 * have no link status; their carrier stays on.
 */
static void c589_media_work(struct work_struct *work)
{
	struct c589_dev *priv = container_of(to_delayed_work(work),
					     struct c589_dev, media_poll);
	struct net_device *ndev = priv->ndev;
	bool first = priv->link_first;
	bool link;
	u16 media;

	if (!pcmcia_dev_present(priv->link))
		return;
	spin_lock_irq(&priv->lock);
	if (!priv->up || priv->resetting) {
		spin_unlock_irq(&priv->lock);
		goto again;
	}
	el3_window(priv->io, 4);
	media = inw(priv->io + C589_MEDIA);
	el3_window(priv->io, 1);
	spin_unlock_irq(&priv->lock);
	if (media == EL3_GONE)
		return;

	priv->link_first = false;
	link = media & C589_MEDIA_LINK_BEAT;
	if (first || link != netif_carrier_ok(ndev)) {
		if (link) {
			netif_carrier_on(ndev);
			netif_info(priv, link, ndev, "link up, 10Mbps, half-duplex\n");
		} else {
			netif_carrier_off(ndev);
			netif_info(priv, link, ndev, "link down\n");
		}
	}
again:
	schedule_delayed_work(&priv->media_poll, C589_MEDIA_POLL);
}

static void c589_media_start(struct c589_dev *priv)
{
	if (priv->xcvr != C589_XCVR_TP) {
		netif_carrier_on(priv->ndev);
		return;
	}
	netif_carrier_off(priv->ndev);
	priv->link_first = true;
	schedule_delayed_work(&priv->media_poll, 0);
}

static void c589_media_stop(struct c589_dev *priv)
{
	cancel_delayed_work_sync(&priv->media_poll);
}

/* ---- bring-up and shutdown ---- */

/* Reset the transmitter and receiver: process context, chip masked. */
int c589_chip_reset(struct c589_dev *priv)
{
	int rc;

	rc = el3_cmd_wait(priv->io, EL3_OP_TX_RESET, 0);
	if (!rc)
		rc = el3_cmd_wait(priv->io, EL3_OP_RX_RESET, 0);
	return rc;
}

/* Program the chip after a reset and turn it on (lock held). */
static void c589_hw_init(struct c589_dev *priv)
{
	unsigned long io = priv->io;
	int i;

	el3_window(io, 0);
	outw(EL3_CONFIG_ENABLE, io + EL3_W0_CONFIG_CTRL);
	outw(C589_IRQ_SELECT, io + EL3_W0_RESOURCE_CFG);
	el3_window(io, 2);
	for (i = 0; i < ETH_ALEN; i++)
		outb(priv->ndev->dev_addr[i], io + i);
	el3_window(io, 1);
	c589_load_xcvr(priv);
	/* what the counters hold from before is counted, then they run */
	c589_read_stats(priv);

	el3_cmd(io, EL3_OP_SET_RX_FILTER, priv->rx_filter);
	el3_cmd(io, EL3_OP_RX_ENABLE, 0);
	el3_cmd(io, EL3_OP_TX_ENABLE, 0);
	el3_cmd(io, EL3_OP_SET_STATUS_ENB, EL3_ST_ALL);
	el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ALL);
	c589_set_irq_mask(priv, C589_IRQS);
}

static void c589_hw_start(struct c589_dev *priv)
{
	/* first NAPI, which the unmasked chip may need at once */
	napi_enable(&priv->napi);
	spin_lock_irq(&priv->lock);
	c589_hw_init(priv);
	priv->up = true;
	priv->running = true;
	spin_unlock_irq(&priv->lock);
}

/*
 * Stop the chip and everything that drives it: the restart work, NAPI.
 * Process context; the interrupt handler stays registered.
 */
static void c589_quiesce(struct c589_dev *priv)
{
	unsigned long io = priv->io;
	bool running;

	spin_lock_irq(&priv->lock);
	running = priv->running;
	priv->up = false;
	priv->running = false;
	priv->want = 0;
	c589_set_irq_mask(priv, 0);
	el3_cmd(io, EL3_OP_RX_DISABLE, 0);
	el3_cmd(io, EL3_OP_TX_DISABLE, 0);
	if (priv->xcvr == C589_XCVR_BNC)
		el3_cmd(io, EL3_OP_STOP_COAX, 0);
	if (running && !priv->resetting)
		c589_read_stats(priv);
	spin_unlock_irq(&priv->lock);
	if (!running)
		return;
	cancel_work_sync(&priv->restart);
	napi_disable(&priv->napi);
}

/* The card programmed and running, its link followed: open and resume. */
void c589_start(struct c589_dev *priv)
{
	c589_hw_start(priv);
	c589_media_start(priv);
}

/* Nothing runs on the card any more: stop and suspend. */
void c589_halt(struct c589_dev *priv)
{
	c589_media_stop(priv);
	c589_quiesce(priv);
}

/* Hand the chip to the restart work (lock held). */
static void c589_want(struct c589_dev *priv, unsigned int what)
{
	if (!priv->up)
		return;
	c589_set_irq_mask(priv, 0);
	netif_stop_queue(priv->ndev);
	priv->want |= what;
	schedule_work(&priv->restart);
}

/* ---- transmit ---- */

static netdev_tx_t c589_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct c589_dev *priv = netdev_priv(ndev);
	unsigned long io = priv->io;
	unsigned long flags;
	unsigned int len;
	u32 tail = 0;

	if (skb_put_padto(skb, ETH_ZLEN)) {
		spin_lock_irqsave(&priv->lock, flags);
		priv->stats.tx_dropped++;
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_OK;
	}
	len = skb->len;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->want || priv->resetting) {
		netif_stop_queue(ndev);
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_BUSY;
	}
	if (!priv->up) {
		priv->stats.tx_dropped++;
		goto done;
	}
	if (inw(io + C589_TX_FREE) < C589_TX_ROOM(len)) {
		/* the queue stops before that: not again */
		netif_stop_queue(ndev);
		el3_cmd(io, EL3_OP_SET_TX_THRESH, C589_TX_ROOM_MAX);
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_BUSY;
	}
	outw(len, io + C589_FIFO);
	outw(0, io + C589_FIFO);
	outsl(io + C589_FIFO, skb->data, len / 4);
	if (len % 4) {
		memcpy(&tail, skb->data + round_down(len, 4), len % 4);
		outsl(io + C589_FIFO, &tail, 1);
	}
	priv->stats.tx_bytes += len;
	if (inw(io + C589_TX_FREE) < C589_TX_ROOM_MAX) {
		netif_stop_queue(ndev);
		el3_cmd(io, EL3_OP_SET_TX_THRESH, C589_TX_ROOM_MAX);
	}
done:
	spin_unlock_irqrestore(&priv->lock, flags);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

/*
 * The TX status stack: an entry for each frame the chip gave up on (lock
 * held).  Any error stops the transmitter; after jabber or an underrun it
 * needs a reset too.  Returns what the restart work must do.
 */
static unsigned int c589_tx_errors(struct c589_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	unsigned long io = priv->io;
	unsigned int want = 0;
	bool stopped = false;
	u8 txs;
	int i;

	for (i = 0; i < C589_TX_STACK; i++) {
		txs = inb(io + C589_TX_STATUS);
		if (txs == 0xff || !(txs & C589_TXS_COMPLETE))
			break;
		if (txs & (C589_TXS_JABBER | C589_TXS_UNDERRUN |
			   C589_TXS_MAX_COLL)) {
			st->tx_errors++;
			stopped = true;
			netif_dbg(priv, tx_err, priv->ndev,
				  "frame not sent, TX status %#04x\n", txs);
		}
		if (txs & C589_TXS_MAX_COLL) {
			st->tx_aborted_errors++;
			st->collisions += 16;
		}
		if (txs & C589_TXS_UNDERRUN)
			st->tx_fifo_errors++;
		if (txs & (C589_TXS_JABBER | C589_TXS_UNDERRUN))
			want |= C589_WANT_TX_RESET;
		outb(0, io + C589_TX_STATUS);		/* pop */
	}
	if (stopped && !want)
		el3_cmd(io, EL3_OP_TX_ENABLE, 0);
	return want;
}

static void c589_tx_timeout(struct net_device *ndev, unsigned int txqueue)
{
	struct c589_dev *priv = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->up && !priv->resetting)
		netdev_warn(ndev, "transmit timed out (status %#06x, %u bytes free), resetting the transmitter\n",
			    inw(priv->io + EL3_STATUS_REG),
			    inw(priv->io + C589_TX_FREE));
	priv->stats.tx_errors++;
	c589_want(priv, C589_WANT_TX_RESET);
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* ---- receive ---- */

static void c589_rx_error(struct c589_dev *priv, u16 rxs)
{
	struct rtnl_link_stats64 *st = &priv->stats;

	st->rx_errors++;
	switch (rxs & C589_RXS_CODE) {
	case C589_RXS_OVERRUN:
		st->rx_over_errors++;
		break;
	case C589_RXS_OVERSIZE:
	case C589_RXS_RUNT:
		st->rx_length_errors++;
		break;
	case C589_RXS_DRIBBLE:
	case C589_RXS_ALIGN:
		st->rx_frame_errors++;
		break;
	case C589_RXS_CRC:
		st->rx_crc_errors++;
		break;
	}
	netif_dbg(priv, rx_err, priv->ndev, "frame dropped, RX status %#06x\n",
		  rxs);
}

/*
 * The oldest frame of the RX FIFO (lock held): NULL when it was bad,
 * ERR_PTR(-ENOENT) when there is none (or the card has gone).
 */
static struct sk_buff *c589_rx_one(struct c589_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	unsigned long io = priv->io;
	struct sk_buff *skb = NULL;
	unsigned int len;
	u16 rxs;

	rxs = inw(io + C589_RX_STATUS);
	if (rxs & C589_RXS_INCOMPLETE)
		return ERR_PTR(-ENOENT);
	len = rxs & C589_RXS_LEN;
	if (rxs & C589_RXS_ERROR) {
		c589_rx_error(priv, rxs);
	} else if (len < ETH_HLEN) {
		st->rx_errors++;
		st->rx_length_errors++;
	} else {
		/* the FIFO gives whole 32-bit words */
		skb = netdev_alloc_skb_ip_align(priv->ndev, ALIGN(len, 4));
		if (skb) {
			insl(io + C589_FIFO, skb->data, ALIGN(len, 4) / 4);
			skb_put(skb, len);
			st->rx_packets++;
			st->rx_bytes += len;
			if (is_multicast_ether_addr(skb->data))
				st->multicast++;
		} else {
			st->rx_dropped++;
		}
	}
	if (el3_cmd_wait_atomic(io, EL3_OP_RX_DISCARD, 0) == -ETIMEDOUT) {
		netif_err(priv, rx_err, priv->ndev,
			  "the chip does not drop a received frame, resetting the receiver\n");
		c589_want(priv, C589_WANT_RX_RESET);
	}
	return skb;
}

static int c589_poll(struct napi_struct *napi, int budget)
{
	struct c589_dev *priv = container_of(napi, struct c589_dev, napi);
	struct sk_buff *skb;
	int done = 0;

	while (done < budget) {
		spin_lock_irq(&priv->lock);
		if (!priv->up || priv->want || priv->resetting) {
			spin_unlock_irq(&priv->lock);
			break;
		}
		skb = c589_rx_one(priv);
		spin_unlock_irq(&priv->lock);
		if (IS_ERR(skb))
			break;
		done++;
		if (skb) {
			skb->protocol = eth_type_trans(skb, priv->ndev);
			napi_gro_receive(napi, skb);
		}
	}
	if (done == budget)
		return budget;

	if (napi_complete_done(napi, done)) {
		spin_lock_irq(&priv->lock);
		if (priv->up && !priv->want && !priv->resetting)
			c589_set_irq_mask(priv, C589_IRQS);
		spin_unlock_irq(&priv->lock);
	}
	return done;
}

/* ---- interrupt and restarts ---- */

/* FIFO trouble the chip reports as an adapter failure (lock held). */
static unsigned int c589_adapter_failure(struct c589_dev *priv)
{
	unsigned long io = priv->io;
	unsigned int want = 0;
	u16 diag;

	el3_window(io, 4);
	diag = inw(io + C589_FIFO_DIAG);
	el3_window(io, 1);
	netif_err(priv, hw, priv->ndev, "adapter failure, FIFO diagnostics %#06x\n",
		  diag);
	if (diag & C589_DIAG_TX_OVERRUN) {
		priv->stats.tx_fifo_errors++;
		want |= C589_WANT_TX_RESET;
	}
	if (diag & C589_DIAG_RX_UNDERRUN) {
		priv->stats.rx_fifo_errors++;
		want |= C589_WANT_RX_RESET;
	}
	el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ADAPTER_FAIL);
	return want;
}

static irqreturn_t c589_interrupt(int irq, void *data)
{
	struct c589_dev *priv = data;
	unsigned long io = priv->io;
	irqreturn_t ret = IRQ_NONE;
	unsigned int want = 0;
	u16 status;
	int round;

	spin_lock(&priv->lock);
	for (round = 0; round < C589_IRQ_ROUNDS && priv->irq_mask; round++) {
		status = inw(io + EL3_STATUS_REG);
		/* all ones, or not the window left selected: the card is gone */
		if (status == EL3_GONE || el3_status_window(status) != 1)
			break;
		if (!(status & priv->irq_mask))
			break;
		ret = IRQ_HANDLED;
		if (status & priv->irq_mask & EL3_ST_RX_COMPLETE) {
			c589_set_irq_mask(priv, priv->irq_mask & ~EL3_ST_RX_COMPLETE);
			napi_schedule(&priv->napi);
		}
		if (status & EL3_ST_TX_COMPLETE)
			want |= c589_tx_errors(priv);
		if (status & EL3_ST_TX_AVAIL) {
			el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_TX_AVAIL);
			if (!want)
				netif_wake_queue(priv->ndev);
		}
		if (status & EL3_ST_STATS_FULL)
			c589_read_stats(priv);
		if (status & EL3_ST_ADAPTER_FAIL)
			want |= c589_adapter_failure(priv);
		el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_INT_LATCH | EL3_ST_INT_REQ |
			EL3_ST_RX_EARLY);
		if (want) {
			c589_want(priv, want);
			break;
		}
	}
	if (round == C589_IRQ_ROUNDS) {
		if (net_ratelimit())
			netdev_warn(priv->ndev,
				    "events keep coming (status %#06x), acknowledging them all\n",
				    inw(io + EL3_STATUS_REG));
		el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ALL);
	}
	spin_unlock(&priv->lock);
	return ret;
}

static void c589_restart_work(struct work_struct *work)
{
	struct c589_dev *priv = container_of(work, struct c589_dev, restart);
	unsigned long io = priv->io;
	unsigned int want;
	int rc = 0;

	napi_disable(&priv->napi);
	spin_lock_irq(&priv->lock);
	want = priv->up ? priv->want : 0;
	priv->want = 0;
	priv->resetting = want != 0;
	spin_unlock_irq(&priv->lock);
	if (!want)
		goto out;

	/* commands and the status word are in every window: no lock */
	if (!pcmcia_dev_present(priv->link))
		rc = -ENODEV;
	if (!rc && (want & C589_WANT_TX_RESET))
		rc = el3_cmd_wait(io, EL3_OP_TX_RESET, 0);
	if (!rc && (want & C589_WANT_RX_RESET))
		rc = el3_cmd_wait(io, EL3_OP_RX_RESET, 0);
	if (rc && rc != -ENODEV)
		netdev_err(priv->ndev, "the card did not finish its reset (%d)\n", rc);

	spin_lock_irq(&priv->lock);
	priv->resetting = false;
	if (priv->up && rc != -ENODEV) {
		if (want & C589_WANT_TX_RESET)
			el3_cmd(io, EL3_OP_TX_ENABLE, 0);
		if (want & C589_WANT_RX_RESET) {
			el3_cmd(io, EL3_OP_SET_RX_FILTER, priv->rx_filter);
			el3_cmd(io, EL3_OP_RX_ENABLE, 0);
		}
		el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ALL);
		c589_set_irq_mask(priv, C589_IRQS);
		netif_wake_queue(priv->ndev);
	}
	spin_unlock_irq(&priv->lock);
out:
	napi_enable(&priv->napi);
}

/* ---- net_device ---- */

static int c589_open(struct net_device *ndev)
{
	struct c589_dev *priv = netdev_priv(ndev);
	int rc;

	if (!pcmcia_dev_present(priv->link))
		return -ENODEV;
	rc = c589_chip_reset(priv);
	if (rc) {
		netdev_err(ndev, "the card did not finish its reset\n");
		return rc;
	}
	rc = request_irq(priv->link->irq, c589_interrupt, IRQF_SHARED,
			 ndev->name, priv);
	if (rc)
		return rc;
	c589_start(priv);
	netif_start_queue(ndev);
	return 0;
}

static int c589_stop(struct net_device *ndev)
{
	struct c589_dev *priv = netdev_priv(ndev);

	netif_stop_queue(ndev);
	c589_halt(priv);
	free_irq(priv->link->irq, priv);
	netif_carrier_off(ndev);
	return 0;
}

/* The chip has no multicast filter of its own: all groups or none. */
static void c589_set_rx_mode(struct net_device *ndev)
{
	struct c589_dev *priv = netdev_priv(ndev);
	u16 filter = EL3_RXF_STATION | EL3_RXF_BROADCAST;
	unsigned long flags;

	if (ndev->flags & IFF_PROMISC)
		filter |= EL3_RXF_MULTICAST | EL3_RXF_PROMISC;
	else if ((ndev->flags & IFF_ALLMULTI) || !netdev_mc_empty(ndev))
		filter |= EL3_RXF_MULTICAST;
	spin_lock_irqsave(&priv->lock, flags);
	priv->rx_filter = filter;
	if (priv->up && !priv->resetting)
		el3_cmd(priv->io, EL3_OP_SET_RX_FILTER, filter);
	spin_unlock_irqrestore(&priv->lock, flags);
}

static void c589_get_stats64(struct net_device *ndev,
			     struct rtnl_link_stats64 *stats)
{
	struct c589_dev *priv = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->up && !priv->resetting && netif_device_present(ndev))
		c589_read_stats(priv);
	*stats = priv->stats;
	spin_unlock_irqrestore(&priv->lock, flags);
}

const struct net_device_ops c589_netdev_ops = {
	.ndo_open		= c589_open,
	.ndo_stop		= c589_stop,
	.ndo_start_xmit		= c589_start_xmit,
	.ndo_tx_timeout		= c589_tx_timeout,
	.ndo_set_rx_mode	= c589_set_rx_mode,
	.ndo_get_stats64	= c589_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

/* ---- ethtool ---- */

static const u8 c589_ethtool_port[] = {
	[C589_XCVR_TP]	= PORT_TP,
	[C589_XCVR_BNC]	= PORT_BNC,
	[C589_XCVR_AUI]	= PORT_AUI,
};

static void c589_get_drvinfo(struct net_device *ndev,
			     struct ethtool_drvinfo *info)
{
	struct c589_dev *priv = netdev_priv(ndev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->bus_info, dev_name(&priv->link->dev),
		sizeof(info->bus_info));
}

/* 10 Mbit/s half duplex on one of three ports, no autonegotiation. */
static int c589_get_link_ksettings(struct net_device *ndev,
				   struct ethtool_link_ksettings *cmd)
{
	struct c589_dev *priv = netdev_priv(ndev);
	unsigned long *modes = cmd->link_modes.supported;

	linkmode_zero(modes);
	linkmode_set_bit(ETHTOOL_LINK_MODE_10baseT_Half_BIT, modes);
	linkmode_set_bit(ETHTOOL_LINK_MODE_TP_BIT, modes);
	linkmode_set_bit(ETHTOOL_LINK_MODE_BNC_BIT, modes);
	linkmode_set_bit(ETHTOOL_LINK_MODE_AUI_BIT, modes);
	linkmode_zero(cmd->link_modes.advertising);
	cmd->base.speed = SPEED_10;
	cmd->base.duplex = DUPLEX_HALF;
	cmd->base.autoneg = AUTONEG_DISABLE;
	cmd->base.port = c589_ethtool_port[READ_ONCE(priv->xcvr)];
	return 0;
}

/* Only the port can change: the transceiver. */
static int c589_set_link_ksettings(struct net_device *ndev,
				   const struct ethtool_link_ksettings *cmd)
{
	struct c589_dev *priv = netdev_priv(ndev);
	enum c589_xcvr xcvr = C589_XCVR_AUTO;
	int i;

	if (cmd->base.speed != SPEED_10 || cmd->base.duplex != DUPLEX_HALF ||
	    cmd->base.autoneg != AUTONEG_DISABLE)
		return -EINVAL;
	for (i = C589_XCVR_TP; i <= C589_XCVR_AUI; i++)
		if (c589_ethtool_port[i] == cmd->base.port)
			xcvr = i;
	if (xcvr == C589_XCVR_AUTO)
		return -EINVAL;
	if (xcvr == READ_ONCE(priv->xcvr))
		return 0;
	c589_media_stop(priv);
	c589_set_xcvr(priv, xcvr);
	netif_info(priv, link, ndev, "switched to the %s port\n",
		   c589_xcvr_name(xcvr));
	if (netif_running(ndev) && netif_device_present(ndev))
		c589_media_start(priv);
	return 0;
}

static u32 c589_get_msglevel(struct net_device *ndev)
{
	struct c589_dev *priv = netdev_priv(ndev);

	return priv->msg_enable;
}

static void c589_set_msglevel(struct net_device *ndev, u32 level)
{
	struct c589_dev *priv = netdev_priv(ndev);

	priv->msg_enable = level;
}

const struct ethtool_ops c589_ethtool_ops = {
	.get_drvinfo		= c589_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= c589_get_link_ksettings,
	.set_link_ksettings	= c589_set_link_ksettings,
	.get_msglevel		= c589_get_msglevel,
	.set_msglevel		= c589_set_msglevel,
};

/* The driver's state of a new card, in @ndev's private area. */
struct c589_dev *c589_nic_init(struct net_device *ndev,
			       struct pcmcia_device *link)
{
	struct c589_dev *priv = netdev_priv(ndev);

	priv->ndev = ndev;
	priv->link = link;
	link->priv = priv;
	spin_lock_init(&priv->lock);
	INIT_WORK(&priv->restart, c589_restart_work);
	INIT_DELAYED_WORK(&priv->media_poll, c589_media_work);
	netif_napi_add(priv->ndev, &priv->napi, c589_poll);
	priv->rx_filter = EL3_RXF_STATION | EL3_RXF_BROADCAST;
	return priv;
}
