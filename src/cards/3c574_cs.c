// SPDX-License-Identifier: GPL-2.0-only
/*
 * 3Com 3c574 Fast EtherLink PC Cards: the PC Card side.
 *
 * The cards want configuration entry 1 and 32 ports of 16-bit I/O.  The
 * station address is in EEPROM words 10-12 (read command 0x200), or on
 * cards that have one in a 3Com node ID tuple of the CIS.  Every card has
 * an MII PHY: without one there is no network port, and no driver.
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "pccard.h"
#include "3c574.h"

#define C574_CONFIG_INDEX	1
#define C574_TX_TIMEOUT		HZ	/* the FIFO drains in 30 ms at 10 Mbit/s */

static int c574_enable(struct pcmcia_device *link)
{
	struct resource *io = link->resource[0];

	link->config_index = C574_CONFIG_INDEX;
	link->config_flags |= CONF_ENABLE_IRQ;
	io->start = 0;		/* anywhere, aligned to its size */
	io->end = C574_IO_SIZE;
	io->flags &= ~IO_DATA_PATH_WIDTH;
	io->flags |= IO_DATA_PATH_WIDTH_16;
	link->io_lines = 16;
	if (pcmcia_request_io(link)) {
		dev_err(&link->dev, "no 32 ports of I/O space for the card\n");
		return -EBUSY;
	}
	return pcl_card_enable(link);
}

/* What the probe reports: the ASIC revision and InternalConfig. */
static void c574_read_ids(struct el3_dev *el3, unsigned int *rev, u32 *config)
{
	unsigned long io = el3->io;

	spin_lock_irq(&el3->lock);
	outw(FIELD_PREP(C574_RUNNER_WINDOW, C574_ASIC_WINDOW),
	     io + C574_RUNNER_RD);
	*rev = inb(io + C574_ASIC_REG) >> 3;
	outw(0, io + C574_RUNNER_RD);
	el3_window(io, 3);
	*config = inw(io + C574_W3_CONFIG) |
		  (u32)inw(io + C574_W3_CONFIG + 2) << 16;
	el3_window(io, 1);
	spin_unlock_irq(&el3->lock);
}

static int c574_probe(struct pcmcia_device *link)
{
	static const char * const split[] = { "5:3", "3:1", "1:1", "3:5" };
	struct net_device *ndev;
	struct c574_dev *priv;
	struct el3_dev *el3;
	unsigned int rev;
	u32 config;
	int rc;

	ndev = alloc_etherdev(sizeof(*priv));
	if (!ndev)
		return -ENOMEM;
	priv = c574_nic_init(ndev, link);
	el3 = &priv->el3;

	rc = c574_enable(link);
	if (!rc)
		rc = el3_probe_chip(el3, "3c574", C574_EEPROM_READ, C574_EE_NODE);
	if (rc)
		goto fail;
	el3_window(el3->io, 1);
	c574_read_ids(el3, &rev, &config);
	rc = c574_phy_find(priv);
	if (rc) {
		dev_err(&link->dev, "no MII PHY answers on the card\n");
		goto fail;
	}

	rc = pcnic_register(&el3->nic, el3->io, &c574_netdev_ops,
			    &c574_ethtool_ops, C574_TX_TIMEOUT);
	if (rc)
		goto fail;
	netdev_info(ndev, "3Com 3c574 at %pR, irq %u, %pM, ASIC rev %u, %uK RAM split %s Rx:Tx, MII PHY %d\n",
		    link->resource[0], link->irq, ndev->dev_addr, rev,
		    8U << FIELD_GET(C574_CFG_RAM_SIZE, config),
		    split[FIELD_GET(C574_CFG_RAM_SPLIT, config)],
		    priv->mii.phy_id);
	return 0;

fail:
	pcnic_release(&el3->nic);
	return rc;
}

/* The cards of upstream's 3c574_cs (Linux 6.12) */
static const struct pcmcia_device_id c574_ids[] = {
	PCMCIA_DEVICE_MANF_CARD(0x0101, 0x0574),
	/* 3CCFEM556: its CIS is a file of the PC Card core's firmware */
	PCMCIA_MFC_DEVICE_CIS_MANF_CARD(0, 0x0101, 0x0556, "cis/3CCFEM556.cis"),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, c574_ids);

static struct pcmcia_driver c574_driver = {
	.owner		= THIS_MODULE,
	.name		= "3c574_cs",
	.probe		= c574_probe,
	PCNIC_PCMCIA_OPS,
	.id_table	= c574_ids,
};
module_pcmcia_driver(c574_driver);

MODULE_DESCRIPTION("3Com 3c574 Fast EtherLink PC Card Ethernet");
MODULE_LICENSE("GPL");
