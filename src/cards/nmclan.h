/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * New Media Ethernet PC Cards: an AMD Am79C940 MACE (Media Access
 * Controller for Ethernet) behind the glue of AMD's Am2150 reference
 * design, an FPGA that moves frames between the MACE's FIFOs and 32 KB
 * of SRAM: room for 12 frames received and 4 to send.
 *
 * The card's 32 ports: the glue's in the lower half, the MACE's 32 byte
 * registers in the upper half, 16 at a time (the bank port chooses).
 * Frames go through two data ports: a frame received reads as four
 * status bytes, then its bytes with the FCS; a frame to send is written
 * as a 16-bit byte count, then exactly that many bytes.
 *
 * The MACE's interrupt register clears when read; its mask register
 * masks the bits that are set in it.  The registers of bank 1 (chip ID,
 * address loading, counters) are reached with the bank port at 1; the
 * driver keeps bank 0 selected otherwise, under its lock.
 */
#ifndef PCL_NMCLAN_H
#define PCL_NMCLAN_H

#include <linux/bits.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "pcnic.h"

#define NM_IO_SIZE		32
#define NM_IO_LINES		5
#define NM_CONFIG_INDEX		1
#define NM_CISTPL_MAC		0x80	/* the vendor tuple with the address */

/* the glue's ports */
#define NM_RX_DATA		0x00	/* read: status bytes, then the frame */
#define NM_TX_DATA		0x04	/* write: byte count, then the frame */
#define NM_TX_ABANDON		0x09	/* write: the frame being written goes */
#define NM_RX_DONE		0x0a	/* write: the oldest frame goes */
#define NM_RX_FRAMES		0x0b	/* read: frames held, at most 12 */
#define NM_BANK			0x0c	/* write: the MACE's register bank */
#define NM_MACE			0x10	/* the MACE's registers */

#define NM_RX_SLOTS		12
#define NM_TX_SLOTS		4
#define NM_RX_STATUS_LEN	4	/* before each frame received */
#define NM_GONE			0xff	/* what an empty socket reads */

/* the MACE's registers; 16 and up are in bank 1 */
enum nm_mace_reg {
	MACE_REG_XMTFC		= 2,	/* transmit frame control */
	MACE_REG_XMTFS		= 3,	/* transmit frame status */
	MACE_REG_XMTRC		= 4,	/* transmit retry count */
	MACE_REG_RCVFC		= 5,	/* receive frame control */
	MACE_REG_FIFOFC		= 7,	/* FIFO frame counts */
	MACE_REG_IR		= 8,	/* interrupts; reading clears */
	MACE_REG_IMR		= 9,	/* interrupt mask: set bits mask */
	MACE_REG_PR		= 10,	/* poll */
	MACE_REG_BIUCC		= 11,	/* bus interface: bit 0 resets */
	MACE_REG_FIFOCC		= 12,	/* FIFO configuration */
	MACE_REG_MACCC		= 13,	/* MAC configuration */
	MACE_REG_PLSCC		= 14,	/* physical signalling: the port */
	MACE_REG_PHYCC		= 15,	/* PHY: link state */
	MACE_REG_CHIPID_LO	= 16,
	MACE_REG_CHIPID_HI	= 17,
	MACE_REG_IAC		= 18,	/* which address register loads */
	MACE_REG_LADRF		= 20,	/* logical address filter, 8 bytes */
	MACE_REG_PADR		= 21,	/* physical address, 6 bytes */
	MACE_REG_MPC		= 24,	/* missed frames; reading clears */
	MACE_REG_RNTPC		= 26,	/* runt frames; reading clears */
	MACE_REG_RCVCC		= 27,	/* receive collisions; reading clears */
	MACE_REG_UTR		= 29,	/* user test: loopback */
};

/* the chip ID: 0x?940, the top nibble the version */
#define MACE_ID_LO		0x40
#define MACE_ID_HI_PART		0x09
#define MACE_ID_HI_MASK		0x0f

#define MACE_XMTFC_APAD		BIT(0)	/* pad short frames */
#define MACE_XMTFS_VALID	BIT(7)
#define MACE_XMTFS_UNDERFLOW	BIT(6)
#define MACE_XMTFS_LATE_COLL	BIT(5)
#define MACE_XMTFS_NO_CARRIER	BIT(1)
#define MACE_XMTFS_RETRY_ERR	BIT(0)	/* 16 attempts failed */
#define MACE_XMTRC_RETRIES	0x0f
#define MACE_FIFOCC_BURST	0x0f	/* what the glue needs */

#define MACE_IR_JABBER		BIT(7)
#define MACE_IR_BABBLE		BIT(6)
#define MACE_IR_CERR		BIT(5)
#define MACE_IR_RCVCC_WRAP	BIT(4)
#define MACE_IR_RNTPC_WRAP	BIT(3)
#define MACE_IR_MPC_WRAP	BIT(2)
#define MACE_IR_RX		BIT(1)
#define MACE_IR_TX		BIT(0)
#define MACE_IR_ALL		0xff
/* what the driver takes: all but the heartbeat (SQE) error, masked */
#define MACE_IR_TAKEN		(MACE_IR_ALL & ~MACE_IR_CERR)
#define MACE_IMR_RUNNING	MACE_IR_CERR

#define MACE_PR_XMTSV		BIT(7)	/* a transmit status waits */
#define MACE_BIUCC_SWRST	BIT(0)
#define MACE_MACCC_PROM		BIT(7)
#define MACE_MACCC_ENXMT	BIT(1)
#define MACE_MACCC_ENRCV	BIT(0)
#define MACE_PLSCC_10BASET	0x02
#define MACE_PHYCC_LINK_FAIL	BIT(7)
#define MACE_IAC_ADDRCHG	BIT(7)
#define MACE_IAC_PHYADDR	BIT(2)
#define MACE_IAC_LOGADDR	BIT(1)

/* the receive status word: error bits over the byte count (FCS included) */
#define NM_RXS_OVERFLOW		BIT(15)
#define NM_RXS_COLLISION	BIT(14)
#define NM_RXS_FRAMING		BIT(13)
#define NM_RXS_FCS		BIT(12)
#define NM_RXS_ERRORS		(NM_RXS_OVERFLOW | NM_RXS_COLLISION | \
				 NM_RXS_FRAMING | NM_RXS_FCS)
#define NM_RXS_COUNT		0x0fff

#define NM_LADRF_LEN		PCNIC_MC_FILTER_LEN

struct nm_dev {
	struct pcnic nic;	/* first: the shared life cycle */
	unsigned long io;

	/* the card's ports, and everything below up to the statistics */
	spinlock_t lock;
	bool up;		/* open, not suspended, the chip programmed */
	bool running;		/* NAPI enabled: from start to quiesce */
	bool resetting;		/* the restart work has the card, unlocked */
	unsigned int tx_queued;	/* frames in the card, status not read */
	u8 maccc;		/* receive filter mode and enables */
	u8 ladrf[NM_LADRF_LEN];
	struct rtnl_link_stats64 stats;

	struct napi_struct napi;
	struct work_struct restart;
};

static inline struct nm_dev *to_nm(struct pcnic *nic)
{
	return container_of(nic, struct nm_dev, nic);
}

struct nm_dev *nm_dev_init(struct net_device *ndev,
			   struct pcmcia_device *link);
int nm_card_reset(struct nm_dev *nm);
u8 nm_mace_read(struct nm_dev *nm, enum nm_mace_reg reg);

extern const struct net_device_ops nm_netdev_ops;

#endif /* PCL_NMCLAN_H */
