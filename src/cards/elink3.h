/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 3Com EtherLink III: what the PC Card members of the family (3c589,
 * 3c574) share.  The chip shows its registers 16 ports at a time, in
 * numbered windows chosen by a command; the command register (write) and
 * the status word (read) at 0x0e are in every window.  The status word
 * carries the selected window in its top three bits, which tells a live
 * card from a bus that reads all ones.
 *
 * Both chips move frames the same way: through FIFOs in window 1, the RX
 * status of the oldest frame, a 32-bit length header before each frame
 * sent, a TX status stack, the statistics of window 6.  That network side
 * is here too (struct el3_dev); a driver adds what its chip has besides
 * (struct el3_ops): the 3c589 its transceivers and link beat, the 3c574
 * its MII PHY.  What every Ethernet PC Card driver shares besides (probe's
 * last steps, remove, suspend, resume, open, stop, the link poll) is in
 * pcnic.h.
 *
 * The drivers leave window 1 selected.  Whatever needs another window
 * (statistics, media, setup) switches there and back under the lock, so
 * that the interrupt handler always meets window 1; a status word naming
 * another window comes from a card that is gone.
 *
 * The code (elink3_lib.c) is compiled into each module that uses it, as
 * screader.c is: see drivers.list.  Nothing is exported.
 */
#ifndef PCL_ELINK3_H
#define PCL_ELINK3_H

#include <linux/bits.h>
#include <linux/ethtool.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "pcnic.h"

/* in every window */
#define EL3_CMD_REG		0x0e	/* write: a command */
#define EL3_STATUS_REG		0x0e	/* read: the status word */

/* window 0: setup */
#define EL3_W0_MANF_ID		0x00
#define EL3_W0_PRODUCT_ID	0x02
#define EL3_W0_CONFIG_CTRL	0x04
#define EL3_W0_ADDR_CFG		0x06	/* bits 15:14: the transceiver */
#define EL3_W0_RESOURCE_CFG	0x08	/* bits 15:12: the IRQ */
#define EL3_W0_EEPROM_CMD	0x0a
#define EL3_W0_EEPROM_DATA	0x0c

#define EL3_MANF_3COM		0x6d50	/* EL3_W0_MANF_ID of every 3Com chip */
#define EL3_CONFIG_ENABLE	0x0001	/* EL3_W0_CONFIG_CTRL: adapter active */
#define EL3_EEPROM_BUSY		0x8000	/* EL3_W0_EEPROM_CMD: a read runs */

/*
 * Commands: the operation in bits 15:11, its argument below.  Those
 * marked (busy) keep EL3_ST_CMD_BUSY set until they are done.
 */
#define EL3_OP_SHIFT		11
enum el3_op {
	EL3_OP_TOTAL_RESET	= 0,	/* (busy) */
	EL3_OP_SELECT_WINDOW	= 1,
	EL3_OP_START_COAX	= 2,
	EL3_OP_RX_DISABLE	= 3,
	EL3_OP_RX_ENABLE	= 4,
	EL3_OP_RX_RESET		= 5,	/* (busy) */
	EL3_OP_RX_DISCARD	= 8,	/* (busy): drop the oldest frame */
	EL3_OP_TX_ENABLE	= 9,
	EL3_OP_TX_DISABLE	= 10,
	EL3_OP_TX_RESET		= 11,	/* (busy) */
	EL3_OP_FAKE_INTR	= 12,
	EL3_OP_ACK_INTR		= 13,	/* clears the latched status bits given */
	EL3_OP_SET_INTR_ENB	= 14,	/* the status bits that interrupt */
	EL3_OP_SET_STATUS_ENB	= 15,	/* the status bits that show */
	EL3_OP_SET_RX_FILTER	= 16,
	EL3_OP_SET_RX_THRESH	= 17,
	EL3_OP_SET_TX_THRESH	= 18,	/* TX_AVAIL once this many bytes are free */
	EL3_OP_SET_TX_START	= 19,
	EL3_OP_STATS_ENABLE	= 21,
	EL3_OP_STATS_DISABLE	= 22,
	EL3_OP_STOP_COAX	= 23,
};

/* the status word; its low byte is also the argument of the interrupt commands */
#define EL3_ST_INT_LATCH	BIT(0)
#define EL3_ST_ADAPTER_FAIL	BIT(1)
#define EL3_ST_TX_COMPLETE	BIT(2)	/* the TX status stack is not empty */
#define EL3_ST_TX_AVAIL		BIT(3)
#define EL3_ST_RX_COMPLETE	BIT(4)	/* a whole frame is in the RX FIFO */
#define EL3_ST_RX_EARLY		BIT(5)
#define EL3_ST_INT_REQ		BIT(6)
#define EL3_ST_STATS_FULL	BIT(7)
#define EL3_ST_ALL		0xff
#define EL3_ST_CMD_BUSY		BIT(12)
#define EL3_ST_WINDOW_SHIFT	13

/* SetRxFilter */
#define EL3_RXF_STATION		BIT(0)
#define EL3_RXF_MULTICAST	BIT(1)
#define EL3_RXF_BROADCAST	BIT(2)
#define EL3_RXF_PROMISC		BIT(3)

/* what a read of a card that has gone gives */
#define EL3_GONE		0xffff

/*
 * window 1: the FIFOs.  On the 3c574 also at 0x10 + offset whatever
 * window is selected (TX free excepted); struct el3_dev's w1 says where.
 */
#define EL3_W1_FIFO		0x00	/* RX and TX data, 16 or 32 bits */
#define EL3_W1_RX_STATUS	0x08
#define EL3_W1_TX_STATUS	0x0b	/* the oldest entry; a write pops it */
#define EL3_W1_TX_FREE		0x0c	/* window 1 only */

/* RX status: the oldest frame in the FIFO */
#define EL3_RXS_INCOMPLETE	0x8000	/* none there, or not all of it yet */
#define EL3_RXS_ERROR		0x4000
#define EL3_RXS_CODE		0x3800
#define EL3_RXS_OVERRUN		0x0000
#define EL3_RXS_OVERSIZE	0x0800
#define EL3_RXS_DRIBBLE		0x1000
#define EL3_RXS_RUNT		0x1800
#define EL3_RXS_ALIGN		0x2000
#define EL3_RXS_CRC		0x2800
#define EL3_RXS_LEN		0x07ff

/* TX: a frame goes into the FIFO after a 32-bit header of its length */
#define EL3_TX_ROOM(len)	(4 + ALIGN(len, 4))
#define EL3_TX_ROOM_MAX		EL3_TX_ROOM(ETH_FRAME_LEN)

/* TX status stack entries */
#define EL3_TXS_COMPLETE	0x80
#define EL3_TXS_JABBER		0x20
#define EL3_TXS_UNDERRUN	0x10
#define EL3_TXS_MAX_COLL	0x08
#define EL3_TXS_OVERFLOW	0x04

/* window 4 */
#define EL3_W4_FIFO_DIAG	0x04
#define EL3_DIAG_TX_OVERRUN	0x0400
#define EL3_DIAG_RX_UNDERRUN	0x2000

/* window 6: 8-bit counters, then 16-bit octet counts; reads clear them */
#define EL3_STAT_CARRIER_LOST	0x00
#define EL3_STAT_SQE		0x01
#define EL3_STAT_MULTI_COLL	0x02
#define EL3_STAT_ONE_COLL	0x03
#define EL3_STAT_LATE_COLL	0x04
#define EL3_STAT_RX_OVERRUN	0x05
#define EL3_STAT_TX_FRAMES	0x06
#define EL3_STAT_RX_FRAMES	0x07
#define EL3_STAT_DEFERRED	0x08
#define EL3_STAT_UPPER		0x09	/* 3c574: bits 9:8 of the frame counts */
#define EL3_STAT_RX_OCTETS	0x0a
#define EL3_STAT_TX_OCTETS	0x0c

static inline void el3_cmd(unsigned long io, enum el3_op op, u16 arg)
{
	outw(op << EL3_OP_SHIFT | arg, io + EL3_CMD_REG);
}

static inline void el3_window(unsigned long io, unsigned int win)
{
	el3_cmd(io, EL3_OP_SELECT_WINDOW, win);
}

/* The window the status word names. */
static inline unsigned int el3_status_window(u16 status)
{
	return status >> EL3_ST_WINDOW_SHIFT;
}

/* the interrupts the network side takes */
#define EL3_IRQS	(EL3_ST_INT_LATCH | EL3_ST_ADAPTER_FAIL | \
			 EL3_ST_TX_COMPLETE | EL3_ST_TX_AVAIL | \
			 EL3_ST_RX_COMPLETE | EL3_ST_STATS_FULL)

/* why the restart work runs */
#define EL3_WANT_TX_RESET	BIT(0)
#define EL3_WANT_RX_RESET	BIT(1)

struct el3_dev;

/* What a chip adds to the shared network side. */
struct el3_ops {
	/*
	 * Reset the chip before it is programmed, process context, the
	 * chip masked; without it the transmitter and receiver are reset
	 * (el3_txrx_reset).
	 */
	int (*chip_reset)(struct el3_dev *el3);
	/*
	 * Program the chip's own registers after the resets: lock held,
	 * window 1 before and after.
	 */
	void (*hw_init)(struct el3_dev *el3);
	/* The chip stops (lock held): its own registers, if any. */
	void (*hw_stop)(struct el3_dev *el3);
	/*
	 * Follow the link from open or resume on, process context; the
	 * link poll (pcnic.c) stops with the chip.
	 */
	void (*link_start)(struct el3_dev *el3);
};

/*
 * A card's network side: the first member of the driver's private area
 * of the net_device.
 */
struct el3_dev {
	struct pcnic nic;		/* first: the shared life cycle */
	unsigned long io;
	const struct el3_ops *ops;
	unsigned int w1;		/* where window 1's FIFO registers are */
	unsigned int thresh_shift;	/* thresholds count bytes >> this */
	bool stats_upper;		/* window 6 has the upper count bits */

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
	unsigned int want;	/* EL3_WANT_* for the restart work */
	struct rtnl_link_stats64 stats;

	struct sk_buff_head rxq;	/* frames from the FIFO for NAPI (lock) */
	struct napi_struct napi;
	struct work_struct restart;
};

static inline struct el3_dev *to_el3(struct pcnic *nic)
{
	return container_of(nic, struct el3_dev, nic);
}

int el3_cmd_wait(unsigned long io, enum el3_op op, u16 arg);
int el3_cmd_wait_atomic(unsigned long io, enum el3_op op, u16 arg);
int el3_eeprom_read(unsigned long io, u16 read_op, unsigned int index,
		    u16 *val);
bool el3_cis_node_id(struct pcmcia_device *link, u8 *addr);

/* the network side */
void el3_dev_init(struct el3_dev *el3, struct net_device *ndev,
		  struct pcmcia_device *link, const struct el3_ops *ops);
int el3_chip_reset(struct el3_dev *el3);
int el3_txrx_reset(struct el3_dev *el3);
void el3_read_stats(struct el3_dev *el3);
netdev_tx_t el3_start_xmit(struct sk_buff *skb, struct net_device *ndev);
void el3_tx_timeout(struct net_device *ndev, unsigned int txqueue);
void el3_set_rx_mode(struct net_device *ndev);
void el3_get_stats64(struct net_device *ndev, struct rtnl_link_stats64 *stats);

/* the PC Card side */
int el3_read_mac(struct el3_dev *el3, u16 read_op, unsigned int node_word);
int el3_check_chip(struct el3_dev *el3, const char *name);
int el3_probe_chip(struct el3_dev *el3, const char *name, u16 read_op,
		   unsigned int node_word);

#endif /* PCL_ELINK3_H */
