// SPDX-License-Identifier: GPL-2.0-only
/*
 * Intel 82092AA PCI to PC Card bridge.
 *
 * The chip has up to four 16-bit sockets with 82365SL-style (ExCA)
 * registers, all reached through one index/data port pair in I/O BAR 0;
 * bits 7:6 of the index pick the socket.  Card interrupts and status
 * change interrupts are routed to PCI INTA, so the sockets offer no ISA
 * interrupts.  Everything about the sockets themselves is in exca.c.
 */

#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/pm.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <pcmcia/ss.h>

#include "exca.h"

#define I82092_NAME		"i82092aa"

/* PCI configuration space */
#define I82092_PCICON		0x40	/* bits 2:1: socket configuration */
#define I82092_PCICON_SOCKETS	GENMASK(2, 1)
#define I82092_IRQ_ROUTE	0x50	/* per source: 1 = PCI, 0 = ISA */
#define I82092_IRQ_ROUTE_PCI	0xff

/* I/O BAR 0 */
#define I82092_INDEX		0
#define I82092_DATA		1
#define I82092_SOCKET_STRIDE	0x40

#define I82092_MAX_SOCKETS	4
static_assert(I82092_MAX_SOCKETS <= PCL_EXCA_LINE_SOCKETS);

struct i82092;

struct i82092_socket {
	struct pcl_exca exca;
	struct i82092 *chip;
	unsigned int nr;
	bool registered;
};

struct i82092 {
	struct pci_dev *pdev;
	void __iomem *regs;
	spinlock_t index_lock;		/* the index/data port pair */
	unsigned int nr_sockets;
	struct i82092_socket sockets[I82092_MAX_SOCKETS];
	struct pcl_exca_line line;	/* all sockets, on the PCI interrupt */
	struct delayed_work watch;	/* the interrupt line, once a second */
	unsigned int line_off;		/* looks that found it disabled */
};

static struct i82092_socket *to_i82092_socket(struct pcl_exca *exca)
{
	return container_of(exca, struct i82092_socket, exca);
}

static u8 i82092_read(struct pcl_exca *exca, unsigned int reg)
{
	struct i82092_socket *sock = to_i82092_socket(exca);
	struct i82092 *chip = sock->chip;
	unsigned long flags;
	u8 val;

	spin_lock_irqsave(&chip->index_lock, flags);
	iowrite8(sock->nr * I82092_SOCKET_STRIDE + reg,
		 chip->regs + I82092_INDEX);
	val = ioread8(chip->regs + I82092_DATA);
	spin_unlock_irqrestore(&chip->index_lock, flags);
	return val;
}

static void i82092_write(struct pcl_exca *exca, unsigned int reg, u8 val)
{
	struct i82092_socket *sock = to_i82092_socket(exca);
	struct i82092 *chip = sock->chip;
	unsigned long flags;

	spin_lock_irqsave(&chip->index_lock, flags);
	iowrite8(sock->nr * I82092_SOCKET_STRIDE + reg,
		 chip->regs + I82092_INDEX);
	iowrite8(val, chip->regs + I82092_DATA);
	spin_unlock_irqrestore(&chip->index_lock, flags);
}

/* Memory windows decode PCI bus addresses. */
static void i82092_mem_bus_range(struct pcl_exca *exca, struct resource *res,
				 u64 *start, u64 *end)
{
	struct pci_bus_region region;

	pcibios_resource_to_bus(to_i82092_socket(exca)->chip->pdev->bus,
				&region, res);
	*start = region.start;
	*end = region.end;
}

static const struct pcl_exca_bus i82092_bus = {
	.read		= i82092_read,
	.write		= i82092_write,
	.mem_bus_range	= i82092_mem_bus_range,
};

static int i82092_count_sockets(struct i82092 *chip)
{
	u8 pcicon;
	int ret;

	ret = pci_read_config_byte(chip->pdev, I82092_PCICON, &pcicon);
	if (ret)
		return pcibios_err_to_errno(ret);

	switch (FIELD_GET(I82092_PCICON_SOCKETS, pcicon)) {
	case 0:
		chip->nr_sockets = 2;
		break;
	case 1:
		chip->nr_sockets = 1;
		break;
	default:
		chip->nr_sockets = 4;
		break;
	}
	return 0;
}

/*
 * Bridge state that a system sleep may lose: all interrupts to PCI, and
 * status changes that clear when read (what pcl_exca_handle_csc() expects).
 */
static int i82092_setup_chip(struct i82092 *chip)
{
	unsigned int i;
	int ret;

	ret = pci_write_config_byte(chip->pdev, I82092_IRQ_ROUTE,
				    I82092_IRQ_ROUTE_PCI);
	if (ret)
		return pcibios_err_to_errno(ret);

	for (i = 0; i < chip->nr_sockets; i++) {
		struct pcl_exca *exca = &chip->sockets[i].exca;

		pcl_exca_write(exca, EXCA_GLOBAL_CTL, 0);
		pcl_exca_write(exca, EXCA_CARD_GENCTL, 0);
	}
	return 0;
}

static void i82092_init_socket(struct i82092 *chip, unsigned int nr)
{
	struct i82092_socket *sock = &chip->sockets[nr];
	struct pcmcia_socket *socket = &sock->exca.socket;

	sock->chip = chip;
	sock->nr = nr;
	pcl_exca_setup(&sock->exca, &i82092_bus, PCL_EXCA_IRQ_ROUTED);
	pcl_exca_line_add(&chip->line, &sock->exca);

	socket->owner = THIS_MODULE;
	socket->dev.parent = &chip->pdev->dev;
	socket->resource_ops = &pccard_nonstatic_ops;
	socket->irq_mask = 0;
	socket->pci_irq = chip->pdev->irq;
	/* lets the resource manager allocate from the PCI bus */
	socket->cb_dev = chip->pdev;
}

/*
 * A card whose IREQ# never lets go makes the kernel disable the PCI line
 * it shares with us ("nobody cared").  Insertions and removals would then
 * go unseen for good, so while the line is off the sockets are polled;
 * the next driver that requests the line turns it back on.  Freezable:
 * a system suspend disables every line, and this must not take that for
 * a storm; deferrable: it does not wake an idle CPU.
 */
static void i82092_watch(struct work_struct *work)
{
	struct i82092 *chip = container_of(to_delayed_work(work),
					   struct i82092, watch);
	unsigned int irq = chip->pdev->irq;
	struct irq_data *data = irq_get_irq_data(irq);

	if (data && irqd_irq_disabled(data)) {
		/* a driver's short disable_irq() is not worth a word */
		if (++chip->line_off == 2)
			dev_warn(&chip->pdev->dev,
				 "interrupt %u is disabled, polling the sockets until it is back\n",
				 irq);
		pcl_exca_line_irq(irq, &chip->line);
	} else {
		if (chip->line_off >= 2)
			dev_info(&chip->pdev->dev, "interrupt %u is back\n",
				 irq);
		chip->line_off = 0;
	}
	queue_delayed_work(system_freezable_wq, &chip->watch, HZ);
}

static void i82092_unregister_sockets(struct i82092 *chip)
{
	unsigned int i;

	for (i = 0; i < chip->nr_sockets; i++)
		pcl_exca_stop_events(&chip->sockets[i].exca);
	synchronize_irq(chip->pdev->irq);

	for (i = 0; i < chip->nr_sockets; i++) {
		struct i82092_socket *sock = &chip->sockets[i];

		if (!sock->registered)
			continue;
		/* removes a card that is still there, then the socket */
		pcmcia_unregister_socket(&sock->exca.socket);
		sock->registered = false;
	}
}

static int i82092_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct i82092 *chip;
	unsigned int i;
	int ret;

	chip = devm_kzalloc(&pdev->dev, sizeof(*chip), GFP_KERNEL);
	if (!chip)
		return -ENOMEM;
	chip->pdev = pdev;
	chip->line.dev = &pdev->dev;
	INIT_DEFERRABLE_WORK(&chip->watch, i82092_watch);
	spin_lock_init(&chip->index_lock);
	pci_set_drvdata(pdev, chip);

	ret = pci_enable_device(pdev);
	if (ret)
		return ret;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_IO)) {
		dev_err(&pdev->dev, "BAR 0 is not an I/O port range\n");
		ret = -ENODEV;
		goto err_disable;
	}
	if (!pdev->irq) {
		dev_err(&pdev->dev, "no PCI interrupt assigned\n");
		ret = -ENODEV;
		goto err_disable;
	}

	ret = i82092_count_sockets(chip);
	if (ret)
		goto err_disable;

	ret = pci_request_region(pdev, 0, I82092_NAME);
	if (ret)
		goto err_disable;

	chip->regs = pci_iomap(pdev, 0, 0);
	if (!chip->regs) {
		ret = -ENOMEM;
		goto err_release;
	}

	for (i = 0; i < chip->nr_sockets; i++)
		i82092_init_socket(chip, i);

	ret = i82092_setup_chip(chip);
	if (ret)
		goto err_unmap;
	for (i = 0; i < chip->nr_sockets; i++)
		pcl_exca_quiet(&chip->sockets[i].exca);

	ret = request_irq(pdev->irq, pcl_exca_line_irq, IRQF_SHARED,
			  I82092_NAME, &chip->line);
	if (ret) {
		dev_err(&pdev->dev, "cannot get interrupt %u: %d\n", pdev->irq,
			ret);
		goto err_unmap;
	}

	for (i = 0; i < chip->nr_sockets; i++) {
		struct i82092_socket *sock = &chip->sockets[i];

		ret = pcl_exca_register(&sock->exca);
		if (ret) {
			dev_err(&pdev->dev, "cannot register socket %u: %d\n",
				i, ret);
			goto err_sockets;
		}
		sock->registered = true;
	}

	queue_delayed_work(system_freezable_wq, &chip->watch, HZ);
	dev_info(&pdev->dev, "82092AA with %u sockets, interrupt %u\n",
		 chip->nr_sockets, pdev->irq);
	return 0;

err_sockets:
	i82092_unregister_sockets(chip);
	free_irq(pdev->irq, &chip->line);
err_unmap:
	pci_iounmap(pdev, chip->regs);
err_release:
	pci_release_region(pdev, 0);
err_disable:
	pci_disable_device(pdev);
	return ret;
}

static void i82092_remove(struct pci_dev *pdev)
{
	struct i82092 *chip = pci_get_drvdata(pdev);
	unsigned int i;

	cancel_delayed_work_sync(&chip->watch);
	i82092_unregister_sockets(chip);
	/* the core leaves card detection armed on a dead socket */
	for (i = 0; i < chip->nr_sockets; i++)
		pcl_exca_quiet(&chip->sockets[i].exca);
	free_irq(pdev->irq, &chip->line);
	pci_iounmap(pdev, chip->regs);
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
}

/*
 * The sockets suspend and resume themselves (the PC Card core's class
 * device, a child of ours, powers them down and brings them back).  The
 * bridge only has to restore its own setup first; a parent's noirq
 * resume runs before its children's.
 */
static int i82092_resume_noirq(struct device *dev)
{
	return i82092_setup_chip(dev_get_drvdata(dev));
}

static const struct dev_pm_ops i82092_pm_ops = {
	NOIRQ_SYSTEM_SLEEP_PM_OPS(NULL, i82092_resume_noirq)
};

static const struct pci_device_id i82092_ids[] = {
	{ PCI_VDEVICE(INTEL, PCI_DEVICE_ID_INTEL_82092AA_0) },
	{ }
};
MODULE_DEVICE_TABLE(pci, i82092_ids);

static struct pci_driver i82092_driver = {
	.name		= I82092_NAME,
	.id_table	= i82092_ids,
	.probe		= i82092_probe,
	.remove		= i82092_remove,
	.driver.pm	= pm_sleep_ptr(&i82092_pm_ops),
};
module_pci_driver(i82092_driver);

MODULE_DESCRIPTION("Intel 82092AA PCI to PC Card bridge");
MODULE_LICENSE("GPL");
