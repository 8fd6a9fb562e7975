// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ISA side of the ISA PC Card bridge drivers: interrupt lines,
 * polling, the platform device and system sleep.  See isa_socket.h.
 */

#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "isa_socket.h"

/* status changes get a line of their own only if two stay for cards */
#define ISA_MIN_CARD_IRQS	2

/* interrupt test: quiet time before, wait for the interrupt, time after */
#define ISA_TEST_QUIET_MS	10
#define ISA_TEST_WAIT_MS	50
#define ISA_TEST_AFTER_MS	5

static int do_scan = 1;
module_param(do_scan, int, 0444);
MODULE_PARM_DESC(do_scan, "Test which ISA interrupts the controller can raise (default 1)");

static unsigned int irq_mask = 0xffff;
module_param_hw(irq_mask, uint, other, 0444);
MODULE_PARM_DESC(irq_mask, "Bit mask of ISA interrupts cards may use (default 0xffff)");

static int irq_list[16];
static unsigned int irq_list_count;
module_param_hw_array(irq_list, int, irq, &irq_list_count, 0444);
MODULE_PARM_DESC(irq_list, "ISA interrupts cards may use (overrides irq_mask)");

static int cs_irq;
module_param_hw(cs_irq, int, irq, 0444);
MODULE_PARM_DESC(cs_irq, "ISA interrupt for card status changes (default 0: choose one)");

static int poll_interval;
module_param(poll_interval, int, 0444);
MODULE_PARM_DESC(poll_interval,
		 "Poll for status changes every so many jiffies (default 0: only without an interrupt, then every second)");

static void pcl_isa_poll(struct work_struct *work)
{
	struct pcl_isa *isa = container_of(to_delayed_work(work),
					   struct pcl_isa, poll);

	/* what the status change interrupt would do */
	isa->csc_handler(0, isa->csc_data);
	schedule_delayed_work(&isa->poll, isa->poll_jiffies);
}

void pcl_isa_init(struct pcl_isa *isa, struct platform_device *pdev,
		  const struct pcl_isa_ops *ops)
{
	isa->dev = &pdev->dev;
	isa->ops = ops;
	init_waitqueue_head(&isa->test_wait);
	INIT_DELAYED_WORK(&isa->poll, pcl_isa_poll);
	/* an explicit interval polls even with a status change interrupt */
	if (poll_interval > 0)
		isa->poll_jiffies = poll_interval;
	platform_set_drvdata(pdev, isa);
}

/* --- The interrupt test --- */

static irqreturn_t pcl_isa_test_interrupt(int irq, void *data)
{
	struct pcl_isa *isa = data;

	isa->ops->test_ack(isa);
	atomic_inc(&isa->test_hits);
	wake_up(&isa->test_wait);
	return IRQ_HANDLED;
}

/*
 * Whether the chip raises ISA line irq, exactly once, when told to: the
 * line is wired and nothing else drives it.  A line another driver holds
 * fails at request_irq().  Nothing here spins: the test sleeps.
 */
static bool pcl_isa_irq_works(struct pcl_isa *isa, unsigned int irq)
{
	bool works = false;

	atomic_set(&isa->test_hits, 0);
	if (request_irq(irq, pcl_isa_test_interrupt, 0, KBUILD_MODNAME, isa))
		return false;

	msleep(ISA_TEST_QUIET_MS);
	if (!atomic_read(&isa->test_hits)) {
		isa->ops->test_raise(isa, irq);
		wait_event_timeout(isa->test_wait, atomic_read(&isa->test_hits),
				   msecs_to_jiffies(ISA_TEST_WAIT_MS));
		/* and no second one */
		msleep(ISA_TEST_AFTER_MS);
		works = atomic_read(&isa->test_hits) == 1;
	}
	isa->ops->test_raise(isa, 0);
	free_irq(irq, isa);
	dev_dbg(isa->dev, "ISA IRQ %u: %s\n", irq, works ? "works" : "unusable");
	return works;
}

/* A line that no driver holds now. */
static bool pcl_isa_irq_free(struct pcl_isa *isa, unsigned int irq)
{
	if (request_irq(irq, pcl_isa_test_interrupt, 0, KBUILD_MODNAME, isa))
		return false;
	free_irq(irq, isa);
	return true;
}

/* The lines the parameters allow, of those the chip can drive. */
static unsigned long pcl_isa_wanted_irqs(struct pcl_isa *isa)
{
	unsigned long mask = 0;
	unsigned int i;

	if (!irq_list_count)
		mask = irq_mask;
	for (i = 0; i < irq_list_count; i++)
		if (irq_list[i] > 0 && irq_list[i] < 16)
			mask |= BIT(irq_list[i]);
	return mask & isa->chip_irqs;
}

static void pcl_isa_scan_irqs(struct pcl_isa *isa)
{
	unsigned long wanted = pcl_isa_wanted_irqs(isa);
	unsigned long usable = 0;
	bool tested = false;
	unsigned int irq;

	if (do_scan) {
		for_each_set_bit(irq, &wanted, 16)
			if (pcl_isa_irq_works(isa, irq))
				usable |= BIT(irq);
		tested = usable;
	}
	if (!tested) {
		/* take what nobody else holds; status changes are polled */
		for_each_set_bit(irq, &wanted, 16)
			if (pcl_isa_irq_free(isa, irq))
				usable |= BIT(irq);
		if (!cs_irq && !isa->poll_jiffies)
			isa->poll_jiffies = HZ;
	}
	isa->card_irqs = usable;
	dev_info(isa->dev, "ISA IRQs for cards (%s): %*pbl\n",
		 tested ? "tested" : "untested", 16, &usable);
}

/* --- The status change line --- */

/* The status change line, or 0 to poll. */
static unsigned int pcl_isa_pick_cs_irq(struct pcl_isa *isa)
{
	u16 candidates;
	int irq;

	if (cs_irq) {
		if (cs_irq < 0 || cs_irq > 15 || !(isa->card_irqs & BIT(cs_irq))) {
			dev_warn(isa->dev, "cs_irq %d is not among the usable IRQs\n",
				 cs_irq);
			return 0;
		}
		return cs_irq;
	}
	if (isa->poll_jiffies ||
	    hweight16(isa->card_irqs) < ISA_MIN_CARD_IRQS + 1)
		return 0;
	/* the highest line: cards get the low ones first */
	candidates = isa->card_irqs & isa->auto_cs_irqs;
	for (irq = 15; irq > 0; irq--)
		if (candidates & BIT(irq))
			return irq;
	return 0;
}

static void pcl_isa_setup_interrupts(struct pcl_isa *isa)
{
	unsigned int irq = pcl_isa_pick_cs_irq(isa);
	unsigned long lines;
	int ret;

	if (irq) {
		ret = request_irq(irq, isa->csc_handler, 0, KBUILD_MODNAME,
				  isa->csc_data);
		if (ret) {
			dev_warn(isa->dev, "cannot get IRQ %u: %d\n", irq, ret);
			irq = 0;
		}
	}
	isa->cs_irq = irq;
	if (!irq && !isa->poll_jiffies)
		isa->poll_jiffies = HZ;

	/* the lowest line left, as the core's own choice would be */
	lines = isa->card_irqs & ~BIT(irq);
	isa->card_irq = lines ? __ffs(lines) : 0;
	if (!IS_ENABLED(CONFIG_PCMCIA_PROBE)) {
		if (isa->card_irq)
			dev_info(isa->dev, "card interrupts on IRQ %u\n",
				 isa->card_irq);
		else
			dev_warn(isa->dev, "no interrupt left for cards\n");
	}

	if (irq)
		dev_info(isa->dev, "status changes on IRQ %u\n", irq);
	if (isa->poll_jiffies)
		dev_info(isa->dev, "polling for status changes every %u ms\n",
			 jiffies_to_msecs(isa->poll_jiffies));
}

/*
 * Once the chip is found and quiet: test the lines, take the status
 * change line (or settle for polling), and find the ISA bridge.
 */
void pcl_isa_setup_irqs(struct pcl_isa *isa)
{
	pcl_isa_scan_irqs(isa);
	pcl_isa_setup_interrupts(isa);
	isa->isa_bridge = pci_get_class(PCI_CLASS_BRIDGE_ISA << 8, NULL);
	if (isa->isa_bridge)
		dev_info(isa->dev, "ISA bus behind PCI %s\n",
			 pci_name(isa->isa_bridge));
}

/* What the core needs to know of a socket's ISA side. */
void pcl_isa_init_socket(struct pcl_isa *isa, struct pcmcia_socket *socket)
{
	socket->owner = THIS_MODULE;
	socket->dev.parent = isa->dev;
	socket->resource_ops = &pccard_nonstatic_ops;
	/* not the status change line: the core would try it and fail */
	socket->irq_mask = isa->card_irqs & ~BIT(isa->cs_irq);
	socket->pci_irq = isa->card_irq;
	socket->cb_dev = isa->isa_bridge;
}

/* Polling, if any, from now on; the sockets are registered. */
void pcl_isa_start(struct pcl_isa *isa)
{
	if (isa->poll_jiffies)
		schedule_delayed_work(&isa->poll, isa->poll_jiffies);
}

/*
 * No more status change handling: the poll is stopped and a running
 * interrupt handler has finished.  The driver stops the chip's status
 * change interrupts (or forwarding them) first.
 */
void pcl_isa_stop(struct pcl_isa *isa)
{
	if (isa->poll_jiffies)
		cancel_delayed_work_sync(&isa->poll);
	if (isa->cs_irq)
		synchronize_irq(isa->cs_irq);
}

/* Give back the status change line and the ISA bridge. */
void pcl_isa_release(struct pcl_isa *isa)
{
	if (isa->cs_irq)
		free_irq(isa->cs_irq, isa->csc_data);
	isa->cs_irq = 0;
	pci_dev_put(isa->isa_bridge);
	isa->isa_bridge = NULL;
}

/* --- System sleep --- */

static int pcl_isa_suspend(struct device *dev)
{
	struct pcl_isa *isa = dev_get_drvdata(dev);

	if (isa->poll_jiffies)
		cancel_delayed_work_sync(&isa->poll);
	if (isa->ops->suspend)
		isa->ops->suspend(isa);
	return 0;
}

/*
 * The sockets suspend and resume themselves (the PC Card core's socket
 * devices are our children); the chip's setup, which firmware or a power
 * loss may have changed, is restored before theirs.
 */
static int pcl_isa_resume_noirq(struct device *dev)
{
	struct pcl_isa *isa = dev_get_drvdata(dev);

	isa->ops->restore(isa);
	return 0;
}

static int pcl_isa_resume(struct device *dev)
{
	pcl_isa_start(dev_get_drvdata(dev));
	return 0;
}

static const struct dev_pm_ops pcl_isa_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(pcl_isa_suspend, pcl_isa_resume)
	NOIRQ_SYSTEM_SLEEP_PM_OPS(NULL, pcl_isa_resume_noirq)
};

/* --- The platform device --- */

/*
 * The device is made with its driver and cannot be unbound on its own
 * (platform_create_bundle()): teardown is the module's exit.
 */
static struct platform_driver pcl_isa_driver = {
	.driver = {
		.name	= KBUILD_MODNAME,
		.pm	= pm_sleep_ptr(&pcl_isa_pm_ops),
	},
};

static struct platform_device *pcl_isa_pdev;

/* At module load: the device, and probe() run on it. */
int __init pcl_isa_driver_init(int (*probe)(struct platform_device *pdev))
{
	pcl_isa_pdev = platform_create_bundle(&pcl_isa_driver, probe, NULL, 0,
					      NULL, 0);
	return PTR_ERR_OR_ZERO(pcl_isa_pdev);
}

void __exit pcl_isa_driver_exit(void)
{
	struct pcl_isa *isa = platform_get_drvdata(pcl_isa_pdev);

	isa->ops->teardown(isa);
	platform_device_unregister(pcl_isa_pdev);
	platform_driver_unregister(&pcl_isa_driver);
}
