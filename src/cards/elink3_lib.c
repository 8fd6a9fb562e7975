// SPDX-License-Identifier: GPL-2.0-only
/*
 * The EtherLink III code that the 3c589 and 3c574 drivers share (see
 * elink3.h): commands that take time, the EEPROM, the 3Com node ID tuple,
 * and the network side.
 *
 * Receive: the interrupt handler empties the RX FIFO into a backlog and
 * schedules NAPI, which hands the frames to the stack.  At 100 Mbit/s the
 * 3c574's FIFO fills sooner than a softirq may run, so the frames leave
 * the chip at once; only when the backlog is full does RX_COMPLETE leave
 * the interrupt mask, until NAPI has taken the backlog (not until it has
 * delivered it: the FIFO keeps draining while the stack works through
 * the frames, as it would with a deeper queue).  The other events the
 * handler deals with itself, until the
 * status word shows none of them (the IREQ of a card behind an ISA bridge
 * is edge-triggered: a status bit left set would block the next one).
 *
 * Transmit: a frame goes into the TX FIFO whole, behind its length; the
 * chip sends it from there.  When the FIFO has no room for a full-size
 * frame the queue stops, and the chip reports TX_AVAIL once it has: no
 * interrupt per frame.  Frames sent are counted by the chip (window 6);
 * the TX status stack holds entries for failed frames only.  The resets
 * that need process context (transmit timeout, transmitter errors,
 * adapter failure) run in a work item.
 */

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <pcmcia/cistpl.h>

#include "compat.h"
#include "elink3.h"

static_assert(offsetof(struct el3_dev, nic) == 0);

#define EL3_IRQ_ROUNDS		8	/* status words per interrupt */
/*
 * Frames waiting for NAPI, at most: also what one interrupt takes from
 * the FIFO, which bounds the time the handler runs while frames keep
 * coming faster than the card's I/O port delivers them.
 */
#define EL3_RX_BACKLOG		32
#define EL3_TX_STACK		32	/* entries the TX status stack can hold */

/*
 * A reset takes the chip about a millisecond; give it twenty before
 * calling it stuck.  Without sleeping (RxDiscard, in the interrupt
 * handler) a command gets 40 polls 1 us apart, under 100 us with the bus
 * reads: the chip drops a frame in a few microseconds.
 */
#define EL3_WAIT_POLLS		200
#define EL3_WAIT_US_MIN		50
#define EL3_WAIT_US_MAX		100
#define EL3_SPIN_POLLS		40

/* An EEPROM word takes 162 us to read. */
#define EL3_EEPROM_US_MIN	170
#define EL3_EEPROM_US_MAX	250
#define EL3_EEPROM_POLLS	20

/* CIS tuple in which some cards (3c562, 3c574) keep their address */
#define EL3_CISTPL_NODE_ID	0x88

/* 0: the chip is idle; -ENODEV: the card has gone; -EBUSY: still busy */
static int el3_cmd_state(unsigned long io)
{
	u16 status = inw(io + EL3_STATUS_REG);

	if (status == EL3_GONE)
		return -ENODEV;
	return status & EL3_ST_CMD_BUSY ? -EBUSY : 0;
}

/*
 * Issue a command and wait until the chip has carried it out; process
 * context.  -ETIMEDOUT: the chip stays busy; -ENODEV: the card has gone.
 */
int el3_cmd_wait(unsigned long io, enum el3_op op, u16 arg)
{
	unsigned int i;
	int rc;

	el3_cmd(io, op, arg);
	for (i = 0; i < EL3_WAIT_POLLS; i++) {
		rc = el3_cmd_state(io);
		if (rc != -EBUSY)
			return rc;
		usleep_range(EL3_WAIT_US_MIN, EL3_WAIT_US_MAX);
	}
	rc = el3_cmd_state(io);
	return rc == -EBUSY ? -ETIMEDOUT : rc;
}

/* The same for any context: commands that are quick (RxDiscard). */
int el3_cmd_wait_atomic(unsigned long io, enum el3_op op, u16 arg)
{
	unsigned int i;
	int rc;

	el3_cmd(io, op, arg);
	for (i = 0; i < EL3_SPIN_POLLS; i++) {
		rc = el3_cmd_state(io);
		if (rc != -EBUSY)
			return rc;
		udelay(1);
	}
	rc = el3_cmd_state(io);
	return rc == -EBUSY ? -ETIMEDOUT : rc;
}

/*
 * Word @index of the EEPROM, window 0 selected; @read_op is the chip's
 * read command (0x80 on the 3c589, 0x200 on the 3c574).  Process context.
 */
int el3_eeprom_read(unsigned long io, u16 read_op, unsigned int index,
		    u16 *val)
{
	u16 cmd;
	int i;

	outw(read_op | index, io + EL3_W0_EEPROM_CMD);
	for (i = 0; i < EL3_EEPROM_POLLS; i++) {
		usleep_range(EL3_EEPROM_US_MIN, EL3_EEPROM_US_MAX);
		cmd = inw(io + EL3_W0_EEPROM_CMD);
		if (cmd == EL3_GONE)
			return -ENODEV;
		if (!(cmd & EL3_EEPROM_BUSY)) {
			*val = inw(io + EL3_W0_EEPROM_DATA);
			return 0;
		}
	}
	return -ETIMEDOUT;
}

/*
 * The station address from the card's node ID tuple, if it has one: three
 * little-endian words, each holding two bytes of the address with the
 * first in its high half (as the EEPROM words do).
 */
bool el3_cis_node_id(struct pcmcia_device *link, u8 *addr)
{
	u8 *data = NULL;
	size_t len;
	int i;

	len = pcmcia_get_tuple(link, EL3_CISTPL_NODE_ID, &data);
	if (len >= ETH_ALEN) {
		for (i = 0; i < ETH_ALEN; i += 2) {
			addr[i] = data[i + 1];
			addr[i + 1] = data[i];
		}
	}
	kfree(data);
	return len >= ETH_ALEN;
}

/*
 * The station address, from the CIS or the EEPROM (window 0 selected;
 * @read_op and @node_word are the chip's EEPROM read command and where
 * the address starts); a random one if the card's is not valid.
 */
int el3_read_mac(struct el3_dev *el3, u16 read_op, unsigned int node_word)
{
	u8 addr[ETH_ALEN];
	u16 word;
	int i, rc;

	if (!el3_cis_node_id(el3->nic.link, addr)) {
		for (i = 0; i < ETH_ALEN / 2; i++) {
			rc = el3_eeprom_read(el3->io, read_op, node_word + i, &word);
			if (rc)
				return rc;
			addr[2 * i] = word >> 8;
			addr[2 * i + 1] = word & 0xff;
		}
	}
	pcnic_set_mac(&el3->nic, addr);
	return 0;
}

/* The chip behind the ports: a 3Com one that finishes its resets. */
int el3_check_chip(struct el3_dev *el3, const char *name)
{
	struct pcmcia_device *link = el3->nic.link;
	u16 id;

	el3_window(el3->io, 0);
	id = inw(el3->io + EL3_W0_MANF_ID);
	if (id != EL3_MANF_3COM) {
		dev_err(&link->dev, "no EtherLink III at %pR (ID %#06x)\n",
			link->resource[0], id);
		return -ENODEV;
	}
	if (el3_chip_reset(el3)) {
		dev_err(&link->dev, "the %s at %pR did not finish its reset\n",
			name, link->resource[0]);
		return -EIO;
	}
	return 0;
}

/*
 * The probe's first steps once the card is enabled: the chip at the
 * card's ports, checked and reset, and its station address (@read_op,
 * @node_word: see el3_read_mac()).  Window 0 stays selected.
 */
int el3_probe_chip(struct el3_dev *el3, const char *name, u16 read_op,
		   unsigned int node_word)
{
	int rc;

	el3->io = el3->nic.link->resource[0]->start;
	rc = el3_check_chip(el3, name);
	if (rc)
		return rc;
	el3_window(el3->io, 0);
	rc = el3_read_mac(el3, read_op, node_word);
	if (rc)
		dev_err(&el3->nic.link->dev, "cannot read the card's EEPROM (%d)\n", rc);
	return rc;
}

/* ---- the network side ---- */

static void el3_set_irq_mask(struct el3_dev *el3, u16 mask)
{
	el3->irq_mask = mask;
	el3_cmd(el3->io, EL3_OP_SET_INTR_ENB, mask);
}

/* The chip's counters (lock held; window 1 before and after). */
void el3_read_stats(struct el3_dev *el3)
{
	struct rtnl_link_stats64 *st = &el3->stats;
	unsigned long io = el3->io;
	u8 ctr[EL3_STAT_UPPER + 1] = { 0 };
	int i, n;

	if (inw(io + EL3_STATUS_REG) == EL3_GONE)
		return;
	n = el3->stats_upper ? EL3_STAT_UPPER + 1 : EL3_STAT_DEFERRED + 1;
	el3_cmd(io, EL3_OP_STATS_DISABLE, 0);
	el3_window(io, 6);
	for (i = 0; i < n; i++)
		ctr[i] = inb(io + i);
	/* the octet counts clear too: the driver counts bytes itself */
	inw(io + EL3_STAT_RX_OCTETS);
	inw(io + EL3_STAT_TX_OCTETS);
	el3_window(io, 1);
	el3_cmd(io, EL3_OP_STATS_ENABLE, 0);

	st->tx_packets += ctr[EL3_STAT_TX_FRAMES] +
			  ((ctr[EL3_STAT_UPPER] & 0x30) << 4);
	st->tx_carrier_errors += ctr[EL3_STAT_CARRIER_LOST];
	st->tx_heartbeat_errors += ctr[EL3_STAT_SQE];
	st->tx_window_errors += ctr[EL3_STAT_LATE_COLL];
	st->collisions += ctr[EL3_STAT_ONE_COLL] + ctr[EL3_STAT_MULTI_COLL];
	/* frames the RX FIFO had no room for, whole or in part */
	st->rx_fifo_errors += ctr[EL3_STAT_RX_OVERRUN];
}

/* Reset the transmitter and receiver: process context, chip masked. */
int el3_txrx_reset(struct el3_dev *el3)
{
	int rc;

	rc = el3_cmd_wait(el3->io, EL3_OP_TX_RESET, 0);
	if (!rc)
		rc = el3_cmd_wait(el3->io, EL3_OP_RX_RESET, 0);
	return rc;
}

/*
 * The chip's reset before it is programmed (open, resume, probe):
 * process context, chip masked.
 */
int el3_chip_reset(struct el3_dev *el3)
{
	if (el3->ops->chip_reset)
		return el3->ops->chip_reset(el3);
	return el3_txrx_reset(el3);
}

/* Program the chip after a reset and turn it on (lock held). */
static void el3_hw_init(struct el3_dev *el3)
{
	unsigned long io = el3->io;
	int i;

	el3_window(io, 2);
	for (i = 0; i < ETH_ALEN; i++)
		outb(el3->nic.ndev->dev_addr[i], io + i);
	el3_window(io, 1);
	el3->ops->hw_init(el3);
	/* what the counters hold from before is counted, then they run */
	el3_read_stats(el3);

	el3_cmd(io, EL3_OP_SET_RX_FILTER, el3->rx_filter);
	el3_cmd(io, EL3_OP_RX_ENABLE, 0);
	el3_cmd(io, EL3_OP_TX_ENABLE, 0);
	el3_cmd(io, EL3_OP_SET_STATUS_ENB, EL3_ST_ALL);
	el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ALL);
	el3_set_irq_mask(el3, EL3_IRQS);
}

static void el3_hw_start(struct el3_dev *el3)
{
	/* first NAPI, which the unmasked chip may need at once */
	napi_enable(&el3->napi);
	spin_lock_irq(&el3->lock);
	el3_hw_init(el3);
	el3->up = true;
	el3->running = true;
	spin_unlock_irq(&el3->lock);
}

/*
 * Stop the chip and everything that drives it: the restart work, NAPI
 * (stop and suspend, pcnic.c).  The interrupt handler stays registered.
 */
static void el3_halt(struct pcnic *nic)
{
	struct el3_dev *el3 = to_el3(nic);
	unsigned long io = el3->io;
	bool running;

	spin_lock_irq(&el3->lock);
	running = el3->running;
	el3->up = false;
	el3->running = false;
	el3->want = 0;
	el3_set_irq_mask(el3, 0);
	el3_cmd(io, EL3_OP_RX_DISABLE, 0);
	el3_cmd(io, EL3_OP_TX_DISABLE, 0);
	if (el3->ops->hw_stop)
		el3->ops->hw_stop(el3);
	if (running && !el3->resetting)
		el3_read_stats(el3);
	spin_unlock_irq(&el3->lock);
	if (!running)
		return;
	cancel_work_sync(&el3->restart);
	napi_disable(&el3->napi);
	/* neither NAPI nor the masked chip's handler touches it now */
	skb_queue_purge(&el3->rxq);
}

/* Hand the chip to the restart work (lock held). */
static void el3_want(struct el3_dev *el3, unsigned int what)
{
	if (!el3->up)
		return;
	el3_set_irq_mask(el3, 0);
	netif_stop_queue(el3->nic.ndev);
	el3->want |= what;
	schedule_work(&el3->restart);
}

/* ---- transmit ---- */

/* TX_AVAIL once a full-size frame fits (lock held). */
static void el3_tx_wait_room(struct el3_dev *el3)
{
	unsigned int unit = 1U << el3->thresh_shift;

	netif_stop_queue(el3->nic.ndev);
	el3_cmd(el3->io, EL3_OP_SET_TX_THRESH,
		DIV_ROUND_UP(EL3_TX_ROOM_MAX, unit));
}

netdev_tx_t el3_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct el3_dev *el3 = netdev_priv(ndev);
	unsigned long io = el3->io;
	unsigned long fifo = io + el3->w1 + EL3_W1_FIFO;
	unsigned long flags;
	unsigned int len;
	u32 tail = 0;

	if (skb_put_padto(skb, ETH_ZLEN)) {
		spin_lock_irqsave(&el3->lock, flags);
		el3->stats.tx_dropped++;
		spin_unlock_irqrestore(&el3->lock, flags);
		return NETDEV_TX_OK;
	}
	len = skb->len;

	spin_lock_irqsave(&el3->lock, flags);
	if (el3->want || el3->resetting) {
		netif_stop_queue(ndev);
		spin_unlock_irqrestore(&el3->lock, flags);
		return NETDEV_TX_BUSY;
	}
	if (!el3->up) {
		el3->stats.tx_dropped++;
		goto done;
	}
	if (inw(io + EL3_W1_TX_FREE) < EL3_TX_ROOM(len)) {
		/* the queue stops before that: not again */
		el3_tx_wait_room(el3);
		spin_unlock_irqrestore(&el3->lock, flags);
		return NETDEV_TX_BUSY;
	}
	outw(len, fifo);
	outw(0, fifo);
	outsl(fifo, skb->data, len / 4);
	if (len % 4) {
		memcpy(&tail, skb->data + round_down(len, 4), len % 4);
		outsl(fifo, &tail, 1);
	}
	el3->stats.tx_bytes += len;
	if (inw(io + EL3_W1_TX_FREE) < EL3_TX_ROOM_MAX)
		el3_tx_wait_room(el3);
done:
	spin_unlock_irqrestore(&el3->lock, flags);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

/*
 * The TX status stack: an entry for each frame the chip gave up on (lock
 * held).  Any error stops the transmitter; after jabber or an underrun it
 * needs a reset too.  Returns what the restart work must do.
 */
static unsigned int el3_tx_errors(struct el3_dev *el3)
{
	struct rtnl_link_stats64 *st = &el3->stats;
	unsigned long txs_port = el3->io + el3->w1 + EL3_W1_TX_STATUS;
	unsigned int want = 0;
	bool stopped = false;
	u8 txs;
	int i;

	for (i = 0; i < EL3_TX_STACK; i++) {
		txs = inb(txs_port);
		if (txs == 0xff || !(txs & EL3_TXS_COMPLETE))
			break;
		if (txs & (EL3_TXS_JABBER | EL3_TXS_UNDERRUN |
			   EL3_TXS_MAX_COLL)) {
			st->tx_errors++;
			stopped = true;
			netif_dbg(&el3->nic, tx_err, el3->nic.ndev,
				  "frame not sent, TX status %#04x\n", txs);
		}
		if (txs & EL3_TXS_MAX_COLL) {
			st->tx_aborted_errors++;
			st->collisions += 16;
		}
		if (txs & EL3_TXS_UNDERRUN)
			st->tx_fifo_errors++;
		if (txs & (EL3_TXS_JABBER | EL3_TXS_UNDERRUN))
			want |= EL3_WANT_TX_RESET;
		outb(0, txs_port);		/* pop */
	}
	if (stopped && !want)
		el3_cmd(el3->io, EL3_OP_TX_ENABLE, 0);
	return want;
}

void el3_tx_timeout(struct net_device *ndev, unsigned int txqueue)
{
	struct el3_dev *el3 = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&el3->lock, flags);
	if (el3->up && !el3->resetting)
		netdev_warn(ndev, "transmit timed out (status %#06x, %u bytes free), resetting the transmitter\n",
			    inw(el3->io + EL3_STATUS_REG),
			    inw(el3->io + EL3_W1_TX_FREE));
	el3->stats.tx_errors++;
	el3_want(el3, EL3_WANT_TX_RESET);
	spin_unlock_irqrestore(&el3->lock, flags);
}

/* ---- receive ---- */

static void el3_rx_error(struct el3_dev *el3, u16 rxs)
{
	struct rtnl_link_stats64 *st = &el3->stats;

	st->rx_errors++;
	switch (rxs & EL3_RXS_CODE) {
	case EL3_RXS_OVERRUN:
		st->rx_over_errors++;
		break;
	case EL3_RXS_OVERSIZE:
	case EL3_RXS_RUNT:
		st->rx_length_errors++;
		break;
	case EL3_RXS_DRIBBLE:
	case EL3_RXS_ALIGN:
		st->rx_frame_errors++;
		break;
	case EL3_RXS_CRC:
		st->rx_crc_errors++;
		break;
	}
	netif_dbg(&el3->nic, rx_err, el3->nic.ndev, "frame dropped, RX status %#06x\n",
		  rxs);
}

/*
 * The oldest frame of the RX FIFO (lock held): NULL when it was bad,
 * ERR_PTR(-ENOENT) when there is none (or the card has gone).
 */
static struct sk_buff *el3_rx_one(struct el3_dev *el3)
{
	struct rtnl_link_stats64 *st = &el3->stats;
	unsigned long io = el3->io;
	struct sk_buff *skb = NULL;
	unsigned int len;
	u16 rxs;

	rxs = inw(io + el3->w1 + EL3_W1_RX_STATUS);
	if (rxs & EL3_RXS_INCOMPLETE)
		return ERR_PTR(-ENOENT);
	len = rxs & EL3_RXS_LEN;
	if (rxs & EL3_RXS_ERROR) {
		el3_rx_error(el3, rxs);
	} else if (len < ETH_HLEN) {
		st->rx_errors++;
		st->rx_length_errors++;
	} else {
		/* the FIFO gives whole 32-bit words */
		skb = netdev_alloc_skb_ip_align(el3->nic.ndev, ALIGN(len, 4));
		if (skb) {
			insl(io + el3->w1 + EL3_W1_FIFO, skb->data,
			     ALIGN(len, 4) / 4);
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
		netif_err(&el3->nic, rx_err, el3->nic.ndev,
			  "the chip does not drop a received frame, resetting the receiver\n");
		el3_want(el3, EL3_WANT_RX_RESET);
	}
	return skb;
}

/*
 * Empty the RX FIFO into the backlog (lock held, interrupt handler).  A
 * full backlog leaves the rest in the chip with RX_COMPLETE masked; NAPI
 * unmasks it once it has taken the backlog.
 */
static void el3_rx_drain(struct el3_dev *el3)
{
	struct sk_buff *skb;

	while (skb_queue_len(&el3->rxq) < EL3_RX_BACKLOG) {
		skb = el3_rx_one(el3);
		if (IS_ERR(skb))
			break;
		if (skb)
			__skb_queue_tail(&el3->rxq, skb);
		if (el3->want)
			break;
	}
	if (skb_queue_len(&el3->rxq) >= EL3_RX_BACKLOG)
		el3_set_irq_mask(el3, el3->irq_mask & ~EL3_ST_RX_COMPLETE);
	if (!skb_queue_empty(&el3->rxq))
		napi_schedule(&el3->napi);
}

/* RX_COMPLETE back in the mask if the backlog has room (lock held). */
static void el3_rx_unmask(struct el3_dev *el3)
{
	if (el3->up && !el3->want && !el3->resetting &&
	    !(el3->irq_mask & EL3_ST_RX_COMPLETE) &&
	    skb_queue_len(&el3->rxq) < EL3_RX_BACKLOG)
		el3_set_irq_mask(el3, EL3_IRQS);
}

static int el3_poll(struct napi_struct *napi, int budget)
{
	struct el3_dev *el3 = container_of(napi, struct el3_dev, napi);
	struct sk_buff_head frames;
	struct sk_buff *skb;
	int done = 0;

	__skb_queue_head_init(&frames);
	spin_lock_irq(&el3->lock);
	skb_queue_splice_init(&el3->rxq, &frames);
	/* the backlog has room again: let the handler go on draining */
	el3_rx_unmask(el3);
	spin_unlock_irq(&el3->lock);

	while (done < budget && (skb = __skb_dequeue(&frames))) {
		pcnic_rx(&el3->nic, skb);
		done++;
	}
	if (done == budget) {
		/* what is left goes back in front of what came meanwhile */
		spin_lock_irq(&el3->lock);
		skb_queue_splice(&frames, &el3->rxq);
		spin_unlock_irq(&el3->lock);
		return budget;
	}

	if (napi_complete_done(napi, done)) {
		spin_lock_irq(&el3->lock);
		el3_rx_unmask(el3);
		spin_unlock_irq(&el3->lock);
	}
	return done;
}

/* ---- interrupt and restarts ---- */

/* FIFO trouble the chip reports as an adapter failure (lock held). */
static unsigned int el3_adapter_failure(struct el3_dev *el3)
{
	unsigned long io = el3->io;
	unsigned int want = 0;
	u16 diag;

	el3_window(io, 4);
	diag = inw(io + EL3_W4_FIFO_DIAG);
	el3_window(io, 1);
	netif_err(&el3->nic, hw, el3->nic.ndev, "adapter failure, FIFO diagnostics %#06x\n",
		  diag);
	if (diag & EL3_DIAG_TX_OVERRUN) {
		el3->stats.tx_fifo_errors++;
		want |= EL3_WANT_TX_RESET;
	}
	if (diag & EL3_DIAG_RX_UNDERRUN) {
		el3->stats.rx_fifo_errors++;
		want |= EL3_WANT_RX_RESET;
	}
	el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ADAPTER_FAIL);
	return want;
}

static irqreturn_t el3_interrupt(int irq, void *data)
{
	struct el3_dev *el3 = to_el3(data);
	unsigned long io = el3->io;
	irqreturn_t ret = IRQ_NONE;
	unsigned int want = 0;
	u16 status;
	int round;

	spin_lock(&el3->lock);
	for (round = 0; round < EL3_IRQ_ROUNDS && el3->irq_mask; round++) {
		status = inw(io + EL3_STATUS_REG);
		/* all ones, or not the window left selected: the card is gone */
		if (status == EL3_GONE || el3_status_window(status) != 1)
			break;
		if (!(status & el3->irq_mask))
			break;
		ret = IRQ_HANDLED;
		if (status & el3->irq_mask & EL3_ST_RX_COMPLETE)
			el3_rx_drain(el3);
		if (status & EL3_ST_TX_COMPLETE)
			want |= el3_tx_errors(el3);
		if (status & EL3_ST_TX_AVAIL) {
			el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_TX_AVAIL);
			if (!want)
				netif_wake_queue(el3->nic.ndev);
		}
		if (status & EL3_ST_STATS_FULL)
			el3_read_stats(el3);
		if (status & EL3_ST_ADAPTER_FAIL)
			want |= el3_adapter_failure(el3);
		el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_INT_LATCH | EL3_ST_INT_REQ |
			EL3_ST_RX_EARLY);
		if (want) {
			el3_want(el3, want);
			break;
		}
	}
	if (round == EL3_IRQ_ROUNDS) {
		if (net_ratelimit())
			netdev_warn(el3->nic.ndev,
				    "events keep coming (status %#06x), acknowledging them all\n",
				    inw(io + EL3_STATUS_REG));
		el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ALL);
	}
	spin_unlock(&el3->lock);
	return ret;
}

static void el3_restart_work(struct work_struct *work)
{
	struct el3_dev *el3 = container_of(work, struct el3_dev, restart);
	unsigned long io = el3->io;
	unsigned int want;
	int rc = 0;

	napi_disable(&el3->napi);
	spin_lock_irq(&el3->lock);
	want = el3->up ? el3->want : 0;
	el3->want = 0;
	el3->resetting = want != 0;
	spin_unlock_irq(&el3->lock);
	if (!want)
		goto out;

	/* commands and the status word are in every window: no lock */
	if (!pcmcia_dev_present(el3->nic.link))
		rc = -ENODEV;
	if (!rc && (want & EL3_WANT_TX_RESET))
		rc = el3_cmd_wait(io, EL3_OP_TX_RESET, 0);
	if (!rc && (want & EL3_WANT_RX_RESET))
		rc = el3_cmd_wait(io, EL3_OP_RX_RESET, 0);
	if (rc && rc != -ENODEV)
		netdev_err(el3->nic.ndev, "the card did not finish its reset (%d)\n", rc);

	spin_lock_irq(&el3->lock);
	el3->resetting = false;
	if (el3->up && rc != -ENODEV) {
		if (want & EL3_WANT_TX_RESET)
			el3_cmd(io, EL3_OP_TX_ENABLE, 0);
		if (want & EL3_WANT_RX_RESET) {
			el3_cmd(io, EL3_OP_SET_RX_FILTER, el3->rx_filter);
			el3_cmd(io, EL3_OP_RX_ENABLE, 0);
		}
		el3_cmd(io, EL3_OP_ACK_INTR, EL3_ST_ALL);
		el3_set_irq_mask(el3, EL3_IRQS);
		netif_wake_queue(el3->nic.ndev);
	}
	spin_unlock_irq(&el3->lock);
out:
	napi_enable(&el3->napi);
	/* frames taken from the FIFO before the reset still go up */
	spin_lock_irq(&el3->lock);
	if (!skb_queue_empty(&el3->rxq))
		napi_schedule(&el3->napi);
	spin_unlock_irq(&el3->lock);
}

/* ---- the life cycle (pcnic.c) ---- */

static int el3_reset(struct pcnic *nic)
{
	return el3_chip_reset(to_el3(nic));
}

/* The card programmed and running, its link followed: open and resume. */
static void el3_start(struct pcnic *nic)
{
	struct el3_dev *el3 = to_el3(nic);

	el3_hw_start(el3);
	el3->ops->link_start(el3);
}

static const struct pcnic_ops el3_pcnic_ops = {
	.reset		= el3_reset,
	.start		= el3_start,
	.halt		= el3_halt,
	.interrupt	= el3_interrupt,
};

/* ---- net_device ---- */

/*
 * All multicast groups or none: the 3c589 has no multicast filter, and
 * the 3c574's hash filter is not documented.
 */
void el3_set_rx_mode(struct net_device *ndev)
{
	struct el3_dev *el3 = netdev_priv(ndev);
	u16 filter = EL3_RXF_STATION | EL3_RXF_BROADCAST;
	unsigned long flags;

	if (ndev->flags & IFF_PROMISC)
		filter |= EL3_RXF_MULTICAST | EL3_RXF_PROMISC;
	else if ((ndev->flags & IFF_ALLMULTI) || !netdev_mc_empty(ndev))
		filter |= EL3_RXF_MULTICAST;
	spin_lock_irqsave(&el3->lock, flags);
	el3->rx_filter = filter;
	if (el3->up && !el3->resetting)
		el3_cmd(el3->io, EL3_OP_SET_RX_FILTER, filter);
	spin_unlock_irqrestore(&el3->lock, flags);
}

void el3_get_stats64(struct net_device *ndev, struct rtnl_link_stats64 *stats)
{
	struct el3_dev *el3 = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&el3->lock, flags);
	if (el3->up && !el3->resetting && netif_device_present(ndev))
		el3_read_stats(el3);
	*stats = el3->stats;
	spin_unlock_irqrestore(&el3->lock, flags);
}

/*
 * The network side of a new card, at the start of @ndev's private area;
 * the driver sets io, w1, thresh_shift and stats_upper before open.
 */
void el3_dev_init(struct el3_dev *el3, struct net_device *ndev,
		  struct pcmcia_device *link, const struct el3_ops *ops)
{
	pcnic_init(&el3->nic, ndev, link, &el3_pcnic_ops);
	el3->ops = ops;
	spin_lock_init(&el3->lock);
	INIT_WORK(&el3->restart, el3_restart_work);
	__skb_queue_head_init(&el3->rxq);
	netif_napi_add(ndev, &el3->napi, el3_poll);
	el3->rx_filter = EL3_RXF_STATION | EL3_RXF_BROADCAST;
}
