/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 3c589_cs: 3Com 3c589 EtherLink III PC Cards (and the Ethernet function
 * of the 3c562 combo cards), 10 Mbit/s.  Shared by the PC Card glue
 * (3c589_cs.c) and the network side (3c589_nic.c); the EtherLink III
 * registers and helpers are in elink3.h.
 *
 * The driver leaves window 1 (the FIFOs) selected.  Whatever needs
 * another window (statistics, media, setup) switches there and back under
 * the lock, so that the interrupt handler always meets window 1; a status
 * word naming another window comes from a card that is gone.
 */
#ifndef PCL_3C589_H
#define PCL_3C589_H

#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "elink3.h"

#define C589_IO_SIZE		16
#define C589_EEPROM_READ	0x0080	/* EEPROM read command, with the word */
#define C589_EE_NODE		0	/* EEPROM: the address, 3 words */
#define C589_EE_ADDR_CFG	8	/* EEPROM: bits 15:14, the transceiver */
#define C589_IRQ_SELECT		0x3f00	/* EL3_W0_RESOURCE_CFG on PC Cards */

/* window 1 */
#define C589_FIFO		0x00	/* RX and TX data, 16 or 32 bits */
#define C589_RX_STATUS		0x08
#define C589_TX_STATUS		0x0b	/* the oldest entry; a write pops it */
#define C589_TX_FREE		0x0c

/* RX status: the oldest frame in the FIFO */
#define C589_RXS_INCOMPLETE	0x8000	/* none there, or not all of it yet */
#define C589_RXS_ERROR		0x4000
#define C589_RXS_CODE		0x3800
#define C589_RXS_OVERRUN	0x0000
#define C589_RXS_OVERSIZE	0x0800
#define C589_RXS_DRIBBLE	0x1000
#define C589_RXS_RUNT		0x1800
#define C589_RXS_ALIGN		0x2000
#define C589_RXS_CRC		0x2800
#define C589_RXS_LEN		0x07ff

/* TX: a frame goes into the FIFO after a 32-bit header of its length */
#define C589_TXH_LEN		0x07ff
#define C589_TX_ROOM(len)	(4 + ALIGN(len, 4))
#define C589_TX_ROOM_MAX	C589_TX_ROOM(ETH_FRAME_LEN)

/* TX status stack entries */
#define C589_TXS_COMPLETE	0x80
#define C589_TXS_JABBER		0x20
#define C589_TXS_UNDERRUN	0x10
#define C589_TXS_MAX_COLL	0x08
#define C589_TXS_OVERFLOW	0x04

/* window 4 */
#define C589_FIFO_DIAG		0x04
#define C589_DIAG_TX_OVERRUN	0x0400
#define C589_DIAG_RX_UNDERRUN	0x2000
#define C589_MEDIA		0x0a
#define C589_MEDIA_LED		0x0001
#define C589_MEDIA_TP_CHECKS	0x00c0	/* jabber guard and link beat on */
#define C589_MEDIA_LINK_BEAT	0x0800

/* window 6: 8-bit counters, then 16-bit octet counts; reads clear them */
#define C589_STAT_CARRIER_LOST	0x00
#define C589_STAT_SQE		0x01
#define C589_STAT_MULTI_COLL	0x02
#define C589_STAT_ONE_COLL	0x03
#define C589_STAT_LATE_COLL	0x04
#define C589_STAT_RX_OVERRUN	0x05
#define C589_STAT_TX_FRAMES	0x06
#define C589_STAT_RX_FRAMES	0x07
#define C589_STAT_DEFERRED	0x08
#define C589_STAT_RX_OCTETS	0x0a
#define C589_STAT_TX_OCTETS	0x0c

/* the transceivers, numbered as the if_port option has them */
enum c589_xcvr {
	C589_XCVR_AUTO	= 0,	/* the one the card's EEPROM names */
	C589_XCVR_TP	= 1,	/* 10BASE-T */
	C589_XCVR_BNC	= 2,	/* 10BASE2, thin coax */
	C589_XCVR_AUI	= 3,
};

/* the interrupts the driver takes */
#define C589_IRQS	(EL3_ST_INT_LATCH | EL3_ST_ADAPTER_FAIL | \
			 EL3_ST_TX_COMPLETE | EL3_ST_TX_AVAIL | \
			 EL3_ST_RX_COMPLETE | EL3_ST_STATS_FULL)

/* why the restart work runs */
#define C589_WANT_TX_RESET	BIT(0)
#define C589_WANT_RX_RESET	BIT(1)

struct c589_dev {
	struct net_device *ndev;
	struct pcmcia_device *link;
	unsigned long io;

	/*
	 * The chip's registers and window, and everything below up to the
	 * statistics; taken with interrupts off.
	 */
	spinlock_t lock;
	bool up;		/* open, not suspended, the chip programmed */
	bool running;		/* NAPI enabled: from start to quiesce */
	bool resetting;		/* the restart work has the chip, unlocked */
	u16 irq_mask;		/* 0 while nobody takes the chip's interrupts */
	u16 rx_filter;
	unsigned int want;	/* C589_WANT_* for the restart work */
	enum c589_xcvr xcvr;	/* in use: never AUTO */
	struct rtnl_link_stats64 stats;

	struct napi_struct napi;
	struct work_struct restart;
	struct delayed_work media_poll;
	bool link_first;	/* the next media poll reports the link anyway */
	u32 msg_enable;
};

/* 3c589_nic.c */
extern const struct net_device_ops c589_netdev_ops;
extern const struct ethtool_ops c589_ethtool_ops;
int c589_chip_reset(struct c589_dev *priv);
void c589_start(struct c589_dev *priv);
void c589_halt(struct c589_dev *priv);
void c589_set_xcvr(struct c589_dev *priv, enum c589_xcvr xcvr);
const char *c589_xcvr_name(enum c589_xcvr xcvr);
struct c589_dev *c589_nic_init(struct net_device *ndev,
			       struct pcmcia_device *link);

#endif /* PCL_3C589_H */
