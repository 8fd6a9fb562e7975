/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 3Com EtherLink III: what the PC Card members of the family (3c589,
 * 3c574) share.  The chip shows its registers 16 ports at a time, in
 * numbered windows chosen by a command; the command register (write) and
 * the status word (read) at 0x0e are in every window.  The status word
 * carries the selected window in its top three bits, which tells a live
 * card from a bus that reads all ones.
 *
 * The code (elink3_lib.c) is linked into each module that uses it, as
 * screader.c is: see 3c589_elink3.c.  Nothing is exported.
 */
#ifndef PCL_ELINK3_H
#define PCL_ELINK3_H

#include <linux/bits.h>
#include <linux/io.h>
#include <linux/types.h>
#include <pcmcia/ds.h>

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

int el3_cmd_wait(unsigned long io, enum el3_op op, u16 arg);
int el3_cmd_wait_atomic(unsigned long io, enum el3_op op, u16 arg);
int el3_eeprom_read(unsigned long io, u16 read_op, unsigned int index,
		    u16 *val);
bool el3_cis_node_id(struct pcmcia_device *link, u8 *addr);

#endif /* PCL_ELINK3_H */
