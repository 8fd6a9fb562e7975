// SPDX-License-Identifier: GPL-2.0-only
/*
 * Character devices and surprise removal for the PC Card smart card
 * readers; see screader.h.  Compiled into each module that uses it (its
 * unit file includes it: see drivers.list).
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "compat.h"
#include "pccard.h"
#include "screader.h"

static int scr_config_check(struct pcmcia_device *link, void *priv)
{
	return pcmcia_request_io(link);
}

/* Both readers are one I/O window, wherever the CIS allows it. */
static int scr_enable(struct pcmcia_device *link)
{
	int rc;

	link->config_flags |= CONF_AUTO_SET_IO;
	rc = pcl_card_loop_config(link, scr_config_check, NULL);
	if (rc)
		return rc;
	return pcl_card_enable(link);
}

static void scr_init(struct scr_dev *rdr, struct scr_driver *drv,
		     struct pcmcia_device *link)
{
	kref_init(&rdr->ref);
	rdr->drv = drv;
	rdr->link = link;
	rdr->iobase = link->resource[0]->start;
	mutex_init(&rdr->io_lock);
	init_waitqueue_head(&rdr->wq);
}

/* The first bound reader brings the class and the char device region. */
static int scr_region_get(struct scr_driver *drv)
{
	struct class *class;
	int major;

	lockdep_assert_held(&drv->lock);
	if (drv->bound) {
		drv->bound++;
		return 0;
	}
	class = pcl_class_create(drv->class_name);
	if (IS_ERR(class))
		return PTR_ERR(class);
	major = __register_chrdev(0, 0, SCR_MAX_DEV, drv->name, drv->fops);
	if (major < 0) {
		class_destroy(class);
		return major;
	}
	drv->class = class;
	drv->major = major;
	drv->bound = 1;
	return 0;
}

/*
 * The last one takes them away.  Files still open on a removed reader
 * keep the char device structure they were opened through, and fail.
 */
static void scr_region_put(struct scr_driver *drv)
{
	lockdep_assert_held(&drv->lock);
	if (--drv->bound)
		return;
	__unregister_chrdev(drv->major, 0, SCR_MAX_DEV, drv->name);
	class_destroy(drv->class);
	drv->class = NULL;
	drv->major = 0;
}

/* Give the reader the lowest free minor number and its device node. */
static int scr_add(struct scr_dev *rdr)
{
	struct scr_driver *drv = rdr->drv;
	struct device *node;
	unsigned int minor;
	int rc;

	mutex_lock(&drv->lock);
	for (minor = 0; minor < SCR_MAX_DEV; minor++)
		if (!drv->readers[minor])
			break;
	if (minor == SCR_MAX_DEV) {
		dev_notice(&rdr->link->dev, "%u readers in use already\n",
			   SCR_MAX_DEV);
		rc = -ENODEV;
		goto out;
	}
	rc = scr_region_get(drv);
	if (rc)
		goto out;
	node = device_create(drv->class, &rdr->link->dev,
			     MKDEV(drv->major, minor), rdr, "%s%u", drv->name,
			     minor);
	if (IS_ERR(node)) {
		rc = PTR_ERR(node);
		scr_region_put(drv);
		goto out;
	}
	rdr->minor = minor;
	drv->readers[minor] = rdr;
out:
	mutex_unlock(&drv->lock);
	return rc;
}

/*
 * The reader is going away (card ejected, driver unbound or unloaded):
 * no new opens, no device node, and from here on no hardware access.
 * Whoever waits in scr_wait_next() wakes up and fails with -ENODEV.
 */
static void scr_remove(struct scr_dev *rdr)
{
	struct scr_driver *drv = rdr->drv;

	mutex_lock(&drv->lock);
	drv->readers[rdr->minor] = NULL;
	device_destroy(drv->class, MKDEV(drv->major, rdr->minor));
	scr_region_put(drv);
	mutex_unlock(&drv->lock);

	mutex_lock(&rdr->io_lock);
	WRITE_ONCE(rdr->gone, true);
	mutex_unlock(&rdr->io_lock);
	wake_up_all(&rdr->wq);
}

static void scr_free(struct kref *ref)
{
	kfree(container_of(ref, struct scr_dev, ref));
}

static void scr_put(struct scr_dev *rdr)
{
	kref_put(&rdr->ref, scr_free);
}

/*
 * The PC Card's probe: a new reader for @link, the card enabled, the
 * reader found at its ports, its device node made.
 */
int scr_probe(struct pcmcia_device *link, struct scr_driver *drv)
{
	struct scr_dev *rdr;
	bool found;
	int rc;

	rdr = kzalloc(drv->size, GFP_KERNEL);
	if (!rdr)
		return -ENOMEM;
	drv->setup(rdr);
	rc = scr_enable(link);
	if (rc)
		goto disable;
	scr_init(rdr, drv, link);
	scr_io_begin(rdr);
	found = drv->detect(rdr);
	scr_io_end(rdr);
	if (!found) {
		dev_err(&link->dev, "no %s answers at %pR\n", drv->model,
			link->resource[0]);
		rc = -ENODEV;
		goto disable;
	}
	link->priv = rdr;
	rc = scr_add(rdr);
	if (rc)
		goto disable;
	dev_info(&link->dev, "%s%u: %s at %pR\n", drv->name, rdr->minor,
		 drv->model, link->resource[0]);
	return 0;

disable:
	pcmcia_disable_device(link);
	link->priv = NULL;
	kfree(rdr);
	return rc;
}

/*
 * The PC Card's remove: the reader goes (scr_remove()), the driver's
 * work items stop, the card is released and the binding's reference
 * dropped; open files keep the memory until they are closed.
 */
void scr_pcmcia_remove(struct pcmcia_device *link)
{
	struct scr_dev *rdr = link->priv;

	scr_remove(rdr);
	rdr->drv->stop(rdr);
	pcmcia_disable_device(link);
	link->priv = NULL;
	scr_put(rdr);
}

/*
 * One opener at a time, as the original drivers had it, and no
 * O_NONBLOCK opens (EAGAIN); the file holds a reference to the reader.
 */
int scr_open(struct scr_driver *drv, struct inode *inode, struct file *file)
{
	unsigned int minor = iminor(inode);
	struct scr_dev *rdr;
	int rc = 0;

	if (minor >= SCR_MAX_DEV)
		return -ENODEV;
	mutex_lock(&drv->lock);
	rdr = drv->readers[minor];
	if (!rdr || scr_gone(rdr)) {
		rc = -ENODEV;
	} else if (rdr->open) {
		rc = -EBUSY;
	} else if (file->f_flags & O_NONBLOCK) {
		rc = -EAGAIN;
	} else {
		rdr->open = true;
		kref_get(&rdr->ref);
		file->private_data = rdr;
	}
	mutex_unlock(&drv->lock);
	if (rc)
		return rc;
	return stream_open(inode, file);
}

void scr_release(struct file *file)
{
	struct scr_dev *rdr = file->private_data;
	struct scr_driver *drv = rdr->drv;

	mutex_lock(&drv->lock);
	rdr->open = false;
	mutex_unlock(&drv->lock);
	scr_put(rdr);
}

/* Start touching the hardware: 0 with io_lock held, or -ENODEV. */
int scr_io_begin(struct scr_dev *rdr)
{
	mutex_lock(&rdr->io_lock);
	if (rdr->gone) {
		mutex_unlock(&rdr->io_lock);
		return -ENODEV;
	}
	return 0;
}

void scr_io_end(struct scr_dev *rdr)
{
	mutex_unlock(&rdr->io_lock);
}

/*
 * Sleep until @until, or up to @slack_ns earlier if the CPU wakes up for
 * something else then.  0, -ENODEV as soon as the reader is gone, or
 * -ERESTARTSYS when a signal is pending.
 */
static int scr_sleep_until(struct scr_dev *rdr, ktime_t until, u64 slack_ns)
{
	ktime_t soft = ktime_sub_ns(until, slack_ns);
	DEFINE_WAIT(wait);
	int rc;

	for (;;) {
		prepare_to_wait(&rdr->wq, &wait, TASK_INTERRUPTIBLE);
		rc = scr_gone(rdr) ? -ENODEV :
		     signal_pending(current) ? -ERESTARTSYS : 0;
		/* a wake-up for the driver's own events sleeps on */
		if (rc || !schedule_hrtimeout_range(&soft, slack_ns,
						    HRTIMER_MODE_ABS))
			break;
	}
	finish_wait(&rdr->wq, &wait);
	return rc;
}

void scr_wait_start(struct scr_wait *w, unsigned int timeout_ms)
{
	w->start = ktime_get();
	w->expect = w->start;
	w->timeout_ms = timeout_ms;
	w->poll_us = SCR_POLL_MIN_US;
	w->deadline = ktime_add_ms(w->start, timeout_ms);
}

/* The event awaited cannot come before @us from now. */
void scr_wait_expect(struct scr_wait *w, unsigned int us)
{
	w->expect = ktime_add_us(ktime_get(), us);
	w->poll_us = SCR_POLL_MIN_US;
}

/* Something happened: the whole timeout again from now. */
void scr_wait_progress(struct scr_wait *w)
{
	w->deadline = ktime_add_ms(ktime_get(), w->timeout_ms);
}

/*
 * Sleep until the next look at the hardware: 0, -ETIMEDOUT past the
 * deadline, or scr_sleep_until()'s error.
 */
int scr_wait_next(struct scr_dev *rdr, struct scr_wait *w)
{
	ktime_t now = ktime_get(), until, latest;
	unsigned int cap;
	s64 slack_us;

	if (ktime_after(now, w->deadline))
		return -ETIMEDOUT;
	if (ktime_after(w->expect, now)) {
		until = w->expect;
	} else {
		until = ktime_add_us(now, w->poll_us);
		cap = clamp_t(s64, ktime_us_delta(now, w->start) / 4,
			      SCR_POLL_MIN_US, SCR_POLL_MAX_US);
		w->poll_us = min(w->poll_us * 2, cap);
	}
	latest = ktime_add_ms(now, SCR_SLEEP_MAX_MS);
	if (ktime_after(until, latest))
		until = latest;
	if (ktime_after(until, w->deadline))
		until = w->deadline;
	slack_us = min_t(s64, ktime_us_delta(until, now) / 64,
			 SCR_SLACK_MAX_US);
	return scr_sleep_until(rdr, until, slack_us * NSEC_PER_USEC);
}
