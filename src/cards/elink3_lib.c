// SPDX-License-Identifier: GPL-2.0-only
/*
 * The EtherLink III helpers that the 3c589 and 3c574 drivers share (see
 * elink3.h): commands that take time, the EEPROM, the 3Com node ID tuple.
 */

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <pcmcia/cistpl.h>

#include "elink3.h"

/*
 * A reset takes the chip about a millisecond; give it twenty before
 * calling it stuck.  Without sleeping (RxDiscard, from NAPI) a command
 * gets 40 polls 1 us apart, under 100 us with the bus reads: the chip
 * drops a frame in a few microseconds.
 */
#define EL3_WAIT_POLLS		200
#define EL3_WAIT_US_MIN		50
#define EL3_WAIT_US_MAX		100
#define EL3_SPIN_POLLS		40

/* An EEPROM word takes 162 us to read. */
#define EL3_EEPROM_US_MIN	170
#define EL3_EEPROM_US_MAX	250
#define EL3_EEPROM_POLLS	20

/* CIS tuple in which some cards (3c562, 3c574) keep their address */
#define EL3_CISTPL_NODE_ID	0x88

/* 0: the chip is idle; -ENODEV: the card has gone; -EBUSY: still busy */
static int el3_cmd_state(unsigned long io)
{
	u16 status = inw(io + EL3_STATUS_REG);

	if (status == EL3_GONE)
		return -ENODEV;
	return status & EL3_ST_CMD_BUSY ? -EBUSY : 0;
}

/*
 * Issue a command and wait until the chip has carried it out; process
 * context.  -ETIMEDOUT: the chip stays busy; -ENODEV: the card has gone.
 */
int el3_cmd_wait(unsigned long io, enum el3_op op, u16 arg)
{
	unsigned int i;
	int rc;

	el3_cmd(io, op, arg);
	for (i = 0; i < EL3_WAIT_POLLS; i++) {
		rc = el3_cmd_state(io);
		if (rc != -EBUSY)
			return rc;
		usleep_range(EL3_WAIT_US_MIN, EL3_WAIT_US_MAX);
	}
	rc = el3_cmd_state(io);
	return rc == -EBUSY ? -ETIMEDOUT : rc;
}

/* The same for any context: commands that are quick (RxDiscard). */
int el3_cmd_wait_atomic(unsigned long io, enum el3_op op, u16 arg)
{
	unsigned int i;
	int rc;

	el3_cmd(io, op, arg);
	for (i = 0; i < EL3_SPIN_POLLS; i++) {
		rc = el3_cmd_state(io);
		if (rc != -EBUSY)
			return rc;
		udelay(1);
	}
	rc = el3_cmd_state(io);
	return rc == -EBUSY ? -ETIMEDOUT : rc;
}

/*
 * Word @index of the EEPROM, window 0 selected; @read_op is the chip's
 * read command (0x80 on the 3c589, 0x200 on the 3c574).  Process context.
 */
int el3_eeprom_read(unsigned long io, u16 read_op, unsigned int index,
		    u16 *val)
{
	u16 cmd;
	int i;

	outw(read_op | index, io + EL3_W0_EEPROM_CMD);
	for (i = 0; i < EL3_EEPROM_POLLS; i++) {
		usleep_range(EL3_EEPROM_US_MIN, EL3_EEPROM_US_MAX);
		cmd = inw(io + EL3_W0_EEPROM_CMD);
		if (cmd == EL3_GONE)
			return -ENODEV;
		if (!(cmd & EL3_EEPROM_BUSY)) {
			*val = inw(io + EL3_W0_EEPROM_DATA);
			return 0;
		}
	}
	return -ETIMEDOUT;
}

/*
 * The station address from the card's node ID tuple, if it has one: three
 * little-endian words, each holding two bytes of the address with the
 * first in its high half (as the EEPROM words do).
 */
bool el3_cis_node_id(struct pcmcia_device *link, u8 *addr)
{
	u8 *data = NULL;
	size_t len;
	int i;

	len = pcmcia_get_tuple(link, EL3_CISTPL_NODE_ID, &data);
	if (len >= ETH_ALEN) {
		for (i = 0; i < ETH_ALEN; i += 2) {
			addr[i] = data[i + 1];
			addr[i + 1] = data[i];
		}
	}
	kfree(data);
	return len >= ETH_ALEN;
}
