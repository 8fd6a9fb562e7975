// SPDX-License-Identifier: GPL-2.0-only
/*
 * Omnikey CardMan 4040, a PC Card smart card reader: /dev/cmxN.
 *
 * The reader is a USB CCID device behind an I/O-mapped FIFO, so the
 * device node carries CCID messages: write() sends one (a 10-byte header
 * and dwLength bytes of data), read() returns the reader's reply to it.
 * Three ports: the FIFO's data, its status (bulk-out full, bulk-in full)
 * and a sync register that frames the messages.  Sending: "start", the
 * bytes, "host done"; receiving: the bytes while bulk-in is full, then
 * once more bulk-in full, "reader done" and one dummy read.
 *
 * poll() reports EPOLLOUT always (a message never waits for the FIFO for
 * long) and EPOLLIN once the reply to the last message can be read; a
 * work item watches the FIFO for that while somebody polls.
 */

#include <linux/bitops.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
#include "iso7816.h"
#include "screader.h"

/* I/O ports */
#define CMX_DATA		0	/* bulk-out when written, bulk-in read */
#define CMX_STATUS		1
#define CMX_SYNC		2

#define CMX_ST_OUT_FULL		BIT(0)	/* the reader has not taken a byte */
#define CMX_ST_IN_FULL		BIT(1)	/* a reply byte (or the end) waits */
#define CMX_ST_NOBODY		0xff	/* no reader answers the port */

#define CMX_SYNC_START		BIT(7)	/* a message to the reader begins */
#define CMX_SYNC_ABORT		BIT(6)
#define CMX_SYNC_READ_DONE	BIT(3)	/* the host has the whole reply */
#define CMX_SYNC_WRITE_DONE	BIT(2)	/* the host has sent the message */

/* CCID messages */
#define CMX_HDR_LEN		10
#define CMX_MSG_MAX		512
#define CCID_SET_PARAMETERS	0x61
#define CCID_ICC_POWER_ON	0x62
#define CCID_SECURE		0x69
#define CCID_XFR_BLOCK		0x6f
#define CCID_DATA_BLOCK		0x80	/* replies */
#define CCID_PARAMETERS		0x82
#define CCID_FAILED		0xc0	/* bStatus: the command failed */
#define CCID_GUARD_NONE		0xff	/* bGuardTime: the minimum */
#define PPS_PPS1		0x10	/* PPS0: PPS1 (Fi/Di) follows */

/*
 * The card clock, taken to be the CardMan 4000's: 9600 bit/s at the
 * initial 372 clocks an ETU.  A faster clock only makes the driver look
 * for replies a little late.
 */
#define CMX_CLOCK_KHZ		3571

/* How long a reply may take, in ms, after the reader's own limits. */
#define CMX_XFR_MS		150000
#define CMX_POWER_ON_MS		35000
#define CMX_COMMAND_MS		3000
#define CMX_FIFO_MS		1000	/* the FIFO takes or gives a byte */

/* The poll() watcher's checks past the expected time: 1 ms to 10 ms. */
#define CMX_WATCH_MIN_US	1000
#define CMX_WATCH_MAX_US	10000

struct cmx_dev {
	struct scr_dev rdr;

	struct mutex op_lock;	/* one read or write at a time: below */
	bool expecting;		/* a message went out, its reply is unread */
	unsigned int held;	/* reply bytes in buf not delivered yet */
	bool reply_ready;	/* the watcher saw the reply (or the time up) */
	ktime_t deadline;	/* for the reply */
	ktime_t expect;		/* the reply cannot be complete before */
	struct delayed_work watch;
	unsigned int watch_us;

	/* the card's wire as the reader's messages tell it: under op_lock */
	unsigned int etu;	/* card clocks per ETU */
	u8 guard;		/* extra guard time, ETU */
	u8 proto;		/* T=0 or T=1 */
	u8 sent;		/* the message type the reply is for */
	bool sent_pps;		/* an XfrBlock that carried a PPS */

	u8 buf[CMX_MSG_MAX];
};

static struct scr_driver cmx_scr;

/* the reader's memory is this structure (screader.c frees it) */
static_assert(offsetof(struct cmx_dev, rdr) == 0);

static struct cmx_dev *to_cmx(struct scr_dev *rdr)
{
	return container_of(rdr, struct cmx_dev, rdr);
}

static u8 cmx_status(struct cmx_dev *dev)
{
	return inb(dev->rdr.iobase + CMX_STATUS);
}

/* Wait until the status bits of @mask read @want. */
static int cmx_wait(struct cmx_dev *dev, u8 mask, u8 want,
		    struct scr_wait *w, bool nonblock)
{
	int rc;
	u8 st;

	for (;;) {
		rc = scr_io_begin(&dev->rdr);
		if (rc)
			return rc;
		st = cmx_status(dev);
		scr_io_end(&dev->rdr);
		if (st == CMX_ST_NOBODY)
			return -ENODEV;
		if ((st & mask) == want)
			return 0;
		if (nonblock)
			return -EAGAIN;
		rc = scr_wait_next(&dev->rdr, w);
		if (rc)
			return rc;
	}
}

/* Write the sync register once the FIFO is free, and wait until it is. */
static int cmx_sync(struct cmx_dev *dev, u8 val)
{
	struct scr_wait w;
	int rc;

	scr_wait_start(&w, CMX_FIFO_MS);
	rc = cmx_wait(dev, CMX_ST_OUT_FULL, 0, &w, false);
	if (rc)
		return rc;
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		return rc;
	outb(val, dev->rdr.iobase + CMX_SYNC);
	scr_io_end(&dev->rdr);
	return cmx_wait(dev, CMX_ST_OUT_FULL, 0, &w, false);
}

/* Drop the exchange in progress, as far as the reader is still there. */
static void cmx_abort(struct cmx_dev *dev)
{
	dev->expecting = false;
	WRITE_ONCE(dev->reply_ready, false);
	if (scr_io_begin(&dev->rdr))
		return;
	outb(CMX_SYNC_ABORT, dev->rdr.iobase + CMX_SYNC);
	scr_io_end(&dev->rdr);
}

/* Send the message in dev->buf to the reader. */
static int cmx_send(struct cmx_dev *dev, unsigned int len)
{
	unsigned int i = 0;
	struct scr_wait w;
	int rc;
	u8 st;

	rc = cmx_sync(dev, CMX_SYNC_START);
	if (rc)
		return rc;
	scr_wait_start(&w, CMX_FIFO_MS);
	while (i < len) {
		rc = scr_io_begin(&dev->rdr);
		if (rc)
			return rc;
		while (i < len) {
			st = cmx_status(dev);
			if (st == CMX_ST_NOBODY) {
				rc = -ENODEV;
				break;
			}
			if (st & CMX_ST_OUT_FULL)
				break;
			outb(dev->buf[i++], dev->rdr.iobase + CMX_DATA);
			scr_wait_progress(&w);
		}
		scr_io_end(&dev->rdr);
		if (rc)
			return rc;
		if (i < len) {
			rc = scr_wait_next(&dev->rdr, &w);
			if (rc)
				return rc;
		}
	}
	return cmx_sync(dev, CMX_SYNC_WRITE_DONE);
}

/* Read @len reply bytes into dev->buf from @from on. */
static int cmx_receive(struct cmx_dev *dev, unsigned int from,
		       unsigned int len)
{
	struct scr_wait w;
	int rc;
	u8 st;

	scr_wait_start(&w, CMX_FIFO_MS);
	while (from < len) {
		rc = scr_io_begin(&dev->rdr);
		if (rc)
			return rc;
		while (from < len) {
			st = cmx_status(dev);
			if (st == CMX_ST_NOBODY) {
				rc = -ENODEV;
				break;
			}
			if (!(st & CMX_ST_IN_FULL))
				break;
			dev->buf[from++] = inb(dev->rdr.iobase + CMX_DATA);
			scr_wait_progress(&w);
		}
		scr_io_end(&dev->rdr);
		if (rc)
			return rc;
		if (from < len) {
			rc = scr_wait_next(&dev->rdr, &w);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* How long the reader may take to answer a message of this type. */
static unsigned int cmx_timeout_ms(u8 type)
{
	switch (type) {
	case CCID_XFR_BLOCK:
	case CCID_SECURE:
		return CMX_XFR_MS;
	case CCID_ICC_POWER_ON:
		return CMX_POWER_ON_MS;
	default:
		return CMX_COMMAND_MS;
	}
}

/* ---- when the reply can be there ---- */

/* @chars characters of @etus ETU each at the rate in use, in us. */
static unsigned int cmx_wire_us(struct cmx_dev *dev, unsigned int chars,
				unsigned int etus)
{
	return iso7816_wire_us(chars, etus, dev->etu, CMX_CLOCK_KHZ);
}

/* A character to the card: 12 ETU (T=1: 11) and the extra guard time. */
static unsigned int cmx_char_out(struct cmx_dev *dev)
{
	unsigned int etus = dev->proto ? ISO7816_T1_CHAR_ETU : ISO7816_CHAR_ETU;

	return dev->guard == CCID_GUARD_NONE ? etus : etus + dev->guard;
}

/*
 * A T=0 TPDU: the header (four bytes go out as five) and the command
 * data out; back the ACK, the data asked for (Le, 0 meaning 256) and
 * SW1 SW2.
 */
static unsigned int cmx_t0_us(struct cmx_dev *dev, const u8 *tpdu,
			      unsigned int len)
{
	unsigned int out = 5, back = 2;

	if (len > 5) {
		out = len;
		back = 3;
	} else if (len == 5) {
		back = 3 + (tpdu[4] ?: 256);
	}
	return cmx_wire_us(dev, out, cmx_char_out(dev)) +
	       cmx_wire_us(dev, back, ISO7816_CHAR_ETU);
}

/*
 * The earliest time in us from now that the reply to the message in
 * dev->buf can be complete: the characters that must cross the card's
 * wire first.  0 for messages the reader answers by itself.
 */
static unsigned int cmx_reply_us(struct cmx_dev *dev)
{
	unsigned int len = get_unaligned_le32(dev->buf + 1);
	const u8 *data = dev->buf + CMX_HDR_LEN;

	switch (dev->buf[0]) {
	case CCID_ICC_POWER_ON:
		/* the card's first clocks, TS and T0 at the initial rate */
		return ISO7816_ATR_DELAY_MIN * 1000 / CMX_CLOCK_KHZ +
		       iso7816_wire_us(2, ISO7816_CHAR_ETU, ISO7816_ETU_DEFAULT,
				       CMX_CLOCK_KHZ);
	case CCID_SET_PARAMETERS:
		/* the same protocol and rate again: no PPS */
		if (len && dev->buf[7] == dev->proto &&
		    iso7816_fidi_clocks(data[0]) == dev->etu)
			return 0;
		/* a PPS (PPSS PPS0 PPS1 PCK) and its echo, at the initial rate */
		return iso7816_wire_us(8, ISO7816_CHAR_ETU, ISO7816_ETU_DEFAULT,
				       CMX_CLOCK_KHZ);
	case CCID_XFR_BLOCK:
		if (dev->sent_pps)	/* and the shortest answer: PPSS PPS0 PCK */
			return cmx_wire_us(dev, len + 3, ISO7816_CHAR_ETU);
		if (dev->proto)		/* the block, BGT, the shortest block */
			return cmx_wire_us(dev, len, cmx_char_out(dev)) +
			       cmx_wire_us(dev, 1, ISO7816_T1_BGT) +
			       cmx_wire_us(dev, 4, ISO7816_T1_CHAR_ETU);
		return len >= 4 ? cmx_t0_us(dev, data, len) : 0;
	default:
		return 0;
	}
}

/* The card at the rate and protocol its ATR gives without a PPS. */
static void cmx_learn_atr(struct cmx_dev *dev, const u8 *atr,
			  unsigned int len)
{
	struct iso7816_atr_info ai;

	dev->etu = ISO7816_ETU_DEFAULT;
	dev->guard = 0;
	dev->proto = 0;
	if (!iso7816_parse_atr(atr, len, &ai))
		return;
	dev->proto = ai.first;
	if (ai.specific) {
		dev->proto = ai.ta2 & 0x0f;
		if (!(ai.ta2 & 0x10))
			dev->etu = iso7816_fidi_clocks(ai.ta1) ?:
				   ISO7816_ETU_DEFAULT;
	}
}

/*
 * What a reply tells about the card's wire: an ATR (the initial rate), a
 * PPS answer, or the slot's parameters (protocol, Fi/Di, guard time).
 */
static void cmx_learn(struct cmx_dev *dev, unsigned int len)
{
	const u8 *data = dev->buf + CMX_HDR_LEN;
	unsigned int n = len - CMX_HDR_LEN;

	if (dev->buf[0] == CCID_PARAMETERS && n >= 3) {
		dev->proto = dev->buf[9];
		dev->etu = iso7816_fidi_clocks(data[0]) ?: ISO7816_ETU_DEFAULT;
		dev->guard = data[2];
		return;
	}
	if (dev->buf[0] != CCID_DATA_BLOCK || (dev->buf[7] & CCID_FAILED))
		return;
	if (dev->sent == CCID_ICC_POWER_ON) {
		cmx_learn_atr(dev, data, n);
	} else if (dev->sent_pps && n >= 3 && data[0] == 0xff) {
		dev->proto = data[1] & 0x0f;
		dev->etu = ISO7816_ETU_DEFAULT;
		if (n >= 4 && (data[1] & PPS_PPS1))
			dev->etu = iso7816_fidi_clocks(data[2]) ?:
				   ISO7816_ETU_DEFAULT;
	}
}

/* ---- poll(): a work item watches for the reply ---- */

static void cmx_watch(struct work_struct *work)
{
	struct cmx_dev *dev = container_of(to_delayed_work(work),
					   struct cmx_dev, watch);
	bool ready;
	u8 st;

	if (!READ_ONCE(dev->expecting) || READ_ONCE(dev->reply_ready))
		return;
	if (scr_io_begin(&dev->rdr))
		return;
	st = cmx_status(dev);
	scr_io_end(&dev->rdr);
	ready = st == CMX_ST_NOBODY || (st & CMX_ST_IN_FULL) ||
		ktime_after(ktime_get(), READ_ONCE(dev->deadline));
	if (ready) {
		/* read() has the reply, or says what went wrong */
		WRITE_ONCE(dev->reply_ready, true);
		wake_up_all(&dev->rdr.wq);
		return;
	}
	dev->watch_us = min(dev->watch_us * 2, CMX_WATCH_MAX_US);
	schedule_delayed_work(&dev->watch, usecs_to_jiffies(dev->watch_us));
}

/* Jiffies until the reply can be there (the watcher's first look). */
static unsigned long cmx_until_expected(struct cmx_dev *dev)
{
	s64 us = ktime_us_delta(READ_ONCE(dev->expect), ktime_get());

	return us > 0 ? usecs_to_jiffies(us) : 0;
}

static void cmx_watch_stop(struct cmx_dev *dev)
{
	WRITE_ONCE(dev->expecting, false);
	cancel_delayed_work_sync(&dev->watch);
}

/* ---- file operations ---- */

static int cmx_open(struct inode *inode, struct file *file)
{
	struct cmx_dev *dev;
	int rc;

	rc = scr_open(&cmx_scr, inode, file);
	if (rc)
		return rc;
	dev = to_cmx(file->private_data);
	mutex_lock(&dev->op_lock);
	dev->expecting = false;
	dev->reply_ready = false;
	dev->held = 0;
	mutex_unlock(&dev->op_lock);
	return 0;
}

static int cmx_release(struct inode *inode, struct file *file)
{
	cmx_watch_stop(to_cmx(file->private_data));
	scr_release(file);
	return 0;
}

static int cmx_lock(struct cmx_dev *dev)
{
	if (mutex_lock_interruptible(&dev->op_lock))
		return -ERESTARTSYS;
	if (scr_gone(&dev->rdr)) {
		mutex_unlock(&dev->op_lock);
		return -ENODEV;
	}
	return 0;
}

/* The reply: wait for it, take all of it from the FIFO, end the exchange. */
static int cmx_get_reply(struct cmx_dev *dev, bool nonblock)
{
	struct scr_wait w;
	s64 left;
	unsigned int len;
	int rc;

	left = ktime_ms_delta(dev->deadline, ktime_get());
	scr_wait_start(&w, clamp_t(s64, left, 0, CMX_XFR_MS));
	scr_wait_expect(&w, clamp_t(s64, ktime_us_delta(dev->expect, w.start),
				    0, U32_MAX));
	rc = cmx_wait(dev, CMX_ST_IN_FULL, CMX_ST_IN_FULL, &w, nonblock);
	if (rc == -EAGAIN || rc == -ERESTARTSYS)
		return rc;	/* the reply may still come: read again */
	if (rc)
		goto failed;

	rc = cmx_receive(dev, 0, 5);
	if (rc)
		goto failed;
	len = CMX_HDR_LEN + get_unaligned_le32(dev->buf + 1);
	len = min_t(unsigned int, len, CMX_MSG_MAX);
	rc = cmx_receive(dev, 5, len);
	if (rc)
		goto failed;
	scr_wait_start(&w, CMX_FIFO_MS);
	rc = cmx_wait(dev, CMX_ST_IN_FULL, CMX_ST_IN_FULL, &w, false);
	if (!rc)
		rc = cmx_sync(dev, CMX_SYNC_READ_DONE);
	if (rc)
		goto failed;
	rc = scr_io_begin(&dev->rdr);
	if (rc)
		goto failed;
	inb(dev->rdr.iobase + CMX_DATA);	/* ends the reply */
	scr_io_end(&dev->rdr);
	cmx_learn(dev, len);
	dev->expecting = false;
	WRITE_ONCE(dev->reply_ready, false);
	return len;

failed:
	cmx_abort(dev);
	switch (rc) {
	case -ENODEV:
		return rc;
	case -ETIMEDOUT:
		return -ETIMEDOUT;
	case -ERESTARTSYS:
		return -EINTR;	/* half a reply is lost: no restart */
	default:
		return -EIO;
	}
}

static ssize_t cmx_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct cmx_dev *dev = to_cmx(file->private_data);
	ssize_t rc;

	if (!count)
		return 0;
	if (count < CMX_HDR_LEN)
		return -EINVAL;
	rc = cmx_lock(dev);
	if (rc)
		return rc;
	if (!dev->held && !dev->expecting)
		rc = -EIO;	/* no message waits for its reply */
	else if (!dev->held)
		rc = cmx_get_reply(dev, file->f_flags & O_NONBLOCK);
	if (rc > 0)
		dev->held = rc;
	if (!rc || rc > 0) {
		/* a reply that did not reach the caller can be read again */
		count = min_t(size_t, count, dev->held);
		if (copy_to_user(buf, dev->buf, count)) {
			rc = -EFAULT;
		} else {
			dev->held = 0;
			rc = count;
		}
	}
	mutex_unlock(&dev->op_lock);
	return rc;
}

static ssize_t cmx_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	struct cmx_dev *dev = to_cmx(file->private_data);
	int rc;

	if (!count)
		return 0;
	if (count < CMX_HDR_LEN || count > CMX_MSG_MAX)
		return -EINVAL;
	rc = cmx_lock(dev);
	if (rc)
		return rc;
	/* a new message drops the reply to the last one */
	dev->expecting = false;
	dev->held = 0;
	WRITE_ONCE(dev->reply_ready, false);
	if (copy_from_user(dev->buf, buf, count)) {
		rc = -EFAULT;
	} else if (get_unaligned_le32(dev->buf + 1) != count - CMX_HDR_LEN) {
		rc = -EINVAL;	/* dwLength must say what follows */
	} else {
		WRITE_ONCE(dev->deadline,
			   ktime_add_ms(ktime_get(), cmx_timeout_ms(dev->buf[0])));
		dev->sent = dev->buf[0];
		dev->sent_pps = dev->sent == CCID_XFR_BLOCK &&
				count > CMX_HDR_LEN && dev->buf[CMX_HDR_LEN] == 0xff;
		rc = cmx_send(dev, count);
		WRITE_ONCE(dev->expect,
			   ktime_add_us(ktime_get(), cmx_reply_us(dev)));
		if (!rc)
			WRITE_ONCE(dev->expecting, true);
		else if (rc != -ENODEV)
			cmx_abort(dev);
		if (rc == -ERESTARTSYS)
			rc = -EINTR;
		else if (rc && rc != -ENODEV)
			rc = -EIO;
	}
	mutex_unlock(&dev->op_lock);
	return rc ? rc : (ssize_t)count;
}

static __poll_t cmx_poll(struct file *file, poll_table *wait)
{
	struct cmx_dev *dev = to_cmx(file->private_data);
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(file, &dev->rdr.wq, wait);
	if (scr_gone(&dev->rdr))
		return EPOLLHUP | EPOLLERR;
	if (READ_ONCE(dev->expecting)) {
		if (READ_ONCE(dev->reply_ready)) {
			mask |= EPOLLIN | EPOLLRDNORM;
		} else if (!delayed_work_pending(&dev->watch)) {
			dev->watch_us = CMX_WATCH_MIN_US;
			schedule_delayed_work(&dev->watch,
					      cmx_until_expected(dev));
		}
	}
	return mask;
}

static const struct file_operations cmx_fops = {
	.owner		= THIS_MODULE,
	.open		= cmx_open,
	.release	= cmx_release,
	.read		= cmx_read,
	.write		= cmx_write,
	.poll		= cmx_poll,
};

static void cmx_setup(struct scr_dev *rdr)
{
	struct cmx_dev *dev = to_cmx(rdr);

	mutex_init(&dev->op_lock);
	INIT_DELAYED_WORK(&dev->watch, cmx_watch);
	/* the card keeps its rate across opens; a new PC Card starts over */
	dev->etu = ISO7816_ETU_DEFAULT;
}

static bool cmx_detect(struct scr_dev *rdr)
{
	return cmx_status(to_cmx(rdr)) != CMX_ST_NOBODY;
}

static void cmx_gone(struct scr_dev *rdr)
{
	cmx_watch_stop(to_cmx(rdr));
}

static struct scr_driver cmx_scr = {
	.name		= "cmx",
	.class_name	= "cardman_4040",
	.model		= "CardMan 4040",
	.fops		= &cmx_fops,
	.size		= sizeof(struct cmx_dev),
	.setup		= cmx_setup,
	.detect		= cmx_detect,
	.stop		= cmx_gone,
	.lock		= __MUTEX_INITIALIZER(cmx_scr.lock),
};

/* ---- the PC Card ---- */

static int cmx_probe(struct pcmcia_device *link)
{
	return scr_probe(link, &cmx_scr);
}

static const struct pcmcia_device_id cmx_ids[] = {
	PCMCIA_DEVICE_MANF_CARD(0x0223, 0x0200),
	PCMCIA_DEVICE_PROD_ID12("OMNIKEY", "CardMan 4040", 0xe32cdd8c,
				0x8f23318b),
	PCMCIA_DEVICE_NULL,
};
MODULE_DEVICE_TABLE(pcmcia, cmx_ids);

static struct pcmcia_driver cmx_driver = {
	.owner		= THIS_MODULE,
	.name		= "cm4040_cs",
	.probe		= cmx_probe,
	.remove		= scr_pcmcia_remove,
	.id_table	= cmx_ids,
};
module_pcmcia_driver(cmx_driver);

MODULE_DESCRIPTION("Omnikey CardMan 4040 PC Card smart card reader");
MODULE_LICENSE("GPL");
