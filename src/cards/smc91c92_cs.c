// SPDX-License-Identifier: GPL-2.0-only
/*
 * SMC 91C9x Ethernet PC Cards: the PC Card side.
 *
 * The cards want 16 ports of I/O from any entry of their CIS.  The chip
 * must answer with its signature: 0x33 in the bank select register's high
 * byte, and a BASE register whose two bytes differ (equal ones mean the
 * I/O window does not carry 16-bit cycles).  The station address is in
 * the CIS, as a LAN node ID tuple or as twelve hex digits in the third or
 * fourth version string, or else in the chip's EEPROM, which the chip
 * loads into its address registers on request.  91C100 chips, and chips
 * whose EEPROM selects the MII port, have a PHY on the management
 * interface.
 *
 * Multifunction cards (Ethernet with a modem: Megahertz, Motorola,
 * Ositech, Psion) need their own glue and are not driven here.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/string.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "pccard.h"
#include "smc91c92.h"

#define SMC_TX_TIMEOUT		HZ	/* 6 KB drain in 5 ms at 10 Mbit/s */

/* The EEPROM's reload into the registers: a few hundred microseconds. */
#define SMC_RELOAD_POLLS	20
#define SMC_RELOAD_US_MIN	200
#define SMC_RELOAD_US_MAX	400

static int smc_config_check(struct pcmcia_device *link, void *data)
{
	struct resource *io = link->resource[0];

	io->end = SMC_IO_SIZE;
	io->flags &= ~IO_DATA_PATH_WIDTH;
	io->flags |= IO_DATA_PATH_WIDTH_AUTO;
	return pcmcia_request_io(link);
}

static int smc_enable(struct pcmcia_device *link)
{
	link->config_flags |= CONF_ENABLE_IRQ | CONF_AUTO_SET_IO;
	if (pcmcia_loop_config(link, smc_config_check, NULL)) {
		dev_err(&link->dev, "no 16 ports of I/O space for the card\n");
		return -EBUSY;
	}
	return pcl_card_enable(link);
}

/* The chip's name from its revision register, 91C"92" and so on. */
static const char *smc_chip_name(u8 rev)
{
	switch (FIELD_GET(SMC_REV_CHIP, rev)) {
	case 3:
		return "92";
	case 4:
		return FIELD_GET(SMC_REV_STEP, rev) >= 6 ? "96" : "94";
	case 5:
		return "95";
	case 7:
		return "100";
	case 8:
		return "100FD";
	}
	return NULL;
}

/*
 * The 91C9x behind the ports: its signature, revision, packet memory and
 * configuration.  Bank 2 is left selected.
 */
static int smc_identify(struct smc_dev *smc)
{
	struct pcmcia_device *link = smc->nic.link;
	unsigned long io = smc->io;
	unsigned int units, mult;
	u16 id, base, config;

	/* the write wakes a chip in power-down */
	smc_bank(io, 1);
	id = inw(io + SMC_BANK_SELECT);
	if (id >> 8 != SMC_CHIP_ID) {
		dev_err(&link->dev, "no SMC 91C9x at %pR (bank select %#06x)\n",
			link->resource[0], id);
		return -ENODEV;
	}
	config = inw(io + SMC_B1_CONFIG);
	outw(config | SMC_CFG_16BIT, io + SMC_B1_CONFIG);
	base = inw(io + SMC_B1_BASE);
	if (base >> 8 == (base & 0xff)) {
		dev_err(&link->dev, "the I/O window at %pR has no 16-bit cycles (BASE %#06x)\n",
			link->resource[0], base);
		return -ENODEV;
	}
	smc_bank(io, 3);
	smc->rev = inw(io + SMC_B3_REVISION) & 0xff;
	if (!smc_chip_name(smc->rev)) {
		dev_err(&link->dev, "unknown SMC 91C9x (revision %#04x)\n", smc->rev);
		return -ENODEV;
	}
	smc_bank(io, 0);
	units = inw(io + SMC_B0_MIR) & 0xff;
	/* 91C92: units of 256 bytes; later chips say in MCR */
	mult = FIELD_GET(SMC_REV_CHIP, smc->rev) > 3 ?
	       FIELD_GET(SMC_MCR_MULT, inw(io + SMC_B0_MCR)) : 1;
	smc->mem_size = (units ? units : 256) * (128U << mult);
	smc->has_mii = (config & SMC_CFG_MII) ||
		       FIELD_GET(SMC_REV_CHIP, smc->rev) >= 7;
	smc->config = (config & ~SMC_CFG_AUI) | SMC_CFG_16BIT | SMC_CFG_NO_WAIT |
		      (smc->has_mii ? SMC_CFG_MII : 0);
	smc_bank(io, 2);
	return 0;
}

/* Twelve hex digits of a version string as an address. */
static bool smc_hex_addr(const char *s, u8 *addr)
{
	return s && strlen(s) == 2 * ETH_ALEN && !hex2bin(addr, s, ETH_ALEN);
}

/* The address the chip loads from its EEPROM (bank 2 before and after). */
static int smc_eeprom_addr(struct smc_dev *smc, u8 *addr)
{
	unsigned long io = smc->io;
	unsigned int i;
	u16 word;

	smc_bank(io, 1);
	outw(SMC_CTL_RELOAD, io + SMC_B1_CONTROL);
	for (i = 0; i < SMC_RELOAD_POLLS; i++) {
		if (!(inw(io + SMC_B1_CONTROL) & SMC_CTL_RELOAD))
			break;
		usleep_range(SMC_RELOAD_US_MIN, SMC_RELOAD_US_MAX);
	}
	if (i == SMC_RELOAD_POLLS) {
		smc_bank(io, 2);
		return -ETIMEDOUT;
	}
	for (i = 0; i < ETH_ALEN; i += 2) {
		word = inw(io + SMC_B1_ADDR + i);
		addr[i] = word & 0xff;
		addr[i + 1] = word >> 8;
	}
	smc_bank(io, 2);
	return 0;
}

static int smc_read_mac(struct smc_dev *smc)
{
	struct pcmcia_device *link = smc->nic.link;
	u8 addr[ETH_ALEN];
	int rc;

	if (!pcmcia_get_mac_from_cis(link, smc->nic.ndev))
		return 0;
	if (!smc_hex_addr(link->prod_id[2], addr) &&
	    !smc_hex_addr(link->prod_id[3], addr)) {
		rc = smc_eeprom_addr(smc, addr);
		if (rc) {
			dev_err(&link->dev, "the chip does not load its EEPROM (%d)\n", rc);
			return rc;
		}
	}
	pcnic_set_mac(&smc->nic, addr);
	return 0;
}

static int smc_probe(struct pcmcia_device *link)
{
	struct net_device *ndev;
	struct smc_dev *smc;
	char xcvr[16];
	int rc;

	ndev = alloc_etherdev(sizeof(*smc));
	if (!ndev)
		return -ENOMEM;
	smc = smc_dev_init(ndev, link);

	rc = smc_enable(link);
	if (rc)
		goto fail;
	smc->io = link->resource[0]->start;
	rc = smc_identify(smc);
	if (rc)
		goto fail;
	rc = smc_chip_reset(smc);
	if (rc == -ETIMEDOUT) {
		dev_err(&link->dev, "the 91C%s at %pR did not finish its reset\n",
			smc_chip_name(smc->rev), link->resource[0]);
		rc = -EIO;
	}
	if (rc)
		goto fail;	/* -ENODEV: the card has gone meanwhile */
	rc = smc_read_mac(smc);
	if (rc)
		goto fail;
	if (smc->has_mii) {
		rc = smc_phy_find(smc);
		if (rc) {
			dev_err(&link->dev, "no MII PHY answers on the card\n");
			goto fail;
		}
		snprintf(xcvr, sizeof(xcvr), "MII PHY %d", smc->mii.phy_id);
	} else {
		strscpy(xcvr, "10baseT", sizeof(xcvr));
	}

	rc = pcnic_register(&smc->nic, smc->io, &smc_netdev_ops,
			    &smc_ethtool_ops, SMC_TX_TIMEOUT);
	if (rc)
		goto fail;
	netdev_info(ndev, "SMC 91C%s rev %lu at %pR, irq %u, %pM, %u KB buffer, %s\n",
		    smc_chip_name(smc->rev), FIELD_GET(SMC_REV_STEP, smc->rev),
		    link->resource[0], link->irq, ndev->dev_addr,
		    smc->mem_size / 1024, xcvr);
	return 0;

fail:
	pcnic_release(&smc->nic);
	return rc;
}

/*
 * The single-function cards of upstream's smc91c92_cs (Linux 6.12), by
 * their version strings
 */
static const struct pcmcia_device_id smc_ids[] = {
	PCMCIA_DEVICE_PROD_ID12("SMC", "EtherEZ Ethernet 8020",
				0xc4f8b18b, 0x4a0eeb2d),
	PCMCIA_DEVICE_PROD_ID123("BASICS by New Media Corporation", "Ethernet",
				 "SMC91C94", 0x23c78a9d, 0x00b2e941, 0xcef397fb),
	PCMCIA_DEVICE_PROD_ID12("Farallon", "Farallon Enet",
				0x58d93fc4, 0x244734e9),
	/* the address in the fourth version string */
	PCMCIA_DEVICE_PROD_ID12("Megahertz", "CC10BT/2",
				0x33234748, 0x3c95b953),
	/* Fast Ethernet cards: a PHY on the management interface */
	PCMCIA_DEVICE_PROD_ID12("ARGOSY", "Fast Ethernet PCCard",
				0x78f308dc, 0xdcea68bc),
	PCMCIA_DEVICE_PROD_ID12("PCMCIA", "Fast Ethernet PCCard",
				0x281f1c5d, 0xdcea68bc),
	PCMCIA_DEVICE_PROD_ID12("dit Co., Ltd.", "PC Card-10/100BTX",
				0xe59365c8, 0x6a2161d1),
	PCMCIA_DEVICE_PROD_ID12("DYNALINK", "L100C",
				0x6a26d1cf, 0xc16ce9c5),
	PCMCIA_DEVICE_PROD_ID12("MELCO/SMC", "LPC-TX",
				0xa2cd8e6d, 0x42da662a),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, smc_ids);

static struct pcmcia_driver smc_driver = {
	.owner		= THIS_MODULE,
	.name		= "smc91c92_cs",
	.probe		= smc_probe,
	PCNIC_PCMCIA_OPS,
	.id_table	= smc_ids,
};
module_pcmcia_driver(smc_driver);

MODULE_DESCRIPTION("SMC 91C92/91C94 PC Card Ethernet");
MODULE_LICENSE("GPL");
