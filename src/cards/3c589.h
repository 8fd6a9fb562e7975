/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 3c589_cs: 3Com 3c589 EtherLink III PC Cards (and the Ethernet function
 * of the 3c562 combo cards), 10 Mbit/s.  Shared by the PC Card glue
 * (3c589_cs.c) and the transceivers (3c589_nic.c); the EtherLink III
 * registers, helpers and network side are in elink3.h.
 */
#ifndef PCL_3C589_H
#define PCL_3C589_H

#include <linux/netdevice.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "elink3.h"

#define C589_IO_SIZE		16
#define C589_EEPROM_READ	0x0080	/* EEPROM read command, with the word */
#define C589_EE_NODE		0	/* EEPROM: the address, 3 words */
#define C589_EE_ADDR_CFG	8	/* EEPROM: bits 15:14, the transceiver */
#define C589_IRQ_SELECT		0x3f00	/* EL3_W0_RESOURCE_CFG on PC Cards */

/* window 4 */
#define C589_MEDIA		0x0a
#define C589_MEDIA_LED		0x0001
#define C589_MEDIA_TP_CHECKS	0x00c0	/* jabber guard and link beat on */
#define C589_MEDIA_LINK_BEAT	0x0800

/* the transceivers, numbered as the if_port option has them */
enum c589_xcvr {
	C589_XCVR_AUTO	= 0,	/* the one the card's EEPROM names */
	C589_XCVR_TP	= 1,	/* 10BASE-T */
	C589_XCVR_BNC	= 2,	/* 10BASE2, thin coax */
	C589_XCVR_AUI	= 3,
};

struct c589_dev {
	struct el3_dev el3;	/* first: the shared network side */
	enum c589_xcvr xcvr;	/* in use: never AUTO */
};

/* 3c589_nic.c */
extern const struct net_device_ops c589_netdev_ops;
extern const struct ethtool_ops c589_ethtool_ops;
void c589_set_xcvr(struct c589_dev *priv, enum c589_xcvr xcvr);
const char *c589_xcvr_name(enum c589_xcvr xcvr);
struct c589_dev *c589_nic_init(struct net_device *ndev,
			       struct pcmcia_device *link);

#endif /* PCL_3C589_H */
