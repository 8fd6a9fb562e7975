// SPDX-License-Identifier: GPL-2.0-only
/*
 * The life cycle that every Ethernet PC Card driver of ours shares (see
 * pcnic.h): probe's last steps, remove, suspend and resume, open and
 * stop, ethtool's basics and the link poll.  What differs between the
 * chips comes in through struct pcnic_ops and the link check.
 */

#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/linkmode.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "compat.h"
#include "pcnic.h"

#define PCNIC_LINK_PERIOD	HZ

static void pcnic_link_work(struct work_struct *work);

/*
 * The shared part of a new card, at the start of @ndev's private area;
 * the PC Card's priv points to it from here on.
 */
void pcnic_init(struct pcnic *nic, struct net_device *ndev,
		struct pcmcia_device *link, const struct pcnic_ops *ops)
{
	nic->ndev = ndev;
	nic->link = link;
	nic->ops = ops;
	nic->msg_enable = PCNIC_MSG_DEFAULT;
	INIT_DELAYED_WORK(&nic->link_poll, pcnic_link_work);
	link->priv = nic;
}

/* The card's station address, or a random one if @addr is not valid. */
void pcnic_set_mac(struct pcnic *nic, const u8 *addr)
{
	if (is_valid_ether_addr(addr)) {
		eth_hw_addr_set(nic->ndev, addr);
		return;
	}
	eth_hw_addr_random(nic->ndev);
	dev_warn(&nic->link->dev, "the card holds no valid address (%pM), using %pM\n",
		 addr, nic->ndev->dev_addr);
}

/* The net_device of a probed card at ports @io, registered. */
int pcnic_register(struct pcnic *nic, unsigned long io,
		   const struct net_device_ops *ops,
		   const struct ethtool_ops *ethtool_ops, unsigned int timeo)
{
	struct net_device *ndev = nic->ndev;

	SET_NETDEV_DEV(ndev, &nic->link->dev);
	ndev->netdev_ops = ops;
	ndev->ethtool_ops = ethtool_ops;
	ndev->watchdog_timeo = timeo;
	ndev->base_addr = io;
	ndev->irq = nic->link->irq;
	netif_carrier_off(ndev);	/* until open finds the link */
	return register_netdev(ndev);
}

/*
 * The card's resources and the net_device (not registered) go, and with
 * it the driver's private area and NAPI.
 */
void pcnic_release(struct pcnic *nic)
{
	struct pcmcia_device *link = nic->link;
	struct net_device *ndev = nic->ndev;

	pcmcia_disable_device(link);
	link->priv = NULL;
	free_netdev(ndev);
}

/* ---- the PC Card driver ---- */

void pcnic_remove(struct pcmcia_device *link)
{
	struct pcnic *nic = link->priv;

	netif_device_detach(nic->ndev);
	unregister_netdev(nic->ndev);
	pcnic_release(nic);
}

/* The chip's reset, said when it fails. */
static int pcnic_reset(struct pcnic *nic)
{
	int rc;

	if (!nic->ops->reset)
		return 0;
	rc = nic->ops->reset(nic);
	if (rc)
		netdev_err(nic->ndev, "the card did not finish its reset\n");
	return rc;
}

/* Nothing runs on the card any more: its link poll, then the chip. */
static void pcnic_halt(struct pcnic *nic)
{
	pcnic_link_stop(nic);
	nic->ops->halt(nic);
}

/* Suspended, the card keeps nothing: resume resets and reprograms it. */
int pcnic_suspend(struct pcmcia_device *link)
{
	struct pcnic *nic = link->priv;

	rtnl_lock();
	netif_device_detach(nic->ndev);
	if (netif_running(nic->ndev))
		pcnic_halt(nic);
	rtnl_unlock();
	return 0;
}

int pcnic_resume(struct pcmcia_device *link)
{
	struct pcnic *nic = link->priv;

	rtnl_lock();
	if (netif_running(nic->ndev)) {
		pcnic_reset(nic);
		nic->ops->start(nic);
	}
	netif_device_attach(nic->ndev);
	rtnl_unlock();
	return 0;
}

/* ---- the net_device ---- */

int pcnic_open(struct net_device *ndev)
{
	struct pcnic *nic = netdev_priv(ndev);
	int rc;

	if (!pcmcia_dev_present(nic->link))
		return -ENODEV;
	rc = pcnic_reset(nic);
	if (rc)
		return rc;
	rc = request_irq(nic->link->irq, nic->ops->interrupt, IRQF_SHARED,
			 ndev->name, nic);
	if (rc)
		return rc;
	nic->ops->start(nic);
	netif_start_queue(ndev);
	return 0;
}

int pcnic_stop(struct net_device *ndev)
{
	struct pcnic *nic = netdev_priv(ndev);

	netif_stop_queue(ndev);
	pcnic_halt(nic);
	free_irq(nic->link->irq, nic);
	netif_carrier_off(ndev);
	return 0;
}

/* ---- the link ---- */

static void pcnic_link_work(struct work_struct *work)
{
	struct pcnic *nic = container_of(to_delayed_work(work), struct pcnic,
					 link_poll);
	bool first = nic->link_first;

	/* a card that is gone reads all ones, which may look like a link */
	if (!pcmcia_dev_present(nic->link))
		return;
	nic->link_first = false;
	nic->link_check(nic, first);
	schedule_delayed_work(&nic->link_poll, PCNIC_LINK_PERIOD);
}

/* Follow the link from now on: the carrier is off until a check finds it. */
void pcnic_link_start(struct pcnic *nic)
{
	netif_carrier_off(nic->ndev);
	nic->link_first = true;
	schedule_delayed_work(&nic->link_poll, 0);
}

void pcnic_link_stop(struct pcnic *nic)
{
	cancel_delayed_work_sync(&nic->link_poll);
}

/*
 * Not through GRO: these cards check no checksums, and at their rates a
 * poll brings one frame or a few, so GRO only adds its own work and holds
 * back ACKs.  Measured on the emulated nmclan (bench_nics under -icount,
 * 4 rounds): the guest's CPU per MB received was 1.12 x upstream's
 * (which calls netif_rx) with GRO, 0.95 x without.
 */
void pcnic_rx(struct pcnic *nic, struct sk_buff *skb)
{
	skb->protocol = eth_type_trans(skb, nic->ndev);
	netif_receive_skb(skb);
}

/*
 * A 10 Mbit/s half-duplex link that is @up or not: the carrier follows,
 * and a change is logged (@first: the state is logged anyway).
 */
void pcnic_link_10(struct pcnic *nic, bool up, bool first)
{
	struct net_device *ndev = nic->ndev;

	if (!first && up == netif_carrier_ok(ndev))
		return;
	if (up) {
		netif_carrier_on(ndev);
		netif_info(nic, link, ndev, "link up, 10Mbps, half-duplex\n");
	} else {
		netif_carrier_off(ndev);
		netif_info(nic, link, ndev, "link down\n");
	}
}

/* ---- the receive filter ---- */

/*
 * The 64-bit multicast filter of the MACE and the MB86960: a bit for each
 * group, the top six bits of the little-endian CRC of its address; all
 * bits for all groups.
 */
void pcnic_mc_filter_le(struct net_device *ndev, u8 *filter)
{
	struct netdev_hw_addr *ha;
	u32 bit;

	memset(filter, 0, PCNIC_MC_FILTER_LEN);
	if (ndev->flags & (IFF_PROMISC | IFF_ALLMULTI)) {
		memset(filter, 0xff, PCNIC_MC_FILTER_LEN);
		return;
	}
	netdev_for_each_mc_addr(ha, ndev) {
		bit = ether_crc_le(ETH_ALEN, ha->addr) >> 26;
		filter[bit / 8] |= BIT(bit % 8);
	}
}

/* ---- ethtool ---- */

void pcnic_get_drvinfo(struct net_device *ndev, struct ethtool_drvinfo *info)
{
	struct pcnic *nic = netdev_priv(ndev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->bus_info, dev_name(&nic->link->dev),
		sizeof(info->bus_info));
}

u32 pcnic_get_msglevel(struct net_device *ndev)
{
	struct pcnic *nic = netdev_priv(ndev);

	return nic->msg_enable;
}

void pcnic_set_msglevel(struct net_device *ndev, u32 level)
{
	struct pcnic *nic = netdev_priv(ndev);

	nic->msg_enable = level;
}

/* 10BASE-T, half duplex, nothing to negotiate. */
void pcnic_ksettings_10_half(struct ethtool_link_ksettings *cmd)
{
	unsigned long *modes = cmd->link_modes.supported;

	linkmode_zero(modes);
	linkmode_set_bit(ETHTOOL_LINK_MODE_10baseT_Half_BIT, modes);
	linkmode_set_bit(ETHTOOL_LINK_MODE_TP_BIT, modes);
	linkmode_zero(cmd->link_modes.advertising);
	cmd->base.speed = SPEED_10;
	cmd->base.duplex = DUPLEX_HALF;
	cmd->base.port = PORT_TP;
	cmd->base.autoneg = AUTONEG_DISABLE;
}

static int pcnic_get_ksettings_10_half(struct net_device *ndev,
				       struct ethtool_link_ksettings *cmd)
{
	pcnic_ksettings_10_half(cmd);
	return 0;
}

/* ethtool for a chip with a 10BASE-T port alone */
const struct ethtool_ops pcnic_ethtool_10_half = {
	PCNIC_ETHTOOL_OPS,
	.get_link_ksettings	= pcnic_get_ksettings_10_half,
};
