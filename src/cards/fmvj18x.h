/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fmvj18x_cs: PC Cards with a Fujitsu MB86960A ("NICE") or a chip of its
 * family: sixteen 8-bit registers, the upper eight in banks, a 16-bit
 * buffer memory port into the card's SRAM (two transmit buffers and the
 * receive ring), and, on the MBH10302 cards, a register of the card's own
 * and its address PROM in ports 16-31.  Shared by the PC Card side
 * (fmvj18x_cs.c) and the chip side (fmvj18x_nic.c).
 */
#ifndef FMVJ18X_H
#define FMVJ18X_H

#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "pcnic.h"

/* Registers 0-7, in every bank */
#define NICE_TXSTAT	0x00	/* bits written as ones clear */
#define NICE_RXSTAT	0x01
#define NICE_TXMASK	0x02	/* which status bits interrupt */
#define NICE_RXMASK	0x03
#define NICE_TXMODE	0x04
#define NICE_RXMODE	0x05
#define NICE_CONFIG0	0x06
#define NICE_CONFIG1	0x07
/* 8-15: bank 0 */
#define NICE_NODE	0x08	/* the station address, 6 registers */
/* bank 1 */
#define NICE_HASH	0x08	/* the multicast hash filter, 8 registers */
/* bank 2 */
#define NICE_DATA	0x08	/* buffer memory port, 16 bits */
#define NICE_TXSTART	0x0a
#define NICE_COLCTL	0x0b
#define NICE_DMAEN	0x0c
#define NICE_DMACTL	0x0d
#define NICE_RXCTL	0x0e

/* MBH10302 cards: the card's own ports */
#define FMV_LANCTL	0x10	/* bit 4 lets the chip's interrupt out */
#define FMV_PROM	0x1a	/* the station address */
#define FMV_IO_SIZE	0x20

#define FMV_LANCTL_QUIET	0x0d
#define FMV_LANCTL_IRQ		0x1d

/* TXSTAT and TXMASK */
#define TXS_BUSERR	0x01
#define TXS_COL16	0x02
#define TXS_COL		0x04
#define TXS_OK		0x20	/* sent without a collision */
#define TXS_BUSY	0x40	/* carrier on the wire */
#define TXS_DONE	0x80	/* every frame of the buffer has left */

/* RXSTAT and RXMASK; a received frame's status byte has the same layout */
#define RXS_OVERFLOW	0x01
#define RXS_CRC		0x02
#define RXS_ALIGN	0x04
#define RXS_SHORT	0x08
#define RXS_GOOD	0x20	/* in a frame's status byte only */
#define RXS_BUSERR	0x40
#define RXS_READY	0x80

/* TXMODE: carrier sense on, no loopback */
#define TXMODE_NORMAL	0x06

/* RXMODE */
#define RXMODE_STATION	0x01	/* station, broadcast, multicast hash */
#define RXMODE_HASH	0x02	/* the same */
#define RXMODE_ALL	0x03
#define RXMODE_EMPTY	0x40	/* read: the receive ring is empty */

/* CONFIG0: 32 KB of 100 ns byte-wide SRAM, a 16-bit host bus */
#define CONFIG0_BASE	0x52
#define CONFIG0_TX2x4K	0x08
#define CONFIG0_TX2x8K	0x0c
#define CONFIG0_STOP	0x80	/* the data link controller stopped */

/* CONFIG1 */
#define CONFIG1_BANK0	0x00
#define CONFIG1_BANK1	0x04
#define CONFIG1_BANK2	0x08
#define CONFIG1_POWER	0x20	/* clear: stand-by */

#define TXSTART_GO	0x80
#define TXSTART_MAX	0x7f	/* frames one start can send */

#define COLCTL_SKIP	0x07	/* 16 collisions: drop the frame, go on */

#define RXCTL_SKIP	0x04	/* drop the rest of the frame being read */

#define FMV_RX_HDR	4	/* status, reserved, length (le16) */

struct fmv_dev {
	struct pcnic nic;	/* first: the shared life cycle */
	unsigned long io;
	bool has_lanctl;	/* an MBH10302: the card gates the interrupt */

	/*
	 * The chip's registers (left in bank 2 while it runs) and all
	 * below up to the statistics; taken with interrupts off.
	 */
	spinlock_t lock;
	bool up;		/* open, not suspended */
	u8 config0;		/* with the transmit buffer size */
	unsigned int tx_room;	/* bytes in one transmit buffer */
	u8 rxmode;
	u8 hash[PCNIC_MC_FILTER_LEN];
	bool hash_pending;	/* to load once the transmitter is idle */
	unsigned int fill_frames;	/* in the buffer the host writes */
	unsigned int fill_bytes;
	unsigned int send_frames;	/* in the buffer on the wire, 0: idle */
	unsigned int send_bytes;
	struct rtnl_link_stats64 stats;

	struct napi_struct napi;
};

static inline struct fmv_dev *to_fmv(struct pcnic *nic)
{
	return container_of(nic, struct fmv_dev, nic);
}

/* fmvj18x_nic.c */
extern const struct net_device_ops fmv_netdev_ops;
struct fmv_dev *fmv_nic_init(struct net_device *ndev,
			     struct pcmcia_device *link, bool big_tx_buffers);
bool fmv_chip_answers(struct fmv_dev *priv);
void fmv_chip_standby(struct fmv_dev *priv);

#endif /* FMVJ18X_H */
