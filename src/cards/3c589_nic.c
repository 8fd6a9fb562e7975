// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the 3c589 adds to the shared EtherLink III network side
 * (elink3_lib.c): the adapter's enable and IRQ select in window 0, three
 * transceivers (10BASE-T, 10BASE2, AUI) and 10BASE-T's link beat, and
 * ethtool.
 */

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/io.h>
#include <linux/linkmode.h>
#include <linux/netdevice.h>

#include "compat.h"
#include "3c589.h"

static_assert(offsetof(struct c589_dev, el3) == 0);

static struct c589_dev *c589_of(struct el3_dev *el3)
{
	return container_of(el3, struct c589_dev, el3);
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
	unsigned long io = priv->el3.io;
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
	struct el3_dev *el3 = &priv->el3;

	spin_lock_irq(&el3->lock);
	priv->xcvr = xcvr;
	el3->nic.ndev->if_port = c589_if_port[xcvr];
	if (el3->up && !el3->resetting)
		c589_load_xcvr(priv);
	spin_unlock_irq(&el3->lock);
}

/* The adapter on, its IRQ line, the transceiver (lock held, window 1). */
static void c589_hw_init(struct el3_dev *el3)
{
	unsigned long io = el3->io;

	el3_window(io, 0);
	outw(EL3_CONFIG_ENABLE, io + EL3_W0_CONFIG_CTRL);
	outw(C589_IRQ_SELECT, io + EL3_W0_RESOURCE_CFG);
	el3_window(io, 1);
	c589_load_xcvr(c589_of(el3));
}

static void c589_hw_stop(struct el3_dev *el3)
{
	if (c589_of(el3)->xcvr == C589_XCVR_BNC)
		el3_cmd(el3->io, EL3_OP_STOP_COAX, 0);
}

/*
 * The link: 10baseT's link beat, which the link poll (pcnic.c) looks at
 * once a second.  Coax and AUI have no link status; their carrier stays
 * on.
 */
static void c589_link_check(struct pcnic *nic, bool first)
{
	struct el3_dev *el3 = to_el3(nic);
	u16 media;

	spin_lock_irq(&el3->lock);
	if (!el3->up || el3->resetting) {
		spin_unlock_irq(&el3->lock);
		return;
	}
	el3_window(el3->io, 4);
	media = inw(el3->io + C589_MEDIA);
	el3_window(el3->io, 1);
	spin_unlock_irq(&el3->lock);
	if (media != EL3_GONE)
		pcnic_link_10(nic, media & C589_MEDIA_LINK_BEAT, first);
}

static void c589_media_start(struct el3_dev *el3)
{
	if (c589_of(el3)->xcvr == C589_XCVR_TP)
		pcnic_link_start(&el3->nic);
	else
		netif_carrier_on(el3->nic.ndev);
}

static const struct el3_ops c589_ops = {
	.hw_init	= c589_hw_init,
	.hw_stop	= c589_hw_stop,
	.link_start	= c589_media_start,
};

const struct net_device_ops c589_netdev_ops = {
	PCNIC_NETDEV_OPS,
	.ndo_start_xmit		= el3_start_xmit,
	.ndo_tx_timeout		= el3_tx_timeout,
	.ndo_set_rx_mode	= el3_set_rx_mode,
	.ndo_get_stats64	= el3_get_stats64,
};

/* ---- ethtool ---- */

static const u8 c589_ethtool_port[] = {
	[C589_XCVR_TP]	= PORT_TP,
	[C589_XCVR_BNC]	= PORT_BNC,
	[C589_XCVR_AUI]	= PORT_AUI,
};

/* 10 Mbit/s half duplex on one of three ports, no autonegotiation. */
static int c589_get_link_ksettings(struct net_device *ndev,
				   struct ethtool_link_ksettings *cmd)
{
	struct c589_dev *priv = netdev_priv(ndev);

	pcnic_ksettings_10_half(cmd);
	linkmode_set_bit(ETHTOOL_LINK_MODE_BNC_BIT, cmd->link_modes.supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_AUI_BIT, cmd->link_modes.supported);
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
	pcnic_link_stop(&priv->el3.nic);
	c589_set_xcvr(priv, xcvr);
	netif_info(&priv->el3.nic, link, ndev, "switched to the %s port\n",
		   c589_xcvr_name(xcvr));
	if (netif_running(ndev) && netif_device_present(ndev))
		c589_media_start(&priv->el3);
	return 0;
}

const struct ethtool_ops c589_ethtool_ops = {
	PCNIC_ETHTOOL_OPS,
	.get_link_ksettings	= c589_get_link_ksettings,
	.set_link_ksettings	= c589_set_link_ksettings,
};

/* The driver's state of a new card, in @ndev's private area. */
struct c589_dev *c589_nic_init(struct net_device *ndev,
			       struct pcmcia_device *link)
{
	struct c589_dev *priv = netdev_priv(ndev);

	el3_dev_init(&priv->el3, ndev, link, &c589_ops);
	priv->el3.nic.link_check = c589_link_check;
	return priv;
}
