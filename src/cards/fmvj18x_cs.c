// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fujitsu MB86960A PC Card Ethernet (the FMV-J18x family and the cards
 * built like them): the PC Card side.
 *
 * Two kinds of card.  The MBH10302 cards (Fujitsu FMV-J181 and its OEM
 * versions) predate the LAN node ID tuple: their CIS says little that is
 * true, so they get configuration index 1 and 32 ports anywhere, keep
 * their address in a PROM at port 0x1a and gate the chip's interrupt
 * with a register at port 0x10.  An MBH10302 that has the tuple still
 * shows itself by its configuration registers at 0xfe0.  The later cards
 * (FMV-J182, TDK, CONTEC, ...) describe themselves in the CIS, the
 * address included.
 *
 * Not driven: the multifunction cards (Ethernet and modem on one card),
 * the Ungermann-Bass Access/CARD (fixed I/O bases of its own) and the
 * MBH10304 whose address is only in a malformed tuple that the PC Card
 * core does not parse.
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "pccard.h"
#include "fmvj18x.h"

#define FMV_MBH10302_INDEX	1
#define FMV_MBH10302_BASE	0xfe0
#define FMV_IO_LINES		5
#define FMV_TX_TIMEOUT		HZ

static int sram_config;
module_param(sram_config, int, 0444);
MODULE_PARM_DESC(sram_config,
		 "transmit buffers: 0 (default) two of 4 KB, else two of 8 KB");

/* 32 ports anywhere, 8- or 16-bit cycles as the card asks. */
static int fmv_request_io(struct pcmcia_device *link)
{
	struct resource *io0 = link->resource[0];

	link->io_lines = FMV_IO_LINES;
	io0->start = 0;
	io0->end = FMV_IO_SIZE;
	io0->flags &= ~IO_DATA_PATH_WIDTH;
	io0->flags |= IO_DATA_PATH_WIDTH_AUTO;
	link->resource[1]->end = 0;
	return pcmcia_request_io(link);
}

/* The CIS's configurations: the first the I/O ports are free for. */
static int fmv_config_check(struct pcmcia_device *link, void *data)
{
	if (!link->config_index)
		return -ENODEV;
	return fmv_request_io(link);
}

/* The card's own address in its LAN node ID tuple: 0 when it has one. */
static int fmv_cis_address(struct pcmcia_device *link, u8 *addr)
{
	static const unsigned int at[] = { 0, 3 };
	unsigned int i;
	size_t len;
	u8 *body;
	int rc = -ENOENT;

	len = pcmcia_get_tuple(link, CISTPL_FUNCE, &body);
	if (!len)
		return -ENOENT;
	/* node ID type 4, 6 bytes; some cards put three bytes before it */
	for (i = 0; i < ARRAY_SIZE(at); i++) {
		if (len >= at[i] + 2 + ETH_ALEN &&
		    body[at[i]] == CISTPL_FUNCE_LAN_NODE_ID &&
		    body[at[i] + 1] == ETH_ALEN) {
			memcpy(addr, body + at[i] + 2, ETH_ALEN);
			rc = 0;
			break;
		}
	}
	kfree(body);
	return rc;
}

static int fmv_enable(struct pcmcia_device *link, bool mbh10302)
{
	int rc;

	link->config_flags |= CONF_ENABLE_IRQ;
	if (mbh10302) {
		/* whatever its CIS says */
		link->config_index = FMV_MBH10302_INDEX;
		rc = fmv_request_io(link);
		if (rc)
			dev_err(&link->dev, "no %u ports of I/O space for the card\n",
				FMV_IO_SIZE);
	} else {
		rc = pcl_card_loop_config(link, fmv_config_check, NULL);
	}
	if (rc)
		return -ENODEV;
	return pcl_card_enable(link);
}

static int fmv_probe(struct pcmcia_device *link)
{
	struct net_device *ndev;
	struct fmv_dev *priv;
	u8 addr[ETH_ALEN];
	bool in_cis;
	int rc, i;

	ndev = alloc_etherdev(sizeof(*priv));
	if (!ndev)
		return -ENOMEM;
	priv = fmv_nic_init(ndev, link, sram_config != 0);

	in_cis = fmv_cis_address(link, addr) == 0;
	priv->has_lanctl = !in_cis || link->config_base == FMV_MBH10302_BASE;
	rc = fmv_enable(link, !in_cis);
	if (rc)
		goto fail;
	priv->io = link->resource[0]->start;
	if (!fmv_chip_answers(priv)) {
		dev_err(&link->dev, "no MB86960 answers at %pR\n",
			link->resource[0]);
		rc = -ENODEV;
		goto fail;
	}
	if (priv->has_lanctl) {
		for (i = 0; i < ETH_ALEN; i++)
			addr[i] = inb(priv->io + FMV_PROM + i);
	}
	pcnic_set_mac(&priv->nic, addr);
	fmv_chip_standby(priv);

	/* 10BASE-T, half duplex, nothing to negotiate; the carrier on while open */
	rc = pcnic_register(&priv->nic, priv->io, &fmv_netdev_ops,
			    &pcnic_ethtool_10_half, FMV_TX_TIMEOUT);
	if (rc)
		goto fail;
	netdev_info(ndev, "Fujitsu MB86960 at %pR, irq %u, %pM (%s), %uK TX*2\n",
		    link->resource[0], link->irq, ndev->dev_addr,
		    priv->has_lanctl ? "MBH10302, address from its PROM" :
				       "address from the CIS",
		    priv->tx_room / 1024);
	return 0;

fail:
	pcnic_release(&priv->nic);
	return rc;
}

/* The single-function cards of upstream's fmvj18x_cs (Linux 6.1) */
static const struct pcmcia_device_id fmv_ids[] = {
	/* Fujitsu's MBH10302, by manufacturer code and card ID */
	PCMCIA_DEVICE_MANF_CARD(0x0004, 0x0004),
	/* the first string of VERS_1 alone */
	PCMCIA_DEVICE_PROD_ID1("CONTEC Co.,Ltd.", 0x58d8fee2),
	PCMCIA_DEVICE_PROD_ID1("PCMCIA MBH10302", 0x8f4005da),
	/* the first two */
	PCMCIA_DEVICE_PROD_ID12("EAGLE Technology",
				"NE200 ETHERNET LAN MBH10302 04",
				0x528c88c4, 0x74f91e59),
	PCMCIA_DEVICE_PROD_ID12("Eiger Labs,Inc",
				"EPX-10BT PC Card Ethernet 10BT",
				0x53af556e, 0x877f9922),
	PCMCIA_DEVICE_PROD_ID12("Eiger labs,Inc.",
				"EPX-10BT PC Card Ethernet 10BT",
				0xf47e6c66, 0x877f9922),
	PCMCIA_DEVICE_PROD_ID12("FUJITSU", "LAN Card(FMV-J182)",
				0x6ee5a3d8, 0x5baf31db),
	PCMCIA_DEVICE_PROD_ID12("FUJITSU", "MBH10308",
				0x6ee5a3d8, 0x3f04875e),
	PCMCIA_DEVICE_PROD_ID12("FUJITSU TOWA", "LA501",
				0xb8451188, 0x12939ba2),
	PCMCIA_DEVICE_PROD_ID12("HITACHI", "HT-4840-11",
				0xf4f43949, 0x773910f4),
	PCMCIA_DEVICE_PROD_ID12("NextComK.K.", "NC5310 Ver1.0        ",
				0x8cef4d3a, 0xbccf43e6),
	PCMCIA_DEVICE_PROD_ID12("NextComK.K.", "NC5310B Ver1.0       ",
				0x8cef4d3a, 0x075fc7b6),
	PCMCIA_DEVICE_PROD_ID12("RATOC System Inc.", "10BASE_T CARD R280",
				0x85c10e17, 0xd9413666),
	PCMCIA_DEVICE_PROD_ID12("TDK", "LAC-CD02x",
				0x1eae9475, 0x8fa0ee70),
	PCMCIA_DEVICE_PROD_ID12("TDK", "LAC-CF010",
				0x1eae9475, 0x7683bc9a),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, fmv_ids);

static struct pcmcia_driver fmv_driver = {
	.owner		= THIS_MODULE,
	.name		= "fmvj18x_cs",
	.probe		= fmv_probe,
	PCNIC_PCMCIA_OPS,
	.id_table	= fmv_ids,
};
module_pcmcia_driver(fmv_driver);

MODULE_DESCRIPTION("Fujitsu MB86960A (FMV-J18x) PC Card Ethernet");
MODULE_LICENSE("GPL");
