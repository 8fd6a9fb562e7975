// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AX88190's PHY: MII management frames clocked by hand through the
 * card's MII port, the kernel's mii library on top of them for the link,
 * ethtool and the MII ioctls, and the look at the link that the shared
 * link poll takes once a second (the PHY has no interrupt of its own).
 */

#include <linux/ethtool.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/phy.h>
#include <pcmcia/cisreg.h>

#include "compat.h"
#include "axnet.h"

/* bits of the MII port */
#define MII_MDC		0x01	/* the clock: the PHY samples on its rising edge */
#define MII_PHY_DRIVES	0x02	/* MDIO is the PHY's to drive */
#define MII_MDI		0x04
#define MII_MDO		0x08

/* a management frame, as IEEE 802.3 clause 22 has it */
#define MII_PREAMBLE_BITS	32
#define MII_ST			0x1	/* start of frame */
#define MII_OP_READ		0x2
#define MII_OP_WRITE		0x1
#define MII_TA_WRITE		0x2	/* turnaround, the host driving */

/* CCSR bit 2 low holds the PHY powered down on some cards */
#define AXN_CCSR_PHY_ON		0x04

#define AXN_PHY_POLL		HZ

/*
 * The host drives @n bits of @val, the most significant first.  The
 * card's port is slow enough (an I/O cycle on the PC Card bus) that MDC
 * stays within the 2.5 MHz of the standard without delays.
 */
static void axn_mii_out(unsigned long port, u32 val, int n)
{
	u8 bit;

	while (n--) {
		bit = (val >> n) & 1 ? MII_MDO : 0;
		outb(bit, port);
		outb(bit | MII_MDC, port);
	}
}

/* The PHY drives @n bits; each is sampled before the clock's rising edge. */
static u32 axn_mii_in(unsigned long port, int n)
{
	u32 val = 0;

	while (n--) {
		outb(MII_PHY_DRIVES, port);
		val <<= 1;
		if (inb(port) & MII_MDI)
			val |= 1;
		outb(MII_PHY_DRIVES | MII_MDC, port);
	}
	return val;
}

static int axn_mdio_read(struct net_device *ndev, int phy, int reg)
{
	struct axn_dev *priv = netdev_priv(ndev);
	unsigned long port = priv->io + AXN_MII;
	u32 val;

	mutex_lock(&priv->mii_lock);
	axn_mii_out(port, ~0U, MII_PREAMBLE_BITS);
	axn_mii_out(port, MII_ST << 12 | MII_OP_READ << 10 |
		    (phy & 0x1f) << 5 | (reg & 0x1f), 14);
	axn_mii_in(port, 2);		/* turnaround */
	val = axn_mii_in(port, 16);
	axn_mii_in(port, 1);		/* idle */
	mutex_unlock(&priv->mii_lock);
	return val;
}

static void axn_mdio_write(struct net_device *ndev, int phy, int reg, int val)
{
	struct axn_dev *priv = netdev_priv(ndev);
	unsigned long port = priv->io + AXN_MII;

	mutex_lock(&priv->mii_lock);
	axn_mii_out(port, ~0U, MII_PREAMBLE_BITS);
	axn_mii_out(port, (u32)MII_ST << 30 | MII_OP_WRITE << 28 |
		    (phy & 0x1f) << 23 | (reg & 0x1f) << 18 |
		    MII_TA_WRITE << 16 | (val & 0xffff), 32);
	axn_mii_in(port, 2);		/* let go of MDIO */
	mutex_unlock(&priv->mii_lock);
}

/* A PHY answers where its status and first ID register differ sensibly. */
static bool axn_phy_scan(struct axn_dev *priv)
{
	int phy, bmsr, id1;

	for (phy = 0; phy < PHY_MAX_ADDR; phy++) {
		bmsr = axn_mdio_read(priv->nic.ndev, phy, MII_BMSR);
		id1 = axn_mdio_read(priv->nic.ndev, phy, MII_PHYSID1);
		if (bmsr != id1 && bmsr != 0 && bmsr != 0xffff) {
			priv->mii.phy_id = phy;
			return true;
		}
	}
	return false;
}

/* The link poll's look at the PHY (pcnic.c): the MAC follows its duplex. */
static void axn_phy_check(struct pcnic *nic, bool first)
{
	struct axn_dev *priv = to_axn(nic);

	/* all ones: the card has stopped answering, and its link with it */
	if (axn_mdio_read(nic->ndev, priv->mii.phy_id, MII_BMSR) == 0xffff) {
		if (first || netif_carrier_ok(nic->ndev)) {
			netif_carrier_off(nic->ndev);
			netdev_err(nic->ndev, "the PHY does not answer: no link\n");
		}
		return;
	}
	if (mii_check_media(&priv->mii, netif_msg_link(nic), first) || first)
		axn_set_duplex(priv, priv->mii.full_duplex);
}

void axn_phy_find(struct axn_dev *priv)
{
	mutex_init(&priv->mii_lock);
	priv->mii.dev = priv->nic.ndev;
	priv->mii.mdio_read = axn_mdio_read;
	priv->mii.mdio_write = axn_mdio_write;
	priv->mii.phy_id_mask = 0x1f;
	priv->mii.reg_num_mask = 0x1f;
	priv->nic.link_check = axn_phy_check;

	priv->has_phy = axn_phy_scan(priv);
	if (!priv->has_phy &&
	    !pcmcia_write_config_byte(priv->nic.link, CISREG_CCSR, AXN_CCSR_PHY_ON)) {
		priv->has_phy = axn_phy_scan(priv);
		priv->phy_powerup = priv->has_phy;
	}
}

void axn_phy_start(struct axn_dev *priv)
{
	if (!priv->has_phy) {
		netif_carrier_on(priv->nic.ndev);
		return;
	}
	if (priv->phy_powerup)
		pcmcia_write_config_byte(priv->nic.link, CISREG_CCSR, AXN_CCSR_PHY_ON);
	pcnic_link_start(&priv->nic);
}

int axn_mii_ioctl(struct net_device *ndev, struct ifreq *rq, int cmd)
{
	struct axn_dev *priv = netdev_priv(ndev);

	if (!priv->has_phy)
		return -EOPNOTSUPP;
	return generic_mii_ioctl(&priv->mii, if_mii(rq), cmd, NULL);
}

/* ---- ethtool ---- */

static int axn_get_link_ksettings(struct net_device *ndev,
				  struct ethtool_link_ksettings *cmd)
{
	struct axn_dev *priv = netdev_priv(ndev);

	if (!priv->has_phy)
		return -EOPNOTSUPP;
	mii_ethtool_get_link_ksettings(&priv->mii, cmd);
	return 0;
}

static int axn_set_link_ksettings(struct net_device *ndev,
				  const struct ethtool_link_ksettings *cmd)
{
	struct axn_dev *priv = netdev_priv(ndev);

	if (!priv->has_phy)
		return -EOPNOTSUPP;
	return mii_ethtool_set_link_ksettings(&priv->mii, cmd);
}

static int axn_nway_reset(struct net_device *ndev)
{
	struct axn_dev *priv = netdev_priv(ndev);

	if (!priv->has_phy)
		return -EOPNOTSUPP;
	return mii_nway_restart(&priv->mii);
}

const struct ethtool_ops axn_ethtool_ops = {
	PCNIC_ETHTOOL_OPS,
	.get_link_ksettings	= axn_get_link_ksettings,
	.set_link_ksettings	= axn_set_link_ksettings,
	.nway_reset		= axn_nway_reset,
};
