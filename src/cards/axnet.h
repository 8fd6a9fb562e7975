/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * axnet_cs: PC Cards with the Asix AX88190, a DP8390 with 16 KB of packet
 * memory behind a 16-bit data port, a bit-banged MII port for its PHY
 * and some registers of its own.  Shared by the PC Card glue (axnet_cs.c),
 * the DP8390 logic (axnet_nic.c) and the PHY (axnet_phy.c).
 */
#ifndef AXNET_H
#define AXNET_H

#include <linux/mii.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "pcnic.h"

/* DP8390 registers: page 0 unless named otherwise */
#define AXN_CR		0x00	/* command, on every page */
#define AXN_PSTART	0x01	/* first page of the receive ring */
#define AXN_PSTOP	0x02	/* page after the ring */
#define AXN_BNRY	0x03	/* last page the host has read */
#define AXN_TPSR	0x04	/* write: first page of the frame to send */
#define AXN_TSR		0x04	/* read: transmit status */
#define AXN_TBCR0	0x05
#define AXN_TBCR1	0x06
#define AXN_CURR_P0	0x06	/* read: AX88190 mirrors CURR here */
#define AXN_ISR		0x07
#define AXN_RSAR0	0x08	/* remote DMA address */
#define AXN_RSAR1	0x09
#define AXN_RBCR0	0x0a	/* remote DMA byte count */
#define AXN_RBCR1	0x0b
#define AXN_RCR		0x0c	/* write: receive configuration */
#define AXN_TCR		0x0d	/* write: transmit configuration */
#define AXN_CNTR0	0x0d	/* read: frame alignment errors */
#define AXN_DCR		0x0e	/* write: data configuration */
#define AXN_CNTR1	0x0e	/* read: CRC errors */
#define AXN_IMR		0x0f	/* write: interrupt mask */
#define AXN_CNTR2	0x0f	/* read: missed frames */
#define AXN_PAR0	0x01	/* page 1: station address, 6 registers */
#define AXN_CURR	0x07	/* page 1: page the receiver writes next */
#define AXN_MAR0	0x08	/* page 1: multicast hash, 8 registers */

/* the card's own ports */
#define AXN_DATA	0x10	/* remote DMA data, 16 bits wide */
#define AXN_MII		0x14	/* MII management, bit-banged */
#define AXN_TEST	0x15	/* 0 on the AX88190, else an AX88790 */
#define AXN_GPIO	0x17
#define AXN_RESET	0x1f	/* a read starts a reset, a write ends it */
#define AXN_IO_SIZE	0x20

#define AXN_GPIO_INTERNAL_PHY	0x10	/* AX88790: use its own PHY */

/* CR */
#define CR_STP		0x01
#define CR_STA		0x02
#define CR_TXP		0x04
#define CR_RD_READ	0x08
#define CR_RD_WRITE	0x10
#define CR_RD_NONE	0x20
#define CR_PAGE1	0x40

/* ISR and IMR */
#define ISR_PRX		0x01	/* a frame arrived */
#define ISR_PTX		0x02	/* a frame went out */
#define ISR_RXE		0x04
#define ISR_TXE		0x08	/* a frame was aborted */
#define ISR_OVW		0x10	/* the receive ring is full */
#define ISR_CNT		0x20	/* a tally counter is half full */
#define ISR_RDC		0x40	/* remote DMA complete */
#define ISR_RST		0x80	/* reset done, or stopped */
#define AXN_IRQS	(ISR_PRX | ISR_PTX | ISR_RXE | ISR_TXE | ISR_OVW | ISR_CNT)

/* RCR */
#define RCR_AB		0x04	/* broadcast */
#define RCR_AM		0x08	/* multicast through the hash */
#define RCR_PRO		0x10	/* every frame */
#define RCR_MON		0x20	/* check frames, store none */
#define RCR_INTT	0x40	/* AX88190: interrupt pin active high */

/* TCR */
#define TCR_LOOPBACK	0x02	/* internal loopback: nothing reaches the wire */
#define TCR_FDU		0x80	/* AX88190: full duplex */

/* DCR: 16-bit transfers, normal operation, FIFO threshold 8 bytes */
#define DCR_WORDS	0x49

/* TSR */
#define TSR_PTX		0x01
#define TSR_COL		0x04
#define TSR_ABT		0x08	/* 16 collisions */
#define TSR_CRS		0x10
#define TSR_FU		0x20
#define TSR_CDH		0x40
#define TSR_OWC		0x80

/* status byte of a received frame's header */
#define RSR_PRX		0x01
#define RSR_FO		0x08
#define RSR_PHY		0x20	/* multicast or broadcast */

/*
 * Packet memory, in 256-byte pages: two transmit buffers of one full
 * frame each, the rest is the receive ring.
 */
#define AXN_TX_PAGE	0x40
#define AXN_TX_PAGES	6
#define AXN_RX_START	(AXN_TX_PAGE + 2 * AXN_TX_PAGES)
#define AXN_RX_STOP	0x80
#define AXN_MAC_ADDR	0x0400	/* where the card keeps its address */
#define AXN_HDR_LEN	4	/* status, next page, byte count (le16) */

/* why the restart work runs */
#define AXN_WANT_OVERRUN	BIT(0)
#define AXN_WANT_RESET		BIT(1)

struct axn_dev {
	struct pcnic nic;	/* first: the shared life cycle */
	unsigned long io;

	/*
	 * The DP8390's registers (left on page 0) and everything below up to
	 * the statistics; taken with interrupts off.
	 */
	spinlock_t lock;
	bool up;		/* open, not suspended */
	u8 imr;			/* 0 while NAPI or the restart work has the chip */
	u8 cr_run;		/* CR_STA or CR_STP: kept in every CR write */
	u8 tcr;			/* TCR when sending: the duplex */
	u8 rcr;
	u8 mar[8];
	u8 next_rx;		/* the ring's page the host reads next */
	bool in_overrun;	/* the ring drains in loopback */
	bool resend;		/* the overrun stopped a frame on its way */
	unsigned int want;	/* AXN_WANT_* for the restart work */
	u16 tx_len[2];		/* a frame is in that buffer: its length */
	u8 tx_load;		/* the buffer the next frame goes into */
	u8 tx_send;		/* the buffer with the oldest unsent frame */
	int tx_busy;		/* the buffer on its way out, or -1 */
	struct rtnl_link_stats64 stats;

	struct napi_struct napi;
	struct work_struct restart;

	struct mutex mii_lock;	/* one MII frame at a time */
	struct mii_if_info mii;
	bool has_phy;
	bool phy_powerup;	/* the PHY needs CCSR's power-down bit set */
	bool ax88790;
};

static inline struct axn_dev *to_axn(struct pcnic *nic)
{
	return container_of(nic, struct axn_dev, nic);
}

/* axnet_nic.c */
extern const struct net_device_ops axn_netdev_ops;
int axn_chip_reset(struct axn_dev *priv);
void axn_read_mac(struct axn_dev *priv, u8 *addr);
void axn_set_duplex(struct axn_dev *priv, bool full);
struct axn_dev *axn_nic_init(struct net_device *ndev,
			     struct pcmcia_device *link);

/* axnet_phy.c */
extern const struct ethtool_ops axn_ethtool_ops;
int axn_mii_ioctl(struct net_device *ndev, struct ifreq *rq, int cmd);
void axn_phy_find(struct axn_dev *priv);
void axn_phy_start(struct axn_dev *priv);

#endif /* AXNET_H */
