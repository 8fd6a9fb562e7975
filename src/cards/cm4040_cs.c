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
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#include "compat.h"
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
#define CCID_ICC_POWER_ON	0x62
#define CCID_SECURE		0x69
#define CCID_XFR_BLOCK		0x6f

/* How long a reply may take, in ms, after the reader's own limits. */
#define CMX_XFR_MS		150000
#define CMX_POWER_ON_MS		35000
#define CMX_COMMAND_MS		3000
#define CMX_FIFO_MS		1000	/* the FIFO takes or gives a byte */

/* The poll() watcher's checks: from 1 ms, slowing down to 10 ms. */
#define CMX_WATCH_MIN_US	1000
#define CMX_WATCH_MAX_US	10000

struct cmx_dev {
	struct scr_dev rdr;

	struct mutex op_lock;	/* one read or write at a time: below */
	bool expecting;		/* a message went out, its reply is unread */
	unsigned int held;	/* reply bytes in buf not delivered yet */
	bool reply_ready;	/* the watcher saw the reply (or the time up) */
	ktime_t deadline;	/* for the reply */
	struct delayed_work watch;
	unsigned int watch_us;
	u8 buf[CMX_MSG_MAX];
};

static struct scr_driver cmx_scr;

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
		rc = cmx_send(dev, count);
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
			schedule_delayed_work(&dev->watch, 0);
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

static void cmx_free(struct scr_dev *rdr)
{
	kfree(to_cmx(rdr));
}

static struct scr_driver cmx_scr = {
	.name		= "cmx",
	.class_name	= "cardman_4040",
	.fops		= &cmx_fops,
	.free		= cmx_free,
	.lock		= __MUTEX_INITIALIZER(cmx_scr.lock),
};

/* ---- the PC Card ---- */

static int cmx_probe(struct pcmcia_device *link)
{
	struct cmx_dev *dev;
	int rc;
	u8 st;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	rc = scr_enable(link);
	if (rc)
		goto disable;

	scr_init(&dev->rdr, &cmx_scr, link);
	mutex_init(&dev->op_lock);
	INIT_DELAYED_WORK(&dev->watch, cmx_watch);

	scr_io_begin(&dev->rdr);
	st = cmx_status(dev);
	scr_io_end(&dev->rdr);
	if (st == CMX_ST_NOBODY) {
		dev_err(&link->dev, "no CardMan 4040 answers at %pR\n",
			link->resource[0]);
		rc = -ENODEV;
		goto disable;
	}
	link->priv = dev;
	rc = scr_add(&dev->rdr);
	if (rc)
		goto disable;
	dev_info(&link->dev, "cmx%u: CardMan 4040 at %pR\n", dev->rdr.minor,
		 link->resource[0]);
	return 0;

disable:
	pcmcia_disable_device(link);
	link->priv = NULL;
	kfree(dev);
	return rc;
}

static void cmx_remove(struct pcmcia_device *link)
{
	struct cmx_dev *dev = link->priv;

	scr_remove(&dev->rdr);
	cmx_watch_stop(dev);
	pcmcia_disable_device(link);
	link->priv = NULL;
	scr_put(&dev->rdr);
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
	.remove		= cmx_remove,
	.id_table	= cmx_ids,
};
module_pcmcia_driver(cmx_driver);

MODULE_DESCRIPTION("Omnikey CardMan 4040 PC Card smart card reader");
MODULE_LICENSE("GPL");
