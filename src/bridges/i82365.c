// SPDX-License-Identifier: GPL-2.0-only
/*
 * Intel 82365SL and compatible ISA to PC Card bridges ("PCIC").
 *
 * A chip has two sockets behind an index/data port pair in ISA I/O space;
 * bits 7:6 of the index pick the socket, so a pair serves up to two chips
 * (four sockets).  The usual pair is 0x3e0, a second one 0x3e2.  Card
 * interrupts and status change interrupts go to ISA IRQ lines that the
 * driver programs into each socket; which lines are wired and free is
 * found out by making the chip raise them.  Without a usable line the
 * driver polls for status changes.
 *
 * What every ISA bridge does alike (the interrupt parameters and test,
 * polling, the "PCI" interrupt offered to the core, the platform device,
 * system sleep) is in isa_socket.c; everything about the sockets
 * themselves is in exca.c.
 *
 * Cirrus Logic CL-PD6710/PD672x chips identify as an 82365SL and have
 * registers of their own: the voltage select, a low-power mode, pins that
 * can serve as ring indicate, LED or DMA instead of an IRQ, and memory
 * timing sets.  The driver sets them from the same module parameters as
 * the driver Linux dropped, and puts them back after a system resume.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <pcmcia/ss.h>

#include "exca.h"
#include "isa_socket.h"

#define I82365_NAME		"i82365"

#define I82365_PORT_SIZE	2	/* index, data */
#define I82365_INDEX		0
#define I82365_DATA		1
#define I82365_NR_PORTS		2	/* i365_base and i365_base + 2 */
#define I82365_PORT_SOCKETS	4	/* two chips on one port pair */
#define I82365_MAX_SOCKETS	(I82365_NR_PORTS * I82365_PORT_SOCKETS)
static_assert(I82365_MAX_SOCKETS <= PCL_EXCA_LINE_SOCKETS);
#define I82365_SOCKET_STRIDE	0x40

/* EXCA_IDREV */
#define I82365_ID_IFTYPE	GENMASK(7, 6)
#define I82365_ID_IFTYPE_MEMIO	2	/* memory and I/O cards */
#define I82365_ID_RESERVED	GENMASK(5, 4)
#define I82365_ID_REV		GENMASK(3, 0)

/* ISA lines an IRQ field can select: 3, 4, 5, 7, 9-12, 14, 15 */
#define I82365_ISA_IRQS		0xdeb8
/* IRQ 12 is usually the PS/2 mouse: taken for status changes only on demand */
#define I82365_AUTO_CS_IRQS	(I82365_ISA_IRQS & ~BIT(12))

/* Cirrus Logic PD67xx registers (PD67_MISC_CTL_1 is in exca.h) */
#define PD67_MC1_INPACK		BIT(7)	/* INPACK# qualifies card reads */
#define PD67_MISC_CTL_2		0x1e	/* where others have EXCA_GLOBAL_CTL */
#define PD67_MC2_FREQ_BYPASS	BIT(0)
#define PD67_MC2_DYNAMIC_MODE	BIT(1)
#define PD67_MC2_SUSPEND	BIT(2)	/* low-power mode */
#define PD67_MC2_IRQ15_RING	BIT(7)	/* the IRQ 15 pin is ring indicate */
#define PD67_CHIP_INFO		0x1f
#define PD67_INFO_ID		GENMASK(7, 6)	/* 11, then 00 on the next read */
#define PD67_INFO_TWO_SLOTS	BIT(5)
#define PD67_INFO_REV		GENMASK(4, 2)
/* two timing sets of three registers: setup, command, recovery */
#define PD67_TIMING(n)		(0x3a + (n))
#define PD67_NR_TIMINGS		6
#define PD67_SETUP		0
#define PD67_COMMAND		1
#define PD67_RECOVERY		2
#define PD67_SET1		3
/* a command time when the firmware left none (in ISA clocks, set 0; set 1) */
#define PD67_DEFAULT_COMMAND	6
#define PD67_DEFAULT_COMMAND1	16
#define PD67_WAKE_MS		50	/* after leaving the low-power mode */

static unsigned long i365_base = 0x3e0;
module_param_hw(i365_base, ulong, ioport, 0444);
MODULE_PARM_DESC(i365_base, "I/O port of the first controller (default 0x3e0)");

static int extra_sockets;
module_param(extra_sockets, int, 0444);
MODULE_PARM_DESC(extra_sockets,
		 "Also look for a controller at i365_base + 2 (default 0: only if none at i365_base)");

static int ignore = -1;
module_param(ignore, int, 0444);
MODULE_PARM_DESC(ignore, "Socket number (0-7) to leave alone (default -1: none)");

/* do_scan, irq_mask, irq_list, cs_irq, poll_interval: see isa_socket.c */

static int cycle_time = EXCA_CYCLE_NS;
module_param(cycle_time, int, 0444);
MODULE_PARM_DESC(cycle_time, "ISA bus clock period in ns, for memory wait states (default 120)");

/* Cirrus options: -1 leaves what the firmware set, 0 clears, 1 sets */
static int wakeup;
module_param(wakeup, int, 0444);
MODULE_PARM_DESC(wakeup, "Cirrus: take the controller out of its low-power mode (default 0)");

static int has_ring = -1;
module_param(has_ring, int, 0444);
MODULE_PARM_DESC(has_ring, "Cirrus: the IRQ 15 pin is a ring indicate output (default -1: yes)");

static int has_led = -1;
module_param(has_led, int, 0444);
MODULE_PARM_DESC(has_led, "Cirrus: the IRQ 12 pin drives an activity LED (default -1: no)");

static int has_dma = -1;
module_param(has_dma, int, 0444);
MODULE_PARM_DESC(has_dma, "Cirrus: the IRQ 9 and 10 pins carry DMA (default -1: no)");

static int dynamic_mode;
module_param(dynamic_mode, int, 0444);
MODULE_PARM_DESC(dynamic_mode, "Cirrus: dynamic mode (default 0: off)");

static int freq_bypass = -1;
module_param(freq_bypass, int, 0444);
MODULE_PARM_DESC(freq_bypass, "Cirrus: bypass the frequency synthesizer (default -1: as set)");

static int setup_time = -1;
module_param(setup_time, int, 0444);
MODULE_PARM_DESC(setup_time, "Cirrus: memory setup time, both timing sets (default -1: as set)");

static int cmd_time = -1;
module_param(cmd_time, int, 0444);
MODULE_PARM_DESC(cmd_time, "Cirrus: memory command time of set 0; set 1 gets 2n+4 (default -1: as set)");

static int recov_time = -1;
module_param(recov_time, int, 0444);
MODULE_PARM_DESC(recov_time, "Cirrus: memory recovery time, both timing sets (default -1: as set)");

/* Vadem VG-468/469 options: this driver has no Vadem support */
static int async_clock = -1;
module_param(async_clock, int, 0444);
MODULE_PARM_DESC(async_clock, "Vadem only: accepted for compatibility and ignored");

static int cable_mode = -1;
module_param(cable_mode, int, 0444);
MODULE_PARM_DESC(cable_mode, "Vadem only: accepted for compatibility and ignored");

struct i82365;

struct i82365_port {
	unsigned long base;
	spinlock_t lock;		/* the index/data pair */
};

struct i82365_socket {
	struct pcl_exca exca;
	struct i82365 *chip;
	struct i82365_port *port;
	unsigned int nr;		/* 0-7, as in the ignore parameter */
	u8 index;			/* index of the socket's register 0 */
	bool registered;

	/* Cirrus chips: what their own registers are set to */
	bool cirrus;
	u8 cirrus_misc1;		/* bits kept from the firmware */
	u8 cirrus_misc2;
	u8 cirrus_timing[PD67_NR_TIMINGS];
};

struct i82365 {
	struct pcl_isa isa;		/* lines, polling, the platform device */
	struct device *dev;
	struct i82365_port ports[I82365_NR_PORTS];
	unsigned int nr_sockets;
	struct i82365_socket sockets[I82365_MAX_SOCKETS];
	struct pcl_exca_line line;	/* all sockets, on cs_irq or polled */
	u16 pin_uses;			/* IRQ pins a Cirrus chip uses otherwise */
};

static struct i82365 *to_i82365(struct pcl_isa *isa)
{
	return container_of(isa, struct i82365, isa);
}

static u8 port_read(struct i82365_port *port, u8 index)
{
	unsigned long flags;
	u8 val;

	spin_lock_irqsave(&port->lock, flags);
	outb(index, port->base + I82365_INDEX);
	val = inb(port->base + I82365_DATA);
	spin_unlock_irqrestore(&port->lock, flags);
	return val;
}

static void port_write(struct i82365_port *port, u8 index, u8 val)
{
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	outb(index, port->base + I82365_INDEX);
	outb(val, port->base + I82365_DATA);
	spin_unlock_irqrestore(&port->lock, flags);
}

static struct i82365_socket *to_i82365_socket(struct pcl_exca *exca)
{
	return container_of(exca, struct i82365_socket, exca);
}

static u8 i82365_read(struct pcl_exca *exca, unsigned int reg)
{
	struct i82365_socket *sock = to_i82365_socket(exca);

	return port_read(sock->port, sock->index + reg);
}

static void i82365_write(struct pcl_exca *exca, unsigned int reg, u8 val)
{
	struct i82365_socket *sock = to_i82365_socket(exca);

	port_write(sock->port, sock->index + reg, val);
}

/* Memory windows decode CPU physical addresses: no mem_bus_range. */
static const struct pcl_exca_bus i82365_bus = {
	.read	= i82365_read,
	.write	= i82365_write,
};

/* --- Finding the chips --- */

/* The chip revision an identification register names, or NULL. */
static const char *i82365_model(u8 id)
{
	if (FIELD_GET(I82365_ID_IFTYPE, id) != I82365_ID_IFTYPE_MEMIO ||
	    FIELD_GET(I82365_ID_RESERVED, id))
		return NULL;
	switch (FIELD_GET(I82365_ID_REV, id)) {
	case 2:
		return "82365SL A step";
	case 3:
		return "82365SL B step";
	case 4:
		return "82365SL DF";
	case 8 ... 10:
		return "IBM 82365SL clone";
	default:
		return NULL;
	}
}

/*
 * Whether the socket just added answers on its own registers: a chip that
 * ignores index bit 6 would show socket A twice.  Every socket found so
 * far gets a different value in a register nobody uses yet.
 */
static bool i82365_sockets_distinct(struct i82365 *chip, unsigned int count)
{
	unsigned int reg = EXCA_MEMWIN(0) + EXCA_MEMWIN_OFFSET;
	unsigned int i;

	for (i = 0; i < count; i++)
		pcl_exca_write(&chip->sockets[i].exca, reg, i + 1);
	for (i = 0; i < count; i++)
		if (pcl_exca_read(&chip->sockets[i].exca, reg) != i + 1)
			return false;
	for (i = 0; i < count; i++)
		pcl_exca_write(&chip->sockets[i].exca, reg, 0);
	return true;
}

/*
 * A Cirrus chip's information register, or -1 for other chips: its ID
 * bits read 11 after a write and 00 on the read after that.
 */
static int i82365_cirrus_info(struct i82365_port *port, u8 index)
{
	u8 first, second;

	port_write(port, index + PD67_CHIP_INFO, 0);
	first = port_read(port, index + PD67_CHIP_INFO);
	second = port_read(port, index + PD67_CHIP_INFO);
	if (FIELD_GET(PD67_INFO_ID, first) != 3 || FIELD_GET(PD67_INFO_ID, second))
		return -1;
	return second;
}

static void cirrus_option(u8 *reg, u8 bit, int param)
{
	if (param == 0)
		*reg &= ~bit;
	else if (param > 0)
		*reg |= bit;
}

/* One of the three times, in timing sets 0 and 1. */
static void cirrus_timing(u8 *t, unsigned int which, u8 set0, u8 set1)
{
	t[which] = set0;
	t[PD67_SET1 + which] = set1;
}

/*
 * The Cirrus registers as the module parameters want them, starting from
 * what the firmware left; and the IRQ pins that serve something else.
 */
static void i82365_cirrus_options(struct i82365 *chip,
				  struct i82365_socket *sock)
{
	struct pcl_exca *exca = &sock->exca;
	u8 *t = sock->cirrus_timing;
	unsigned int i;

	sock->cirrus_misc1 = pcl_exca_read(exca, PD67_MISC_CTL_1) &
			     PD67_MC1_INPACK;
	sock->cirrus_misc2 = pcl_exca_read(exca, PD67_MISC_CTL_2);
	for (i = 0; i < PD67_NR_TIMINGS; i++)
		t[i] = pcl_exca_read(exca, PD67_TIMING(i));

	cirrus_option(&sock->cirrus_misc2, PD67_MC2_IRQ15_RING,
		      has_ring < 0 ? 1 : has_ring);
	cirrus_option(&sock->cirrus_misc2, PD67_MC2_DYNAMIC_MODE, dynamic_mode);
	cirrus_option(&sock->cirrus_misc2, PD67_MC2_FREQ_BYPASS, freq_bypass);
	if (wakeup)
		sock->cirrus_misc2 &= ~PD67_MC2_SUSPEND;

	if (setup_time >= 0)
		cirrus_timing(t, PD67_SETUP, setup_time, setup_time);
	if (cmd_time > 0)
		cirrus_timing(t, PD67_COMMAND, cmd_time, 2 * cmd_time + 4);
	if (recov_time >= 0)
		cirrus_timing(t, PD67_RECOVERY, recov_time, recov_time);
	if (!t[PD67_COMMAND]) {
		cirrus_timing(t, PD67_COMMAND, PD67_DEFAULT_COMMAND,
			      PD67_DEFAULT_COMMAND1);
		if (!t[PD67_SETUP])
			cirrus_timing(t, PD67_SETUP, 1, 1);
	}

	if (sock->cirrus_misc2 & PD67_MC2_IRQ15_RING)
		chip->pin_uses |= BIT(15);
	if (has_led > 0)
		chip->pin_uses |= BIT(12);
	if (has_dma > 0)
		chip->pin_uses |= BIT(9) | BIT(10);

	dev_info(chip->dev,
		 "socket %u: Cirrus options%s%s%s%s%s, timing %*ph\n", sock->nr,
		 sock->cirrus_misc2 & PD67_MC2_IRQ15_RING ? " [ring]" : "",
		 sock->cirrus_misc2 & PD67_MC2_DYNAMIC_MODE ? " [dyn mode]" : "",
		 sock->cirrus_misc2 & PD67_MC2_FREQ_BYPASS ? " [freq bypass]" : "",
		 has_led > 0 ? " [led]" : "", has_dma > 0 ? " [dma]" : "",
		 PD67_NR_TIMINGS, t);
}

/*
 * Write the Cirrus registers (at probe and after a system resume, when
 * the firmware may have set them otherwise); leaving the low-power mode
 * takes a while.
 */
static void i82365_cirrus_apply(struct i82365_socket *sock)
{
	struct pcl_exca *exca = &sock->exca;
	bool waking;
	unsigned int i;

	waking = (pcl_exca_read(exca, PD67_MISC_CTL_2) & PD67_MC2_SUSPEND) &&
		 !(sock->cirrus_misc2 & PD67_MC2_SUSPEND);
	pcl_exca_write(exca, PD67_MISC_CTL_2, sock->cirrus_misc2);
	pcl_exca_write(exca, PD67_MISC_CTL_1, sock->cirrus_misc1);
	for (i = 0; i < PD67_NR_TIMINGS; i++)
		pcl_exca_write(exca, PD67_TIMING(i), sock->cirrus_timing[i]);
	if (waking)
		msleep(PD67_WAKE_MS);
}

static void i82365_add_socket(struct i82365 *chip, struct i82365_port *port,
			      unsigned int nr)
{
	struct i82365_socket *sock = &chip->sockets[chip->nr_sockets];
	unsigned int caps = 0;
	char model[32];
	int info;
	u8 id;

	sock->chip = chip;
	sock->port = port;
	sock->nr = nr;
	sock->index = (nr % I82365_PORT_SOCKETS) * I82365_SOCKET_STRIDE;

	id = port_read(port, sock->index + EXCA_IDREV);
	if (!i82365_model(id))
		return;

	info = i82365_cirrus_info(port, sock->index);
	if (info >= 0) {
		sock->cirrus = true;
		snprintf(model, sizeof(model), "Cirrus %s rev %lu",
			 info & PD67_INFO_TWO_SLOTS ? "PD672x" : "PD6710",
			 FIELD_GET(PD67_INFO_REV, info));
		caps = PCL_EXCA_VCC_MISC1;
	} else {
		strscpy(model, i82365_model(id), sizeof(model));
		/* the DF step's Vcc field has a 3.3 V setting instead of Vpp2 */
		if (FIELD_GET(I82365_ID_REV, id) == 4)
			caps = PCL_EXCA_VCC_3V3;
	}

	pcl_exca_setup(&sock->exca, &i82365_bus, caps);
	if (!i82365_sockets_distinct(chip, chip->nr_sockets + 1)) {
		dev_warn(chip->dev, "socket %u at %#lx mirrors another one, ignored\n",
			 nr, port->base);
		return;
	}
	dev_info(chip->dev, "socket %u: %s at %#lx, index 0x%02x\n", nr, model,
		 port->base, sock->index);
	if (sock->cirrus)
		i82365_cirrus_options(chip, sock);
	chip->nr_sockets++;
	pcl_exca_line_add(&chip->line, &sock->exca);
}

static void i82365_probe_port(struct i82365 *chip, unsigned int p)
{
	struct i82365_port *port = &chip->ports[p];
	unsigned int found = chip->nr_sockets;
	unsigned int nr;

	port->base = i365_base + 2 * p;
	spin_lock_init(&port->lock);
	if (!devm_request_region(chip->dev, port->base, I82365_PORT_SIZE,
				 I82365_NAME)) {
		dev_warn(chip->dev, "ports %#lx-%#lx are in use\n", port->base,
			 port->base + I82365_PORT_SIZE - 1);
		return;
	}

	for (nr = p * I82365_PORT_SOCKETS; nr < (p + 1) * I82365_PORT_SOCKETS;
	     nr++)
		if (nr != ignore)
			i82365_add_socket(chip, port, nr);

	if (chip->nr_sockets == found)
		devm_release_region(chip->dev, port->base, I82365_PORT_SIZE);
}

/* --- Interrupts --- */

/*
 * The interrupt test raises a card detect change on the first socket,
 * which the test's handler acknowledges by reading the change register.
 */
static void i82365_test_raise(struct pcl_isa *isa, unsigned int irq)
{
	struct pcl_exca *exca = &to_i82365(isa)->sockets[0].exca;

	if (irq) {
		pcl_exca_write(exca, EXCA_CSC_INTCFG,
			       EXCA_CSC_DETECT | FIELD_PREP(EXCA_CSC_IRQ, irq));
		pcl_exca_write(exca, EXCA_CARD_GENCTL, EXCA_GENCTL_SW_CD);
		return;
	}
	pcl_exca_write(exca, EXCA_CSC_INTCFG, 0);
	pcl_exca_write(exca, EXCA_CARD_GENCTL, 0);
	pcl_exca_read(exca, EXCA_CSC);
}

static void i82365_test_ack(struct pcl_isa *isa)
{
	pcl_exca_read(&to_i82365(isa)->sockets[0].exca, EXCA_CSC);
}

/* --- Setup and teardown --- */

/*
 * Status changes that clear when read, no software card detect; a Cirrus
 * chip's registers of its own (no global control) as the options want.
 */
static void i82365_setup_chip(struct pcl_isa *isa)
{
	struct i82365 *chip = to_i82365(isa);
	unsigned int i;

	for (i = 0; i < chip->nr_sockets; i++) {
		struct i82365_socket *sock = &chip->sockets[i];
		struct pcl_exca *exca = &sock->exca;

		if (sock->cirrus) {
			i82365_cirrus_apply(sock);
		} else {
			pcl_exca_write(exca, EXCA_GLOBAL_CTL, 0);
			pcl_exca_write(exca, EXCA_CARD_GENCTL, 0);
		}
		pcl_exca_quiet(exca);
	}
}

static void i82365_init_socket(struct i82365 *chip, struct i82365_socket *sock)
{
	sock->exca.csc_irq = chip->isa.cs_irq;
	sock->exca.cycle_ns = cycle_time > 0 ? cycle_time : EXCA_CYCLE_NS;
	pcl_isa_init_socket(&chip->isa, &sock->exca.socket);
}

static void i82365_teardown(struct pcl_isa *isa)
{
	struct i82365 *chip = to_i82365(isa);
	unsigned int i;

	for (i = 0; i < chip->nr_sockets; i++)
		pcl_exca_stop_events(&chip->sockets[i].exca);
	pcl_isa_stop(isa);

	for (i = 0; i < chip->nr_sockets; i++) {
		struct i82365_socket *sock = &chip->sockets[i];

		if (sock->registered) {
			/* removes a card that is still there, then the socket */
			pcmcia_unregister_socket(&sock->exca.socket);
			sock->registered = false;
		}
		/* the core leaves card detection armed on a dead socket */
		pcl_exca_quiet(&sock->exca);
	}
	pcl_isa_release(isa);
}

static const struct pcl_isa_ops i82365_isa_ops = {
	.test_raise	= i82365_test_raise,
	.test_ack	= i82365_test_ack,
	.restore	= i82365_setup_chip,
	.teardown	= i82365_teardown,
};

static int __init i82365_probe(struct platform_device *pdev)
{
	struct i82365 *chip;
	unsigned int i;
	int ret;

	chip = devm_kzalloc(&pdev->dev, sizeof(*chip), GFP_KERNEL);
	if (!chip)
		return -ENOMEM;
	chip->dev = &pdev->dev;
	chip->line.dev = &pdev->dev;
	pcl_isa_init(&chip->isa, pdev, &i82365_isa_ops);
	chip->isa.csc_handler = pcl_exca_line_irq;
	chip->isa.csc_data = &chip->line;

	i82365_probe_port(chip, 0);
	if (extra_sockets || !chip->nr_sockets)
		i82365_probe_port(chip, 1);
	if (!chip->nr_sockets) {
		dev_info(&pdev->dev, "no controller at %#lx or %#lx\n",
			 i365_base, i365_base + 2);
		return -ENODEV;
	}

	if (async_clock >= 0 || cable_mode >= 0)
		dev_info(&pdev->dev, "async_clock and cable_mode are for Vadem chips: ignored\n");
	i82365_setup_chip(&chip->isa);
	chip->isa.chip_irqs = I82365_ISA_IRQS & ~chip->pin_uses;
	chip->isa.auto_cs_irqs = I82365_AUTO_CS_IRQS;
	pcl_isa_setup_irqs(&chip->isa);

	for (i = 0; i < chip->nr_sockets; i++) {
		struct i82365_socket *sock = &chip->sockets[i];

		i82365_init_socket(chip, sock);
		ret = pcl_exca_register(&sock->exca);
		if (ret) {
			dev_err(&pdev->dev, "cannot register socket %u: %d\n",
				sock->nr, ret);
			i82365_teardown(&chip->isa);
			return ret;
		}
		sock->registered = true;
	}
	pcl_isa_start(&chip->isa);
	return 0;
}

/*
 * What PnP firmware calls these controllers: the aliases let udev load
 * the module on machines that list one (the probe itself goes by ports).
 */
static const struct pnp_device_id i82365_pnp_ids[] = {
	{ .id = "PNP0e00" },	/* Intel 82365-compatible */
	{ .id = "PNP0e01" },	/* Cirrus Logic CL-PD6720 */
	{ .id = "PNP0e02" },	/* VLSI VL82C146 */
	{ }
};
MODULE_DEVICE_TABLE(pnp, i82365_pnp_ids);

static int __init i82365_init(void)
{
	return pcl_isa_driver_init(i82365_probe);
}
module_init(i82365_init);

static void __exit i82365_exit(void)
{
	pcl_isa_driver_exit();
}
module_exit(i82365_exit);

MODULE_DESCRIPTION("Intel 82365SL and compatible ISA to PC Card bridges");
MODULE_LICENSE("GPL");
