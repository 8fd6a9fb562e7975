// SPDX-License-Identifier: GPL-2.0-only
/*
 * Asix AX88190 (and AX88790) PC Card Ethernet: the PC Card side.
 *
 * The cards need a configuration the CIS of some does not say: their
 * configuration registers at 0x3c0 (the one sign that a card has an
 * AX88190 and not a plain NE2000), entry 5, and the COR, CCSR and I/O
 * base registers written.  The 32 ports hold the DP8390, its data port
 * and the card's own registers (axnet.h).
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "pccard.h"
#include "axnet.h"

#define AXN_CONFIG_BASE		0x3c0
#define AXN_CONFIG_INDEX	5
#define AXN_CONFIG_REGS		(PRESENT_OPTION | PRESENT_STATUS | \
				 PRESENT_IOBASE_0 | PRESENT_IOBASE_1)
#define AXN_TX_TIMEOUT		(2 * HZ)

static int axn_config_check(struct pcmcia_device *link, void *data)
{
	struct resource *io0 = link->resource[0], *io1 = link->resource[1];

	if (!link->config_index)
		return -EINVAL;
	if (io0->end + io1->end < AXN_IO_SIZE)
		return -ENODEV;
	link->config_index = AXN_CONFIG_INDEX;
	/* one window of all 32 ports: 16-bit cycles for the data port */
	io0->end = AXN_IO_SIZE;
	io1->end = 0;
	io0->flags &= ~IO_DATA_PATH_WIDTH;
	io0->flags |= IO_DATA_PATH_WIDTH_AUTO;
	return pcmcia_request_io(link);
}

static int axn_enable(struct pcmcia_device *link)
{
	int rc;

	link->config_regs = AXN_CONFIG_REGS;
	link->config_flags |= CONF_ENABLE_IRQ | CONF_AUTO_SET_IO;
	rc = pcl_card_loop_config(link, axn_config_check, NULL);
	if (rc)
		return rc;
	rc = pcl_card_enable(link);
	if (rc)
		return rc;
	if (link->config_base != AXN_CONFIG_BASE) {
		dev_info(&link->dev,
			 "configuration registers at %#x, not an AX88190: pcnet_cs drives it\n",
			 link->config_base);
		return -ENODEV;
	}
	return 0;
}

static int axn_probe(struct pcmcia_device *link)
{
	struct net_device *ndev;
	struct axn_dev *priv;
	u8 addr[ETH_ALEN];
	int rc;

	ndev = alloc_etherdev(sizeof(*priv));
	if (!ndev)
		return -ENOMEM;
	priv = axn_nic_init(ndev, link);

	rc = axn_enable(link);
	if (rc)
		goto fail;
	priv->io = link->resource[0]->start;
	if (axn_chip_reset(priv)) {
		dev_err(&link->dev, "the AX88190 at %pR did not finish its reset\n",
			link->resource[0]);
		rc = -EIO;
		goto fail;
	}
	axn_read_mac(priv, addr);
	pcnic_set_mac(&priv->nic, addr);
	priv->ax88790 = inb(priv->io + AXN_TEST) != 0;
	if (priv->ax88790)
		outb(AXN_GPIO_INTERNAL_PHY, priv->io + AXN_GPIO);
	axn_phy_find(priv);

	rc = pcnic_register(&priv->nic, priv->io, &axn_netdev_ops,
			    &axn_ethtool_ops, AXN_TX_TIMEOUT);
	if (rc)
		goto fail;
	netdev_info(ndev, "Asix AX88%c90 at %pR, irq %u, %pM, %s\n",
		    priv->ax88790 ? '7' : '1', link->resource[0], link->irq,
		    ndev->dev_addr,
		    priv->has_phy ? "MII PHY" : "no MII PHY: link always up");
	return 0;

fail:
	pcnic_release(&priv->nic);
	return rc;
}

/* The cards of upstream's axnet_cs (Linux 6.1) */
static const struct pcmcia_device_id axn_ids[] = {
	/* by manufacturer code */
	PCMCIA_DEVICE_MANF_CARD(0x018a, 0x0301),
	PCMCIA_DEVICE_MANF_CARD(0x01bf, 0x2328),
	PCMCIA_DEVICE_MANF_CARD(0x021b, 0x0202),
	PCMCIA_DEVICE_MANF_CARD(0x026f, 0x0301),
	PCMCIA_DEVICE_MANF_CARD(0x026f, 0x0303),
	PCMCIA_DEVICE_MANF_CARD(0x026f, 0x0309),
	PCMCIA_DEVICE_MANF_CARD(0x0274, 0x1106),
	PCMCIA_DEVICE_MANF_CARD(0x8a01, 0xc1ab),
	PCMCIA_DEVICE_MANF_CARD(0xffff, 0x1090),
	/* by the strings of VERS_1 */
	PCMCIA_DEVICE_PROD_ID12("AmbiCom,Inc.", "Fast Ethernet PC Card(AMB8110)",
				0x49b020a7, 0x119cc9fc),
	PCMCIA_DEVICE_PROD_ID124("Fast Ethernet", "16-bit PC Card", "AX88190",
				 0xb4be14e3, 0x9a12eb6a, 0xab9be5ef),
	PCMCIA_DEVICE_PROD_ID12("ASIX", "AX88190", 0x0959823b, 0xab9be5ef),
	PCMCIA_DEVICE_PROD_ID12("Billionton", "LNA-100B", 0x552ab682, 0xbc3b87e1),
	PCMCIA_DEVICE_PROD_ID12("CHEETAH ETHERCARD", "EN2228",
				0x00fa7bc8, 0x00e990cc),
	PCMCIA_DEVICE_PROD_ID12("CNet", "CNF301", 0xbc477dde, 0x78c5f40b),
	PCMCIA_DEVICE_PROD_ID12("corega K.K.", "corega FEther PCC-TXD",
				0x5261440f, 0x436768c5),
	PCMCIA_DEVICE_PROD_ID12("corega K.K.", "corega FEtherII PCC-TXD",
				0x5261440f, 0x730df72e),
	PCMCIA_DEVICE_PROD_ID12("corega K.K.", "corega FEther PCC-TXM",
				0x5261440f, 0x3abbd061),
	PCMCIA_DEVICE_PROD_ID12("Dynalink", "L100C16", 0x55632fd5, 0x66bc2a90),
	PCMCIA_DEVICE_PROD_ID12("IO DATA", "ETXPCM", 0x547e66dc, 0x233adac2),
	PCMCIA_DEVICE_PROD_ID12("Linksys",
				"EtherFast 10/100 PC Card (PCMPC100 V3)",
				0x0733cc81, 0x232019a8),
	PCMCIA_DEVICE_PROD_ID12("MELCO", "LPC3-TX", 0x481e0094, 0xf91af609),
	PCMCIA_DEVICE_PROD_ID12("NETGEAR", "FA411", 0x9aa79dc3, 0x40fad875),
	PCMCIA_DEVICE_PROD_ID12("PCMCIA", "100BASE", 0x281f1c5d, 0x7c2add04),
	PCMCIA_DEVICE_PROD_ID12("PCMCIA", "FastEtherCard",
				0x281f1c5d, 0x7ef26116),
	PCMCIA_DEVICE_PROD_ID12("PCMCIA", "FEP501", 0x281f1c5d, 0x2e272058),
	PCMCIA_DEVICE_PROD_ID14("Network Everywhere", "AX88190",
				0x820a67b6, 0xab9be5ef),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, axn_ids);

static struct pcmcia_driver axn_driver = {
	.owner		= THIS_MODULE,
	.name		= "axnet_cs",
	.probe		= axn_probe,
	PCNIC_PCMCIA_OPS,
	.id_table	= axn_ids,
};
module_pcmcia_driver(axn_driver);

MODULE_DESCRIPTION("Asix AX88190 PC Card Ethernet");
MODULE_LICENSE("GPL");
