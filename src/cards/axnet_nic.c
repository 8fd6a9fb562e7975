// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DP8390 side of the AX88190: packet memory through remote DMA on
 * the 16-bit data port, a receive ring read in NAPI, two transmit
 * buffers sent in turn, and the restarts that need process context
 * (receive ring overrun, transmit timeout) in a work item.
 *
 * The interrupt handler masks the chip and schedules NAPI; the chip's
 * interrupts come back on only when NAPI completes, so one place at a
 * time handles the chip's events.  The restart work takes NAPI away while
 * it runs and hands back to it when it is done.
 */

#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "axnet.h"

static_assert(offsetof(struct axn_dev, nic) == 0);

#define AXN_ACK_TRIES		4	/* the AX88190 may miss an ISR write */
#define AXN_RESET_POLLS		100	/* of 100-200 us: the reset takes < 2 ms */

static void axn_cr(struct axn_dev *priv, u8 run)
{
	priv->cr_run = run;
	outb(run | CR_RD_NONE, priv->io + AXN_CR);
}

/* Clear ISR bits; the AX88190 can drop such a write, so check it took. */
static void axn_ack(struct axn_dev *priv, u8 bits)
{
	unsigned long isr = priv->io + AXN_ISR;
	int i;

	outb(bits, isr);
	for (i = 0; i < AXN_ACK_TRIES && (inb(isr) & bits); i++) {
		outb(0, isr);
		outb(bits, isr);
	}
}

/* Remote DMA: @count bytes (even) of packet memory at @addr. */
static void axn_dma_begin(struct axn_dev *priv, u16 addr, u16 count, u8 dir)
{
	unsigned long io = priv->io;

	outb(count & 0xff, io + AXN_RBCR0);
	outb(count >> 8, io + AXN_RBCR1);
	outb(addr & 0xff, io + AXN_RSAR0);
	outb(addr >> 8, io + AXN_RSAR1);
	outb(dir | priv->cr_run, io + AXN_CR);
}

static void axn_dma_read(struct axn_dev *priv, u16 addr, void *buf, u16 count)
{
	axn_dma_begin(priv, addr, count, CR_RD_READ);
	insw(priv->io + AXN_DATA, buf, count / 2);
}

static void axn_dma_write(struct axn_dev *priv, u16 addr, const void *buf,
			  u16 count)
{
	axn_dma_begin(priv, addr, count, CR_RD_WRITE);
	outsw(priv->io + AXN_DATA, buf, count / 2);
}

/* Stopped, in monitor mode and loopback, interrupts masked. */
static void axn_hw_quiet(struct axn_dev *priv)
{
	unsigned long io = priv->io;

	axn_cr(priv, CR_STP);
	outb(DCR_WORDS, io + AXN_DCR);
	outb(0, io + AXN_RBCR0);
	outb(0, io + AXN_RBCR1);
	outb(RCR_MON | RCR_INTT, io + AXN_RCR);
	outb(TCR_LOOPBACK, io + AXN_TCR);
	outb(0, io + AXN_IMR);
	outb(0xff, io + AXN_ISR);
	priv->imr = 0;
}

/* Reset the card: process context, the chip masked. */
int axn_chip_reset(struct axn_dev *priv)
{
	unsigned long io = priv->io;
	int i;

	spin_lock_irq(&priv->lock);
	axn_cr(priv, CR_STP);
	outb(inb(io + AXN_RESET), io + AXN_RESET);
	spin_unlock_irq(&priv->lock);
	for (i = 0; i < AXN_RESET_POLLS; i++) {
		if (inb(io + AXN_ISR) & ISR_RST)
			break;
		usleep_range(100, 200);
	}
	outb(ISR_RST, io + AXN_ISR);
	return i < AXN_RESET_POLLS ? 0 : -ETIMEDOUT;
}

/* The station address the card keeps in its packet memory. */
void axn_read_mac(struct axn_dev *priv, u8 *addr)
{
	spin_lock_irq(&priv->lock);
	axn_hw_quiet(priv);
	axn_cr(priv, CR_STA);	/* remote DMA runs on a started chip */
	axn_dma_read(priv, AXN_MAC_ADDR, addr, ETH_ALEN);
	axn_cr(priv, CR_STP);
	spin_unlock_irq(&priv->lock);
}

/* The multicast hash (page 1) and the receive configuration. */
static void axn_load_rx_mode(struct axn_dev *priv)
{
	unsigned long io = priv->io;
	int i;

	outb(priv->cr_run | CR_RD_NONE | CR_PAGE1, io + AXN_CR);
	for (i = 0; i < ARRAY_SIZE(priv->mar); i++)
		outb(priv->mar[i], io + AXN_MAR0 + i);
	axn_cr(priv, priv->cr_run);
	outb(priv->rcr, io + AXN_RCR);
}

/* Frames loaded but not sent are lost in a restart. */
static void axn_tx_drop(struct axn_dev *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(priv->tx_len); i++) {
		if (priv->tx_len[i])
			priv->stats.tx_dropped++;
		priv->tx_len[i] = 0;
	}
	priv->tx_load = 0;
	priv->tx_send = 0;
	priv->tx_busy = -1;
}

/* Program and start the chip, its interrupts still masked. */
static void axn_hw_init(struct axn_dev *priv)
{
	unsigned long io = priv->io;
	int i;

	axn_hw_quiet(priv);
	outb(AXN_TX_PAGE, io + AXN_TPSR);
	outb(AXN_RX_START, io + AXN_PSTART);
	outb(AXN_RX_STOP, io + AXN_PSTOP);
	outb(AXN_RX_STOP - 1, io + AXN_BNRY);
	outb(CR_STP | CR_RD_NONE | CR_PAGE1, io + AXN_CR);
	for (i = 0; i < ETH_ALEN; i++)
		outb(priv->nic.ndev->dev_addr[i], io + AXN_PAR0 + i);
	outb(AXN_RX_START, io + AXN_CURR);
	axn_cr(priv, CR_STP);
	priv->next_rx = AXN_RX_START;
	priv->in_overrun = false;
	priv->resend = false;
	axn_tx_drop(priv);
	if (priv->ax88790)
		outb(AXN_GPIO_INTERNAL_PHY, io + AXN_GPIO);

	axn_cr(priv, CR_STA);
	outb(priv->tcr, io + AXN_TCR);
	axn_load_rx_mode(priv);	/* the receiver goes on last */
	outb(0xff, io + AXN_ISR);
}

/* NAPI polls once: it turns the chip's interrupts on when it is done. */
static void axn_napi_kick(struct axn_dev *priv)
{
	local_bh_disable();
	napi_schedule(&priv->napi);
	local_bh_enable();
}

static void axn_hw_start(struct axn_dev *priv)
{
	spin_lock_irq(&priv->lock);
	axn_hw_init(priv);
	priv->up = true;
	spin_unlock_irq(&priv->lock);
	napi_enable(&priv->napi);
	axn_napi_kick(priv);
}

/*
 * Stop the chip and everything that drives it: the restart work, NAPI
 * (stop and suspend, pcnic.c).  The interrupt handler stays registered.
 */
static void axn_halt(struct pcnic *nic)
{
	struct axn_dev *priv = to_axn(nic);

	spin_lock_irq(&priv->lock);
	priv->up = false;
	priv->want = 0;
	outb(0, priv->io + AXN_IMR);
	priv->imr = 0;
	axn_cr(priv, CR_STP);
	spin_unlock_irq(&priv->lock);
	cancel_work_sync(&priv->restart);
	napi_disable(&priv->napi);
	spin_lock_irq(&priv->lock);
	axn_tx_drop(priv);
	spin_unlock_irq(&priv->lock);
}

void axn_set_duplex(struct axn_dev *priv, bool full)
{
	spin_lock_irq(&priv->lock);
	priv->tcr = full ? TCR_FDU : 0;
	if (priv->up && !priv->in_overrun)
		outb(priv->tcr, priv->io + AXN_TCR);
	spin_unlock_irq(&priv->lock);
}

/* Hand the chip to the restart work (lock held). */
static void axn_want(struct axn_dev *priv, unsigned int what)
{
	if (!priv->up)
		return;
	outb(0, priv->io + AXN_IMR);
	priv->imr = 0;
	if (what & AXN_WANT_RESET)
		netif_stop_queue(priv->nic.ndev);
	priv->want |= what;
	schedule_work(&priv->restart);
}

/* ---- transmit ---- */

static void axn_tx_kick(struct axn_dev *priv)
{
	unsigned long io = priv->io;
	unsigned int len = priv->tx_len[priv->tx_send];

	/* not while stopped or draining after an overrun: later */
	if (priv->tx_busy >= 0 || priv->cr_run != CR_STA || priv->in_overrun ||
	    !len)
		return;
	outb(len & 0xff, io + AXN_TBCR0);
	outb(len >> 8, io + AXN_TBCR1);
	outb(AXN_TX_PAGE + priv->tx_send * AXN_TX_PAGES, io + AXN_TPSR);
	outb(CR_STA | CR_TXP | CR_RD_NONE, io + AXN_CR);
	priv->tx_busy = priv->tx_send;
	priv->tx_send ^= 1;
}

static void axn_tx_done(struct axn_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	u8 tsr = inb(priv->io + AXN_TSR);

	if (priv->tx_busy < 0)
		return;
	if (tsr & TSR_PTX) {
		st->tx_packets++;
		st->tx_bytes += priv->tx_len[priv->tx_busy];
	} else {
		st->tx_errors++;
		if (tsr & TSR_ABT) {
			st->tx_aborted_errors++;
			st->collisions += 16;
		}
		if (tsr & TSR_CRS)
			st->tx_carrier_errors++;
		if (tsr & TSR_FU)
			st->tx_fifo_errors++;
		if (tsr & TSR_CDH)
			st->tx_heartbeat_errors++;
		if (tsr & TSR_OWC)
			st->tx_window_errors++;
	}
	if (tsr & TSR_COL)
		st->collisions++;
	priv->tx_len[priv->tx_busy] = 0;
	priv->tx_busy = -1;
	axn_tx_kick(priv);
	if (!priv->tx_len[priv->tx_load] && !(priv->want & AXN_WANT_RESET))
		netif_wake_queue(priv->nic.ndev);
}

static netdev_tx_t axn_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct axn_dev *priv = netdev_priv(ndev);
	unsigned int len = max_t(unsigned int, skb->len, ETH_ZLEN);
	unsigned long flags;
	u8 slot;

	/* short frames go out zero-padded; the data port moves words */
	if (skb_padto(skb, ALIGN(len, 2))) {
		spin_lock_irqsave(&priv->lock, flags);
		priv->stats.tx_dropped++;
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_OK;
	}

	spin_lock_irqsave(&priv->lock, flags);
	slot = priv->tx_load;
	if (priv->tx_len[slot] || (priv->want & AXN_WANT_RESET)) {
		netif_stop_queue(ndev);
		spin_unlock_irqrestore(&priv->lock, flags);
		return NETDEV_TX_BUSY;
	}
	if (!priv->up) {
		priv->stats.tx_dropped++;
	} else {
		axn_dma_write(priv, (AXN_TX_PAGE + slot * AXN_TX_PAGES) << 8,
			      skb->data, ALIGN(len, 2));
		priv->tx_len[slot] = len;
		priv->tx_load ^= 1;
		axn_tx_kick(priv);
		if (priv->tx_len[priv->tx_load])
			netif_stop_queue(ndev);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

static void axn_tx_timeout(struct net_device *ndev, unsigned int txqueue)
{
	struct axn_dev *priv = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	netdev_warn(ndev, "transmit timed out (TSR %#04x, ISR %#04x), resetting\n",
		    inb(priv->io + AXN_TSR), inb(priv->io + AXN_ISR));
	priv->stats.tx_errors++;
	axn_want(priv, AXN_WANT_RESET);
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* ---- receive ---- */

static bool axn_in_ring(u8 page)
{
	return page >= AXN_RX_START && page < AXN_RX_STOP;
}

/*
 * The frame at next_rx (lock held): NULL when it was bad, ERR_PTR when
 * the ring is not what the chip should have made of it.
 */
static struct sk_buff *axn_rx_one(struct axn_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	struct sk_buff *skb = NULL;
	u8 hdr[AXN_HDR_LEN];
	unsigned int len;
	u16 at = priv->next_rx << 8;

	axn_dma_read(priv, at, hdr, sizeof(hdr));
	if (!axn_in_ring(hdr[1])) {
		netif_err(&priv->nic, rx_err, priv->nic.ndev,
			  "receive ring damaged at page %#04x: %4ph\n",
			  priv->next_rx, hdr);
		return ERR_PTR(-EIO);
	}
	len = get_unaligned_le16(&hdr[2]) - AXN_HDR_LEN;
	if (!(hdr[0] & RSR_PRX)) {
		st->rx_errors++;
		if (hdr[0] & RSR_FO)
			st->rx_fifo_errors++;
	} else if (len < ETH_ZLEN || len > ETH_FRAME_LEN + ETH_FCS_LEN) {
		netif_dbg(&priv->nic, rx_err, priv->nic.ndev, "frame of %u bytes dropped\n",
			  len);
		st->rx_errors++;
		st->rx_length_errors++;
	} else {
		/* one more byte: the data port moves words */
		skb = netdev_alloc_skb_ip_align(priv->nic.ndev, len + 1);
		if (skb) {
			axn_dma_read(priv, at + AXN_HDR_LEN, skb->data,
				     ALIGN(len, 2));
			skb_put(skb, len);
			st->rx_packets++;
			st->rx_bytes += len;
			if (hdr[0] & RSR_PHY)
				st->multicast++;
		} else {
			st->rx_dropped++;
		}
	}
	priv->next_rx = hdr[1];
	outb(hdr[1] == AXN_RX_START ? AXN_RX_STOP - 1 : hdr[1] - 1,
	     priv->io + AXN_BNRY);
	return skb;
}

/* Up to @budget frames from the ring; fewer when it is empty. */
static int axn_rx(struct axn_dev *priv, int budget)
{
	struct sk_buff *skb;
	int done = 0;
	u8 curr;

	while (done < budget) {
		spin_lock_irq(&priv->lock);
		curr = inb(priv->io + AXN_CURR_P0);
		if (curr == priv->next_rx) {
			spin_unlock_irq(&priv->lock);
			break;
		}
		skb = axn_in_ring(curr) ? axn_rx_one(priv) : ERR_PTR(-EIO);
		if (IS_ERR(skb)) {
			priv->stats.rx_errors++;
			axn_want(priv, AXN_WANT_RESET);
			spin_unlock_irq(&priv->lock);
			break;
		}
		spin_unlock_irq(&priv->lock);
		done++;
		if (skb)
			pcnic_rx(&priv->nic, skb);
	}
	return done;
}

/* ---- receive ring overrun, as National's DP8390 notes recover it ---- */

/* Step 1, in the restart work: stop, let the receiver finish, drain in loopback. */
static void axn_overrun(struct axn_dev *priv)
{
	unsigned long io = priv->io;
	bool sending;

	spin_lock_irq(&priv->lock);
	if (!priv->up)
		goto out;
	sending = inb(io + AXN_CR) & CR_TXP;
	axn_cr(priv, CR_STP);
	priv->stats.rx_over_errors++;
	spin_unlock_irq(&priv->lock);

	usleep_range(1600, 2000);	/* a frame in progress ends */

	spin_lock_irq(&priv->lock);
	if (!priv->up)
		goto out;
	outb(0, io + AXN_RBCR0);
	outb(0, io + AXN_RBCR1);
	/* a frame the stop cut short goes again once the ring is drained */
	priv->resend = sending && !(inb(io + AXN_ISR) & (ISR_PTX | ISR_TXE));
	outb(TCR_LOOPBACK, io + AXN_TCR);
	axn_cr(priv, CR_STA);
	priv->in_overrun = true;
out:
	spin_unlock_irq(&priv->lock);
}

/* Step 2, in NAPI once the ring is empty: back to normal (lock held). */
static void axn_overrun_done(struct axn_dev *priv)
{
	axn_ack(priv, ISR_OVW);
	outb(priv->tcr, priv->io + AXN_TCR);
	priv->in_overrun = false;
	if (priv->resend)
		outb(CR_STA | CR_TXP | CR_RD_NONE, priv->io + AXN_CR);
	priv->resend = false;
	axn_tx_kick(priv);
}

static void axn_restart_work(struct work_struct *work)
{
	struct axn_dev *priv = container_of(work, struct axn_dev, restart);
	unsigned int want;
	bool up;

	napi_disable(&priv->napi);
	spin_lock_irq(&priv->lock);
	want = priv->want;
	priv->want = 0;
	spin_unlock_irq(&priv->lock);

	if (!pcmcia_dev_present(priv->nic.link)) {
		want = 0;
	} else if (want & AXN_WANT_RESET) {
		if (axn_chip_reset(priv))
			netdev_err(priv->nic.ndev, "the card did not finish its reset\n");
		spin_lock_irq(&priv->lock);
		up = priv->up;
		if (up)
			axn_hw_init(priv);
		spin_unlock_irq(&priv->lock);
		if (up)
			netif_wake_queue(priv->nic.ndev);
	} else if (want & AXN_WANT_OVERRUN) {
		axn_overrun(priv);
	}
	napi_enable(&priv->napi);
	if (want && READ_ONCE(priv->up))
		axn_napi_kick(priv);
}

/* ---- interrupt and NAPI ---- */

static irqreturn_t axn_interrupt(int irq, void *data)
{
	struct axn_dev *priv = to_axn(data);
	irqreturn_t ret = IRQ_NONE;
	u8 isr;

	spin_lock(&priv->lock);
	if (priv->imr) {
		isr = inb(priv->io + AXN_ISR);
		/* 0xff: nobody answers, the card is gone */
		if (isr != 0xff && (isr & priv->imr)) {
			/*
			 * The other transmit buffer is usually loaded and the
			 * wire idles until TXP: restart it here, not a
			 * softirq later.
			 */
			if (isr & (ISR_PTX | ISR_TXE)) {
				axn_ack(priv, isr & (ISR_PTX | ISR_TXE));
				axn_tx_done(priv);
			}
			if (isr & priv->imr & ~(ISR_PTX | ISR_TXE)) {
				outb(0, priv->io + AXN_IMR);
				priv->imr = 0;
				napi_schedule(&priv->napi);
			}
			ret = IRQ_HANDLED;
		}
	}
	spin_unlock(&priv->lock);
	return ret;
}

static void axn_read_counters(struct axn_dev *priv)
{
	struct rtnl_link_stats64 *st = &priv->stats;
	unsigned long io = priv->io;
	u8 frame = inb(io + AXN_CNTR0);
	u8 crc = inb(io + AXN_CNTR1);
	u8 missed = inb(io + AXN_CNTR2);

	if ((frame & crc & missed) == 0xff)
		return;		/* the card is gone */
	st->rx_frame_errors += frame;
	st->rx_crc_errors += crc;
	st->rx_missed_errors += missed;
	st->rx_errors += frame + crc;
}

/* The chip's events but received frames (lock held); false: stop polling. */
static bool axn_events(struct axn_dev *priv)
{
	u8 isr = inb(priv->io + AXN_ISR);

	if (isr == 0xff)
		return false;
	/* OVW stays set until the ring is drained */
	axn_ack(priv, isr & ~(ISR_OVW | ISR_RST));
	if (isr & (ISR_PTX | ISR_TXE))
		axn_tx_done(priv);
	if (isr & ISR_CNT)
		axn_read_counters(priv);
	if ((isr & ISR_OVW) && !priv->in_overrun) {
		axn_want(priv, AXN_WANT_OVERRUN);
		return false;
	}
	return true;
}

static int axn_poll(struct napi_struct *napi, int budget)
{
	struct axn_dev *priv = container_of(napi, struct axn_dev, napi);
	bool more;
	int done = 0;

	spin_lock_irq(&priv->lock);
	more = priv->up && !priv->want && axn_events(priv);
	spin_unlock_irq(&priv->lock);
	if (more)
		done = axn_rx(priv, budget);
	if (done == budget)
		return budget;

	spin_lock_irq(&priv->lock);
	if (priv->in_overrun && more && !priv->want)
		axn_overrun_done(priv);
	spin_unlock_irq(&priv->lock);
	if (napi_complete_done(napi, done)) {
		spin_lock_irq(&priv->lock);
		if (priv->up && !priv->want) {
			priv->imr = AXN_IRQS;
			outb(priv->imr, priv->io + AXN_IMR);
		}
		spin_unlock_irq(&priv->lock);
	}
	return done;
}

/* ---- the life cycle (pcnic.c) ---- */

/*
 * A stop lets a frame on the wire finish, and the chip ignores a transmit
 * command until then: open starts from a reset.
 */
static int axn_reset(struct pcnic *nic)
{
	return axn_chip_reset(to_axn(nic));
}

static void axn_start(struct pcnic *nic)
{
	axn_hw_start(to_axn(nic));
	axn_phy_start(to_axn(nic));
}

static const struct pcnic_ops axn_pcnic_ops = {
	.reset		= axn_reset,
	.start		= axn_start,
	.halt		= axn_halt,
	.interrupt	= axn_interrupt,
};

/* ---- net_device ---- */

static void axn_set_rx_mode(struct net_device *ndev)
{
	struct axn_dev *priv = netdev_priv(ndev);
	struct netdev_hw_addr *ha;
	u8 rcr = RCR_AB | RCR_INTT;
	u8 mar[8] = {};
	unsigned long flags;
	u32 bit;

	if (ndev->flags & (IFF_PROMISC | IFF_ALLMULTI)) {
		rcr |= RCR_AM;
		memset(mar, 0xff, sizeof(mar));
		if (ndev->flags & IFF_PROMISC)
			rcr |= RCR_PRO;
	} else if (!netdev_mc_empty(ndev)) {
		rcr |= RCR_AM;
		/* the chip hashes a group address by its CRC's top 6 bits */
		netdev_for_each_mc_addr(ha, ndev) {
			bit = ether_crc(ETH_ALEN, ha->addr) >> 26;
			mar[bit / 8] |= BIT(bit % 8);
		}
	}
	spin_lock_irqsave(&priv->lock, flags);
	memcpy(priv->mar, mar, sizeof(mar));
	priv->rcr = rcr;
	if (priv->up)
		axn_load_rx_mode(priv);
	spin_unlock_irqrestore(&priv->lock, flags);
}

static void axn_get_stats64(struct net_device *ndev,
			    struct rtnl_link_stats64 *stats)
{
	struct axn_dev *priv = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->up && netif_device_present(ndev))
		axn_read_counters(priv);
	*stats = priv->stats;
	spin_unlock_irqrestore(&priv->lock, flags);
}

const struct net_device_ops axn_netdev_ops = {
	PCNIC_NETDEV_OPS,
	.ndo_start_xmit		= axn_start_xmit,
	.ndo_tx_timeout		= axn_tx_timeout,
	.ndo_set_rx_mode	= axn_set_rx_mode,
	.ndo_get_stats64	= axn_get_stats64,
	.ndo_eth_ioctl		= axn_mii_ioctl,
};

/* The driver's state of a new card, in @ndev's private area. */
struct axn_dev *axn_nic_init(struct net_device *ndev,
			     struct pcmcia_device *link)
{
	struct axn_dev *priv = netdev_priv(ndev);

	pcnic_init(&priv->nic, ndev, link, &axn_pcnic_ops);
	spin_lock_init(&priv->lock);
	INIT_WORK(&priv->restart, axn_restart_work);
	netif_napi_add(ndev, &priv->napi, axn_poll);
	priv->tx_busy = -1;
	priv->cr_run = CR_STP;
	priv->rcr = RCR_AB | RCR_INTT;
	return priv;
}
