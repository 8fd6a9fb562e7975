// SPDX-License-Identifier: GPL-2.0-only
/*
 * SMC 91C9x PC Cards: the network side (see smc91c92.h for the chip).
 *
 * Transmit: memory for the next frame is always allocated ahead, for a
 * full-size frame; a frame goes into it and is enqueued at once, and the
 * next allocation is asked for.  When the MMU cannot give it (the packet
 * memory is taken by frames still waiting to leave, or received ones),
 * the queue stops until the allocation interrupt.  Frames that leave are
 * released by the chip itself; a failed one comes back through the TX
 * done FIFO with its status, stops the transmitter, is counted and freed.
 *
 * Receive: the interrupt handler masks RCV and schedules NAPI, which
 * reads each frame out of the RX FIFO and releases its memory, and
 * unmasks RCV when the FIFO is empty.  A frame that finds no memory is
 * lost and counted through the RX overrun interrupt.
 *
 * The link: on MII cards the PHY under the kernel's mii library, else
 * the 10BASE-T link test in the EPH status; the shared link poll
 * (pcnic.c) looks every second.  Resets that sleep (transmit timeout) run in a work item.
 */

#include <linux/bitfield.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "smc91c92.h"

static_assert(offsetof(struct smc_dev, nic) == 0);

#define SMC_IRQ_ROUNDS		8	/* status reads per interrupt */
#define SMC_ALLOC_POLLS		8	/* reads of the status for an allocation */
#define SMC_FULL_PAGES		DIV_ROUND_UP(ETH_FRAME_LEN + SMC_PKT_OVERHEAD, SMC_PAGE)
#define SMC_IRQS		(SMC_INT_RCV | SMC_INT_TX | SMC_INT_RX_OVRN | \
				 SMC_INT_EPH)

/*
 * The MMU takes microseconds to reset or release; give a reset 20 ms
 * before calling it stuck.  A release (from NAPI, no sleeping) gets 40
 * polls 1 us apart.
 */
#define SMC_RESET_POLLS		100
#define SMC_RESET_US_MIN	200
#define SMC_RESET_US_MAX	400
#define SMC_SPIN_POLLS		40

/* ---- the MMU ---- */

/* 0: idle; -EBUSY: still busy; -ENODEV: the card has gone */
static int smc_mmu_state(unsigned long io)
{
	u16 mmu = inw(io + SMC_B2_MMU);

	if (mmu == 0xffff)
		return -ENODEV;
	return mmu & SMC_MMU_BUSY ? -EBUSY : 0;
}

/* A release that finishes in microseconds (bank 2, any context). */
static int smc_mmu_wait_atomic(unsigned long io)
{
	unsigned int i;
	int rc;

	for (i = 0; i < SMC_SPIN_POLLS; i++) {
		rc = smc_mmu_state(io);
		if (rc != -EBUSY)
			return rc;
		udelay(1);
	}
	rc = smc_mmu_state(io);
	return rc == -EBUSY ? -ETIMEDOUT : rc;
}

/* The MMU's state under the lock (bank 2 selected). */
static int smc_mmu_state_locked(struct smc_dev *smc)
{
	int rc;

	spin_lock_irq(&smc->lock);
	rc = smc_mmu_state(smc->io);
	spin_unlock_irq(&smc->lock);
	return rc;
}

/*
 * Reset the chip and its MMU: process context, nothing else running on
 * the chip (interrupts masked by the reset itself).  -ENODEV: no 91C9x
 * answers; -ETIMEDOUT: the MMU stays busy.  Bank 2 stays selected.
 */
int smc_chip_reset(struct smc_dev *smc)
{
	unsigned long io = smc->io;
	unsigned int i;
	bool there;
	int rc;

	spin_lock_irq(&smc->lock);
	/* a write first: it wakes a chip in power-down */
	smc_bank(io, 0);
	there = inw(io + SMC_BANK_SELECT) >> 8 == SMC_CHIP_ID;
	if (there)
		outw(SMC_RCR_SOFT_RST, io + SMC_B0_RCR);
	smc_bank(io, 2);
	spin_unlock_irq(&smc->lock);
	if (!there)
		return -ENODEV;
	usleep_range(10, 20);

	spin_lock_irq(&smc->lock);
	smc_bank(io, 0);
	outw(0, io + SMC_B0_RCR);
	outw(0, io + SMC_B0_TCR);
	smc_bank(io, 2);
	outw(SMC_MMU_RESET, io + SMC_B2_MMU);
	spin_unlock_irq(&smc->lock);
	for (i = 0; i < SMC_RESET_POLLS; i++) {
		rc = smc_mmu_state_locked(smc);
		if (rc != -EBUSY)
			return rc;
		usleep_range(SMC_RESET_US_MIN, SMC_RESET_US_MAX);
	}
	rc = smc_mmu_state_locked(smc);
	return rc == -EBUSY ? -ETIMEDOUT : rc;
}

static void smc_set_irq_mask(struct smc_dev *smc, u8 mask)
{
	smc->irq_mask = mask;
	outb(mask, smc->io + SMC_B2_MASK);
}

/* ---- MII management, bit by bit through bank 3 ---- */

static void smc_mdio_out(unsigned long port, u32 bits, unsigned int count)
{
	u8 level;

	while (count--) {
		level = SMC_MGMT_MDOE | (bits & BIT(count) ? SMC_MGMT_MDO : 0);
		outb(level, port);
		outb(level | SMC_MGMT_MCLK, port);
	}
}

/* One MDIO frame: 32 ones, start, op, addresses; the lock taken. */
static u16 smc_mdio_frame(struct smc_dev *smc, u32 head, unsigned int head_bits,
			  bool read, u16 data)
{
	unsigned long port = smc->io + SMC_B3_MGMT;
	unsigned long flags;
	u16 val = 0;
	int i;

	spin_lock_irqsave(&smc->lock, flags);
	smc_bank(smc->io, 3);
	smc_mdio_out(port, 0xffffffff, 32);
	smc_mdio_out(port, head, head_bits);
	if (read) {
		/* turnaround and 16 bits, the PHY driving */
		for (i = 0; i < 18; i++) {
			outb(0, port);
			val <<= 1;
			if (inb(port) & SMC_MGMT_MDI)
				val |= 1;
			outb(SMC_MGMT_MCLK, port);
		}
	} else {
		smc_mdio_out(port, 0x2 << 16 | data, 18);
		outb(0, port);
	}
	smc_bank(smc->io, 2);
	spin_unlock_irqrestore(&smc->lock, flags);
	return val;
}

static int smc_mdio_read(struct net_device *ndev, int phy, int reg)
{
	struct smc_dev *smc = netdev_priv(ndev);
	u32 head = 0x6 << 10 | (phy & 0x1f) << 5 | (reg & 0x1f);

	return smc_mdio_frame(smc, head, 14, true, 0);
}

static void smc_mdio_write(struct net_device *ndev, int phy, int reg, int val)
{
	struct smc_dev *smc = netdev_priv(ndev);
	u32 head = 0x5 << 10 | (phy & 0x1f) << 5 | (reg & 0x1f);

	smc_mdio_frame(smc, head, 14, false, val);
}

/* The first PHY that answers; the mii library is set up for it. */
int smc_phy_find(struct smc_dev *smc)
{
	int phy, bmsr;

	for (phy = 0; phy < 32; phy++) {
		bmsr = smc_mdio_read(smc->nic.ndev, phy, MII_BMSR);
		if (bmsr && bmsr != 0xffff) {
			smc->mii.phy_id = phy;
			return 0;
		}
	}
	return -ENODEV;
}

/* ---- programming the chip ---- */

static void smc_rx_filter(struct smc_dev *smc, u8 *table, u16 *rcr)
{
	struct net_device *ndev = smc->nic.ndev;
	struct netdev_hw_addr *ha;
	u32 bit;

	memset(table, 0, 8);
	*rcr = SMC_RCR_RXEN | SMC_RCR_STRIP_CRC;
	if (ndev->flags & IFF_PROMISC) {
		*rcr |= SMC_RCR_PRMS | SMC_RCR_ALMUL;
	} else if (ndev->flags & IFF_ALLMULTI) {
		*rcr |= SMC_RCR_ALMUL;
	} else {
		/* the upper six bits of the group address's CRC */
		netdev_for_each_mc_addr(ha, ndev) {
			bit = ether_crc(ETH_ALEN, ha->addr) >> 26;
			table[bit / 8] |= BIT(bit % 8);
		}
	}
}

/* The receive filter into the chip (lock held, bank 2 before and after). */
static void smc_load_rx_filter(struct smc_dev *smc)
{
	unsigned long io = smc->io;
	u8 table[8];
	u16 rcr;
	int i;

	smc_rx_filter(smc, table, &rcr);
	smc_bank(io, 3);
	for (i = 0; i < 8; i++)
		outb(table[i], io + SMC_B3_MCAST + i);
	smc_bank(io, 0);
	outw(rcr, io + SMC_B0_RCR);
	smc_bank(io, 2);
}

static u16 smc_tcr(struct smc_dev *smc)
{
	u16 tcr = SMC_TCR_TXENA | SMC_TCR_PAD;

	if (smc->has_mii)
		return tcr | (smc->mii.full_duplex ? SMC_TCR_FDUPLX : 0);
	/* a frame that loses the carrier on 10BASE-T fails */
	return tcr | SMC_TCR_MON_CSN;
}

/*
 * Memory for the next frame (lock held, bank 2): at once if the MMU has
 * it, else the queue stops until the allocation interrupt.
 */
static void smc_tx_alloc(struct smc_dev *smc)
{
	unsigned long io = smc->io;
	unsigned int i;
	u8 arr;

	outw(SMC_MMU_ALLOC | (SMC_FULL_PAGES - 1), io + SMC_B2_MMU);
	for (i = 0; i < SMC_ALLOC_POLLS; i++) {
		if (inb(io + SMC_B2_INT) & SMC_INT_ALLOC) {
			arr = inb(io + SMC_B2_ARR);
			if (arr & SMC_ARR_FAILED)
				break;
			smc->tx_pkt = arr & SMC_PKT_NUMBER;
			outb(SMC_INT_ALLOC, io + SMC_B2_INT);
			return;
		}
	}
	netif_stop_queue(smc->nic.ndev);
	smc_set_irq_mask(smc, smc->irq_mask | SMC_INT_ALLOC);
}

/* Program the chip after its reset and turn it on (lock held). */
static void smc_hw_init(struct smc_dev *smc)
{
	const u8 *addr = smc->nic.ndev->dev_addr;
	unsigned long io = smc->io;
	int i;

	smc_bank(io, 1);
	outw(smc->config, io + SMC_B1_CONFIG);
	outw(SMC_CTL_AUTO_RELEASE | SMC_CTL_CR_ENABLE, io + SMC_B1_CONTROL);
	for (i = 0; i < ETH_ALEN; i += 2)
		outw(addr[i] | addr[i + 1] << 8, io + SMC_B1_ADDR + i);
	smc_bank(io, 0);
	outw(smc_tcr(smc), io + SMC_B0_TCR);
	inw(io + SMC_B0_COUNTER);	/* clears it */
	smc_bank(io, 2);
	smc_load_rx_filter(smc);
	outb(0xff, io + SMC_B2_INT);
	smc->tx_pkt = -1;
	smc_set_irq_mask(smc, SMC_IRQS);
	smc_tx_alloc(smc);
}

/* Everything off, the chip asleep (lock held). */
static void smc_hw_stop(struct smc_dev *smc)
{
	unsigned long io = smc->io;

	smc_set_irq_mask(smc, 0);
	smc_bank(io, 0);
	outw(0, io + SMC_B0_RCR);
	outw(0, io + SMC_B0_TCR);
	smc_bank(io, 1);
	outw(SMC_CTL_POWERDOWN, io + SMC_B1_CONTROL);
	smc_bank(io, 2);
}

/* ---- transmit ---- */

static netdev_tx_t smc_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct smc_dev *smc = netdev_priv(ndev);
	unsigned long io = smc->io;
	unsigned int len = skb->len;
	unsigned long flags;
	u16 last = 0;

	spin_lock_irqsave(&smc->lock, flags);
	if (smc->resetting || (smc->up && smc->tx_pkt < 0)) {
		netif_stop_queue(ndev);
		spin_unlock_irqrestore(&smc->lock, flags);
		return NETDEV_TX_BUSY;
	}
	if (!smc->up || len > SMC_FULL_PAGES * SMC_PAGE - SMC_PKT_OVERHEAD) {
		ndev->stats.tx_dropped++;
		goto done;
	}
	outb(smc->tx_pkt, io + SMC_B2_PNR);
	outw(SMC_PTR_AUTOINC, io + SMC_B2_POINTER);
	outw(0, io + SMC_B2_DATA);
	outw((len & ~1) + SMC_PKT_OVERHEAD, io + SMC_B2_DATA);
	outsw(io + SMC_B2_DATA, skb->data, len / 2);
	/* an odd last byte goes with the control byte */
	if (len & 1)
		last = SMC_CTRL_ODD << 8 | skb->data[len - 1];
	outw(last, io + SMC_B2_DATA);
	outw(SMC_MMU_ENQUEUE, io + SMC_B2_MMU);
	smc->tx_pkt = -1;
	ndev->stats.tx_packets++;
	ndev->stats.tx_bytes += len;
	smc_tx_alloc(smc);
done:
	spin_unlock_irqrestore(&smc->lock, flags);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

/* A frame the chip gave up on (lock held): counted, freed, TX on again. */
static void smc_tx_error(struct smc_dev *smc)
{
	struct net_device_stats *st = &smc->nic.ndev->stats;
	unsigned long io = smc->io;
	u8 pnr = inb(io + SMC_B2_PNR);
	u8 pkt = inb(io + SMC_B2_FIFO);
	u16 status;

	outb(pkt & SMC_PKT_NUMBER, io + SMC_B2_PNR);
	outw(SMC_PTR_READ | SMC_PTR_AUTOINC, io + SMC_B2_POINTER);
	status = inw(io + SMC_B2_DATA);
	st->tx_errors++;
	if (status & SMC_TS_LOST_CAR)
		st->tx_carrier_errors++;
	if (status & SMC_TS_LATCOL)
		st->tx_window_errors++;
	if (status & SMC_TS_16COL) {
		st->tx_aborted_errors++;
		st->collisions += 16;
	}
	netif_dbg(&smc->nic, tx_err, smc->nic.ndev, "frame not sent, TX status %#06x\n",
		  status);
	outw(SMC_MMU_FREE, io + SMC_B2_MMU);
	smc_mmu_wait_atomic(io);
	outb(SMC_INT_TX, io + SMC_B2_INT);	/* pops the TX done FIFO */
	outb(pnr, io + SMC_B2_PNR);
	smc_bank(io, 0);
	outw(smc_tcr(smc), io + SMC_B0_TCR);
	smc_bank(io, 2);
}

/* Hand the chip to the reset work (lock held). */
static void smc_want_reset(struct smc_dev *smc)
{
	if (!smc->up || smc->resetting)
		return;
	smc->resetting = true;
	smc_set_irq_mask(smc, 0);
	netif_stop_queue(smc->nic.ndev);
	schedule_work(&smc->reset_work);
}

static void smc_tx_timeout(struct net_device *ndev, unsigned int txqueue)
{
	struct smc_dev *smc = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&smc->lock, flags);
	if (smc->up && !smc->resetting)
		netdev_warn(ndev, "transmit timed out (interrupt status %#04x, memory %#06x), resetting the card\n",
			    inb(smc->io + SMC_B2_INT),
			    inw(smc->io + SMC_B2_MMU));
	ndev->stats.tx_errors++;
	smc_want_reset(smc);
	spin_unlock_irqrestore(&smc->lock, flags);
}

/* ---- receive ---- */

/*
 * The oldest frame of the RX FIFO, its memory released (lock held): NULL
 * when it was bad, ERR_PTR(-ENOENT) when there is none.
 */
static struct sk_buff *smc_rx_one(struct smc_dev *smc)
{
	struct net_device_stats *st = &smc->nic.ndev->stats;
	unsigned long io = smc->io;
	struct sk_buff *skb = NULL;
	unsigned int count, len;
	u16 status;

	if (inw(io + SMC_B2_FIFO) & SMC_FIFO_RX_EMPTY)
		return ERR_PTR(-ENOENT);
	outw(SMC_PTR_RCV | SMC_PTR_READ | SMC_PTR_AUTOINC, io + SMC_B2_POINTER);
	status = inw(io + SMC_B2_DATA);
	count = inw(io + SMC_B2_DATA) & 0x07ff;
	/* the byte count covers status, count and control words */
	len = count - SMC_PKT_OVERHEAD + (status & SMC_RS_ODD ? 1 : 0);
	if ((status & SMC_RS_ERRORS) || count < SMC_PKT_OVERHEAD ||
	    len < ETH_HLEN || len > ETH_FRAME_LEN) {
		st->rx_errors++;
		if (status & (SMC_RS_TOOLONG | SMC_RS_TOOSHORT))
			st->rx_length_errors++;
		else if (status & SMC_RS_BADCRC)
			st->rx_crc_errors++;
		else if (status & SMC_RS_ALGNERR)
			st->rx_frame_errors++;
		netif_dbg(&smc->nic, rx_err, smc->nic.ndev,
			  "frame dropped, RX status %#06x, count %u\n", status, count);
	} else {
		skb = netdev_alloc_skb_ip_align(smc->nic.ndev, len + 1);
		if (skb) {
			insw(io + SMC_B2_DATA, skb->data, (len + 1) / 2);
			skb_put(skb, len);
			st->rx_packets++;
			st->rx_bytes += len;
			if (status & SMC_RS_MULTICAST)
				st->multicast++;
		} else {
			st->rx_dropped++;
		}
	}
	outw(SMC_MMU_RX_RELEASE, io + SMC_B2_MMU);
	if (smc_mmu_wait_atomic(io) == -ETIMEDOUT) {
		netif_err(&smc->nic, rx_err, smc->nic.ndev,
			  "the MMU does not release a received frame, resetting the card\n");
		smc_want_reset(smc);
	}
	return skb;
}

static int smc_poll(struct napi_struct *napi, int budget)
{
	struct smc_dev *smc = container_of(napi, struct smc_dev, napi);
	struct sk_buff *skb;
	int done = 0;

	while (done < budget) {
		spin_lock_irq(&smc->lock);
		if (!smc->up || smc->resetting) {
			spin_unlock_irq(&smc->lock);
			break;
		}
		skb = smc_rx_one(smc);
		spin_unlock_irq(&smc->lock);
		if (IS_ERR(skb))
			break;
		done++;
		if (skb)
			pcnic_rx(&smc->nic, skb);
	}
	if (done == budget)
		return budget;

	if (napi_complete_done(napi, done)) {
		spin_lock_irq(&smc->lock);
		if (smc->up && !smc->resetting)
			smc_set_irq_mask(smc, smc->irq_mask | SMC_INT_RCV);
		spin_unlock_irq(&smc->lock);
	}
	return done;
}

/* ---- interrupt ---- */

/* Counter roll-over or a transmit error (lock held, bank 2 after). */
static void smc_eph_event(struct smc_dev *smc)
{
	unsigned long io = smc->io;
	u16 counts;

	smc_bank(io, 0);
	counts = inw(io + SMC_B0_COUNTER);
	smc->nic.ndev->stats.collisions += (counts & 0xf) + ((counts >> 4) & 0xf);
	outw(smc_tcr(smc), io + SMC_B0_TCR);
	smc_bank(io, 2);
}

static irqreturn_t smc_interrupt(int irq, void *data)
{
	struct smc_dev *smc = to_smc(data);
	unsigned long io = smc->io;
	irqreturn_t ret = IRQ_NONE;
	unsigned int round;
	u8 status;

	spin_lock(&smc->lock);
	for (round = 0; round < SMC_IRQ_ROUNDS && smc->irq_mask; round++) {
		/* not the chip's signature: the card is gone */
		if (inw(io + SMC_BANK_SELECT) >> 8 != SMC_CHIP_ID)
			break;
		status = inb(io + SMC_B2_INT) & smc->irq_mask;
		if (!status)
			break;
		ret = IRQ_HANDLED;
		if (status & SMC_INT_RCV) {
			smc_set_irq_mask(smc, smc->irq_mask & ~SMC_INT_RCV);
			napi_schedule(&smc->napi);
		}
		if (status & SMC_INT_TX)
			smc_tx_error(smc);
		if (status & SMC_INT_ALLOC) {
			smc->tx_pkt = inb(io + SMC_B2_ARR) & SMC_PKT_NUMBER;
			outb(SMC_INT_ALLOC, io + SMC_B2_INT);
			smc_set_irq_mask(smc, smc->irq_mask & ~SMC_INT_ALLOC);
			netif_wake_queue(smc->nic.ndev);
		}
		if (status & SMC_INT_RX_OVRN) {
			smc->nic.ndev->stats.rx_errors++;
			smc->nic.ndev->stats.rx_fifo_errors++;
			outb(SMC_INT_RX_OVRN, io + SMC_B2_INT);
		}
		if (status & SMC_INT_EPH)
			smc_eph_event(smc);
	}
	if (round == SMC_IRQ_ROUNDS && net_ratelimit())
		netdev_warn(smc->nic.ndev, "events keep coming (status %#04x)\n",
			    inb(io + SMC_B2_INT));
	spin_unlock(&smc->lock);
	return ret;
}

static void smc_reset_work(struct work_struct *work)
{
	struct smc_dev *smc = container_of(work, struct smc_dev, reset_work);
	int rc = -ENODEV;

	napi_disable(&smc->napi);
	if (pcmcia_dev_present(smc->nic.link))
		rc = smc_chip_reset(smc);
	if (rc == -ETIMEDOUT)
		netdev_err(smc->nic.ndev, "the card did not finish its reset\n");
	spin_lock_irq(&smc->lock);
	smc->resetting = false;
	if (smc->up && !rc) {
		smc_hw_init(smc);
		if (smc->tx_pkt >= 0)
			netif_wake_queue(smc->nic.ndev);
	}
	spin_unlock_irq(&smc->lock);
	napi_enable(&smc->napi);
}

/* ---- the link ---- */

/*
 * The link poll's look (pcnic.c): the PHY, whose duplex the MAC follows,
 * or the 10BASE-T link test.
 */
static void smc_link_check(struct pcnic *nic, bool first)
{
	struct smc_dev *smc = to_smc(nic);
	bool ok;

	if (smc->has_mii) {
		/* true when the duplex changed */
		if (mii_check_media(&smc->mii, netif_msg_link(nic), first)) {
			spin_lock_irq(&smc->lock);
			if (smc->up && !smc->resetting) {
				smc_bank(smc->io, 0);
				outw(smc_tcr(smc), smc->io + SMC_B0_TCR);
				smc_bank(smc->io, 2);
			}
			spin_unlock_irq(&smc->lock);
		}
		return;
	}
	spin_lock_irq(&smc->lock);
	smc_bank(smc->io, 0);
	ok = inw(smc->io + SMC_B0_EPH) & SMC_EPH_LINK_OK;
	smc_bank(smc->io, 2);
	spin_unlock_irq(&smc->lock);
	pcnic_link_10(nic, ok, first);
}

static void smc_link_start(struct smc_dev *smc)
{
	if (smc->has_mii) {
		/* reset the PHY, advertise what it can, negotiate */
		smc_mdio_write(smc->nic.ndev, smc->mii.phy_id, MII_BMCR, BMCR_RESET);
		smc_mdio_write(smc->nic.ndev, smc->mii.phy_id, MII_ADVERTISE,
			       ADVERTISE_ALL | ADVERTISE_CSMA);
		smc_mdio_write(smc->nic.ndev, smc->mii.phy_id, MII_BMCR,
			       BMCR_ANENABLE | BMCR_ANRESTART);
	}
	pcnic_link_start(&smc->nic);
}

/* ---- the life cycle (pcnic.c) ---- */

static int smc_reset(struct pcnic *nic)
{
	return smc_chip_reset(to_smc(nic));
}

/* The card programmed and running, its link followed: open and resume. */
static void smc_start(struct pcnic *nic)
{
	struct smc_dev *smc = to_smc(nic);

	napi_enable(&smc->napi);
	netif_start_queue(nic->ndev);
	spin_lock_irq(&smc->lock);
	smc_hw_init(smc);
	smc->up = true;
	spin_unlock_irq(&smc->lock);
	smc_link_start(smc);
}

/* Nothing runs on the card any more: stop and suspend. */
static void smc_halt(struct pcnic *nic)
{
	struct smc_dev *smc = to_smc(nic);

	netif_stop_queue(nic->ndev);
	spin_lock_irq(&smc->lock);
	smc->up = false;
	if (pcmcia_dev_present(nic->link))
		smc_hw_stop(smc);
	spin_unlock_irq(&smc->lock);
	cancel_work_sync(&smc->reset_work);
	smc->resetting = false;
	napi_disable(&smc->napi);
}

static const struct pcnic_ops smc_pcnic_ops = {
	.reset		= smc_reset,
	.start		= smc_start,
	.halt		= smc_halt,
	.interrupt	= smc_interrupt,
};

/* ---- net_device ---- */

static void smc_set_rx_mode(struct net_device *ndev)
{
	struct smc_dev *smc = netdev_priv(ndev);
	unsigned long flags;

	spin_lock_irqsave(&smc->lock, flags);
	if (smc->up && !smc->resetting)
		smc_load_rx_filter(smc);
	spin_unlock_irqrestore(&smc->lock, flags);
}

static int smc_eth_ioctl(struct net_device *ndev, struct ifreq *rq, int cmd)
{
	struct smc_dev *smc = netdev_priv(ndev);

	if (!smc->has_mii)
		return -EOPNOTSUPP;
	return generic_mii_ioctl(&smc->mii, if_mii(rq), cmd, NULL);
}

const struct net_device_ops smc_netdev_ops = {
	PCNIC_NETDEV_OPS,
	.ndo_start_xmit		= smc_start_xmit,
	.ndo_tx_timeout		= smc_tx_timeout,
	.ndo_set_rx_mode	= smc_set_rx_mode,
	.ndo_eth_ioctl		= smc_eth_ioctl,
};

/* ---- ethtool ---- */

static int smc_get_link_ksettings(struct net_device *ndev,
				  struct ethtool_link_ksettings *cmd)
{
	struct smc_dev *smc = netdev_priv(ndev);

	if (smc->has_mii)
		mii_ethtool_get_link_ksettings(&smc->mii, cmd);
	else
		pcnic_ksettings_10_half(cmd);
	return 0;
}

static int smc_set_link_ksettings(struct net_device *ndev,
				  const struct ethtool_link_ksettings *cmd)
{
	struct smc_dev *smc = netdev_priv(ndev);

	if (!smc->has_mii)
		return -EOPNOTSUPP;
	return mii_ethtool_set_link_ksettings(&smc->mii, cmd);
}

static int smc_nway_reset(struct net_device *ndev)
{
	struct smc_dev *smc = netdev_priv(ndev);

	if (!smc->has_mii)
		return -EOPNOTSUPP;
	return mii_nway_restart(&smc->mii);
}

const struct ethtool_ops smc_ethtool_ops = {
	PCNIC_ETHTOOL_OPS,
	.get_link_ksettings	= smc_get_link_ksettings,
	.set_link_ksettings	= smc_set_link_ksettings,
	.nway_reset		= smc_nway_reset,
};

/* The network side of a new card, in @ndev's private area. */
struct smc_dev *smc_dev_init(struct net_device *ndev,
			     struct pcmcia_device *link)
{
	struct smc_dev *smc = netdev_priv(ndev);

	pcnic_init(&smc->nic, ndev, link, &smc_pcnic_ops);
	smc->nic.link_check = smc_link_check;
	smc->tx_pkt = -1;
	spin_lock_init(&smc->lock);
	INIT_WORK(&smc->reset_work, smc_reset_work);
	netif_napi_add(ndev, &smc->napi, smc_poll);
	smc->mii.dev = ndev;
	smc->mii.mdio_read = smc_mdio_read;
	smc->mii.mdio_write = smc_mdio_write;
	smc->mii.phy_id_mask = 0x1f;
	smc->mii.reg_num_mask = 0x1f;
	return smc;
}
