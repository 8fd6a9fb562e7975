// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the 3c574 adds to the shared EtherLink III network side
 * (elink3_lib.c): its reset, which also restarts the MII transceiver; the
 * RoadRunner's registers after it; the MII PHY through window 4's
 * management port, with the kernel's mii library on top for the link,
 * ethtool and the MII ioctls; the look at the link that the link poll
 * (pcnic.c) takes once a second (the PHY's interrupt is not wired to the
 * host), which sets the MAC's duplex to what the PHY negotiated.
 */

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/io.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/phy.h>

#include "compat.h"
#include "3c574.h"

/* the transceiver settles for a millisecond after each options change */
#define C574_MII_SETTLE_US	1000

/* a management frame, as IEEE 802.3 clause 22 has it */
#define MII_PREAMBLE_BITS	32
#define MII_ST			0x1
#define MII_OP_READ		0x2
#define MII_OP_WRITE		0x1
#define MII_TA_WRITE		0x2

/* TotalReset's argument, as upstream's driver gives it */
#define C574_TOTAL_RESET_ARG	0x10

static_assert(offsetof(struct c574_dev, el3) == 0);

static struct c574_dev *c574_of(struct el3_dev *el3)
{
	return container_of(el3, struct c574_dev, el3);
}

/* ---- the MII management port (window 4, the lock held) ---- */

/*
 * The host drives @n bits of @val, the most significant first.  An I/O
 * cycle on the PC Card bus is slow enough for MDC's 2.5 MHz.
 */
static void c574_mii_out(unsigned long port, u32 val, int n)
{
	u16 bit;

	while (n--) {
		bit = C574_MII_DRIVE | ((val >> n) & 1 ? C574_MII_DATA : 0);
		outw(bit, port);
		outw(bit | C574_MII_MDC, port);
	}
}

/* The PHY drives @n bits; each is sampled before MDC's rising edge. */
static u32 c574_mii_in(unsigned long port, int n)
{
	u32 val = 0;

	while (n--) {
		outw(0, port);
		val <<= 1;
		if (inw(port) & C574_MII_DATA)
			val |= 1;
		outw(C574_MII_MDC, port);
	}
	return val;
}

static int c574_mdio_read(struct net_device *ndev, int phy, int reg)
{
	struct el3_dev *el3 = netdev_priv(ndev);
	unsigned long port = el3->io + C574_W4_MII;
	unsigned long flags;
	u32 val;

	spin_lock_irqsave(&el3->lock, flags);
	el3_window(el3->io, 4);
	c574_mii_out(port, ~0U, MII_PREAMBLE_BITS);
	c574_mii_out(port, MII_ST << 12 | MII_OP_READ << 10 |
		     (phy & 0x1f) << 5 | (reg & 0x1f), 14);
	c574_mii_in(port, 2);		/* turnaround */
	val = c574_mii_in(port, 16);
	c574_mii_in(port, 1);		/* idle */
	el3_window(el3->io, 1);
	spin_unlock_irqrestore(&el3->lock, flags);
	return val;
}

static void c574_mdio_write(struct net_device *ndev, int phy, int reg, int val)
{
	struct el3_dev *el3 = netdev_priv(ndev);
	unsigned long port = el3->io + C574_W4_MII;
	unsigned long flags;

	spin_lock_irqsave(&el3->lock, flags);
	el3_window(el3->io, 4);
	c574_mii_out(port, ~0U, MII_PREAMBLE_BITS);
	c574_mii_out(port, (u32)MII_ST << 30 | MII_OP_WRITE << 28 |
		     (phy & 0x1f) << 23 | (reg & 0x1f) << 18 |
		     MII_TA_WRITE << 16 | (val & 0xffff), 32);
	c574_mii_in(port, 2);		/* let go of MDIO */
	el3_window(el3->io, 1);
	spin_unlock_irqrestore(&el3->lock, flags);
}

/* The first address where a PHY answers; -ENODEV without one. */
int c574_phy_find(struct c574_dev *priv)
{
	struct net_device *ndev = priv->el3.nic.ndev;
	int phy, bmsr;

	for (phy = 0; phy < PHY_MAX_ADDR; phy++) {
		bmsr = c574_mdio_read(ndev, phy, MII_BMSR);
		if (bmsr != 0xffff && bmsr != 0) {
			priv->mii.phy_id = phy;
			priv->mii.advertising = c574_mdio_read(ndev, phy,
							       MII_ADVERTISE);
			return 0;
		}
	}
	return -ENODEV;
}

/* ---- the RoadRunner's registers ---- */

static void c574_options(struct el3_dev *el3, u16 options)
{
	spin_lock_irq(&el3->lock);
	el3_window(el3->io, 3);
	outw(options, el3->io + C574_W3_OPTIONS);
	el3_window(el3->io, 1);
	spin_unlock_irq(&el3->lock);
}

/*
 * TotalReset, then the FIFOs' resets with the MII transceiver held in
 * reset (process context, the chip masked): what the chip needs before it
 * is programmed, at probe, open and resume.
 */
int c574_chip_reset(struct el3_dev *el3)
{
	int rc;

	rc = el3_cmd_wait(el3->io, EL3_OP_TOTAL_RESET, C574_TOTAL_RESET_ARG);
	if (rc)
		return rc;
	spin_lock_irq(&el3->lock);
	/* no FIFO cycles announced, the chip's own registers in view */
	outw(0, el3->io + C574_RUNNER_WR);
	outw(0, el3->io + C574_RUNNER_RD);
	el3_window(el3->io, 1);
	spin_unlock_irq(&el3->lock);
	c574_options(el3, C574_OPT_MII_ON);
	usleep_range(C574_MII_SETTLE_US, 2 * C574_MII_SETTLE_US);
	c574_options(el3, C574_OPT_MII_ON | C574_OPT_MII_RESET);
	rc = el3_txrx_reset(el3);
	usleep_range(C574_MII_SETTLE_US, 2 * C574_MII_SETTLE_US);
	c574_options(el3, C574_OPT_MII_ON);
	return rc;
}

/* The MAC's duplex (lock held, window 1 before and after). */
static void c574_load_duplex(struct c574_dev *priv)
{
	unsigned long io = priv->el3.io;

	el3_window(io, 3);
	outb(priv->mii.full_duplex ? C574_MAC_FULL_DUPLEX : 0,
	     io + C574_W3_MAC_CTRL);
	el3_window(io, 1);
}

/* After the reset (lock held, window 1 before and after). */
static void c574_hw_init(struct el3_dev *el3)
{
	unsigned long io = el3->io;
	int i;

	el3_window(io, 2);
	for (i = 0; i < 3; i++)
		outw(0, io + C574_W2_ADDR_MASK + 2 * i);
	el3_window(io, 4);
	outw(C574_DIAG_UPPER_STATS, io + C574_W4_NET_DIAG);
	el3_window(io, 1);
	c574_load_duplex(c574_of(el3));
}

/* ---- the link ---- */

/* The link poll's look at the PHY (pcnic.c): the MAC follows its duplex. */
static void c574_link_check(struct pcnic *nic, bool first)
{
	struct el3_dev *el3 = to_el3(nic);
	struct c574_dev *priv = c574_of(el3);

	if (mii_check_media(&priv->mii, netif_msg_link(nic), first) || first) {
		spin_lock_irq(&el3->lock);
		if (el3->up && !el3->resetting)
			c574_load_duplex(priv);
		spin_unlock_irq(&el3->lock);
	}
}

static void c574_link_start(struct el3_dev *el3)
{
	pcnic_link_start(&el3->nic);
}

static const struct el3_ops c574_ops = {
	.chip_reset	= c574_chip_reset,
	.hw_init	= c574_hw_init,
	.link_start	= c574_link_start,
};

static int c574_mii_ioctl(struct net_device *ndev, struct ifreq *rq, int cmd)
{
	struct c574_dev *priv = netdev_priv(ndev);

	if (!netif_device_present(ndev))
		return -ENODEV;
	return generic_mii_ioctl(&priv->mii, if_mii(rq), cmd, NULL);
}

const struct net_device_ops c574_netdev_ops = {
	PCNIC_NETDEV_OPS,
	.ndo_start_xmit		= el3_start_xmit,
	.ndo_tx_timeout		= el3_tx_timeout,
	.ndo_set_rx_mode	= el3_set_rx_mode,
	.ndo_get_stats64	= el3_get_stats64,
	.ndo_eth_ioctl		= c574_mii_ioctl,
};

/* ---- ethtool ---- */

static int c574_get_link_ksettings(struct net_device *ndev,
				   struct ethtool_link_ksettings *cmd)
{
	struct c574_dev *priv = netdev_priv(ndev);

	mii_ethtool_get_link_ksettings(&priv->mii, cmd);
	return 0;
}

static int c574_set_link_ksettings(struct net_device *ndev,
				   const struct ethtool_link_ksettings *cmd)
{
	struct c574_dev *priv = netdev_priv(ndev);

	return mii_ethtool_set_link_ksettings(&priv->mii, cmd);
}

static int c574_nway_reset(struct net_device *ndev)
{
	struct c574_dev *priv = netdev_priv(ndev);

	return mii_nway_restart(&priv->mii);
}

const struct ethtool_ops c574_ethtool_ops = {
	PCNIC_ETHTOOL_OPS,
	.get_link_ksettings	= c574_get_link_ksettings,
	.set_link_ksettings	= c574_set_link_ksettings,
	.nway_reset		= c574_nway_reset,
};

/* The driver's state of a new card, in @ndev's private area. */
struct c574_dev *c574_nic_init(struct net_device *ndev,
			       struct pcmcia_device *link)
{
	struct c574_dev *priv = netdev_priv(ndev);
	struct el3_dev *el3 = &priv->el3;

	el3_dev_init(el3, ndev, link, &c574_ops);
	el3->w1 = C574_W1;
	el3->thresh_shift = 2;
	el3->stats_upper = true;
	priv->mii.dev = ndev;
	priv->mii.mdio_read = c574_mdio_read;
	priv->mii.mdio_write = c574_mdio_write;
	priv->mii.phy_id_mask = 0x1f;
	priv->mii.reg_num_mask = 0x1f;
	el3->nic.link_check = c574_link_check;
	return priv;
}
