// SPDX-License-Identifier: GPL-2.0-only
/*
 * New Media Ethernet PC Cards (and Portable Add-ons' Ethernet+, made the
 * same way): the PC Card side.
 *
 * The cards want configuration entry 1 and 32 ports decoded on 5 address
 * lines; the glue's data ports take 16-bit cycles, the MACE's registers
 * bytes, so the card says which with IOIS16 (data path "auto").  The
 * station address is in a vendor tuple (0x80) of the CIS.  The chip ID
 * tells an Am79C940 from a bus without a card.
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <pcmcia/cisreg.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "pccard.h"
#include "nmclan.h"

#define NM_TX_TIMEOUT		HZ	/* four full frames leave in 5 ms */

static int nm_enable(struct pcmcia_device *link)
{
	struct resource *io = link->resource[0];
	int rc;

	link->config_index = NM_CONFIG_INDEX;
	link->config_flags |= CONF_ENABLE_IRQ;
	link->config_regs = PRESENT_OPTION;
	io->start = 0;			/* anywhere, aligned to its size */
	io->end = NM_IO_SIZE;
	io->flags &= ~IO_DATA_PATH_WIDTH;
	io->flags |= IO_DATA_PATH_WIDTH_AUTO;
	link->io_lines = NM_IO_LINES;
	rc = pcmcia_request_io(link);
	if (rc) {
		dev_err(&link->dev, "no %u ports of I/O space for the card\n",
			NM_IO_SIZE);
		return rc;
	}
	return pcl_card_enable(link);
}

/* The station address from the CIS's vendor tuple; a random one without. */
static void nm_read_mac(struct nm_dev *nm)
{
	u8 addr[ETH_ALEN] = { 0 };
	u8 *data = NULL;
	size_t len;

	len = pcmcia_get_tuple(nm->nic.link, NM_CISTPL_MAC, &data);
	if (len >= ETH_ALEN)
		memcpy(addr, data, ETH_ALEN);
	kfree(data);
	pcnic_set_mac(&nm->nic, addr);
}

/* An Am79C940 behind the ports; its version. */
static int nm_check_chip(struct nm_dev *nm, unsigned int *version)
{
	struct pcmcia_device *link = nm->nic.link;
	u8 lo, hi;

	outb(0, nm->io + NM_BANK);
	lo = nm_mace_read(nm, MACE_REG_CHIPID_LO);
	hi = nm_mace_read(nm, MACE_REG_CHIPID_HI);
	if (lo != MACE_ID_LO || (hi & MACE_ID_HI_MASK) != MACE_ID_HI_PART) {
		dev_err(&link->dev, "no MACE at %pR (chip ID %#04x%02x)\n",
			link->resource[0], hi, lo);
		return -ENODEV;
	}
	*version = hi >> 4;
	return 0;
}

static int nm_probe(struct pcmcia_device *link)
{
	struct net_device *ndev;
	unsigned int version;
	struct nm_dev *nm;
	int rc;

	ndev = alloc_etherdev(sizeof(*nm));
	if (!ndev)
		return -ENOMEM;
	nm = nm_dev_init(ndev, link);

	rc = nm_enable(link);
	if (rc)
		goto fail;
	nm->io = link->resource[0]->start;
	rc = nm_check_chip(nm, &version);
	if (rc)
		goto fail;
	rc = nm_card_reset(nm);
	if (rc) {
		dev_err(&link->dev, "the MACE at %pR did not finish its reset\n",
			link->resource[0]);
		rc = -EIO;
		goto fail;
	}
	nm_read_mac(nm);

	/* 10BASE-T, half duplex: all the MACE's port does */
	rc = pcnic_register(&nm->nic, nm->io, &nm_netdev_ops,
			    &pcnic_ethtool_10_half, NM_TX_TIMEOUT);
	if (rc)
		goto fail;
	netdev_info(ndev, "New Media Ethernet at %pR, irq %u, %pM, MACE version %u\n",
		    link->resource[0], link->irq, ndev->dev_addr, version);
	return 0;

fail:
	pcnic_release(&nm->nic);
	return rc;
}

/* The cards of upstream's nmclan_cs (Linux 6.1) */
static const struct pcmcia_device_id nm_ids[] = {
	PCMCIA_DEVICE_PROD_ID12("New Media Corporation", "Ethernet",
				0x085a850b, 0x00b2e941),
	PCMCIA_DEVICE_PROD_ID12("Portable Add-ons", "Ethernet+",
				0x0ebf1d60, 0xad673aaf),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, nm_ids);

static struct pcmcia_driver nm_driver = {
	.owner		= THIS_MODULE,
	.name		= "nmclan_cs",
	.probe		= nm_probe,
	PCNIC_PCMCIA_OPS,
	.id_table	= nm_ids,
};
module_pcmcia_driver(nm_driver);

MODULE_DESCRIPTION("New Media Ethernet PC Card (AMD Am79C940 MACE)");
MODULE_LICENSE("GPL");
