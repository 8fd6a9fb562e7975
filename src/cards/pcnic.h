/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the Ethernet PC Card drivers (axnet_cs, 3c589_cs, 3c574_cs,
 * nmclan_cs, fmvj18x_cs, smc91c92_cs) share: the life cycle of a card and
 * its net_device, which does not depend on the chip.
 *
 * A driver's private area of the net_device starts with a struct pcnic:
 * the net_device, the PC Card, the message level, the chip's operations
 * and the link poll.  The PC Card's priv is the struct pcnic too.  The
 * shared code then does the rest of the PC Card driver (remove, suspend,
 * resume), the net_device's open and stop, registration, the station
 * address, the basic ethtool operations, and following the link: a work
 * item polls it once a second while the card runs, and 10 Mbit/s links
 * are reported the same way by every driver.
 *
 * The code (pcnic.c) is compiled into each module that uses it, as
 * elink3_lib.c is: see drivers.list.  Nothing is exported.
 */
#ifndef PCL_PCNIC_H
#define PCL_PCNIC_H

#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

/* what the drivers log unless told otherwise (ethtool msglvl) */
#define PCNIC_MSG_DEFAULT	(NETIF_MSG_DRV | NETIF_MSG_PROBE | \
				 NETIF_MSG_LINK | NETIF_MSG_RX_ERR | \
				 NETIF_MSG_TX_ERR)

struct pcnic;

/* What the chip's side of a driver does for the shared life cycle. */
struct pcnic_ops {
	/*
	 * Reset the chip before it is programmed (open, resume): process
	 * context, nothing running on it.  Optional.
	 */
	int (*reset)(struct pcnic *nic);
	/* Program the chip and run it, its link followed: open, resume. */
	void (*start)(struct pcnic *nic);
	/*
	 * Nothing runs on the card any more (stop, suspend); its link poll
	 * has stopped already.
	 */
	void (*halt)(struct pcnic *nic);
	/* The card's interrupt; its data is the struct pcnic. */
	irq_handler_t interrupt;
};

struct pcnic {
	struct net_device *ndev;
	struct pcmcia_device *link;
	const struct pcnic_ops *ops;
	u32 msg_enable;

	/*
	 * The link poll: link_check() once a second from pcnic_link_start()
	 * to pcnic_link_stop(), first (@first true) at once.
	 */
	void (*link_check)(struct pcnic *nic, bool first);
	struct delayed_work link_poll;
	bool link_first;
};

/* the PC Card side */
void pcnic_init(struct pcnic *nic, struct net_device *ndev,
		struct pcmcia_device *link, const struct pcnic_ops *ops);
void pcnic_set_mac(struct pcnic *nic, const u8 *addr);
int pcnic_register(struct pcnic *nic, unsigned long io,
		   const struct net_device_ops *ops,
		   const struct ethtool_ops *ethtool_ops, unsigned int timeo);
void pcnic_release(struct pcnic *nic);
void pcnic_remove(struct pcmcia_device *link);
int pcnic_suspend(struct pcmcia_device *link);
int pcnic_resume(struct pcmcia_device *link);
/* in every driver's struct pcmcia_driver, after its probe */
#define PCNIC_PCMCIA_OPS					\
	.remove		= pcnic_remove,				\
	.suspend	= pcnic_suspend,			\
	.resume		= pcnic_resume

/*
 * The net_device: what is the same in every driver's net_device_ops is
 * PCNIC_NETDEV_OPS.
 */
int pcnic_open(struct net_device *ndev);
int pcnic_stop(struct net_device *ndev);
#define PCNIC_NETDEV_OPS					\
	.ndo_open		= pcnic_open,			\
	.ndo_stop		= pcnic_stop,			\
	.ndo_set_mac_address	= eth_mac_addr,			\
	.ndo_validate_addr	= eth_validate_addr

/* the link */
void pcnic_link_start(struct pcnic *nic);
void pcnic_link_stop(struct pcnic *nic);
void pcnic_link_10(struct pcnic *nic, bool up, bool first);

/* the receive filter */
#define PCNIC_MC_FILTER_LEN	8
void pcnic_mc_filter_le(struct net_device *ndev, u8 *filter);

/* A frame received in NAPI poll, to the stack (pcnic.c says why not GRO). */
void pcnic_rx(struct pcnic *nic, struct sk_buff *skb);

/* ethtool: the basics, PCNIC_ETHTOOL_OPS in every driver's ethtool_ops */
#define PCNIC_ETHTOOL_OPS					\
	.get_drvinfo		= pcnic_get_drvinfo,		\
	.get_link		= ethtool_op_get_link,		\
	.get_msglevel		= pcnic_get_msglevel,		\
	.set_msglevel		= pcnic_set_msglevel
void pcnic_get_drvinfo(struct net_device *ndev, struct ethtool_drvinfo *info);
u32 pcnic_get_msglevel(struct net_device *ndev);
void pcnic_set_msglevel(struct net_device *ndev, u32 level);
/* and the link settings of a chip with 10BASE-T alone */
void pcnic_ksettings_10_half(struct ethtool_link_ksettings *cmd);
extern const struct ethtool_ops pcnic_ethtool_10_half;

#endif /* PCL_PCNIC_H */
