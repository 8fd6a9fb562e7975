/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smc91c92_cs: PC Cards with an SMC 91C9x Ethernet controller (91C92,
 * 91C94/96, 91C95, 91C100).  Shared by the PC Card side (smc91c92_cs.c)
 * and the network side (smc91c92_nic.c).
 *
 * The chip has 14 register ports in four banks, chosen through the bank
 * select register at 0x0e (its high byte reads 0x33 on every 91C9x):
 * bank 0 transmit/receive control and status, bank 1 configuration and
 * station address, bank 2 the MMU and its packet memory, interrupts,
 * bank 3 the multicast hash table, MII management and revision.  Bank 2
 * is the one the driver leaves selected; whatever selects another bank
 * does so under the lock and selects bank 2 again before letting go.
 *
 * Frames live in the chip's packet memory in 256-byte pages, each frame a
 * "packet" with a number: status word, byte count, data, control byte.
 * For transmission the driver asks the MMU for pages, writes the packet
 * through the pointer and data registers and enqueues its number; the
 * chip releases it once sent (auto release) or, if sending failed, hands
 * it back through the TX done FIFO.  Received frames wait in the RX FIFO
 * until the driver releases them.
 */
#ifndef PCL_SMC91C92_H
#define PCL_SMC91C92_H

#include <linux/bits.h>
#include <linux/io.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "pcnic.h"

#define SMC_IO_SIZE		16
#define SMC_BANK_SELECT		0x0e
#define SMC_CHIP_ID		0x33	/* bank select's high byte */

/* bank 0 */
#define SMC_B0_TCR		0x00
#define SMC_TCR_TXENA		BIT(0)
#define SMC_TCR_PAD		BIT(7)
#define SMC_TCR_MON_CSN		BIT(10)
#define SMC_TCR_FDUPLX		BIT(11)
#define SMC_B0_EPH		0x02
#define SMC_EPH_LINK_OK		BIT(14)
#define SMC_B0_RCR		0x04
#define SMC_RCR_PRMS		BIT(1)
#define SMC_RCR_ALMUL		BIT(2)
#define SMC_RCR_RXEN		BIT(8)
#define SMC_RCR_STRIP_CRC	BIT(9)
#define SMC_RCR_SOFT_RST	BIT(15)
#define SMC_B0_COUNTER		0x06	/* 4-bit counts: single, multiple collisions */
#define SMC_B0_MIR		0x08	/* low byte: memory size in units */
#define SMC_B0_MCR		0x0a	/* 91C94 on: the unit's multiplier */
#define SMC_MCR_MULT		GENMASK(11, 9)

/* bank 1 */
#define SMC_B1_CONFIG		0x00
#define SMC_CFG_16BIT		BIT(7)
#define SMC_CFG_AUI		BIT(8)
#define SMC_CFG_NO_WAIT		BIT(12)
#define SMC_CFG_MII		BIT(15)
#define SMC_B1_BASE		0x02
#define SMC_B1_ADDR		0x04	/* 3 words, first byte low */
#define SMC_B1_CONTROL		0x0c
#define SMC_CTL_RELOAD		BIT(1)
#define SMC_CTL_CR_ENABLE	BIT(6)
#define SMC_CTL_AUTO_RELEASE	BIT(11)
#define SMC_CTL_POWERDOWN	BIT(13)

/* bank 2 */
#define SMC_B2_MMU		0x00
#define SMC_MMU_BUSY		BIT(0)
#define SMC_MMU_ALLOC		0x20	/* with the pages wanted less one */
#define SMC_MMU_RESET		0x40
#define SMC_MMU_RX_RELEASE	0x80
#define SMC_MMU_FREE		0xa0
#define SMC_MMU_ENQUEUE		0xc0
#define SMC_B2_PNR		0x02
#define SMC_B2_ARR		0x03
#define SMC_ARR_FAILED		BIT(7)
#define SMC_PKT_NUMBER		GENMASK(5, 0)
#define SMC_B2_FIFO		0x04	/* low byte: TX done, high byte: RX */
#define SMC_FIFO_RX_EMPTY	BIT(15)
#define SMC_B2_POINTER		0x06
#define SMC_PTR_READ		BIT(13)
#define SMC_PTR_AUTOINC		BIT(14)
#define SMC_PTR_RCV		BIT(15)
#define SMC_B2_DATA		0x08
#define SMC_B2_INT		0x0c	/* status; a write acknowledges */
#define SMC_B2_MASK		0x0d
#define SMC_INT_RCV		BIT(0)
#define SMC_INT_TX		BIT(1)
#define SMC_INT_ALLOC		BIT(3)
#define SMC_INT_RX_OVRN		BIT(4)
#define SMC_INT_EPH		BIT(5)

/* bank 3 */
#define SMC_B3_MCAST		0x00	/* 8 bytes */
#define SMC_B3_MGMT		0x08
#define SMC_MGMT_MDO		BIT(0)
#define SMC_MGMT_MDI		BIT(1)
#define SMC_MGMT_MCLK		BIT(2)
#define SMC_MGMT_MDOE		BIT(3)
#define SMC_B3_REVISION		0x0a
#define SMC_REV_CHIP		GENMASK(7, 4)
#define SMC_REV_STEP		GENMASK(3, 0)

/* a packet: status and byte count words, data, control byte */
#define SMC_PKT_OVERHEAD	6
#define SMC_CTRL_ODD		0x20
#define SMC_RS_ALGNERR		BIT(15)
#define SMC_RS_BADCRC		BIT(13)
#define SMC_RS_ODD		BIT(12)
#define SMC_RS_TOOLONG		BIT(11)
#define SMC_RS_TOOSHORT		BIT(10)
#define SMC_RS_ERRORS		(SMC_RS_ALGNERR | SMC_RS_BADCRC | \
				 SMC_RS_TOOLONG | SMC_RS_TOOSHORT)
#define SMC_RS_MULTICAST	BIT(0)
#define SMC_TS_16COL		BIT(4)
#define SMC_TS_LATCOL		BIT(9)
#define SMC_TS_LOST_CAR		BIT(10)
#define SMC_PAGE		256

struct smc_dev {
	struct pcnic nic;	/* first: the shared life cycle */
	unsigned long io;
	spinlock_t lock;		/* the chip's registers and the below */
	struct napi_struct napi;
	struct work_struct reset_work;
	struct mii_if_info mii;

	u8 rev;			/* the revision register's low byte */
	bool has_mii;
	unsigned int mem_size;	/* packet memory, bytes */
	u16 config;		/* CONFIG as the driver programs it */

	u8 irq_mask;
	int tx_pkt;		/* packet allocated for the next frame, or -1 */
	bool up;		/* open and programmed */
	bool resetting;		/* the reset work has the chip */
};

static inline struct smc_dev *to_smc(struct pcnic *nic)
{
	return container_of(nic, struct smc_dev, nic);
}

static inline void smc_bank(unsigned long io, unsigned int bank)
{
	outw(bank, io + SMC_BANK_SELECT);
}

/* smc91c92_nic.c */
extern const struct net_device_ops smc_netdev_ops;
extern const struct ethtool_ops smc_ethtool_ops;
struct smc_dev *smc_dev_init(struct net_device *ndev,
			     struct pcmcia_device *link);
int smc_chip_reset(struct smc_dev *smc);
int smc_phy_find(struct smc_dev *smc);

#endif /* PCL_SMC91C92_H */
