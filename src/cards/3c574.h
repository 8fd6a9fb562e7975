/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 3c574_cs: 3Com 3c574 Fast EtherLink PC Cards, the "RoadRunner" ASIC
 * with an MII PHY, 10/100 Mbit/s.  Shared by the PC Card glue
 * (3c574_cs.c) and the RoadRunner's own registers and PHY (3c574_nic.c);
 * the EtherLink III registers, helpers and network side are in elink3.h.
 *
 * What the RoadRunner has besides: 32 ports, whose upper half is window
 * 1's FIFO registers whatever window is selected, except two registers of
 * its own there, RunnerRdCtrl and RunnerWrCtrl (counters of FIFO cycles
 * the host announces; the driver leaves them 0, and RunnerRdCtrl's top
 * bits select a PC Card register window, where the ASIC revision is);
 * InternalConfig (buffer RAM and transceiver) and MAC control in window
 * 3; the MII management port in window 4; thresholds counted in dwords.
 */
#ifndef PCL_3C574_H
#define PCL_3C574_H

#include <linux/bits.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "elink3.h"

#define C574_IO_SIZE		32
#define C574_EEPROM_READ	0x0200	/* EEPROM read command, with the word */
#define C574_EE_NODE		10	/* EEPROM: the address, 3 words */
#define C574_W1			0x10	/* where window 1's FIFO registers are */

/* in the upper half, whatever the window */
#define C574_RUNNER_RD		0x16
#define C574_RUNNER_WR		0x1c
#define C574_RUNNER_WINDOW	GENMASK(15, 11)	/* RunnerRdCtrl */
#define C574_ASIC_WINDOW	2	/* the register window with the revision */
#define C574_ASIC_REG		0x02	/* in it: the revision in bits 7:3 */

/* window 2: the station address mask after the address */
#define C574_W2_ADDR_MASK	0x06	/* 3 words, 0: every bit compares */

/* window 3 */
#define C574_W3_CONFIG		0x00	/* InternalConfig, 32 bits */
#define C574_CFG_RAM_SIZE	GENMASK(2, 0)	/* 8 KB << this */
#define C574_CFG_RAM_SPLIT	GENMASK(17, 16)
#define C574_CFG_AUTOSELECT	BIT(24)
#define C574_W3_MAC_CTRL	0x06
#define C574_MAC_FULL_DUPLEX	0x20
#define C574_W3_OPTIONS		0x08
#define C574_OPT_MII_ON		0x8040	/* what the MII transceiver runs with */
#define C574_OPT_MII_RESET	0x4000	/* held while the FIFOs reset */

/* window 4 */
#define C574_W4_NET_DIAG	0x06
#define C574_DIAG_UPPER_STATS	0x0040	/* count the frame counters' bits 9:8 */
#define C574_W4_MII		0x08
#define C574_MII_MDC		0x01
#define C574_MII_DATA		0x02	/* driven by the host or read from MDIO */
#define C574_MII_DRIVE		0x04	/* the host drives MDIO */

struct c574_dev {
	struct el3_dev el3;	/* first: the shared network side */
	struct mii_if_info mii;
};

/* 3c574_nic.c */
extern const struct net_device_ops c574_netdev_ops;
extern const struct ethtool_ops c574_ethtool_ops;
int c574_chip_reset(struct el3_dev *el3);
int c574_phy_find(struct c574_dev *priv);
struct c574_dev *c574_nic_init(struct net_device *ndev,
			       struct pcmcia_device *link);

#endif /* PCL_3C574_H */
