// SPDX-License-Identifier: GPL-2.0-only
/*
 * Omnikey CardMan 4000, a PC Card smart card reader: /dev/cmmN.
 *
 * The reader runs the ISO 7816-3 character protocol itself: the host puts
 * a command into a 512-byte buffer behind eight I/O ports, starts the
 * state machine for an activation (the ATR lands in the buffer), a T=0
 * exchange, or a block exchange (T=1, and the PPS), and polls until it is
 * done; the card's answer is then in the buffer.  There is no interrupt.
 * The user-space interface is in <pcmcia-legacy/cm4000_cs.h>.
 *
 * While the device is open a monitor looks at the slot every 50 ms: it
 * powers up a card that comes in, reads its ATR and, for a card offering
 * one protocol at a faster rate than the default, negotiates that rate
 * (PPS).  Commands go through write(), which waits for the card's answer;
 * read() hands that answer out, or waits for the write() of another
 * thread that is under way.  A read() with neither is at the end of the
 * file: with exclusive opens nobody else can ever write to this file, so
 * waiting would be waiting forever.  Every wait polls with short sleeps
 * and ends early when the smart card or the reader goes away.
 */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bitrev.h>
#include <linux/compat.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>
#include <pcmcia-legacy/cm4000_cs.h>

#include "compat.h"
#include "iso7816.h"
#include "screader.h"

/* I/O ports */
#define CMM_FLAGS0		0
#define CMM_FLAGS1		1
#define CMM_COUNT		2	/* read: bytes received; write: INS */
#define CMM_ADDR		3	/* buffer address */
#define CMM_DATA		4	/* buffer byte at that address */
#define CMM_NSEND		5	/* bytes to send */
#define CMM_BAUD		6	/* card clocks per ETU minus one */
#define CMM_STOPBITS		7	/* a character is 10 + this many ETU */

/* FLAGS0 as read */
#define CMM_ST_CARD		BIT(0)	/* a smart card is in the slot */
#define CMM_ST_POWERED		BIT(1)
#define CMM_ST_COUNT8		BIT(2)	/* bit 8 of the received count */
#define CMM_ST_DONE		BIT(3)	/* the operation has ended */
#define CMM_ST_NOBODY		0xff	/* no reader answers the port */
/* FLAGS0 as written */
#define CMM_OP_RESET		BIT(7)	/* reset the state machine */
#define CMM_OP_START		BIT(6)
#define CMM_OP_BLOCK		BIT(4)	/* T=1 block or PPS */
#define CMM_OP_T0		BIT(3)
#define CMM_OP_POWER		BIT(2)	/* activate: the ATR comes */
#define CMM_OP_WARM		BIT(1)	/* with POWER warm reset, else off */
#define CMM_OP_NSEND8		BIT(0)	/* bit 8 of the send count */
/* FLAGS1, written */
#define CMM_F1_BAUD8		BIT(0)	/* bit 8 of the baud divisor */
#define CMM_F1_INVERSE		BIT(1)	/* inverse convention parity */
#define CMM_F1_SEND_T0		BIT(3)	/* T=0 command data follows */
#define CMM_F1_ADDR8		BIT(4)	/* bit 8 of the buffer address */
#define CMM_F1_ACTIVE		BIT(5)
#define CMM_F1_DETECT		BIT(6)	/* makes an idle reader show DONE */
/* CMM_ADDR, read */
#define CMM_ADDR_NOPROC		BIT(7)	/* no procedure byte since FLAGS1 */

#define CMM_BUF_SIZE		512
#define CMM_REPLY_MAX		(256 + 4)
#define CMM_ADDR_PAGE		256

/* ISO 7816-3 defaults */
#define CMM_ETU_MIN		8
#define CMM_ETU_MAX		512	/* nine bits of divisor */
#define CMM_STOPBITS_DEFAULT	2	/* 12 ETU a character */
#define CMM_CLOCK_KHZ		3571	/* the reader's card clock */

/* Waits, in ms */
#define CMM_MONITOR_MS		50
#define CMM_ATR_MUTE_MS		300	/* no first ATR byte by then: mute */
#define CMM_ATR_CHAR_MS		1000	/* between two ATR bytes */
#define CMM_BAD_RETRY		20	/* monitor rounds before a retry */
#define CMM_PPS_MS		1000
#define CMM_PPS_SETTLE_MS	50	/* a short PPS reply has ended */
#define CMM_POWER_OFF_MS	1000

/* PPS */
#define CMM_PPSS		0xff
#define CMM_PPS0_PPS1		0x10
#define CMM_PPS0_PPS123		0x70

/* 32-bit programs encode a 4-byte pointer in the first three ioctls. */
#define CM_IOCGSTATUS_32	_IOC(_IOC_READ, CM_IOC_MAGIC, 0, 4)
#define CM_IOCGATR_32		_IOC(_IOC_READ | _IOC_WRITE, CM_IOC_MAGIC, 1, 4)
#define CM_IOCSPTS_32		_IOC(_IOC_WRITE, CM_IOC_MAGIC, 2, 4)

enum cmm_atr_state {
	CMM_ATR_NONE,		/* no card, or not read yet */
	CMM_ATR_VALID,
	CMM_ATR_BAD,		/* mute card or unusable ATR */
};

struct cmm_dev {
	struct scr_dev rdr;

	struct mutex op_lock;	/* one card operation at a time: below */
	struct delayed_work monitor;
	bool monitoring;	/* the monitor re-arms itself */

	u8 flags0;		/* FLAGS0 when last read */
	u8 atr_state;		/* enum cmm_atr_state; read without lock */
	u8 atr[MAX_ATR];
	unsigned int atr_len;
	unsigned int bad_wait;	/* monitor rounds before the next try */
	struct iso7816_atr_info ai;
	bool pps_failed;	/* no automatic PPS for this card again */

	bool inverse;		/* inverse convention */
	u8 proto;		/* T in use */
	bool negotiable;	/* nothing sent since the ATR: PPS allowed */
	unsigned int etu;	/* card clocks per ETU in use */
	u8 stopbits;
	u8 flags1;		/* FLAGS1 between operations */
	u8 procbyte;		/* T=0: the last procedure byte */

	bool reply_ready;	/* read without lock */
	atomic_t writers;	/* write() calls under way */
	unsigned int reply_len;
	u8 reply[CMM_REPLY_MAX];
	u8 cmd[CMM_BUF_SIZE];
};

static struct scr_driver cmm_scr;

/* the reader's memory is this structure (screader.c frees it) */
static_assert(offsetof(struct cmm_dev, rdr) == 0);

static struct cmm_dev *to_cmm(struct scr_dev *rdr)
{
	return container_of(rdr, struct cmm_dev, rdr);
}

/* ---- the hardware; callers hold the reader's io_lock ---- */

static u8 cmm_in(struct cmm_dev *dev, unsigned int port)
{
	return inb(dev->rdr.iobase + port);
}

static void cmm_out(struct cmm_dev *dev, unsigned int port, u8 val)
{
	outb(val, dev->rdr.iobase + port);
}

/* A byte as the buffer holds it (inverse convention: inverted, mirrored). */
static u8 cmm_wire(const struct cmm_dev *dev, u8 b)
{
	return dev->inverse ? bitrev8(~b) : b;
}

static unsigned int cmm_count_once(struct cmm_dev *dev)
{
	unsigned int n = cmm_in(dev, CMM_COUNT);

	if (cmm_in(dev, CMM_FLAGS0) & CMM_ST_COUNT8)
		n |= 0x100;
	return n;
}

/* The received count, read until two readings agree (it is two ports). */
static unsigned int cmm_count(struct cmm_dev *dev)
{
	unsigned int prev, n = cmm_count_once(dev);
	int tries;

	for (tries = 0; tries < 4; tries++) {
		prev = n;
		n = cmm_count_once(dev);
		if (n == prev)
			break;
	}
	return n;
}

static void cmm_buf_write(struct cmm_dev *dev, const u8 *src,
			  unsigned int len, u8 flags1)
{
	unsigned int i;

	for (i = 0; i < len; i++) {
		if (i == CMM_ADDR_PAGE)
			cmm_out(dev, CMM_FLAGS1, flags1 | CMM_F1_ADDR8);
		cmm_out(dev, CMM_ADDR, i & 0xff);
		cmm_out(dev, CMM_DATA, cmm_wire(dev, src[i]));
	}
	if (len > CMM_ADDR_PAGE)
		cmm_out(dev, CMM_FLAGS1, flags1);
}

static void cmm_buf_read(struct cmm_dev *dev, unsigned int from, u8 *dst,
			 unsigned int len)
{
	bool high = false;
	unsigned int i;

	for (i = 0; i < len; i++) {
		if (!high && from + i >= CMM_ADDR_PAGE) {
			cmm_out(dev, CMM_FLAGS1, dev->flags1 | CMM_F1_ADDR8);
			high = true;
		}
		cmm_out(dev, CMM_ADDR, (from + i) & 0xff);
		dst[i] = cmm_wire(dev, cmm_in(dev, CMM_DATA));
	}
	if (high)
		cmm_out(dev, CMM_FLAGS1, dev->flags1);
}

/* The time @chars characters of @etus ETU each take on the wire, in us. */
static unsigned int cmm_wire_us(struct cmm_dev *dev, unsigned int chars,
				unsigned int etus)
{
	return iso7816_wire_us(chars, etus, dev->etu, CMM_CLOCK_KHZ);
}

/* Baud divisor, convention and guard time for the card in use. */
static void cmm_set_params(struct cmm_dev *dev)
{
	unsigned int divisor = dev->etu - 1;

	dev->flags1 = (divisor & 0x100 ? CMM_F1_BAUD8 : 0) |
		      (dev->inverse ? CMM_F1_INVERSE : 0);
	cmm_out(dev, CMM_FLAGS1, dev->flags1);
	cmm_out(dev, CMM_BAUD, divisor & 0xff);
	cmm_out(dev, CMM_STOPBITS, dev->stopbits);
}

/*
 * Reset the state machine and check that a reader answers: an idle one
 * shows DONE exactly while FLAGS1 asks it to.
 */
static bool cmm_reset_detect(struct cmm_dev *dev)
{
	bool seen;

	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	if (cmm_in(dev, CMM_FLAGS0) & CMM_ST_DONE)
		return false;
	cmm_out(dev, CMM_FLAGS1, dev->flags1 | CMM_F1_DETECT);
	seen = cmm_in(dev, CMM_FLAGS0) & CMM_ST_DONE;
	cmm_out(dev, CMM_FLAGS1, dev->flags1);
	return seen;
}

/*
 * After reading the buffer: whether the reader was still there.  Once it
 * is gone every port reads 0xff, so a good FLAGS0 now vouches for the
 * bytes read before.
 */
static bool cmm_still_there(struct cmm_dev *dev)
{
	return cmm_in(dev, CMM_FLAGS0) != CMM_ST_NOBODY;
}

/* Stop whatever the state machine does; the buffer stays. */
static void cmm_stop(struct cmm_dev *dev)
{
	if (scr_io_begin(&dev->rdr))
		return;
	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	cmm_out(dev, CMM_FLAGS1, dev->flags1);
	scr_io_end(&dev->rdr);
}

/* ---- waiting for the state machine ---- */

struct cmm_poll {
	u8 flags0;
	unsigned int count;
	bool procbyte;		/* T=0: a procedure byte came */
};

/*
 * One look at the reader while an operation runs: -ENODEV when it is
 * gone, -EIO when the smart card has left or lost power.
 */
static int cmm_look(struct cmm_dev *dev, struct cmm_poll *p)
{
	int rc = scr_io_begin(&dev->rdr);

	if (rc)
		return rc;
	p->flags0 = cmm_in(dev, CMM_FLAGS0);
	WRITE_ONCE(dev->flags0, p->flags0);
	if (p->flags0 != CMM_ST_NOBODY) {
		p->count = cmm_count(dev);
		p->procbyte = !(cmm_in(dev, CMM_ADDR) & CMM_ADDR_NOPROC);
		if (p->procbyte)
			dev->procbyte = cmm_wire(dev, cmm_in(dev, CMM_FLAGS1));
	}
	scr_io_end(&dev->rdr);
	if (p->flags0 == CMM_ST_NOBODY)
		return -ENODEV;
	if ((p->flags0 & (CMM_ST_CARD | CMM_ST_POWERED)) !=
	    (CMM_ST_CARD | CMM_ST_POWERED))
		return -EIO;
	return 0;
}

/* The smart card left or was reset: forget it. */
static void cmm_card_lost(struct cmm_dev *dev)
{
	WRITE_ONCE(dev->atr_state, CMM_ATR_NONE);
	WRITE_ONCE(dev->reply_ready, false);
	dev->negotiable = false;
	dev->pps_failed = false;
	dev->bad_wait = 0;
	wake_up_all(&dev->rdr.wq);
}

/* An operation failed: stop the reader, give up on a card that left. */
static int cmm_failed(struct cmm_dev *dev, int rc)
{
	cmm_stop(dev);
	if (rc == -EIO && !(READ_ONCE(dev->flags0) & CMM_ST_CARD))
		cmm_card_lost(dev);
	if (rc == -ERESTARTSYS)
		rc = -EINTR;	/* the card saw half of it: no restart */
	return rc;
}

/* ---- the ATR ---- */

/* Clocks per ETU for a TA1-coded Fi/Di the reader can keep, else 0. */
static unsigned int cmm_fidi_etu(u8 fidi)
{
	unsigned int f = iso7816_fi(fidi), d = iso7816_di(fidi), etu;

	if (!f || !d)
		return 0;
	etu = f / d;
	if (etu < CMM_ETU_MIN || etu > CMM_ETU_MAX)
		return 0;
	/* the divisor is whole clocks: at most 2 % slower than the card */
	if ((f - etu * d) * 50 > f)
		return 0;
	return etu;
}

/* Two cards known to want more guard time than their ATR says. */
static const struct {
	u8 len;
	u8 stopbits;
	u8 atr[11];
} cmm_guard_quirks[] = {
	{ .len = 7, .stopbits = 3,
	  .atr = { 0x3b, 0xb3, 0x11, 0x00, 0x00, 0x41, 0x01 } },
	{ .len = 11, .stopbits = 4,
	  .atr = { 0x3b, 0x76, 0x13, 0x00, 0x00, 0x80, 0x62, 0x07,
		   0x41, 0x81, 0x81 } },
};

static u8 cmm_guard_time(struct cmm_dev *dev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmm_guard_quirks); i++)
		if (dev->atr_len >= cmm_guard_quirks[i].len &&
		    !memcmp(dev->atr, cmm_guard_quirks[i].atr,
			    cmm_guard_quirks[i].len))
			return cmm_guard_quirks[i].stopbits;
	if (dev->ai.tc1 && dev->ai.tc1 < 0xff - CMM_STOPBITS_DEFAULT)
		return CMM_STOPBITS_DEFAULT + dev->ai.tc1;
	return CMM_STOPBITS_DEFAULT;
}

/*
 * Activate the card (a warm reset when it is powered) and read its ATR.
 * 0 with an ATR in dev->atr, -EIO for a mute card or one that left.
 */
static int cmm_read_atr(struct cmm_dev *dev)
{
	unsigned int last = 0;
	struct cmm_poll p;
	struct scr_wait w;
	u8 raw[MAX_ATR];
	int rc, i;
	u8 f0;

	dev->inverse = false;
	dev->etu = ISO7816_ETU_DEFAULT;
	dev->stopbits = CMM_STOPBITS_DEFAULT;
	dev->atr_len = 0;
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	f0 = cmm_in(dev, CMM_FLAGS0);
	if (f0 != CMM_ST_NOBODY && (f0 & CMM_ST_CARD)) {
		cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
		cmm_set_params(dev);
		cmm_out(dev, CMM_FLAGS1, dev->flags1 | CMM_F1_ACTIVE);
		cmm_out(dev, CMM_FLAGS0, CMM_OP_START | CMM_OP_POWER |
			(f0 & CMM_ST_POWERED ? CMM_OP_WARM : 0));
	}
	scr_io_end(&dev->rdr);
	if (f0 == CMM_ST_NOBODY)
		return -ENODEV;
	if (!(f0 & CMM_ST_CARD))
		return -EIO;

	scr_wait_start(&w, CMM_ATR_MUTE_MS);
	/* the card's first clocks, TS and T0 */
	scr_wait_expect(&w, ISO7816_ATR_DELAY_MIN * 1000 / CMM_CLOCK_KHZ +
			cmm_wire_us(dev, 2, ISO7816_CHAR_ETU));
	for (;;) {
		rc = cmm_look(dev, &p);
		/* the card is not powered before the activation has begun */
		if (rc == -EIO && (p.flags0 & CMM_ST_CARD))
			rc = 0;
		if (rc)
			return cmm_failed(dev, rc);
		if (p.count != last) {
			last = p.count;
			w.timeout_ms = CMM_ATR_CHAR_MS;
			scr_wait_progress(&w);
		}
		if (p.flags0 & CMM_ST_DONE)
			break;
		rc = scr_wait_next(&dev->rdr, &w);
		if (rc == -ETIMEDOUT && last)
			break;		/* no end mark, but the bytes stopped */
		if (rc)
			return cmm_failed(dev, rc == -ETIMEDOUT ? -EIO : rc);
	}

	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	last = min_t(unsigned int, cmm_count(dev), MAX_ATR);
	cmm_buf_read(dev, 0, raw, last);
	rc = cmm_still_there(dev) ? 0 : -ENODEV;
	scr_io_end(&dev->rdr);
	if (rc)
		return rc;
	if (!last)
		return -EIO;
	/* TS 3F (inverse convention) arrives as 03 */
	if (raw[0] == 0x03) {
		dev->inverse = true;
		for (i = 0; i < last; i++)
			raw[i] = bitrev8(~raw[i]);
	}
	memcpy(dev->atr, raw, last);
	dev->atr_len = last;
	return 0;
}

/* ---- PPS ---- */

/*
 * Ask for protocol @proto and the Fi/Di in @pps[0] (and PPS2, PPS3 as
 * @pps0 says).  0 when the card agreed (possibly only to the protocol, at
 * the default rate), -EIO when it refused or did not answer.
 */
static int cmm_pps(struct cmm_dev *dev, unsigned int proto, u8 pps0,
		   const u8 *pps)
{
	u8 req[6], rep[6], pck = 0;
	unsigned int n = 0, i, got = 0, len;
	struct cmm_poll p;
	struct scr_wait w;
	ktime_t settled = 0;
	int rc;

	req[n++] = CMM_PPSS;
	req[n++] = (pps0 & CMM_PPS0_PPS123) | proto;
	for (i = 0; i < 3; i++)
		if (pps0 & (CMM_PPS0_PPS1 << i))
			req[n++] = pps[i];
	for (i = 0; i < n; i++)
		pck ^= req[i];
	req[n++] = pck;

	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	cmm_set_params(dev);
	cmm_out(dev, CMM_FLAGS1, dev->flags1 | CMM_F1_ACTIVE);
	cmm_buf_write(dev, req, n, dev->flags1 | CMM_F1_ACTIVE);
	cmm_out(dev, CMM_NSEND, n);
	cmm_out(dev, CMM_FLAGS0, CMM_OP_START | CMM_OP_BLOCK);
	scr_io_end(&dev->rdr);
	dev->negotiable = false;

	scr_wait_start(&w, CMM_PPS_MS);
	scr_wait_expect(&w, cmm_wire_us(dev, n, 10 + dev->stopbits) +
			cmm_wire_us(dev, 3, ISO7816_CHAR_ETU));
	for (;;) {
		rc = cmm_look(dev, &p);
		if (rc)
			return cmm_failed(dev, rc);
		if (p.count != got) {
			got = p.count;
			settled = ktime_add_ms(ktime_get(), CMM_PPS_SETTLE_MS);
			scr_wait_progress(&w);
		}
		/* a full echo, or a shorter reply that has ended */
		if (got >= n || (got >= 3 && ktime_after(ktime_get(), settled)))
			break;
		rc = scr_wait_next(&dev->rdr, &w);
		if (rc)
			return cmm_failed(dev, rc == -ETIMEDOUT ? -EIO : rc);
	}

	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	len = min_t(unsigned int, got, sizeof(rep));
	cmm_buf_read(dev, 0, rep, len);
	rc = cmm_still_there(dev) ? 0 : -ENODEV;
	scr_io_end(&dev->rdr);
	if (rc)
		return rc;

	pck = 0;
	for (i = 0; i < len; i++)
		pck ^= rep[i];
	if (len < 3 || pck || rep[0] != CMM_PPSS ||
	    (rep[1] & 0x0f) != proto ||
	    len != 3 + hweight8(rep[1] & CMM_PPS0_PPS123)) {
		dev_dbg(&dev->rdr.link->dev, "PPS refused (%u bytes)\n", len);
		return -EIO;
	}
	dev->proto = proto;
	/* a card that leaves PPS1 out of its reply stays at the default */
	dev->etu = ISO7816_ETU_DEFAULT;
	if (len == n && !memcmp(req, rep, n) && (pps0 & CMM_PPS0_PPS1))
		dev->etu = cmm_fidi_etu(pps[0]) ?: ISO7816_ETU_DEFAULT;
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	cmm_set_params(dev);
	scr_io_end(&dev->rdr);
	dev_dbg(&dev->rdr.link->dev, "T=%u at %u clocks an ETU\n", proto,
		dev->etu);
	return 0;
}

/* The fastest Fi/Di the card offers that the reader can keep. */
static u8 cmm_best_fidi(struct cmm_dev *dev)
{
	return cmm_fidi_etu(dev->ai.ta1) ? dev->ai.ta1 : ISO7816_FIDI_DEFAULT;
}

/*
 * Power the card up (or reset it) and get it ready: ATR, parameters and,
 * when @auto_pps, the PPS a single-protocol card with a faster rate
 * wants.  Sets the ATR state and wakes up whoever waits for it.
 */
static int cmm_power_up(struct cmm_dev *dev, bool auto_pps)
{
	u8 state = CMM_ATR_NONE, fidi;
	int rc;

	dev->negotiable = false;
	rc = cmm_read_atr(dev);
	if (!rc && !iso7816_parse_atr(dev->atr, dev->atr_len, &dev->ai))
		rc = -EIO;
	if (rc == -EIO && (READ_ONCE(dev->flags0) & CMM_ST_CARD)) {
		dev_notice_ratelimited(&dev->rdr.link->dev,
				       "smart card without a usable ATR\n");
		state = CMM_ATR_BAD;
		dev->bad_wait = CMM_BAD_RETRY;
	}
	if (rc)
		goto out;

	dev->stopbits = cmm_guard_time(dev);
	if (dev->ai.specific) {
		/* the card runs what TA2 names, at TA1's rate unless implicit */
		dev->proto = dev->ai.ta2 & 0x0f;
		if (!(dev->ai.ta2 & 0x10))
			dev->etu = cmm_fidi_etu(dev->ai.ta1) ?: ISO7816_ETU_DEFAULT;
	} else {
		dev->proto = dev->ai.first;
		dev->negotiable = true;
	}
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		goto out;
	cmm_set_params(dev);
	scr_io_end(&dev->rdr);

	fidi = cmm_best_fidi(dev);
	if (auto_pps && dev->negotiable && !dev->pps_failed &&
	    hweight8(dev->ai.protocols) == 1 && fidi != ISO7816_FIDI_DEFAULT) {
		rc = cmm_pps(dev, dev->proto, CMM_PPS0_PPS1, &fidi);
		if (rc == -EIO) {
			/* start over at the defaults */
			dev->pps_failed = true;
			return cmm_power_up(dev, false);
		}
		if (rc)
			goto out;
	}
	state = CMM_ATR_VALID;
out:
	/* anything but a valid ATR: the monitor tries again */
	WRITE_ONCE(dev->atr_state, state);
	wake_up_all(&dev->rdr.wq);
	return rc;
}

/* ---- the monitor ---- */

static void cmm_check_card(struct cmm_dev *dev)
{
	u8 f0;

	if (scr_io_begin(&dev->rdr))
		return;
	f0 = cmm_in(dev, CMM_FLAGS0);
	scr_io_end(&dev->rdr);
	WRITE_ONCE(dev->flags0, f0);
	if (f0 == CMM_ST_NOBODY || !(f0 & CMM_ST_CARD)) {
		if (dev->atr_state != CMM_ATR_NONE || dev->reply_ready)
			cmm_card_lost(dev);
		return;
	}
	/* powered down under us: it is a new card, or was reset */
	if (dev->atr_state == CMM_ATR_VALID && !(f0 & CMM_ST_POWERED))
		cmm_card_lost(dev);
	if (dev->atr_state == CMM_ATR_BAD && dev->bad_wait && --dev->bad_wait)
		return;
	if (dev->atr_state != CMM_ATR_VALID)
		cmm_power_up(dev, true);
}

static void cmm_monitor(struct work_struct *work)
{
	struct cmm_dev *dev = container_of(to_delayed_work(work),
					   struct cmm_dev, monitor);

	/* a command in progress knows the card's state better */
	if (mutex_trylock(&dev->op_lock)) {
		cmm_check_card(dev);
		mutex_unlock(&dev->op_lock);
	}
	if (READ_ONCE(dev->monitoring) && !scr_gone(&dev->rdr))
		schedule_delayed_work(&dev->monitor,
				      msecs_to_jiffies(CMM_MONITOR_MS));
}

/* Watch the slot (if the monitor does not already). */
static void cmm_monitor_start(struct cmm_dev *dev)
{
	WRITE_ONCE(dev->monitoring, true);
	schedule_delayed_work(&dev->monitor, 0);
}

/*
 * A command watches the card itself (and cancels the monitor's next
 * round): the monitor comes back CMM_MONITOR_MS after the command.
 */
static void cmm_monitor_defer(struct cmm_dev *dev)
{
	if (READ_ONCE(dev->monitoring))
		mod_delayed_work(system_percpu_wq, &dev->monitor,
				 msecs_to_jiffies(CMM_MONITOR_MS));
}

static void cmm_monitor_stop(struct cmm_dev *dev)
{
	WRITE_ONCE(dev->monitoring, false);
	cancel_delayed_work_sync(&dev->monitor);
}

/* ---- commands ---- */

/*
 * Wait until the card has answered its activation, then hold op_lock.
 * 0 with a valid ATR; with @any also 1 for a card without one.
 */
static int cmm_lock_card(struct cmm_dev *dev, struct file *file, bool any)
{
	u8 state;
	int rc;

	for (;;) {
		if (file->f_flags & O_NONBLOCK) {
			if (READ_ONCE(dev->atr_state) == CMM_ATR_NONE &&
			    !scr_gone(&dev->rdr))
				return -EAGAIN;
		} else {
			rc = wait_event_interruptible(dev->rdr.wq,
						      scr_gone(&dev->rdr) ||
						      READ_ONCE(dev->atr_state) != CMM_ATR_NONE);
			if (rc)
				return rc;
		}
		if (mutex_lock_interruptible(&dev->op_lock))
			return -ERESTARTSYS;
		if (scr_gone(&dev->rdr)) {
			mutex_unlock(&dev->op_lock);
			return -ENODEV;
		}
		state = dev->atr_state;
		if (state == CMM_ATR_VALID)
			return 0;
		if (state == CMM_ATR_BAD) {
			if (any)
				return 1;
			mutex_unlock(&dev->op_lock);
			return -EIO;
		}
		/* the card left again before we got here */
		mutex_unlock(&dev->op_lock);
	}
}

/*
 * Start an exchange: the command is in dev->cmd, @len bytes of it go to
 * the buffer.  Called with io_lock.
 */
static int cmm_start(struct cmm_dev *dev, unsigned int len, u8 op, u8 f1,
		     unsigned int nsend)
{
	u8 f0 = cmm_in(dev, CMM_FLAGS0);

	WRITE_ONCE(dev->flags0, f0);
	if (f0 == CMM_ST_NOBODY)
		return -ENODEV;
	if ((f0 & (CMM_ST_CARD | CMM_ST_POWERED)) !=
	    (CMM_ST_CARD | CMM_ST_POWERED))
		return -EIO;
	if (!cmm_reset_detect(dev))
		return -ENODEV;
	cmm_set_params(dev);
	cmm_in(dev, CMM_FLAGS1);	/* forget old procedure bytes */
	f1 |= dev->flags1 | CMM_F1_ACTIVE;
	cmm_out(dev, CMM_FLAGS1, f1);
	cmm_buf_write(dev, dev->cmd, len, f1);
	cmm_out(dev, CMM_COUNT, cmm_wire(dev, dev->cmd[1]));
	cmm_out(dev, CMM_NSEND, nsend & 0xff);
	cmm_out(dev, CMM_FLAGS0, CMM_OP_START | op |
		(nsend & 0x100 ? CMM_OP_NSEND8 : 0));
	return 0;
}

/* T=0 waiting time (960 * WI * Fi clocks), twice, and a second more. */
static unsigned int cmm_t0_timeout_ms(struct cmm_dev *dev)
{
	return 2 * 960 * dev->ai.wi * iso7816_fi(dev->ai.ta1) /
	       CMM_CLOCK_KHZ + 1000;
}

/* T=1 block waiting time (2^BWI * 960 * 372 clocks), twice, + 1 s. */
static unsigned int cmm_t1_timeout_ms(struct cmm_dev *dev)
{
	return 2 * (960 * ISO7816_ETU_DEFAULT / CMM_CLOCK_KHZ + 1) *
	       (1u << min_t(u8, dev->ai.bwi, 9)) + 1000;
}

/*
 * One T=0 TPDU: 4 bytes (case 1), 5 (case 2: the card sends P3 bytes)
 * or 5 + P3 (case 3: P3 bytes of data go to the card).  The answer is
 * the data and SW1 SW2.
 */
static int cmm_t0(struct cmm_dev *dev, unsigned int len)
{
	unsigned int p3 = dev->cmd[4], nsend, from, data, count;
	bool send = len > 5;
	struct cmm_poll p;
	struct scr_wait w;
	u8 sw1;
	int rc;

	if (len == 4) {
		dev->cmd[4] = 0;
		nsend = 5;
	} else if (len == 5) {
		nsend = 5 + (p3 ? p3 : 256);
	} else if (p3 && len == 5 + p3) {
		nsend = len;
	} else {
		return -EINVAL;
	}
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	rc = cmm_start(dev, send ? len : 5, CMM_OP_T0,
		       send ? CMM_F1_SEND_T0 : 0, nsend);
	scr_io_end(&dev->rdr);
	dev->negotiable = false;
	if (rc)
		return cmm_failed(dev, rc);

	scr_wait_start(&w, cmm_t0_timeout_ms(dev));
	/* the header and data out; ACK, the data asked for and SW1 SW2 back */
	scr_wait_expect(&w, cmm_wire_us(dev, send ? len : 5, 10 + dev->stopbits) +
			cmm_wire_us(dev, len == 4 ? 2 : send ? 3 : nsend - 2,
				    ISO7816_CHAR_ETU));
	count = 0;
	for (;;) {
		rc = cmm_look(dev, &p);
		if (rc)
			return cmm_failed(dev, rc);
		if (p.flags0 & CMM_ST_DONE)
			break;
		if (p.procbyte || p.count != count) {
			count = p.count;
			scr_wait_progress(&w);
		}
		rc = scr_wait_next(&dev->rdr, &w);
		if (rc)
			return cmm_failed(dev, rc == -ETIMEDOUT ? -EIO : rc);
	}

	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	sw1 = cmm_wire(dev, cmm_in(dev, CMM_FLAGS1));
	count = cmm_count(dev);
	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	/*
	 * The buffer: the header, the data sent or received, SW2.  Data sent
	 * only comes back when the card took it (it answered with an ACK).
	 */
	from = send && count > nsend ? nsend : 5;
	if (count > from && count - from - 1 <= CMM_REPLY_MAX - 2) {
		data = count - from - 1;
		cmm_buf_read(dev, from, dev->reply, data + 1);
		dev->reply[data + 1] = dev->reply[data];
		dev->reply[data] = sw1;
		dev->reply_len = data + 2;
	} else {
		rc = -EIO;
	}
	cmm_out(dev, CMM_FLAGS1, dev->flags1);
	if (!cmm_still_there(dev))
		rc = -ENODEV;
	scr_io_end(&dev->rdr);
	return rc;
}

/* One T=1 block: NAD PCB LEN, LEN bytes, LRC.  The answer is a block. */
static int cmm_t1(struct cmm_dev *dev, unsigned int len)
{
	unsigned int count = 0, need = 0, rest;
	struct cmm_poll p;
	struct scr_wait w;
	int rc;

	if (len < 4 || dev->cmd[2] == 0xff || len != 4 + dev->cmd[2])
		return -EINVAL;
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	rc = cmm_start(dev, len, CMM_OP_BLOCK, 0, len);
	scr_io_end(&dev->rdr);
	dev->negotiable = false;
	if (rc)
		return cmm_failed(dev, rc);

	scr_wait_start(&w, cmm_t1_timeout_ms(dev));
	/* the block out, the guard time, and the shortest block back */
	scr_wait_expect(&w, cmm_wire_us(dev, len, 10 + dev->stopbits) +
			cmm_wire_us(dev, 1, ISO7816_T1_BGT) +
			cmm_wire_us(dev, 4, ISO7816_T1_CHAR_ETU));
	for (;;) {
		rc = cmm_look(dev, &p);
		if (rc)
			return cmm_failed(dev, rc);
		if (p.count != count) {
			count = p.count;
			scr_wait_progress(&w);
		}
		/* FLAGS1 shows the third byte received: the block's LEN */
		if (count >= 3 && !need) {
			rc = scr_io_begin(&dev->rdr);
			if (rc)
				return rc;
			need = 4 + cmm_wire(dev, cmm_in(dev, CMM_FLAGS1));
			scr_io_end(&dev->rdr);
			/* the rest of the block cannot come any faster */
			rest = need > count ? need - count : 0;
			scr_wait_expect(&w, cmm_wire_us(dev, rest,
							ISO7816_T1_CHAR_ETU));
		}
		if (need && count >= need)
			break;
		rc = scr_wait_next(&dev->rdr, &w);
		if (rc)
			return cmm_failed(dev, rc == -ETIMEDOUT ? -EIO : rc);
	}

	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
	need = min_t(unsigned int, need, CMM_REPLY_MAX);
	cmm_buf_read(dev, 0, dev->reply, need);
	dev->reply_len = need;
	cmm_out(dev, CMM_FLAGS1, dev->flags1);
	rc = cmm_still_there(dev) ? 0 : -ENODEV;
	scr_io_end(&dev->rdr);
	return rc;
}

/* ---- file operations ---- */

static int cmm_open(struct inode *inode, struct file *file)
{
	struct cmm_dev *dev;
	int rc;

	rc = scr_open(&cmm_scr, inode, file);
	if (rc)
		return rc;
	dev = to_cmm(file->private_data);
	/* a new session: the card gets reset and its ATR read again */
	mutex_lock(&dev->op_lock);
	dev->atr_state = CMM_ATR_NONE;
	dev->reply_ready = false;
	dev->pps_failed = false;
	dev->bad_wait = 0;
	mutex_unlock(&dev->op_lock);
	cmm_monitor_start(dev);
	return 0;
}

static int cmm_release(struct inode *inode, struct file *file)
{
	cmm_monitor_stop(to_cmm(file->private_data));
	scr_release(file);
	return 0;
}

/* An answer to hand out, nothing left to wait for, or the reader gone. */
static bool cmm_read_settled(struct cmm_dev *dev)
{
	return scr_gone(&dev->rdr) || READ_ONCE(dev->reply_ready) ||
	       !atomic_read(&dev->writers);
}

static ssize_t cmm_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct cmm_dev *dev = to_cmm(file->private_data);
	bool writing;
	ssize_t rc;

	if (!count)
		return 0;
	for (;;) {
		if (!cmm_read_settled(dev)) {
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			rc = wait_event_interruptible(dev->rdr.wq,
						      cmm_read_settled(dev));
			if (rc)
				return rc;
		}
		if (mutex_lock_interruptible(&dev->op_lock))
			return -ERESTARTSYS;
		if (scr_gone(&dev->rdr)) {
			mutex_unlock(&dev->op_lock);
			return -ENODEV;
		}
		if (dev->reply_ready)
			break;
		writing = atomic_read(&dev->writers);
		mutex_unlock(&dev->op_lock);
		if (!writing)
			return 0;	/* no answer, none coming */
	}
	count = min_t(size_t, count, dev->reply_len);
	if (copy_to_user(buf, dev->reply, count)) {
		rc = -EFAULT;
	} else {
		WRITE_ONCE(dev->reply_ready, false);
		rc = count;
	}
	mutex_unlock(&dev->op_lock);
	return rc;
}

static ssize_t cmm_write_locked(struct cmm_dev *dev, struct file *file,
				const char __user *buf, size_t count)
{
	int rc;

	rc = cmm_lock_card(dev, file, false);
	if (rc)
		return rc;
	WRITE_ONCE(dev->reply_ready, false);
	cancel_delayed_work(&dev->monitor);
	if (copy_from_user(dev->cmd, buf, count))
		rc = -EFAULT;
	else if (dev->proto)
		rc = cmm_t1(dev, count);
	else
		rc = cmm_t0(dev, count);
	if (!rc)
		WRITE_ONCE(dev->reply_ready, true);
	cmm_monitor_defer(dev);
	mutex_unlock(&dev->op_lock);
	return rc ? rc : (ssize_t)count;
}

static ssize_t cmm_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	struct cmm_dev *dev = to_cmm(file->private_data);
	ssize_t rc;

	if (!count)
		return 0;
	if (count > CMM_BUF_SIZE)
		return -EINVAL;
	/* readers of this file wait for the answer while we are counted */
	atomic_inc(&dev->writers);
	rc = cmm_write_locked(dev, file, buf, count);
	atomic_dec(&dev->writers);
	wake_up_all(&dev->rdr.wq);
	return rc;
}

static __poll_t cmm_poll(struct file *file, poll_table *wait)
{
	struct cmm_dev *dev = to_cmm(file->private_data);
	__poll_t mask = 0;

	poll_wait(file, &dev->rdr.wq, wait);
	if (scr_gone(&dev->rdr))
		return EPOLLHUP | EPOLLERR;
	if (READ_ONCE(dev->reply_ready))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(dev->atr_state) == CMM_ATR_VALID)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static int cmm_get_status(struct cmm_dev *dev, int __user *arg)
{
	int status, rc;
	u8 f0;

	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	f0 = cmm_in(dev, CMM_FLAGS0);
	scr_io_end(&dev->rdr);
	WRITE_ONCE(dev->flags0, f0);
	if (f0 == CMM_ST_NOBODY)
		return -ENODEV;
	status = f0 & (CM_CARD_INSERTED | CM_CARD_POWERED);
	switch (READ_ONCE(dev->atr_state)) {
	case CMM_ATR_VALID:
		status |= CM_ATR_PRESENT | CM_ATR_VALID;
		break;
	case CMM_ATR_BAD:
		status |= CM_ATR_PRESENT | CM_BAD_CARD;
		break;
	}
	return put_user(status, arg);
}

static int cmm_get_atr(struct cmm_dev *dev, struct file *file,
		       struct atreq __user *arg)
{
	u8 atr[sizeof(arg->atr)] = { 0 };
	int len, rc;

	rc = cmm_lock_card(dev, file, true);
	if (rc < 0)
		return rc;
	len = rc ? -1 : dev->atr_len;
	if (len > 0)
		memcpy(atr, dev->atr, len);
	mutex_unlock(&dev->op_lock);
	if (len > 0 && copy_to_user(arg->atr, atr, sizeof(atr)))
		return -EFAULT;
	return put_user(len, &arg->atr_len);
}

static int cmm_set_pts(struct cmm_dev *dev, struct file *file,
		       struct ptsreq __user *arg)
{
	struct ptsreq req;
	unsigned int proto;
	u8 pps0, pps[3];
	int rc;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.protocol != BIT(0) && req.protocol != BIT(1))
		return -EINVAL;
	proto = req.protocol >> 1;
	if ((req.flags & CMM_PPS0_PPS1) && !cmm_fidi_etu(req.pts1))
		return -EINVAL;
	rc = cmm_lock_card(dev, file, false);
	if (rc)
		return rc;
	if (!(dev->ai.protocols & BIT(proto))) {
		rc = -EINVAL;
	} else if (dev->ai.specific) {
		rc = proto == dev->proto ? 0 : -EINVAL;
	} else {
		pps0 = (req.flags & CMM_PPS0_PPS123) | CMM_PPS0_PPS1;
		pps[0] = req.flags & CMM_PPS0_PPS1 ? req.pts1 :
			 cmm_best_fidi(dev);
		pps[1] = req.pts2;
		pps[2] = req.pts3;
		/* a PPS only comes right after the ATR */
		if (!dev->negotiable)
			rc = cmm_power_up(dev, false);
		if (!rc)
			rc = cmm_pps(dev, proto, pps0, pps);
		if (rc && rc != -ENODEV && rc != -EINTR) {
			/* leave the card usable at the defaults */
			rc = cmm_power_up(dev, false) == -ENODEV ? -ENODEV : -EIO;
		}
	}
	mutex_unlock(&dev->op_lock);
	return rc;
}

/* Power the card down; it comes back with a new ATR before we return. */
static int cmm_card_off(struct cmm_dev *dev, struct file *file)
{
	bool off = false;
	struct cmm_poll p;
	struct scr_wait w;
	int rc;
	u8 f0;

	if (mutex_lock_interruptible(&dev->op_lock))
		return -ERESTARTSYS;
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		goto out;
	f0 = cmm_in(dev, CMM_FLAGS0);
	if (f0 != CMM_ST_NOBODY && (f0 & CMM_ST_CARD) &&
	    (f0 & CMM_ST_POWERED)) {
		cmm_out(dev, CMM_FLAGS0, CMM_OP_RESET);
		cmm_out(dev, CMM_FLAGS0, CMM_OP_START | CMM_OP_WARM);
		off = true;
	}
	scr_io_end(&dev->rdr);
	if (!off)
		goto out;
	cmm_card_lost(dev);
	scr_wait_start(&w, CMM_POWER_OFF_MS);
	do {
		rc = cmm_look(dev, &p);
		if (rc)
			break;		/* unpowered: done */
		rc = scr_wait_next(&dev->rdr, &w);
	} while (!rc);
	rc = rc == -ENODEV || rc == -ERESTARTSYS ? rc : 0;
out:
	mutex_unlock(&dev->op_lock);
	if (rc || !off)
		return rc;
	/* the monitor powers it up again at its next round */
	if (file->f_flags & O_NONBLOCK)
		return 0;
	rc = wait_event_interruptible(dev->rdr.wq,
				      scr_gone(&dev->rdr) ||
				      READ_ONCE(dev->atr_state) != CMM_ATR_NONE ||
				      !(READ_ONCE(dev->flags0) & CMM_ST_CARD));
	if (rc)
		return rc;
	return scr_gone(&dev->rdr) ? -ENODEV : 0;
}

static long cmm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct cmm_dev *dev = to_cmm(file->private_data);
	void __user *argp = (void __user *)arg;

	if (scr_gone(&dev->rdr))
		return -ENODEV;
	switch (cmd) {
	case CM_IOCGSTATUS:
		return cmm_get_status(dev, argp);
	case CM_IOCGATR:
		return cmm_get_atr(dev, file, argp);
	case CM_IOCSPTS:
		return cmm_set_pts(dev, file, argp);
	case CM_IOCARDOFF:
		return cmm_card_off(dev, file);
	default:
		return -ENOTTY;
	}
}

#ifdef CONFIG_COMPAT
static long cmm_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	switch (cmd) {
	case CM_IOCGSTATUS_32:
		cmd = CM_IOCGSTATUS;
		break;
	case CM_IOCGATR_32:
		cmd = CM_IOCGATR;
		break;
	case CM_IOCSPTS_32:
		cmd = CM_IOCSPTS;
		break;
	case CM_IOCSRDR:
	case CM_IOCARDOFF:
		break;
	default:
		return -ENOTTY;	/* including the 64-bit numbers */
	}
	/* struct atreq and struct ptsreq have one layout on every ABI */
	return cmm_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#endif

static const struct file_operations cmm_fops = {
	.owner		= THIS_MODULE,
	.open		= cmm_open,
	.release	= cmm_release,
	.read		= cmm_read,
	.write		= cmm_write,
	.poll		= cmm_poll,
	.unlocked_ioctl	= cmm_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= cmm_compat_ioctl,
#endif
};

static void cmm_setup(struct scr_dev *rdr)
{
	struct cmm_dev *dev = to_cmm(rdr);

	mutex_init(&dev->op_lock);
	INIT_DELAYED_WORK(&dev->monitor, cmm_monitor);
	dev->etu = ISO7816_ETU_DEFAULT;
	dev->stopbits = CMM_STOPBITS_DEFAULT;
}

static bool cmm_detect(struct scr_dev *rdr)
{
	return cmm_reset_detect(to_cmm(rdr));
}

static void cmm_gone(struct scr_dev *rdr)
{
	cmm_monitor_stop(to_cmm(rdr));
}

static struct scr_driver cmm_scr = {
	.name		= "cmm",
	.class_name	= "cardman_4000",
	.model		= "CardMan 4000",
	.fops		= &cmm_fops,
	.size		= sizeof(struct cmm_dev),
	.setup		= cmm_setup,
	.detect		= cmm_detect,
	.stop		= cmm_gone,
	.lock		= __MUTEX_INITIALIZER(cmm_scr.lock),
};

/* ---- the PC Card ---- */

static int cmm_probe(struct pcmcia_device *link)
{
	return scr_probe(link, &cmm_scr);
}

static int cmm_suspend(struct pcmcia_device *link)
{
	struct cmm_dev *dev = to_cmm(link->priv);

	cmm_monitor_stop(dev);
	/* the card loses power: a new ATR after resume */
	mutex_lock(&dev->op_lock);
	cmm_card_lost(dev);
	mutex_unlock(&dev->op_lock);
	return 0;
}

static int cmm_resume(struct pcmcia_device *link)
{
	struct cmm_dev *dev = to_cmm(link->priv);

	if (READ_ONCE(dev->rdr.open))
		cmm_monitor_start(dev);
	return 0;
}

static const struct pcmcia_device_id cmm_ids[] = {
	PCMCIA_DEVICE_MANF_CARD(0x0223, 0x0002),
	PCMCIA_DEVICE_PROD_ID12("CardMan", "4000", 0x2fb368ca, 0xa2bd8c39),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, cmm_ids);

static struct pcmcia_driver cmm_driver = {
	.owner		= THIS_MODULE,
	.name		= "cm4000_cs",
	.probe		= cmm_probe,
	.remove		= scr_pcmcia_remove,
	.suspend	= cmm_suspend,
	.resume		= cmm_resume,
	.id_table	= cmm_ids,
};
module_pcmcia_driver(cmm_driver);

MODULE_DESCRIPTION("Omnikey CardMan 4000 PC Card smart card reader");
MODULE_LICENSE("GPL");
