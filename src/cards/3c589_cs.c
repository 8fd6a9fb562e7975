// SPDX-License-Identifier: GPL-2.0-only
/*
 * 3Com 3c589 EtherLink III PC Cards: the PC Card side.
 *
 * The cards want configuration entry 1 and 16 ports of 16-bit I/O; the
 * 3c562 (modem and Ethernet on one card) decodes its Ethernet function's
 * ports at xx00-xx7f only.  The station address is in the card's EEPROM,
 * or on cards that have one in a 3Com node ID tuple of the CIS.  Window
 * 0's address and resource configuration registers are not loaded from
 * the EEPROM on PC Cards: the driver writes them.
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "pccard.h"
#include "3c589.h"

#define C589_MANF_3COM		0x0101
#define C589_PRODID_3C562	0x0562
#define C589_CONFIG_INDEX	1
#define C589_TX_TIMEOUT		HZ	/* the FIFO drains in 3 ms */

static int if_port;
module_param(if_port, int, 0444);
MODULE_PARM_DESC(if_port,
		 "transceiver: 0 the card's own choice (default), 1 10baseT, 2 10base2, 3 AUI");

static bool c589_is_3c562(struct pcmcia_device *link)
{
	return link->manf_id == C589_MANF_3COM &&
	       link->card_id == C589_PRODID_3C562;
}

static int c589_request_io(struct pcmcia_device *link)
{
	struct resource *io = link->resource[0];
	unsigned int base;

	io->end = C589_IO_SIZE;
	io->flags &= ~IO_DATA_PATH_WIDTH;
	io->flags |= IO_DATA_PATH_WIDTH_16;
	link->io_lines = 16;
	if (!c589_is_3c562(link)) {
		io->start = 0;		/* anywhere, aligned to its size */
		return pcmcia_request_io(link);
	}
	for (base = 0x200; base < 0x400; base += C589_IO_SIZE) {
		if (base & 0x80)
			continue;
		io->start = base;
		if (!pcmcia_request_io(link))
			return 0;
	}
	return -EBUSY;
}

static int c589_enable(struct pcmcia_device *link)
{
	int rc;

	link->config_index = C589_CONFIG_INDEX;
	link->config_flags |= CONF_ENABLE_IRQ;
	rc = c589_request_io(link);
	if (rc) {
		dev_err(&link->dev, "no 16 ports of I/O space for the card\n");
		return rc;
	}
	return pcl_card_enable(link);
}

/* The transceiver if_port asks for, or the one the EEPROM names. */
static enum c589_xcvr c589_pick_xcvr(struct el3_dev *el3)
{
	u16 cfg;

	if (if_port > C589_XCVR_AUTO && if_port <= C589_XCVR_AUI)
		return if_port;
	if (if_port != C589_XCVR_AUTO)
		dev_warn(&el3->nic.link->dev,
			 "if_port=%d is none of 0-3; using the card's own choice\n",
			 if_port);
	if (el3_eeprom_read(el3->io, C589_EEPROM_READ, C589_EE_ADDR_CFG, &cfg))
		return C589_XCVR_TP;
	switch (cfg >> 14) {
	case 1:
		return C589_XCVR_AUI;
	case 3:
		return C589_XCVR_BNC;
	default:
		return C589_XCVR_TP;
	}
}

static int c589_probe(struct pcmcia_device *link)
{
	struct net_device *ndev;
	struct c589_dev *priv;
	struct el3_dev *el3;
	int rc;

	ndev = alloc_etherdev(sizeof(*priv));
	if (!ndev)
		return -ENOMEM;
	priv = c589_nic_init(ndev, link);
	el3 = &priv->el3;

	rc = c589_enable(link);
	if (!rc)
		rc = el3_probe_chip(el3, "3c589", C589_EEPROM_READ, C589_EE_NODE);
	if (rc)
		goto fail;
	c589_set_xcvr(priv, c589_pick_xcvr(el3));
	el3_window(el3->io, 1);

	rc = pcnic_register(&el3->nic, el3->io, &c589_netdev_ops,
			    &c589_ethtool_ops, C589_TX_TIMEOUT);
	if (rc)
		goto fail;
	netdev_info(ndev, "3Com 3c%s at %pR, irq %u, %pM, %s port%s\n",
		    c589_is_3c562(link) ? "562" : "589", link->resource[0],
		    link->irq, ndev->dev_addr, c589_xcvr_name(priv->xcvr),
		    if_port == priv->xcvr ? "" : " (the card's choice)");
	return 0;

fail:
	pcnic_release(&el3->nic);
	return rc;
}

/* The cards of upstream's 3c589_cs (Linux 6.1) */
static const struct pcmcia_device_id c589_ids[] = {
	/* 3c589 and the cards made like it */
	PCMCIA_DEVICE_MANF_CARD(0x0101, 0x0589),
	PCMCIA_DEVICE_PROD_ID12("Farallon", "ENet", 0x58d93fc4, 0x992c2202),
	/* the Ethernet function of combo cards */
	PCMCIA_MFC_DEVICE_MANF_CARD(0, 0x0101, 0x0562),
	PCMCIA_MFC_DEVICE_PROD_ID1(0, "Motorola MARQUIS", 0xf03e4e77),
	/* 3CXEM556: its CIS is a file of the PC Card core's firmware */
	PCMCIA_MFC_DEVICE_CIS_MANF_CARD(0, 0x0101, 0x0035, "cis/3CXEM556.cis"),
	PCMCIA_MFC_DEVICE_CIS_MANF_CARD(0, 0x0101, 0x003d, "cis/3CXEM556.cis"),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, c589_ids);

static struct pcmcia_driver c589_driver = {
	.owner		= THIS_MODULE,
	.name		= "3c589_cs",
	.probe		= c589_probe,
	PCNIC_PCMCIA_OPS,
	.id_table	= c589_ids,
};
module_pcmcia_driver(c589_driver);

MODULE_DESCRIPTION("3Com 3c589 EtherLink III PC Card Ethernet");
MODULE_LICENSE("GPL");
