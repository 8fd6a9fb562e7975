/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the PC Card smart card reader drivers (cm4000_cs, cm4040_cs) share:
 * their character devices, and the rules that make a reader safe to pull
 * out while a program uses it.
 *
 * A reader is a struct scr_dev at the start of the driver's own
 * structure.  Its memory lives as long as anybody holds a reference: the
 * binding to the PC Card (from probe to remove) and every open file.  Remove marks the
 * reader gone under io_lock before the card's resources are released, so
 * everything that touches the hardware does it between scr_io_begin(),
 * which fails with -ENODEV once the reader is gone, and scr_io_end(), and
 * never sleeps in between.  Waits go through scr_wait_next(), which
 * remove cuts short.  A reader that is gone has no minor number and no
 * device node any more: the next card gets a fresh scr_dev under the
 * lowest free minor.
 *
 * The character device region and the class exist while at least one
 * reader is bound, so that the module needs nothing but its PC Card
 * driver registration (module_pcmcia_driver).
 *
 * The code is compiled into each module that uses it (see drivers.list);
 * nothing is exported.
 */
#ifndef PCL_SCREADER_H
#define PCL_SCREADER_H

#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <pcmcia/cistpl.h>
#include <pcmcia/ds.h>

#define SCR_MAX_DEV		4

struct scr_dev;

/*
 * One per driver: its device nodes and readers.  A reader is the driver's
 * structure of @size bytes, its struct scr_dev first; it is allocated
 * zeroed at probe and freed with the last reference.
 */
struct scr_driver {
	const char *name;		/* chrdev name and node prefix, "cmm" */
	const char *class_name;		/* "cardman_4000" */
	const char *model;		/* for the log, "CardMan 4000" */
	const struct file_operations *fops;
	size_t size;
	/* The driver's own part of a new reader, before it is enabled. */
	void (*setup)(struct scr_dev *rdr);
	/* The reader answers at its ports (probe; between scr_io_*). */
	bool (*detect)(struct scr_dev *rdr);
	/* Stop the driver's own work items: the reader is gone. */
	void (*stop)(struct scr_dev *rdr);

	/* private: the fields below belong to screader.c */
	struct mutex lock;		/* the fields below, every rdr->open */
	struct scr_dev *readers[SCR_MAX_DEV];
	unsigned int bound;
	int major;
	struct class *class;
};

struct scr_dev {
	struct kref ref;
	struct scr_driver *drv;
	struct pcmcia_device *link;
	unsigned int minor;
	unsigned long iobase;

	struct mutex io_lock;		/* hardware access; gone */
	bool gone;			/* written under io_lock, read anywhere */
	bool open;			/* under drv->lock */
	wait_queue_head_t wq;		/* gone, and the driver's own events */
};

int scr_probe(struct pcmcia_device *link, struct scr_driver *drv);
void scr_pcmcia_remove(struct pcmcia_device *link);

int scr_open(struct scr_driver *drv, struct inode *inode, struct file *file);
void scr_release(struct file *file);

static inline bool scr_gone(struct scr_dev *rdr)
{
	return READ_ONCE(rdr->gone);
}

int scr_io_begin(struct scr_dev *rdr);
void scr_io_end(struct scr_dev *rdr);

/*
 * A wait for the hardware, until a deadline that progress may push back.
 * The caller says when the awaited event can come at the earliest (the
 * bytes still to cross the card's wire: scr_wait_expect()), and the next
 * scr_wait_next() sleeps until then in one hrtimer sleep, which may end
 * up to 1/64 of it early when the CPU wakes up anyway.  Past that time
 * the looks start SCR_POLL_MIN_US apart and the gaps double, up to a
 * quarter of the time waited so far and at most SCR_POLL_MAX_US: late
 * events cost little, and long waits few wake-ups.  No sleep is longer
 * than SCR_SLEEP_MAX_MS, so that a reader without an interrupt notices a
 * pulled smart card that soon; removal ends every sleep at once.
 */
#define SCR_POLL_MIN_US		50
#define SCR_POLL_MAX_US		5000
#define SCR_SLEEP_MAX_MS	100
#define SCR_SLACK_MAX_US	500

struct scr_wait {
	ktime_t start;
	ktime_t expect;
	ktime_t deadline;
	unsigned int timeout_ms;
	unsigned int poll_us;
};

void scr_wait_start(struct scr_wait *w, unsigned int timeout_ms);
void scr_wait_expect(struct scr_wait *w, unsigned int us);
void scr_wait_progress(struct scr_wait *w);
int scr_wait_next(struct scr_dev *rdr, struct scr_wait *w);

#endif /* PCL_SCREADER_H */
