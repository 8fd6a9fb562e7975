/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the drivers of ISA PC Card bridges (i82365, tcic) have in common,
 * whatever the chip's registers look like:
 *
 * - the module parameters about interrupts: which ISA lines cards may use
 *   (irq_list, irq_mask), whether to test them (do_scan), the status
 *   change line (cs_irq) and polling (poll_interval);
 * - the interrupt test: the chip is made to raise each candidate line
 *   once, and a line counts when its handler saw exactly that one
 *   interrupt (wired, and driven by nothing else);
 * - the choice of the status change line, or polling without one;
 * - the one line all cards share as the socket's "PCI" interrupt.  The
 *   PC Card core picks a card's ISA interrupt from the socket's mask only
 *   when built with CONFIG_PCMCIA_PROBE (which needs CONFIG_ISA);
 *   elsewhere it gives every card the socket's pci_irq;
 * - the socket's cb_dev: on a PC with PCI the ISA bus hangs off a
 *   PCI-to-ISA bridge, and card memory windows can only use addresses the
 *   PCI bus forwards there.  The core looks for them inside the PCI bus
 *   windows of cb_dev, so that is the ISA bridge when there is one;
 *   without it the core would look only outside every PCI window;
 * - the platform device: there is no bus to enumerate the chips on, and
 *   kernels without CONFIG_ISA (64-bit x86) have no ISA driver model, so
 *   the module makes its own device and probes its ports when loaded;
 * - system sleep: polling stops, and the chip's setup is restored in the
 *   noirq phase that precedes the sockets' own resume.
 *
 * Like exca.c this is compiled into each module that uses it (see
 * drivers.list), so the parameters are that module's: i82365.irq_list,
 * tcic.irq_list.  A module has one controller device, hence one struct
 * pcl_isa.
 */
#ifndef PCL_ISA_SOCKET_H
#define PCL_ISA_SOCKET_H

#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <pcmcia/ss.h>

struct pcl_isa;

/* What only the chip's driver knows how to do. */
struct pcl_isa_ops {
	/*
	 * Make the chip raise ISA line irq once, for the interrupt test;
	 * irq 0 ends the test and leaves the chip quiet again.
	 */
	void (*test_raise)(struct pcl_isa *isa, unsigned int irq);
	/* Acknowledge the test's interrupt (called in its handler). */
	void (*test_ack)(struct pcl_isa *isa);
	/* Set the chip up again after a system resume (noirq phase). */
	void (*restore)(struct pcl_isa *isa);
	/* Optional: stop the driver's own deferred work before a sleep. */
	void (*suspend)(struct pcl_isa *isa);
	/* Undo the probe: the module is going away. */
	void (*teardown)(struct pcl_isa *isa);
};

struct pcl_isa {
	struct device *dev;
	const struct pcl_isa_ops *ops;

	/* set by the driver before pcl_isa_setup_irqs() */
	u16 chip_irqs;			/* lines the chip can drive */
	u16 auto_cs_irqs;		/* lines status changes may take unasked */
	irq_handler_t csc_handler;	/* status changes; the poll calls it too */
	void *csc_data;			/* its dev_id */

	/* what pcl_isa_setup_irqs() found */
	u16 card_irqs;			/* ISA lines offered to cards */
	unsigned int card_irq;		/* the line all cards share, or 0 */
	unsigned int cs_irq;		/* status change line, 0: none */
	unsigned long poll_jiffies;	/* 0: no polling */
	struct pci_dev *isa_bridge;	/* the PCI device the ISA bus is behind */

	struct delayed_work poll;
	atomic_t test_hits;
	wait_queue_head_t test_wait;
};

void pcl_isa_init(struct pcl_isa *isa, struct platform_device *pdev,
		  const struct pcl_isa_ops *ops);
void pcl_isa_setup_irqs(struct pcl_isa *isa);
void pcl_isa_init_socket(struct pcl_isa *isa, struct pcmcia_socket *socket);
void pcl_isa_start(struct pcl_isa *isa);
void pcl_isa_stop(struct pcl_isa *isa);
void pcl_isa_release(struct pcl_isa *isa);

int pcl_isa_driver_init(int (*probe)(struct platform_device *pdev));
void pcl_isa_driver_exit(void);

#endif /* PCL_ISA_SOCKET_H */
