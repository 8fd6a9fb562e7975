// SPDX-License-Identifier: GPL-2.0-only
/*
 * New Media Ethernet PC Cards: the network side (see nmclan.h).
 *
 * Receive: every frame the MACE completes raises its receive interrupt;
 * the handler reads (and so clears) the interrupt register and schedules
 * NAPI, which takes the frames the glue holds, oldest first, until its
 * frame count is 0.
 *
 * Transmit: up to four frames wait in the card's SRAM.  The MACE reports
 * each frame sent with an interrupt and a status that the handler reads,
 * which frees the frame's buffer in the card; the queue stops while all
 * four are taken.  A transmit timeout resets the whole card (the glue
 * through the COR's soft reset, then the MACE) in a work item.
 *
 * The MACE has no link interrupt: the shared link poll (pcnic.c) reads the
 * 10BASE-T link state once a second and follows it with the carrier.
 */

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/skbuff.h>
#include <pcmcia/cisreg.h>

#include "compat.h"
#include "nmclan.h"

static_assert(offsetof(struct nm_dev, nic) == 0);

#define NM_IRQ_ROUNDS		8

/*
 * The MACE leaves its reset within 200 ns; give it a millisecond before
 * calling it stuck.  The COR's soft reset is held for 100 us.
 */
#define NM_RESET_POLLS		50
#define NM_RESET_US_MIN		20
#define NM_RESET_US_MAX		40
#define NM_SRESET_US_MIN	100
#define NM_SRESET_US_MAX	200
/*
 * An address change waits for a frame being received: the driver turns
 * the receiver off first, so that it is at most the one in progress.
 */
#define NM_ADDRCHG_POLLS	80

/* ---- register access: lock held, or the card not yet in use ---- */

u8 nm_mace_read(struct nm_dev *nm, enum nm_mace_reg reg)
{
	u8 val;

	if (reg < 16)
		return inb(nm->io + NM_MACE + reg);
	outb(1, nm->io + NM_BANK);
	val = inb(nm->io + NM_MACE + reg - 16);
	outb(0, nm->io + NM_BANK);
	return val;
}

static void nm_mace_write(struct nm_dev *nm, enum nm_mace_reg reg, u8 val)
{
	if (reg < 16) {
		outb(val, nm->io + NM_MACE + reg);
		return;
	}
	outb(1, nm->io + NM_BANK);
	outb(val, nm->io + NM_MACE + reg - 16);
	outb(0, nm->io + NM_BANK);
}

/* The glue's frame count reads all ones once the card has gone. */
static bool nm_gone(struct nm_dev *nm)
{
	return inb(nm->io + NM_RX_FRAMES) == NM_GONE;
}

/*
 * Load the physical (@which MACE_IAC_PHYADDR) or logical address
 * register: the MACE takes the change once no frame is in progress.
 */
static int nm_load_address(struct nm_dev *nm, u8 which, const u8 *data,
			   unsigned int len)
{
	enum nm_mace_reg reg = which == MACE_IAC_PHYADDR ? MACE_REG_PADR :
							    MACE_REG_LADRF;
	unsigned int i;
	u8 iac;

	nm_mace_write(nm, MACE_REG_IAC, MACE_IAC_ADDRCHG | which);
	for (i = 0; i < NM_ADDRCHG_POLLS; i++) {
		iac = nm_mace_read(nm, MACE_REG_IAC);
		if (iac == NM_GONE)
			return -ENODEV;
		if (!(iac & MACE_IAC_ADDRCHG))
			break;
		udelay(1);
	}
	if (i == NM_ADDRCHG_POLLS)
		return -ETIMEDOUT;
	for (i = 0; i < len; i++)
		nm_mace_write(nm, reg, data[i]);
	return 0;
}

/* ---- reset and programming ---- */

/*
 * Reset the whole card: the glue (its frames, sent or not, go) through
 * the COR's soft reset, then the MACE's own reset.  Process context, the
 * card not in use.  -ETIMEDOUT: the MACE stays in reset; -ENODEV: the
 * card has gone.
 */
int nm_card_reset(struct nm_dev *nm)
{
	struct pcmcia_device *link = nm->nic.link;
	unsigned int i;
	u8 cor, biucc;
	int rc;

	rc = pcmcia_read_config_byte(link, CISREG_COR, &cor);
	if (!rc)
		rc = pcmcia_write_config_byte(link, CISREG_COR, COR_SOFT_RESET);
	if (rc)
		return -ENODEV;
	usleep_range(NM_SRESET_US_MIN, NM_SRESET_US_MAX);
	rc = pcmcia_write_config_byte(link, CISREG_COR, cor & ~COR_SOFT_RESET);
	if (rc)
		return -ENODEV;

	outb(0, nm->io + NM_BANK);
	nm_mace_write(nm, MACE_REG_BIUCC, MACE_BIUCC_SWRST);
	for (i = 0; i < NM_RESET_POLLS; i++) {
		biucc = nm_mace_read(nm, MACE_REG_BIUCC);
		if (biucc == NM_GONE)
			return -ENODEV;
		if (!(biucc & MACE_BIUCC_SWRST))
			break;
		usleep_range(NM_RESET_US_MIN, NM_RESET_US_MAX);
	}
	if (i == NM_RESET_POLLS)
		return -ETIMEDOUT;
	/* nothing interrupts before the driver is ready for it */
	nm_mace_write(nm, MACE_REG_IMR, MACE_IR_ALL);
	return 0;
}

/* What the counters hold is counted, and they start again (lock held). */
static void nm_read_counters(struct nm_dev *nm)
{
	struct rtnl_link_stats64 *st = &nm->stats;

	if (nm_gone(nm))
		return;
	st->rx_missed_errors += nm_mace_read(nm, MACE_REG_MPC);
	st->rx_length_errors += nm_mace_read(nm, MACE_REG_RNTPC);
	st->collisions += nm_mace_read(nm, MACE_REG_RCVCC);
}

/* Program the MACE after a reset and turn it on (lock held). */
static void nm_hw_init(struct nm_dev *nm)
{
	struct net_device *ndev = nm->nic.ndev;

	nm_mace_write(nm, MACE_REG_FIFOCC, MACE_FIFOCC_BURST);
	nm_mace_write(nm, MACE_REG_RCVFC, 0);	/* frames whole, with FCS */
	nm_mace_write(nm, MACE_REG_XMTFC, MACE_XMTFC_APAD);
	nm_mace_write(nm, MACE_REG_PLSCC, MACE_PLSCC_10BASET);
	nm_mace_write(nm, MACE_REG_UTR, 0);
	if (nm_load_address(nm, MACE_IAC_PHYADDR, ndev->dev_addr, ETH_ALEN) ||
	    nm_load_address(nm, MACE_IAC_LOGADDR, nm->ladrf, NM_LADRF_LEN))
		netdev_err(ndev, "the MACE does not take its addresses\n");
	nm_read_counters(nm);
	nm->tx_queued = 0;
	nm_mace_read(nm, MACE_REG_IR);
	nm_mace_write(nm, MACE_REG_IMR, MACE_IMR_RUNNING);
	nm_mace_write(nm, MACE_REG_MACCC, nm->maccc);
}

/* The MACE stops and interrupts no more (lock held). */
static void nm_hw_stop(struct nm_dev *nm)
{
	nm_mace_write(nm, MACE_REG_IMR, MACE_IR_ALL);
	nm_mace_write(nm, MACE_REG_MACCC, 0);
}

/* ---- link ---- */

/* The link poll's look at the 10BASE-T link state (pcnic.c). */
static void nm_check_link(struct pcnic *nic, bool first)
{
	struct nm_dev *nm = to_nm(nic);
	u8 phycc = NM_GONE;

	spin_lock_irq(&nm->lock);
	if (nm->up && !nm->resetting)
		phycc = nm_mace_read(nm, MACE_REG_PHYCC);
	spin_unlock_irq(&nm->lock);
	if (phycc != NM_GONE)
		pcnic_link_10(nic, !(phycc & MACE_PHYCC_LINK_FAIL), first);
}

/* ---- start and stop (pcnic.c) ---- */

static int nm_reset(struct pcnic *nic)
{
	return nm_card_reset(to_nm(nic));
}

/* After the card's reset: open, resume. */
static void nm_start(struct pcnic *nic)
{
	struct nm_dev *nm = to_nm(nic);

	napi_enable(&nm->napi);
	spin_lock_irq(&nm->lock);
	nm_hw_init(nm);
	nm->up = true;
	nm->running = true;
	spin_unlock_irq(&nm->lock);
	pcnic_link_start(nic);
}

/* Nothing runs on the card any more: the work, NAPI. */
static void nm_halt(struct pcnic *nic)
{
	struct nm_dev *nm = to_nm(nic);
	bool running;

	spin_lock_irq(&nm->lock);
	running = nm->running;
	nm->up = false;
	nm->running = false;
	if (!nm->resetting) {
		nm_hw_stop(nm);
		nm_read_counters(nm);
	}
	spin_unlock_irq(&nm->lock);
	if (!running)
		return;
	cancel_work_sync(&nm->restart);
	napi_disable(&nm->napi);
}

/* ---- transmit ---- */

static netdev_tx_t nm_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct nm_dev *nm = netdev_priv(ndev);
	unsigned long io = nm->io;
	unsigned long flags;
	unsigned int len;

	if (skb_put_padto(skb, ETH_ZLEN)) {
		spin_lock_irqsave(&nm->lock, flags);
		nm->stats.tx_dropped++;
		spin_unlock_irqrestore(&nm->lock, flags);
		return NETDEV_TX_OK;
	}
	len = skb->len;

	spin_lock_irqsave(&nm->lock, flags);
	if (nm->resetting || (nm->up && nm->tx_queued >= NM_TX_SLOTS)) {
		netif_stop_queue(ndev);
		spin_unlock_irqrestore(&nm->lock, flags);
		return NETDEV_TX_BUSY;
	}
	if (!nm->up) {
		nm->stats.tx_dropped++;
		goto done;
	}
	outw(len, io + NM_TX_DATA);
	outsw(io + NM_TX_DATA, skb->data, len / 2);
	if (len & 1)
		outb(skb->data[len - 1], io + NM_TX_DATA);
	nm->stats.tx_bytes += len;
	if (++nm->tx_queued == NM_TX_SLOTS)
		netif_stop_queue(ndev);
done:
	spin_unlock_irqrestore(&nm->lock, flags);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

/* The status of each frame sent; their buffers are free again (lock held). */
static void nm_tx_done(struct nm_dev *nm)
{
	struct rtnl_link_stats64 *st = &nm->stats;
	unsigned int i;
	u8 retries, fs;

	for (i = 0; i < NM_TX_SLOTS; i++) {
		if (!(nm_mace_read(nm, MACE_REG_PR) & MACE_PR_XMTSV))
			break;
		/* the retry count first: reading the status clears it */
		retries = nm_mace_read(nm, MACE_REG_XMTRC);
		fs = nm_mace_read(nm, MACE_REG_XMTFS);
		if (fs == NM_GONE || !(fs & MACE_XMTFS_VALID))
			break;
		if (nm->tx_queued)
			nm->tx_queued--;
		st->collisions += retries & MACE_XMTRC_RETRIES;
		if (fs & (MACE_XMTFS_RETRY_ERR | MACE_XMTFS_UNDERFLOW |
			  MACE_XMTFS_NO_CARRIER | MACE_XMTFS_LATE_COLL)) {
			st->tx_errors++;
			netif_dbg(&nm->nic, tx_err, nm->nic.ndev,
				  "frame not sent, status %#04x\n", fs);
		} else {
			st->tx_packets++;
		}
		if (fs & MACE_XMTFS_RETRY_ERR)
			st->tx_aborted_errors++;
		if (fs & MACE_XMTFS_UNDERFLOW)
			st->tx_fifo_errors++;
		if (fs & MACE_XMTFS_NO_CARRIER)
			st->tx_carrier_errors++;
		if (fs & MACE_XMTFS_LATE_COLL)
			st->tx_window_errors++;
	}
	if (nm->tx_queued < NM_TX_SLOTS && !nm->resetting)
		netif_wake_queue(nm->nic.ndev);
}

/* Hand the card to the restart work (lock held). */
static void nm_want_reset(struct nm_dev *nm)
{
	if (!nm->up || nm->resetting)
		return;
	nm_mace_write(nm, MACE_REG_IMR, MACE_IR_ALL);
	netif_stop_queue(nm->nic.ndev);
	schedule_work(&nm->restart);
}

static void nm_tx_timeout(struct net_device *ndev, unsigned int txqueue)
{
	struct nm_dev *nm = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&nm->lock, flags);
	if (nm->up && !nm->resetting)
		netdev_warn(ndev, "transmit timed out (%u frames in the card, FIFO counts %#04x), resetting the card\n",
			    nm->tx_queued, nm_mace_read(nm, MACE_REG_FIFOFC));
	nm->stats.tx_errors++;
	nm_want_reset(nm);
	spin_unlock_irqrestore(&nm->lock, flags);
}

static void nm_restart_work(struct work_struct *work)
{
	struct nm_dev *nm = container_of(work, struct nm_dev, restart);
	bool up;
	int rc;

	napi_disable(&nm->napi);
	spin_lock_irq(&nm->lock);
	up = nm->up;
	nm->resetting = up;
	spin_unlock_irq(&nm->lock);
	if (!up)
		goto out;

	rc = pcmcia_dev_present(nm->nic.link) ? nm_card_reset(nm) : -ENODEV;
	if (rc && rc != -ENODEV)
		netdev_err(nm->nic.ndev, "the card did not finish its reset (%d)\n", rc);

	spin_lock_irq(&nm->lock);
	nm->resetting = false;
	if (nm->up && !rc) {
		nm_hw_init(nm);
		netif_wake_queue(nm->nic.ndev);
	}
	spin_unlock_irq(&nm->lock);
out:
	napi_enable(&nm->napi);
}

/* ---- receive ---- */

static void nm_rx_error(struct nm_dev *nm, u16 rxs)
{
	struct rtnl_link_stats64 *st = &nm->stats;

	st->rx_errors++;
	if (rxs & NM_RXS_OVERFLOW)
		st->rx_fifo_errors++;
	if (rxs & NM_RXS_FRAMING)
		st->rx_frame_errors++;
	if (rxs & NM_RXS_FCS)
		st->rx_crc_errors++;
	if (rxs & NM_RXS_COLLISION)
		st->collisions++;
	netif_dbg(&nm->nic, rx_err, nm->nic.ndev, "frame dropped, status %#06x\n", rxs);
}

/* The oldest frame the card holds (lock held); NULL when it was bad. */
static struct sk_buff *nm_rx_one(struct nm_dev *nm)
{
	struct rtnl_link_stats64 *st = &nm->stats;
	unsigned long port = nm->io + NM_RX_DATA;
	struct sk_buff *skb = NULL;
	unsigned int count, len;
	u16 rxs;

	rxs = inw(port);
	/* the runt and collision counts before it: the MACE counts them too */
	inb(port);
	inb(port);
	count = rxs & NM_RXS_COUNT;
	if (rxs & NM_RXS_ERRORS) {
		nm_rx_error(nm, rxs);
	} else if (count < ETH_ZLEN + ETH_FCS_LEN ||
		   count > ETH_FRAME_LEN + ETH_FCS_LEN) {
		st->rx_errors++;
		st->rx_length_errors++;
	} else {
		len = count - ETH_FCS_LEN;
		skb = netdev_alloc_skb_ip_align(nm->nic.ndev, ALIGN(len, 2));
		if (skb) {
			insw(port, skb->data, len / 2);
			if (len & 1)
				skb->data[len - 1] = inb(port);
			skb_put(skb, len);
			st->rx_packets++;
			st->rx_bytes += len;
			if (is_multicast_ether_addr(skb->data))
				st->multicast++;
		} else {
			st->rx_dropped++;
		}
	}
	outb(0, nm->io + NM_RX_DONE);
	return skb;
}

static int nm_poll(struct napi_struct *napi, int budget)
{
	struct nm_dev *nm = container_of(napi, struct nm_dev, napi);
	struct sk_buff *skb;
	unsigned int held;
	int done = 0;

	while (done < budget) {
		spin_lock_irq(&nm->lock);
		held = nm->up && !nm->resetting ? inb(nm->io + NM_RX_FRAMES) : 0;
		/* more than the card can hold: it has gone */
		if (!held || held > NM_RX_SLOTS) {
			spin_unlock_irq(&nm->lock);
			break;
		}
		skb = nm_rx_one(nm);
		spin_unlock_irq(&nm->lock);
		done++;
		if (skb)
			pcnic_rx(&nm->nic, skb);
	}
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* ---- interrupt ---- */

static irqreturn_t nm_interrupt(int irq, void *data)
{
	struct nm_dev *nm = to_nm(data);
	struct rtnl_link_stats64 *st = &nm->stats;
	irqreturn_t ret = IRQ_NONE;
	int round;
	u8 ir;

	spin_lock(&nm->lock);
	for (round = 0; round < NM_IRQ_ROUNDS && nm->up && !nm->resetting;
	     round++) {
		ir = nm_mace_read(nm, MACE_REG_IR);
		if (ir == NM_GONE && nm_gone(nm))
			break;
		ir &= MACE_IR_TAKEN;
		if (!ir)
			break;
		ret = IRQ_HANDLED;
		if (ir & MACE_IR_RX)
			napi_schedule(&nm->napi);
		if (ir & MACE_IR_TX)
			nm_tx_done(nm);
		if (ir & MACE_IR_MPC_WRAP)
			st->rx_missed_errors += 256;
		if (ir & MACE_IR_RNTPC_WRAP)
			st->rx_length_errors += 256;
		if (ir & MACE_IR_RCVCC_WRAP)
			st->collisions += 256;
		if (ir & (MACE_IR_JABBER | MACE_IR_BABBLE)) {
			st->tx_errors++;
			netif_err(&nm->nic, tx_err, nm->nic.ndev, "%s on the wire\n",
				  ir & MACE_IR_JABBER ? "jabber" : "babble");
		}
	}
	if (round == NM_IRQ_ROUNDS && net_ratelimit())
		netdev_warn(nm->nic.ndev, "interrupts keep coming\n");
	spin_unlock(&nm->lock);
	return ret;
}

/* ---- net_device ---- */

static const struct pcnic_ops nm_pcnic_ops = {
	.reset		= nm_reset,
	.start		= nm_start,
	.halt		= nm_halt,
	.interrupt	= nm_interrupt,
};

/* The logical address filter: the multicast hash filter of pcnic.c. */
static void nm_set_rx_mode(struct net_device *ndev)
{
	struct nm_dev *nm = netdev_priv(ndev);
	u8 ladrf[NM_LADRF_LEN];
	unsigned long flags;
	u8 maccc = MACE_MACCC_ENXMT | MACE_MACCC_ENRCV;

	if (ndev->flags & IFF_PROMISC)
		maccc |= MACE_MACCC_PROM;
	pcnic_mc_filter_le(ndev, ladrf);
	spin_lock_irqsave(&nm->lock, flags);
	nm->maccc = maccc;
	memcpy(nm->ladrf, ladrf, sizeof(ladrf));
	if (nm->up && !nm->resetting) {
		nm_mace_write(nm, MACE_REG_MACCC, maccc & ~MACE_MACCC_ENRCV);
		if (nm_load_address(nm, MACE_IAC_LOGADDR, ladrf, sizeof(ladrf)))
			netdev_err(ndev, "the MACE does not take its multicast filter\n");
		nm_mace_write(nm, MACE_REG_MACCC, maccc);
	}
	spin_unlock_irqrestore(&nm->lock, flags);
}

static void nm_get_stats64(struct net_device *ndev, struct rtnl_link_stats64 *stats)
{
	struct nm_dev *nm = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&nm->lock, flags);
	if (nm->up && !nm->resetting && netif_device_present(ndev))
		nm_read_counters(nm);
	*stats = nm->stats;
	spin_unlock_irqrestore(&nm->lock, flags);
}

const struct net_device_ops nm_netdev_ops = {
	PCNIC_NETDEV_OPS,
	.ndo_start_xmit		= nm_start_xmit,
	.ndo_tx_timeout		= nm_tx_timeout,
	.ndo_set_rx_mode	= nm_set_rx_mode,
	.ndo_get_stats64	= nm_get_stats64,
};

/* The network side of a new card, in @ndev's private area. */
struct nm_dev *nm_dev_init(struct net_device *ndev,
			   struct pcmcia_device *link)
{
	struct nm_dev *nm = netdev_priv(ndev);

	pcnic_init(&nm->nic, ndev, link, &nm_pcnic_ops);
	nm->nic.link_check = nm_check_link;
	spin_lock_init(&nm->lock);
	INIT_WORK(&nm->restart, nm_restart_work);
	netif_napi_add(ndev, &nm->napi, nm_poll);
	nm->maccc = MACE_MACCC_ENXMT | MACE_MACCC_ENRCV;
	return nm;
}
