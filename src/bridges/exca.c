// SPDX-License-Identifier: GPL-2.0-only
/*
 * ExCA (82365SL-compatible) socket register logic shared by the bridge
 * front ends.  See exca.h for the split between this file and a front end.
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <pcmcia/ss.h>

#include "exca.h"

/* Highest card address a memory window can reach: A25:0 */
#define EXCA_CARD_ADDR_MAX	(SZ_64M - 1)
/* Highest host address without page registers: A23:0 */
#define EXCA_HOST_ADDR_MAX	(SZ_16M - 1)
#define EXCA_IO_ADDR_MAX	0xffff
#define EXCA_MEM_WS_MAX		3

u8 pcl_exca_read(struct pcl_exca *exca, unsigned int reg)
{
	return exca->bus->read(exca, reg);
}

void pcl_exca_write(struct pcl_exca *exca, unsigned int reg, u8 val)
{
	exca->bus->write(exca, reg, val);
}

/* The helpers below expect exca->lock to be held. */
static void exca_write16(struct pcl_exca *exca, unsigned int reg, u16 val)
{
	exca->bus->write(exca, reg, val & 0xff);
	exca->bus->write(exca, reg + 1, val >> 8);
}

static u16 exca_read16(struct pcl_exca *exca, unsigned int reg)
{
	return exca->bus->read(exca, reg) | exca->bus->read(exca, reg + 1) << 8;
}

static void exca_update(struct pcl_exca *exca, unsigned int reg, u8 clear,
			u8 set)
{
	u8 old = exca->bus->read(exca, reg);
	u8 val = (old & ~clear) | set;

	if (val != old)
		exca->bus->write(exca, reg, val);
}

void pcl_exca_setup(struct pcl_exca *exca, const struct pcl_exca_bus *bus,
		    unsigned int caps)
{
	exca->bus = bus;
	exca->caps = caps;
	spin_lock_init(&exca->lock);

	exca->socket.ops = &pcl_exca_pccard_ops;
	exca->socket.features |= SS_CAP_PCCARD;
	if (caps & PCL_EXCA_PAGE_REGS)
		exca->socket.features |= SS_CAP_PAGE_REGS;
	/* windows are made of 4 KB pages */
	exca->socket.map_size = SZ_4K;
}

/* Close every window and forget its addresses. */
int pcl_exca_init(struct pcl_exca *exca)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&exca->lock, flags);
	exca->bus->write(exca, EXCA_WINEN, 0);
	exca->bus->write(exca, EXCA_IOCTL, 0);
	for (n = 0; n < EXCA_NR_IOWIN; n++) {
		exca_write16(exca, EXCA_IOWIN(n) + EXCA_IOWIN_START, 0);
		exca_write16(exca, EXCA_IOWIN(n) + EXCA_IOWIN_STOP, 0);
	}
	for (n = 0; n < EXCA_NR_MEMWIN; n++) {
		exca_write16(exca, EXCA_MEMWIN(n) + EXCA_MEMWIN_START, 0);
		exca_write16(exca, EXCA_MEMWIN(n) + EXCA_MEMWIN_STOP, 0);
		exca_write16(exca, EXCA_MEMWIN(n) + EXCA_MEMWIN_OFFSET, 0);
		if (exca->caps & PCL_EXCA_PAGE_REGS)
			exca->bus->write(exca, EXCA_MEMWIN_PAGE(n), 0);
	}
	spin_unlock_irqrestore(&exca->lock, flags);
	return 0;
}

int pcl_exca_get_status(struct pcl_exca *exca, unsigned int *value)
{
	u8 st = pcl_exca_read(exca, EXCA_STATUS);
	u8 intgen = pcl_exca_read(exca, EXCA_INTGEN);
	unsigned int v = 0;

	if ((st & EXCA_ST_CD) == EXCA_ST_CD)
		v |= SS_DETECT;
	/* BVD1/BVD2 are active low; on I/O cards BVD1 carries STSCHG# */
	if (intgen & EXCA_INT_IOCARD) {
		if (!(st & EXCA_ST_BVD1))
			v |= SS_STSCHG;
	} else if (!(st & EXCA_ST_BVD1)) {
		v |= SS_BATDEAD;
	} else if (!(st & EXCA_ST_BVD2)) {
		v |= SS_BATWARN;
	}
	if (st & EXCA_ST_WP)
		v |= SS_WRPROT;
	if (st & EXCA_ST_READY)
		v |= SS_READY;
	if (st & EXCA_ST_POWERON)
		v |= SS_POWERON;

	*value = v;
	return 0;
}

/*
 * Vcc and Vpp (in tenths of a volt) to power control bits.  Three layouts:
 * the B step's (5 V only, Vpp1 and Vpp2), the DF step's (3.3 V in the
 * Vpp2 bits) and Cirrus's (3.3 V through PD67_MISC_CTL_1, Vpp1 only).
 */
static int exca_power_bits(struct pcl_exca *exca, const socket_state_t *state,
			   u8 *pwr)
{
	bool df = exca->caps & PCL_EXCA_VCC_3V3;
	bool cirrus = exca->caps & PCL_EXCA_VCC_MISC1;
	bool vpp2 = !df && !cirrus;

	switch (state->Vcc) {
	case 0:
		break;
	case 33:
		if (df)
			*pwr |= EXCA_PWR_VCC_3V3;
		else if (cirrus)
			*pwr |= EXCA_PWR_VCC_5V;
		else
			return -EINVAL;
		break;
	case 50:
		*pwr |= EXCA_PWR_VCC_5V;
		break;
	default:
		return -EINVAL;
	}

	if (state->Vpp == 0)
		return 0;
	if (state->Vpp == 120)
		*pwr |= EXCA_PWR_VPP1_12V | (vpp2 ? EXCA_PWR_VPP2_12V : 0);
	else if (state->Vpp == state->Vcc)
		*pwr |= EXCA_PWR_VPP1_VCC | (vpp2 ? EXCA_PWR_VPP2_VCC : 0);
	else
		return -EINVAL;
	return 0;
}

/* Cirrus: the voltage EXCA_PWR_VCC_5V means (lock held). */
static void exca_cirrus_vcc(struct pcl_exca *exca, unsigned int vcc)
{
	u8 misc1 = exca->bus->read(exca, PD67_MISC_CTL_1) & ~PD67_MC1_VCC_3V3;

	if (vcc == 33)
		misc1 |= PD67_MC1_VCC_3V3;
	exca->bus->write(exca, PD67_MISC_CTL_1, misc1);
}

static u8 exca_csc_enables(const socket_state_t *state)
{
	u8 en = 0;

	if (state->csc_mask & SS_DETECT)
		en |= EXCA_CSC_DETECT;
	if (state->flags & SS_IOCARD) {
		if (state->csc_mask & SS_STSCHG)
			en |= EXCA_CSC_BVD1;
		return en;
	}
	if (state->csc_mask & SS_BATDEAD)
		en |= EXCA_CSC_BVD1;
	if (state->csc_mask & SS_BATWARN)
		en |= EXCA_CSC_BVD2;
	if (state->csc_mask & SS_READY)
		en |= EXCA_CSC_READY;
	return en;
}

int pcl_exca_set_socket(struct pcl_exca *exca, const socket_state_t *state)
{
	bool own_irq = !(exca->caps & PCL_EXCA_IRQ_ROUTED);
	u8 pwr = EXCA_PWR_NORESET;
	u8 intgen = 0;
	u8 cscint;
	unsigned long flags;
	int ret;

	ret = exca_power_bits(exca, state, &pwr);
	if (ret) {
		dev_err(&exca->socket.dev, "unsupported power Vcc %u Vpp %u\n",
			state->Vcc, state->Vpp);
		return ret;
	}
	if (state->flags & SS_OUTPUT_ENA)
		pwr |= EXCA_PWR_OUTPUT_ENA;
	if (state->flags & SS_PWR_AUTO)
		pwr |= EXCA_PWR_AUTO;

	if (!(state->flags & SS_RESET))
		intgen |= EXCA_INT_NOT_RESET;
	if (state->flags & SS_IOCARD)
		intgen |= EXCA_INT_IOCARD;
	if (own_irq) {
		if (state->io_irq > FIELD_MAX(EXCA_INT_IRQ))
			return -EINVAL;
		intgen |= FIELD_PREP(EXCA_INT_IRQ, state->io_irq);
	}

	cscint = exca_csc_enables(state);
	if (own_irq)
		cscint |= FIELD_PREP(EXCA_CSC_IRQ, exca->csc_irq);

	dev_dbg(&exca->socket.dev,
		"set_socket flags %#x csc %#x Vcc %u Vpp %u irq %u\n",
		state->flags, state->csc_mask, state->Vcc, state->Vpp,
		state->io_irq);

	spin_lock_irqsave(&exca->lock, flags);
	/* the voltage first, then the power on */
	if (exca->caps & PCL_EXCA_VCC_MISC1)
		exca_cirrus_vcc(exca, state->Vcc);
	/* rewriting an unchanged power register restarts power sequencing */
	if (exca->bus->read(exca, EXCA_PWRCTL) != pwr)
		exca->bus->write(exca, EXCA_PWRCTL, pwr);
	exca->bus->write(exca, EXCA_INTGEN, intgen);
	exca->bus->write(exca, EXCA_CSC_INTCFG, cscint);
	spin_unlock_irqrestore(&exca->lock, flags);
	return 0;
}

int pcl_exca_set_io_map(struct pcl_exca *exca, const struct pccard_io_map *io)
{
	unsigned int n = io->map;
	unsigned int base = EXCA_IOWIN(n);
	unsigned long flags;
	u8 ctl = 0;

	if (n >= EXCA_NR_IOWIN || io->start > io->stop ||
	    io->stop > EXCA_IO_ADDR_MAX)
		return -EINVAL;

	if (io->flags & MAP_16BIT)
		ctl |= EXCA_IOCTL_16BIT;
	if (io->flags & MAP_AUTOSZ)
		ctl |= EXCA_IOCTL_IOCS16;
	if (io->flags & MAP_0WS)
		ctl |= EXCA_IOCTL_0WS;
	if (io->speed)
		ctl |= EXCA_IOCTL_WAIT;

	dev_dbg(&exca->socket.dev, "io window %u: %#llx-%#llx flags %#x\n", n,
		(unsigned long long)io->start, (unsigned long long)io->stop,
		io->flags);

	spin_lock_irqsave(&exca->lock, flags);
	/* never let the window decode a half-written range */
	exca_update(exca, EXCA_WINEN, EXCA_WIN_IO(n), 0);
	exca_write16(exca, base + EXCA_IOWIN_START, io->start);
	exca_write16(exca, base + EXCA_IOWIN_STOP, io->stop);
	exca_update(exca, EXCA_IOCTL, 0xf << EXCA_IOCTL_SHIFT(n),
		    ctl << EXCA_IOCTL_SHIFT(n));
	if (io->flags & MAP_ACTIVE)
		exca_update(exca, EXCA_WINEN, 0, EXCA_WIN_IO(n));
	spin_unlock_irqrestore(&exca->lock, flags);
	return 0;
}

static void exca_mem_bus_range(struct pcl_exca *exca, struct resource *res,
			       u64 *start, u64 *end)
{
	if (exca->bus->mem_bus_range) {
		exca->bus->mem_bus_range(exca, res, start, end);
		return;
	}
	*start = res->start;
	*end = res->end;
}

static bool exca_mem_range_ok(struct pcl_exca *exca, u64 start, u64 end)
{
	if (start > end)
		return false;
	if (!(exca->caps & PCL_EXCA_PAGE_REGS))
		return end <= EXCA_HOST_ADDR_MAX;
	/* one page register per window: the window may not cross 16 MB */
	return end <= U32_MAX && (start >> 24) == (end >> 24);
}

/*
 * Whether memory window n is on and decodes exactly these host addresses.
 * The CIS reader re-points such a window at another card address every
 * few bytes it reads; then only the offset register needs writing, not
 * the window switched off and on again (which in an emulator remaps the
 * guest's memory each time).
 */
static bool exca_mem_win_is(struct pcl_exca *exca, unsigned int n,
			    u16 start_reg, u16 stop_reg, u8 page)
{
	unsigned int base = EXCA_MEMWIN(n);

	lockdep_assert_held(&exca->lock);
	if (!(exca->bus->read(exca, EXCA_WINEN) & EXCA_WIN_MEM(n)))
		return false;
	if (exca_read16(exca, base + EXCA_MEMWIN_START) != start_reg ||
	    exca_read16(exca, base + EXCA_MEMWIN_STOP) != stop_reg)
		return false;
	return !(exca->caps & PCL_EXCA_PAGE_REGS) ||
	       exca->bus->read(exca, EXCA_MEMWIN_PAGE(n)) == page;
}

int pcl_exca_set_mem_map(struct pcl_exca *exca,
			 const struct pccard_mem_map *mem)
{
	unsigned int n = mem->map;
	unsigned int base = EXCA_MEMWIN(n);
	unsigned int ws;
	unsigned long flags;
	u16 start_reg, stop_reg, offset_reg;
	u64 start, end;

	if (n >= EXCA_NR_MEMWIN || !mem->res ||
	    mem->card_start > EXCA_CARD_ADDR_MAX)
		return -EINVAL;
	exca_mem_bus_range(exca, mem->res, &start, &end);
	if (!exca_mem_range_ok(exca, start, end)) {
		dev_err(&exca->socket.dev,
			"memory window %u: cannot decode %#llx-%#llx\n", n,
			(unsigned long long)start, (unsigned long long)end);
		return -EINVAL;
	}

	start_reg = FIELD_PREP(EXCA_MEM_ADDR, start >> 12);
	if (mem->flags & MAP_16BIT)
		start_reg |= EXCA_MEM_START_16BIT;
	if (mem->flags & MAP_0WS)
		start_reg |= EXCA_MEM_START_0WS;

	ws = min_t(unsigned int,
		   mem->speed / (exca->cycle_ns ? exca->cycle_ns : EXCA_CYCLE_NS),
		   EXCA_MEM_WS_MAX);
	stop_reg = FIELD_PREP(EXCA_MEM_ADDR, end >> 12) |
		   FIELD_PREP(EXCA_MEM_STOP_WS, ws);

	/* card page = host page + offset, modulo the 26-bit card space */
	offset_reg = ((mem->card_start >> 12) - (start >> 12)) &
		     EXCA_MEM_OFFSET;
	if (mem->flags & MAP_WRPROT)
		offset_reg |= EXCA_MEM_OFFSET_WP;
	if (mem->flags & MAP_ATTRIB)
		offset_reg |= EXCA_MEM_OFFSET_ATTR;

	dev_dbg(&exca->socket.dev,
		"memory window %u: %#llx-%#llx card %#x flags %#x\n", n,
		(unsigned long long)start, (unsigned long long)end,
		mem->card_start, mem->flags);

	spin_lock_irqsave(&exca->lock, flags);
	if ((mem->flags & MAP_ACTIVE) &&
	    exca_mem_win_is(exca, n, start_reg, stop_reg, start >> 24)) {
		exca_write16(exca, base + EXCA_MEMWIN_OFFSET, offset_reg);
		goto out;
	}
	exca_update(exca, EXCA_WINEN, EXCA_WIN_MEM(n), 0);
	exca_write16(exca, base + EXCA_MEMWIN_START, start_reg);
	exca_write16(exca, base + EXCA_MEMWIN_STOP, stop_reg);
	exca_write16(exca, base + EXCA_MEMWIN_OFFSET, offset_reg);
	if (exca->caps & PCL_EXCA_PAGE_REGS)
		exca->bus->write(exca, EXCA_MEMWIN_PAGE(n), start >> 24);
	if (mem->flags & MAP_ACTIVE)
		exca_update(exca, EXCA_WINEN, 0, EXCA_WIN_MEM(n));
out:
	spin_unlock_irqrestore(&exca->lock, flags);
	return 0;
}

/* Mask status-change interrupts and drop whatever is latched. */
void pcl_exca_quiet(struct pcl_exca *exca)
{
	unsigned long flags;

	spin_lock_irqsave(&exca->lock, flags);
	exca->bus->write(exca, EXCA_CSC_INTCFG, 0);
	exca->bus->read(exca, EXCA_CSC);
	spin_unlock_irqrestore(&exca->lock, flags);
}

/*
 * Read (and so acknowledge) the card status change register and pass the
 * events on to the core.  Returns whether any change was latched, which
 * is what a shared interrupt handler needs to know.
 */
bool pcl_exca_handle_csc(struct pcl_exca *exca)
{
	unsigned int events = 0;
	u8 csc;

	csc = pcl_exca_read(exca, EXCA_CSC);
	if (!csc)
		return false;

	if (csc & EXCA_CSC_DETECT)
		events |= SS_DETECT;
	if (pcl_exca_read(exca, EXCA_INTGEN) & EXCA_INT_IOCARD) {
		if (csc & EXCA_CSC_BVD1)
			events |= SS_STSCHG;
	} else {
		if (csc & EXCA_CSC_BVD1)
			events |= SS_BATDEAD;
		if (csc & EXCA_CSC_BVD2)
			events |= SS_BATWARN;
		if (csc & EXCA_CSC_READY)
			events |= SS_READY;
	}

	dev_dbg(&exca->socket.dev, "status change %#x, events %#x\n", csc,
		events);
	if (events && READ_ONCE(exca->live))
		pcmcia_parse_events(&exca->socket, events);
	return true;
}

/* rounds of status change reads per interrupt before giving up */
#define EXCA_LINE_ROUNDS	16

void pcl_exca_line_add(struct pcl_exca_line *line, struct pcl_exca *exca)
{
	if (!WARN_ON(line->nr_sockets >= PCL_EXCA_LINE_SOCKETS))
		line->sockets[line->nr_sockets++] = exca;
}

/*
 * Read every socket until none has a change latched: on a shared PCI
 * line that tells the kernel whether the interrupt was ours, and on an
 * edge-triggered ISA line a change left latched would keep the line up
 * and so never give another edge.
 */
irqreturn_t pcl_exca_line_irq(int irq, void *data)
{
	struct pcl_exca_line *line = data;
	bool handled = false;
	unsigned int round, i;

	for (round = 0; round < EXCA_LINE_ROUNDS; round++) {
		bool pending = false;

		for (i = 0; i < line->nr_sockets; i++)
			if (pcl_exca_handle_csc(line->sockets[i]))
				pending = true;
		if (!pending)
			return IRQ_RETVAL(handled);
		handled = true;
	}
	dev_warn_ratelimited(line->dev,
			     "status changes keep arriving, deferring the rest\n");
	return IRQ_HANDLED;
}

/*
 * Status changes are forwarded from just before the core starts the
 * socket's thread, so that no insertion falls between the core's own
 * first look at the socket and the first interrupt.
 */
int pcl_exca_register(struct pcl_exca *exca)
{
	int ret;

	WRITE_ONCE(exca->live, true);
	ret = pcmcia_register_socket(&exca->socket);
	if (ret)
		WRITE_ONCE(exca->live, false);
	return ret;
}

/*
 * Stop forwarding status changes.  The caller must wait for its interrupt
 * handler (synchronize_irq()) before unregistering the socket: the core
 * does not clear the socket's thread pointer when that thread ends.
 */
void pcl_exca_stop_events(struct pcl_exca *exca)
{
	WRITE_ONCE(exca->live, false);
}

static int exca_op_init(struct pcmcia_socket *socket)
{
	return pcl_exca_init(pcl_exca_of(socket));
}

static int exca_op_get_status(struct pcmcia_socket *socket, u_int *value)
{
	return pcl_exca_get_status(pcl_exca_of(socket), value);
}

static int exca_op_set_socket(struct pcmcia_socket *socket,
			      socket_state_t *state)
{
	return pcl_exca_set_socket(pcl_exca_of(socket), state);
}

static int exca_op_set_io_map(struct pcmcia_socket *socket,
			      struct pccard_io_map *io)
{
	return pcl_exca_set_io_map(pcl_exca_of(socket), io);
}

static int exca_op_set_mem_map(struct pcmcia_socket *socket,
			       struct pccard_mem_map *mem)
{
	return pcl_exca_set_mem_map(pcl_exca_of(socket), mem);
}

/* The core's socket pointer to its operations is not const. */
struct pccard_operations pcl_exca_pccard_ops = {
	.init		= exca_op_init,
	.get_status	= exca_op_get_status,
	.set_socket	= exca_op_set_socket,
	.set_io_map	= exca_op_set_io_map,
	.set_mem_map	= exca_op_set_mem_map,
};
