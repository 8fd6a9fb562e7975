// SPDX-License-Identifier: GPL-2.0-only
/*
 * Databook TCIC-2 ISA to PC Card bridges (DB86082 and its successors).
 *
 * The chip has two sockets behind sixteen ports in ISA I/O space (0x240
 * unless tcic_base says otherwise).  Unlike the 82365SL family it has a
 * register file of its own: a 32-bit address register selects a socket
 * and one of the indirect registers (per-socket configuration and a pool
 * of memory and I/O windows), which the data register then reads and
 * writes; a mode register selects which auxiliary register (system
 * configuration, card reset interlock, diagnostics) the aux port shows.
 *
 * Card interrupts and the status change interrupt go to ISA lines the
 * driver programs; which lines are wired and free is found out by making
 * the chip raise them.  Without a usable line the driver polls for
 * status changes.  All that, the sockets' "PCI" interrupt and cb_dev,
 * the platform device and system sleep are the same as for the ISA 82365:
 * isa_socket.c has them.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <pcmcia/ss.h>

#include "isa_socket.h"

#define TCIC_NAME		"tcic"
#define TCIC_PORT_SIZE		16
#define TCIC_SOCKETS		2
#define TCIC_MEM_MAPS		4	/* memory windows per socket */
#define TCIC_IO_MAPS		2	/* I/O windows per socket */

/* Direct registers: offsets from tcic_base */
#define TCIC_DATA		0x00	/* 16 bit */
#define TCIC_ADDR_LO		0x02	/* 16 bit, address bits 15:0 */
#define TCIC_ADDR_HI		0x04	/* 16 bit, address bits 31:16 */
#define TCIC_SCTRL		0x06
#define TCIC_SSTAT		0x07
#define TCIC_MODE		0x08
#define TCIC_PWR		0x09
#define TCIC_ICSR		0x0c
#define TCIC_IENA		0x0d
#define TCIC_AUX		0x0e	/* 16 bit */

/* TCIC_ADDR_HI */
#define TCIC_HI_SOCKET		GENMASK(14, 12)
#define TCIC_HI_INDIRECT	BIT(11)

#define TCIC_SCTRL_ENA		BIT(0)	/* card cycles enabled */
#define TCIC_SCTRL_RESET	BIT(7)	/* software reset of the whole chip */

#define TCIC_SSTAT_LBAT1	BIT(3)
#define TCIC_SSTAT_LBAT2	BIT(4)
#define TCIC_SSTAT_RDY		BIT(5)
#define TCIC_SSTAT_WP		BIT(6)
#define TCIC_SSTAT_CD		BIT(7)

#define TCIC_MODE_PGM		GENMASK(4, 0)
#define TCIC_MODE_AUX		GENMASK(7, 5)

/* per socket, two switches: both mean Vcc on with Vpp 0 V */
#define TCIC_PWR_VCC(n)		BIT(n)
#define TCIC_PWR_VPP(n)		BIT(3 + (n))

/* TCIC_ICSR: bits 1:0 of a write say what the others do */
#define TCIC_ICSR_CLEAR		BIT(0)	/* bits written 0 are cleared */
#define TCIC_ICSR_SET		BIT(1)	/* bits written 1 are set */
#define TCIC_ICSR_JAM		(TCIC_ICSR_CLEAR | TCIC_ICSR_SET)
#define TCIC_ICSR_ERR		BIT(5)
#define TCIC_ICSR_CDCHG		BIT(6)	/* an unmasked status bit changed */

#define TCIC_IENA_OFF		0	/* interrupt pin high impedance */
#define TCIC_IENA_HIGH		3	/* active high, driven: ISA */
#define TCIC_IENA_ERR		BIT(5)
#define TCIC_IENA_CDCHG		BIT(6)

/* Auxiliary registers, by TCIC_MODE_AUX */
#define TCIC_AUX_WCTL		2
#define TCIC_AUX_SYSCFG		5
#define TCIC_AUX_ILOCK		6
#define TCIC_AUX_TEST		7

#define TCIC_WCTL_WAIT		GENMASK(4, 0)	/* half wait states */
#define TCIC_WCTL_SENSE		BIT(6)

#define TCIC_SYSCFG_IRQ		GENMASK(3, 0)	/* status change line */
#define TCIC_SYSCFG_AUTOBUSY	BIT(14)

#define TCIC_ILOCK_CRESET	BIT(2)	/* card RESET level */
#define TCIC_ILOCK_CRESENA	BIT(3)	/* drive card RESET */
#define TCIC_ILOCK_CWAIT	BIT(4)	/* honour the card's WAIT# */
#define TCIC_ILOCK_HOLD_CCLK	GENMASK(7, 6)
#define TCIC_ILOCK_ID		GENMASK(14, 8)	/* in diagnostic mode */

#define TCIC_TEST_DIAG		BIT(15)

/* Indirect registers */
#define TCIC_SCF1(n)		((n) << 3)
#define TCIC_SCF2(n)		(((n) << 3) + 2)
#define TCIC_MWIN(w)		(0x100 + ((w) << 3))	/* w: 0-7 */
#define TCIC_MWIN_BASE		2
#define TCIC_MWIN_MAP		4
#define TCIC_MWIN_CTL		6
#define TCIC_IWIN(w)		(0x200 + ((w) << 2))	/* w: 0-3 */
#define TCIC_IWIN_BASE		0
#define TCIC_IWIN_CTL		2

#define TCIC_SCF1_IRQ		GENMASK(3, 0)
#define TCIC_SCF1_IOSTS		BIT(11)	/* I/O card interface */
#define TCIC_SCF1_SPKR		BIT(12)
#define TCIC_SCF1_FINPACK	BIT(13)

/* SCF2 masks status change events bit for bit with TCIC_SSTAT 7:3 */
#define TCIC_SCF2_MASK_ALL	GENMASK(7, 3)

#define TCIC_MBASE_ADDR		GENMASK(11, 0)	/* host A23:12 */
#define TCIC_MBASE_4K		BIT(14)
#define TCIC_MMAP_OFFSET	GENMASK(13, 0)	/* card - host, 4 KB units */
#define TCIC_MMAP_ATTR		BIT(15)

/* memory and I/O window control */
#define TCIC_WIN_WAIT		GENMASK(4, 0)
#define TCIC_MCTL_WP		BIT(7)
#define TCIC_ICTL_TINY		BIT(9)	/* one byte */
#define TCIC_ICTL_16BIT		BIT(10)
#define TCIC_WIN_8BIT		BIT(11)
#define TCIC_WIN_SOCKET		GENMASK(14, 12)
#define TCIC_WIN_ENA		BIT(15)

/* IRQ field values: the lines themselves, but IRQ 11 is the SKTIRQ pin */
#define TCIC_ISA_IRQS		0x4cf8	/* 3-7, 10, 11, 14 */
#define TCIC_SKTIRQ		11
#define TCIC_SKTIRQ_CODE	1

/* rounds of status reads per interrupt before giving up */
#define TCIC_IRQ_ROUNDS		16

#define TCIC_CARD_ADDR_MAX	(SZ_64M - 1)
#define TCIC_HOST_ADDR_MAX	(SZ_16M - 1)

static unsigned long tcic_base = 0x240;
module_param_hw(tcic_base, ulong, ioport, 0444);
MODULE_PARM_DESC(tcic_base, "I/O port of the controller (default 0x240)");

static int ignore = -1;
module_param(ignore, int, 0444);
MODULE_PARM_DESC(ignore, "Socket number (0 or 1) to leave alone (default -1: none)");

/* do_scan, irq_mask, irq_list, cs_irq, poll_interval: see isa_socket.c */

static int poll_quick = HZ / 20;
module_param(poll_quick, int, 0444);
MODULE_PARM_DESC(poll_quick,
		 "Look at the sockets again so many jiffies after a status change (default HZ/20; 0: never)");

static int cycle_time = 70;
module_param(cycle_time, int, 0444);
MODULE_PARM_DESC(cycle_time, "Period of the chip's CCLK in ns, for wait states (default 70)");

struct tcic;

struct tcic_socket {
	struct pcmcia_socket socket;
	struct tcic *chip;
	unsigned int nr;		/* 0 or 1: the chip's socket */
	u8 sstat;			/* status as last reported */
	bool live;			/* forward status changes to the core */
	bool registered;
	/* memory window registers as last written, see tcic_set_mem_map() */
	u16 mbase[TCIC_MEM_MAPS];
	u16 mctl[TCIC_MEM_MAPS];
};

struct tcic {
	struct pcl_isa isa;		/* lines, polling, the platform device */
	struct device *dev;
	unsigned long base;
	spinlock_t lock;		/* the address and mode registers */
	u8 id;
	unsigned int nr_sockets;
	struct tcic_socket sockets[TCIC_SOCKETS];
	struct delayed_work recheck;	/* poll_quick after a change */
};

static struct tcic *to_tcic(struct pcl_isa *isa)
{
	return container_of(isa, struct tcic, isa);
}

/* --- Register access; callers hold chip->lock --- */

static void tcic_select(struct tcic *chip, unsigned int nr, u16 reg)
{
	outw(reg, chip->base + TCIC_ADDR_LO);
	outw(FIELD_PREP(TCIC_HI_SOCKET, nr) | TCIC_HI_INDIRECT,
	     chip->base + TCIC_ADDR_HI);
}

static u16 tcic_ind_read(struct tcic *chip, unsigned int nr, u16 reg)
{
	tcic_select(chip, nr, reg);
	return inw(chip->base + TCIC_DATA);
}

static void tcic_ind_write(struct tcic *chip, unsigned int nr, u16 reg,
			   u16 val)
{
	tcic_select(chip, nr, reg);
	outw(val, chip->base + TCIC_DATA);
}

/* The auxiliary register aux, of the socket the address selects. */
static void tcic_aux_select(struct tcic *chip, unsigned int aux)
{
	u8 mode = inb(chip->base + TCIC_MODE);

	mode = (mode & TCIC_MODE_PGM) | FIELD_PREP(TCIC_MODE_AUX, aux);
	outb(mode, chip->base + TCIC_MODE);
}

static u16 tcic_aux_read(struct tcic *chip, unsigned int aux)
{
	tcic_aux_select(chip, aux);
	return inw(chip->base + TCIC_AUX);
}

static void tcic_aux_write(struct tcic *chip, unsigned int aux, u16 val)
{
	tcic_aux_select(chip, aux);
	outw(val, chip->base + TCIC_AUX);
}

static struct tcic_socket *to_tcic_socket(struct pcmcia_socket *socket)
{
	return container_of(socket, struct tcic_socket, socket);
}

/* --- Finding the chip --- */

static const char *tcic_model(u8 id)
{
	switch (id) {
	case 0x02:
		return "DB86082";
	case 0x03:
		return "DB86082A";
	case 0x04:
		return "DB86084";
	case 0x05:
		return "DB86072 (sample)";
	case 0x07:
		return "DB86082B (sample)";
	case 0x08:
		return "DB86084A";
	case 0x14:
		return "DB86184";
	case 0x15:
		return "DB86072";
	case 0x17:
		return "DB86082B";
	default:
		return NULL;
	}
}

/* Whether the address register holds what is written to it. */
static bool tcic_addr_holds(struct tcic *chip)
{
	static const u16 patterns[] = { 0x0000, 0xc3a5, 0x3c5a };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(patterns); i++) {
		outw(patterns[i], chip->base + TCIC_ADDR_LO);
		if (inw(chip->base + TCIC_ADDR_LO) != patterns[i])
			return false;
	}
	outw(0, chip->base + TCIC_ADDR_LO);
	return true;
}

static bool tcic_detect(struct tcic *chip)
{
	u16 ilock;

	if (!tcic_addr_holds(chip)) {
		/* a chip left in a strange state may answer after a reset */
		outb(TCIC_SCTRL_RESET, chip->base + TCIC_SCTRL);
		outb(0, chip->base + TCIC_SCTRL);
		if (!tcic_addr_holds(chip))
			return false;
	}
	outw(0, chip->base + TCIC_ADDR_HI);
	tcic_aux_write(chip, TCIC_AUX_TEST, TCIC_TEST_DIAG);
	ilock = tcic_aux_read(chip, TCIC_AUX_ILOCK);
	tcic_aux_write(chip, TCIC_AUX_TEST, 0);
	chip->id = FIELD_GET(TCIC_ILOCK_ID, ilock);
	return true;
}

/* --- Interrupts --- */

static u8 tcic_irq_code(unsigned int irq)
{
	return irq == TCIC_SKTIRQ ? TCIC_SKTIRQ_CODE : irq;
}

/*
 * The chip's interrupt setup: status changes on cs_irq, or none.  Again
 * after a system resume, as a power loss resets it.
 */
static void tcic_setup_chip(struct pcl_isa *isa)
{
	struct tcic *chip = to_tcic(isa);
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&chip->lock, flags);
	tcic_aux_write(chip, TCIC_AUX_SYSCFG, TCIC_SYSCFG_AUTOBUSY |
		       FIELD_PREP(TCIC_SYSCFG_IRQ,
				  tcic_irq_code(chip->isa.cs_irq)));
	for (i = 0; i < chip->nr_sockets; i++) {
		struct tcic_socket *sock = &chip->sockets[i];

		tcic_select(chip, sock->nr, 0);
		outb(TCIC_ICSR_JAM, chip->base + TCIC_ICSR);
		outb(chip->isa.cs_irq ? TCIC_IENA_CDCHG | TCIC_IENA_HIGH :
					TCIC_IENA_OFF,
		     chip->base + TCIC_IENA);
		sock->sstat = inb(chip->base + TCIC_SSTAT);
	}
	spin_unlock_irqrestore(&chip->lock, flags);
}

static unsigned int tcic_events(struct tcic *chip, unsigned int nr, u8 changed)
{
	unsigned int events = 0;
	bool iocard;

	iocard = tcic_ind_read(chip, nr, TCIC_SCF1(nr)) & TCIC_SCF1_IOSTS;
	if (changed & TCIC_SSTAT_CD)
		events |= SS_DETECT;
	if (changed & TCIC_SSTAT_WP)
		events |= SS_WRPROT;
	if (iocard) {
		if (changed & TCIC_SSTAT_LBAT1)
			events |= SS_STSCHG;
		return events;
	}
	if (changed & TCIC_SSTAT_RDY)
		events |= SS_READY;
	if (changed & TCIC_SSTAT_LBAT1)
		events |= SS_BATDEAD;
	if (changed & TCIC_SSTAT_LBAT2)
		events |= SS_BATWARN;
	return events;
}

/*
 * Acknowledge a socket's status change, then see what changed since it
 * was last looked at.  Returns whether the chip had a change latched.
 */
static bool tcic_check_socket(struct tcic_socket *sock)
{
	struct tcic *chip = sock->chip;
	unsigned int events = 0;
	unsigned long flags;
	u8 icsr, sstat;

	spin_lock_irqsave(&chip->lock, flags);
	tcic_select(chip, sock->nr, 0);
	icsr = inb(chip->base + TCIC_ICSR);
	if (icsr & TCIC_ICSR_CDCHG)
		outb(TCIC_ICSR_CLEAR, chip->base + TCIC_ICSR);
	sstat = inb(chip->base + TCIC_SSTAT);
	if (sstat != sock->sstat)
		events = tcic_events(chip, sock->nr, sstat ^ sock->sstat);
	sock->sstat = sstat;
	spin_unlock_irqrestore(&chip->lock, flags);

	if (events) {
		dev_dbg(&sock->socket.dev, "status %#x, events %#x\n", sstat,
			events);
		if (READ_ONCE(sock->live))
			pcmcia_parse_events(&sock->socket, events);
	}
	return icsr & TCIC_ICSR_CDCHG;
}

/*
 * Until no socket has a change latched: the line is edge-triggered, and a
 * change left latched would keep it up and so never give another edge.
 */
static irqreturn_t tcic_interrupt(int irq, void *data)
{
	struct tcic *chip = data;
	bool handled = false;
	unsigned int round, i;

	for (round = 0; round < TCIC_IRQ_ROUNDS; round++) {
		bool pending = false;

		for (i = 0; i < chip->nr_sockets; i++)
			if (tcic_check_socket(&chip->sockets[i]))
				pending = true;
		if (!pending)
			break;
		handled = true;
	}
	if (round == TCIC_IRQ_ROUNDS)
		dev_warn_ratelimited(chip->dev,
				     "status changes keep arriving, deferring the rest\n");
	/* a card's contacts may still bounce: look again shortly */
	if (handled && poll_quick > 0)
		schedule_delayed_work(&chip->recheck, poll_quick);
	return IRQ_RETVAL(handled);
}

static void tcic_recheck(struct work_struct *work)
{
	struct tcic *chip = container_of(to_delayed_work(work), struct tcic,
					 recheck);
	unsigned int i;

	for (i = 0; i < chip->nr_sockets; i++)
		tcic_check_socket(&chip->sockets[i]);
}

/* No rechecks while the system sleeps. */
static void tcic_suspend(struct pcl_isa *isa)
{
	cancel_delayed_work_sync(&to_tcic(isa)->recheck);
}

/*
 * The interrupt test latches an error interrupt on the first socket, on
 * the line the system configuration register names; the test's handler
 * clears it.
 */
static void tcic_test_ack(struct pcl_isa *isa)
{
	struct tcic *chip = to_tcic(isa);
	unsigned long flags;

	spin_lock_irqsave(&chip->lock, flags);
	tcic_select(chip, chip->sockets[0].nr, 0);
	outb(TCIC_ICSR_JAM, chip->base + TCIC_ICSR);
	spin_unlock_irqrestore(&chip->lock, flags);
}

static void tcic_test_raise(struct pcl_isa *isa, unsigned int irq)
{
	struct tcic *chip = to_tcic(isa);
	unsigned long flags;

	spin_lock_irqsave(&chip->lock, flags);
	tcic_select(chip, chip->sockets[0].nr, 0);
	if (irq) {
		tcic_aux_write(chip, TCIC_AUX_SYSCFG,
			       FIELD_PREP(TCIC_SYSCFG_IRQ, tcic_irq_code(irq)));
		outb(TCIC_IENA_ERR | TCIC_IENA_HIGH, chip->base + TCIC_IENA);
		outb(TCIC_ICSR_ERR | TCIC_ICSR_JAM, chip->base + TCIC_ICSR);
	} else {
		outb(TCIC_IENA_OFF, chip->base + TCIC_IENA);
		outb(TCIC_ICSR_JAM, chip->base + TCIC_ICSR);
		tcic_aux_write(chip, TCIC_AUX_SYSCFG, 0);
	}
	spin_unlock_irqrestore(&chip->lock, flags);
}

/* --- Socket operations --- */

/* Wait states, in half CCLK periods, for a cycle of ns nanoseconds. */
static unsigned int tcic_wait_states(unsigned int ns)
{
	unsigned int clk = cycle_time > 0 ? cycle_time : 70;

	return min_t(unsigned int, 2 * ns / clk, FIELD_MAX(TCIC_WIN_WAIT));
}

static int tcic_get_status(struct pcmcia_socket *socket, u_int *value)
{
	struct tcic_socket *sock = to_tcic_socket(socket);
	struct tcic *chip = sock->chip;
	unsigned int nr = sock->nr;
	unsigned long flags;
	unsigned int v = 0;
	u8 sstat, pwr;
	u16 scf1;

	spin_lock_irqsave(&chip->lock, flags);
	scf1 = tcic_ind_read(chip, nr, TCIC_SCF1(nr));
	sstat = inb(chip->base + TCIC_SSTAT);
	pwr = inb(chip->base + TCIC_PWR);
	spin_unlock_irqrestore(&chip->lock, flags);

	if (sstat & TCIC_SSTAT_CD)
		v |= SS_DETECT;
	if (sstat & TCIC_SSTAT_WP)
		v |= SS_WRPROT;
	if (scf1 & TCIC_SCF1_IOSTS) {
		if (sstat & TCIC_SSTAT_LBAT1)
			v |= SS_STSCHG;
	} else {
		if (sstat & TCIC_SSTAT_RDY)
			v |= SS_READY;
		if (sstat & TCIC_SSTAT_LBAT1)
			v |= SS_BATDEAD;
		if (sstat & TCIC_SSTAT_LBAT2)
			v |= SS_BATWARN;
	}
	if (pwr & (TCIC_PWR_VCC(nr) | TCIC_PWR_VPP(nr)))
		v |= SS_POWERON;
	*value = v;
	return 0;
}

static int tcic_power_bits(const socket_state_t *state, unsigned int nr,
			   u8 *pwr)
{
	if (state->Vcc == 0)
		return state->Vpp ? -EINVAL : 0;
	if (state->Vcc != 50)
		return -EINVAL;
	switch (state->Vpp) {
	case 0:
		*pwr |= TCIC_PWR_VCC(nr) | TCIC_PWR_VPP(nr);
		return 0;
	case 50:
		*pwr |= TCIC_PWR_VCC(nr);
		return 0;
	case 120:
		*pwr |= TCIC_PWR_VPP(nr);
		return 0;
	}
	return -EINVAL;
}

/* SCF2 bits that mask the events the core does not want. */
static u16 tcic_csc_masks(const socket_state_t *state)
{
	u16 on = 0;

	if (state->csc_mask & SS_DETECT)
		on |= TCIC_SSTAT_CD;
	if (state->flags & SS_IOCARD) {
		if (state->csc_mask & SS_STSCHG)
			on |= TCIC_SSTAT_LBAT1;
	} else {
		if (state->csc_mask & SS_BATDEAD)
			on |= TCIC_SSTAT_LBAT1;
		if (state->csc_mask & SS_BATWARN)
			on |= TCIC_SSTAT_LBAT2;
		if (state->csc_mask & SS_READY)
			on |= TCIC_SSTAT_RDY;
	}
	return TCIC_SCF2_MASK_ALL & ~on;
}

static int tcic_set_socket(struct pcmcia_socket *socket, socket_state_t *state)
{
	struct tcic_socket *sock = to_tcic_socket(socket);
	struct tcic *chip = sock->chip;
	unsigned int nr = sock->nr;
	unsigned long flags;
	u16 ilock, scf1;
	u8 pwr, bits = 0;
	int ret;

	ret = tcic_power_bits(state, nr, &bits);
	if (ret) {
		dev_err(&socket->dev, "unsupported power Vcc %u Vpp %u\n",
			state->Vcc, state->Vpp);
		return ret;
	}
	if (state->io_irq >= 16 ||
	    (state->io_irq && !(TCIC_ISA_IRQS & BIT(state->io_irq))))
		return -EINVAL;

	ilock = TCIC_ILOCK_HOLD_CCLK | TCIC_ILOCK_CWAIT;
	if (state->flags & SS_OUTPUT_ENA)
		ilock |= TCIC_ILOCK_CRESENA;
	if (state->flags & SS_RESET)
		ilock |= TCIC_ILOCK_CRESET;

	scf1 = FIELD_PREP(TCIC_SCF1_IRQ,
			  state->io_irq ? tcic_irq_code(state->io_irq) : 0);
	if (state->flags & SS_IOCARD) {
		scf1 |= TCIC_SCF1_IOSTS | TCIC_SCF1_FINPACK;
		if (state->flags & SS_SPKR_ENA)
			scf1 |= TCIC_SCF1_SPKR;
	}

	dev_dbg(&socket->dev,
		"set_socket flags %#x csc %#x Vcc %u Vpp %u irq %u\n",
		state->flags, state->csc_mask, state->Vcc, state->Vpp,
		state->io_irq);

	spin_lock_irqsave(&chip->lock, flags);
	tcic_select(chip, nr, TCIC_SCF1(nr));
	pwr = inb(chip->base + TCIC_PWR);
	bits |= pwr & ~(TCIC_PWR_VCC(nr) | TCIC_PWR_VPP(nr));
	if (bits != pwr)
		outb(bits, chip->base + TCIC_PWR);
	outb(state->flags & SS_OUTPUT_ENA ? TCIC_SCTRL_ENA : 0,
	     chip->base + TCIC_SCTRL);
	tcic_aux_write(chip, TCIC_AUX_ILOCK, ilock);
	tcic_aux_write(chip, TCIC_AUX_WCTL, TCIC_WCTL_SENSE |
		       FIELD_PREP(TCIC_WCTL_WAIT, tcic_wait_states(250)));
	outw(scf1, chip->base + TCIC_DATA);
	tcic_ind_write(chip, nr, TCIC_SCF2(nr), tcic_csc_masks(state));
	spin_unlock_irqrestore(&chip->lock, flags);
	return 0;
}

/* A window of size bytes at start: a power of two, aligned to it. */
static bool tcic_window_ok(u64 start, u64 size)
{
	return is_power_of_2(size) && !(start & (size - 1));
}

static int tcic_set_io_map(struct pcmcia_socket *socket,
			   struct pccard_io_map *io)
{
	struct tcic_socket *sock = to_tcic_socket(socket);
	struct tcic *chip = sock->chip;
	unsigned int win = sock->nr * TCIC_IO_MAPS + io->map;
	unsigned long flags;
	u64 size;
	u16 base, ctl;

	if (io->map >= TCIC_IO_MAPS || io->start > io->stop ||
	    io->stop > 0xffff)
		return -EINVAL;
	size = io->stop - io->start + 1;
	if (!tcic_window_ok(io->start, size)) {
		dev_err(&socket->dev, "I/O window %u: cannot decode %#llx-%#llx\n",
			io->map, (unsigned long long)io->start,
			(unsigned long long)io->stop);
		return -EINVAL;
	}

	/* the lowest set bit of the base is half the size */
	base = io->start | size >> 1;
	ctl = FIELD_PREP(TCIC_WIN_SOCKET, sock->nr) |
	      FIELD_PREP(TCIC_WIN_WAIT, tcic_wait_states(io->speed));
	if (size == 1)
		ctl |= TCIC_ICTL_TINY;
	if (!(io->flags & MAP_AUTOSZ))
		ctl |= io->flags & MAP_16BIT ? TCIC_ICTL_16BIT : TCIC_WIN_8BIT;

	dev_dbg(&socket->dev, "io window %u: %#llx-%#llx flags %#x\n", io->map,
		(unsigned long long)io->start, (unsigned long long)io->stop,
		io->flags);

	spin_lock_irqsave(&chip->lock, flags);
	/* never let the window decode a half-written range */
	tcic_ind_write(chip, sock->nr, TCIC_IWIN(win) + TCIC_IWIN_CTL, ctl);
	tcic_ind_write(chip, sock->nr, TCIC_IWIN(win) + TCIC_IWIN_BASE, base);
	if (io->flags & MAP_ACTIVE)
		tcic_ind_write(chip, sock->nr, TCIC_IWIN(win) + TCIC_IWIN_CTL,
			       ctl | TCIC_WIN_ENA);
	spin_unlock_irqrestore(&chip->lock, flags);
	return 0;
}

static int tcic_set_mem_map(struct pcmcia_socket *socket,
			    struct pccard_mem_map *mem)
{
	struct tcic_socket *sock = to_tcic_socket(socket);
	struct tcic *chip = sock->chip;
	unsigned int n = mem->map;
	unsigned int win = sock->nr * TCIC_MEM_MAPS + n;
	unsigned long flags;
	u64 start, size;
	u16 base, map, ctl;

	if (n >= TCIC_MEM_MAPS || !mem->res ||
	    mem->card_start > TCIC_CARD_ADDR_MAX)
		return -EINVAL;
	start = mem->res->start;
	size = resource_size(mem->res);
	if (mem->res->end > TCIC_HOST_ADDR_MAX || size < SZ_4K ||
	    !tcic_window_ok(start, size)) {
		dev_err(&socket->dev,
			"memory window %u: cannot decode %#llx-%#llx\n", n,
			(unsigned long long)start,
			(unsigned long long)mem->res->end);
		return -EINVAL;
	}

	if (size == SZ_4K)
		base = FIELD_PREP(TCIC_MBASE_ADDR, start >> 12) | TCIC_MBASE_4K;
	else
		base = FIELD_PREP(TCIC_MBASE_ADDR, (start | size >> 1) >> 12);
	/* card page = host page + offset, modulo the 26-bit card space */
	map = ((mem->card_start >> 12) - (start >> 12)) & TCIC_MMAP_OFFSET;
	if (mem->flags & MAP_ATTRIB)
		map |= TCIC_MMAP_ATTR;
	ctl = FIELD_PREP(TCIC_WIN_SOCKET, sock->nr) |
	      FIELD_PREP(TCIC_WIN_WAIT, tcic_wait_states(mem->speed));
	if (!(mem->flags & MAP_16BIT))
		ctl |= TCIC_WIN_8BIT;
	if (mem->flags & MAP_WRPROT)
		ctl |= TCIC_MCTL_WP;
	if (mem->flags & MAP_ACTIVE)
		ctl |= TCIC_WIN_ENA;

	dev_dbg(&socket->dev,
		"memory window %u: %#llx-%#llx card %#x flags %#x\n", n,
		(unsigned long long)start, (unsigned long long)mem->res->end,
		mem->card_start, mem->flags);

	spin_lock_irqsave(&chip->lock, flags);
	/*
	 * The CIS reader moves an open window to another card address every
	 * few bytes: then only the offset changes, and the window stays on.
	 */
	if ((ctl & TCIC_WIN_ENA) && sock->mctl[n] == ctl &&
	    sock->mbase[n] == base) {
		tcic_ind_write(chip, sock->nr, TCIC_MWIN(win) + TCIC_MWIN_MAP,
			       map);
		goto out;
	}
	tcic_ind_write(chip, sock->nr, TCIC_MWIN(win) + TCIC_MWIN_CTL,
		       ctl & ~TCIC_WIN_ENA);
	tcic_ind_write(chip, sock->nr, TCIC_MWIN(win) + TCIC_MWIN_BASE, base);
	tcic_ind_write(chip, sock->nr, TCIC_MWIN(win) + TCIC_MWIN_MAP, map);
	if (ctl & TCIC_WIN_ENA)
		tcic_ind_write(chip, sock->nr, TCIC_MWIN(win) + TCIC_MWIN_CTL,
			       ctl);
	sock->mbase[n] = base;
	sock->mctl[n] = ctl;
out:
	spin_unlock_irqrestore(&chip->lock, flags);
	return 0;
}

/* Close every window of the socket. */
static int tcic_init(struct pcmcia_socket *socket)
{
	struct tcic_socket *sock = to_tcic_socket(socket);
	struct tcic *chip = sock->chip;
	unsigned int nr = sock->nr;
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&chip->lock, flags);
	for (n = 0; n < TCIC_MEM_MAPS; n++) {
		tcic_ind_write(chip, nr,
			       TCIC_MWIN(nr * TCIC_MEM_MAPS + n) + TCIC_MWIN_CTL,
			       0);
		sock->mbase[n] = 0;
		sock->mctl[n] = 0;
	}
	for (n = 0; n < TCIC_IO_MAPS; n++)
		tcic_ind_write(chip, nr,
			       TCIC_IWIN(nr * TCIC_IO_MAPS + n) + TCIC_IWIN_CTL,
			       0);
	spin_unlock_irqrestore(&chip->lock, flags);
	return 0;
}

/* The core's socket pointer to its operations is not const. */
static struct pccard_operations tcic_ops = {
	.init		= tcic_init,
	.get_status	= tcic_get_status,
	.set_socket	= tcic_set_socket,
	.set_io_map	= tcic_set_io_map,
	.set_mem_map	= tcic_set_mem_map,
};

/* --- Setup and teardown --- */

static void tcic_init_socket(struct tcic *chip, struct tcic_socket *sock)
{
	struct pcmcia_socket *socket = &sock->socket;

	socket->ops = &tcic_ops;
	/* windows are powers of two, aligned to their size, 4 KB or more */
	socket->features = SS_CAP_PCCARD | SS_CAP_MEM_ALIGN;
	socket->map_size = SZ_4K;
	pcl_isa_init_socket(&chip->isa, socket);
}

/* Power off, no card interrupts, no status change interrupt. */
static void tcic_quiet(struct tcic *chip)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&chip->lock, flags);
	for (i = 0; i < chip->nr_sockets; i++) {
		unsigned int nr = chip->sockets[i].nr;

		tcic_ind_write(chip, nr, TCIC_SCF1(nr), 0);
		tcic_ind_write(chip, nr, TCIC_SCF2(nr), TCIC_SCF2_MASK_ALL);
		outb(TCIC_IENA_OFF, chip->base + TCIC_IENA);
		outb(TCIC_ICSR_JAM, chip->base + TCIC_ICSR);
	}
	tcic_aux_write(chip, TCIC_AUX_SYSCFG, 0);
	spin_unlock_irqrestore(&chip->lock, flags);
}

/* No more status change interrupts from any socket. */
static void tcic_stop_csc(struct tcic *chip)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&chip->lock, flags);
	for (i = 0; i < chip->nr_sockets; i++) {
		tcic_select(chip, chip->sockets[i].nr, 0);
		outb(TCIC_IENA_OFF, chip->base + TCIC_IENA);
	}
	spin_unlock_irqrestore(&chip->lock, flags);
}

static void tcic_teardown(struct pcl_isa *isa)
{
	struct tcic *chip = to_tcic(isa);
	unsigned int i;

	for (i = 0; i < chip->nr_sockets; i++)
		WRITE_ONCE(chip->sockets[i].live, false);
	/* the poll and the interrupt handler arm the recheck: stop them first */
	tcic_stop_csc(chip);
	pcl_isa_stop(isa);
	cancel_delayed_work_sync(&chip->recheck);

	for (i = 0; i < chip->nr_sockets; i++) {
		struct tcic_socket *sock = &chip->sockets[i];

		if (sock->registered) {
			/* removes a card that is still there, then the socket */
			pcmcia_unregister_socket(&sock->socket);
			sock->registered = false;
		}
	}
	tcic_quiet(chip);
	pcl_isa_release(isa);
}

static const struct pcl_isa_ops tcic_isa_ops = {
	.test_raise	= tcic_test_raise,
	.test_ack	= tcic_test_ack,
	.restore	= tcic_setup_chip,
	.suspend	= tcic_suspend,
	.teardown	= tcic_teardown,
};

static int tcic_register(struct tcic_socket *sock)
{
	int ret;

	/* status changes count from just before the core's first look */
	WRITE_ONCE(sock->live, true);
	ret = pcmcia_register_socket(&sock->socket);
	if (ret)
		WRITE_ONCE(sock->live, false);
	else
		sock->registered = true;
	return ret;
}

static int __init tcic_probe(struct platform_device *pdev)
{
	struct tcic *chip;
	unsigned int i;
	int ret;

	chip = devm_kzalloc(&pdev->dev, sizeof(*chip), GFP_KERNEL);
	if (!chip)
		return -ENOMEM;
	chip->dev = &pdev->dev;
	chip->base = tcic_base;
	spin_lock_init(&chip->lock);
	INIT_DELAYED_WORK(&chip->recheck, tcic_recheck);
	pcl_isa_init(&chip->isa, pdev, &tcic_isa_ops);
	chip->isa.chip_irqs = TCIC_ISA_IRQS;
	chip->isa.auto_cs_irqs = TCIC_ISA_IRQS;
	chip->isa.csc_handler = tcic_interrupt;
	chip->isa.csc_data = chip;

	if (!devm_request_region(chip->dev, chip->base, TCIC_PORT_SIZE,
				 TCIC_NAME)) {
		dev_warn(chip->dev, "ports %#lx-%#lx are in use\n", chip->base,
			 chip->base + TCIC_PORT_SIZE - 1);
		return -EBUSY;
	}
	if (!tcic_detect(chip)) {
		dev_info(chip->dev, "no controller at %#lx\n", chip->base);
		return -ENODEV;
	}
	if (tcic_model(chip->id))
		dev_info(chip->dev, "Databook %s at %#lx\n",
			 tcic_model(chip->id), chip->base);
	else
		dev_info(chip->dev, "TCIC-2 of unknown ID %#x at %#lx\n",
			 chip->id, chip->base);

	for (i = 0; i < TCIC_SOCKETS; i++) {
		struct tcic_socket *sock = &chip->sockets[chip->nr_sockets];

		if (i == ignore)
			continue;
		sock->chip = chip;
		sock->nr = i;
		chip->nr_sockets++;
	}
	if (!chip->nr_sockets)
		return -ENODEV;

	tcic_quiet(chip);
	pcl_isa_setup_irqs(&chip->isa);
	tcic_setup_chip(&chip->isa);

	for (i = 0; i < chip->nr_sockets; i++) {
		struct tcic_socket *sock = &chip->sockets[i];

		tcic_init_socket(chip, sock);
		ret = tcic_register(sock);
		if (ret) {
			dev_err(&pdev->dev, "cannot register socket %u: %d\n",
				sock->nr, ret);
			tcic_teardown(&chip->isa);
			return ret;
		}
		dev_info(&pdev->dev, "socket %u: %s\n", sock->nr,
			 dev_name(&sock->socket.dev));
	}
	pcl_isa_start(&chip->isa);
	return 0;
}

static int __init tcic_module_init(void)
{
	return pcl_isa_driver_init(tcic_probe);
}
module_init(tcic_module_init);

static void __exit tcic_module_exit(void)
{
	pcl_isa_driver_exit();
}
module_exit(tcic_module_exit);

MODULE_DESCRIPTION("Databook TCIC-2 ISA to PC Card bridges");
MODULE_LICENSE("GPL");
