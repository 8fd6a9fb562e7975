/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ExCA: the Intel 82365SL register set that most 16-bit PC Card bridges
 * copied (82092AA, ISA 82365 clones, and the ExCA block of CardBus bridges).
 *
 * This is the part of a socket driver that only talks to those registers:
 * card status, power and reset, status-change interrupts, and the I/O and
 * memory windows.  A front end (one per bridge) supplies register access
 * and anything chip specific: how it is found, how interrupts reach the
 * CPU, and how host memory addresses are seen by the chip.
 *
 * The code is linked into every module that uses it (src/drivers.list), so
 * nothing here is exported and the pcl_exca_ names only need to be unique
 * within one module.
 */
#ifndef PCL_EXCA_H
#define PCL_EXCA_H

#include <linux/bits.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <pcmcia/ss.h>

/*
 * Register offsets inside one socket's 64-byte block.  16-bit values are
 * two registers, low byte first.
 */
#define EXCA_IDREV		0x00	/* identification and revision */
#define EXCA_STATUS		0x01	/* interface status, read only */
#define EXCA_PWRCTL		0x02	/* power and RESETDRV control */
#define EXCA_INTGEN		0x03	/* interrupt and general control */
#define EXCA_CSC		0x04	/* card status change */
#define EXCA_CSC_INTCFG		0x05	/* status change interrupt config */
#define EXCA_WINEN		0x06	/* address window enable */
#define EXCA_IOCTL		0x07	/* I/O window control */
#define EXCA_IOWIN(n)		(0x08 + 4 * (n))	/* n = 0, 1 */
#define EXCA_MEMWIN(n)		(0x10 + 8 * (n))	/* n = 0 .. 4 */
#define EXCA_CARD_GENCTL	0x16	/* card detect and general control */
#define EXCA_GLOBAL_CTL		0x1e	/* global control */
/* Cirrus Logic PD67xx use 0x16 and 0x1e for registers of their own */
#define PD67_MISC_CTL_1		0x16
#define PD67_MC1_VCC_3V3	BIT(1)	/* with EXCA_PWR_VCC_5V: Vcc 3.3 V */
#define EXCA_MEMWIN_PAGE(n)	(0x40 + (n))	/* A31:24, only with page regs */

/* Offsets inside an I/O window's registers */
#define EXCA_IOWIN_START	0
#define EXCA_IOWIN_STOP		2

/* Offsets inside a memory window's registers */
#define EXCA_MEMWIN_START	0
#define EXCA_MEMWIN_STOP	2
#define EXCA_MEMWIN_OFFSET	4

#define EXCA_NR_IOWIN		2
#define EXCA_NR_MEMWIN		5

/* EXCA_STATUS; card detect needs both CD bits */
#define EXCA_ST_BVD1		BIT(0)	/* STSCHG# on I/O cards */
#define EXCA_ST_BVD2		BIT(1)	/* SPKR# on I/O cards */
#define EXCA_ST_CD		(BIT(2) | BIT(3))
#define EXCA_ST_WP		BIT(4)
#define EXCA_ST_READY		BIT(5)
#define EXCA_ST_POWERON		BIT(6)

/* EXCA_PWRCTL */
#define EXCA_PWR_OUTPUT_ENA	BIT(7)
#define EXCA_PWR_NORESET	BIT(6)	/* no RESETDRV after a resume */
#define EXCA_PWR_AUTO		BIT(5)
#define EXCA_PWR_VCC_5V		BIT(4)
#define EXCA_PWR_VCC_3V3	(BIT(4) | BIT(3))	/* 82365SL-DF layout */
#define EXCA_PWR_VPP2_VCC	BIT(2)	/* B-step layout only */
#define EXCA_PWR_VPP2_12V	BIT(3)
#define EXCA_PWR_VPP1_VCC	BIT(0)
#define EXCA_PWR_VPP1_12V	BIT(1)

/* EXCA_INTGEN */
#define EXCA_INT_NOT_RESET	BIT(6)	/* clear: card held in reset */
#define EXCA_INT_IOCARD		BIT(5)
#define EXCA_INT_IRQ		GENMASK(3, 0)

/* EXCA_CSC and the enable bits of EXCA_CSC_INTCFG */
#define EXCA_CSC_BVD1		BIT(0)	/* STSCHG# on I/O cards */
#define EXCA_CSC_BVD2		BIT(1)
#define EXCA_CSC_READY		BIT(2)
#define EXCA_CSC_DETECT		BIT(3)
#define EXCA_CSC_GPI		BIT(4)
#define EXCA_CSC_IRQ		GENMASK(7, 4)	/* EXCA_CSC_INTCFG only */

/* EXCA_CARD_GENCTL */
#define EXCA_GENCTL_SW_CD	BIT(5)	/* one card detect change, for IRQ tests */

/* EXCA_WINEN */
#define EXCA_WIN_MEM(n)		BIT(n)
#define EXCA_WIN_IO(n)		BIT(6 + (n))

/* EXCA_IOCTL: one nibble per I/O window */
#define EXCA_IOCTL_SHIFT(n)	(4 * (n))
#define EXCA_IOCTL_16BIT	BIT(0)
#define EXCA_IOCTL_IOCS16	BIT(1)	/* card chooses the width */
#define EXCA_IOCTL_0WS		BIT(2)
#define EXCA_IOCTL_WAIT		BIT(3)

/* 16-bit memory window fields */
#define EXCA_MEM_ADDR		GENMASK(11, 0)	/* start, stop: A23:12 */
#define EXCA_MEM_START_16BIT	BIT(15)
#define EXCA_MEM_START_0WS	BIT(14)
#define EXCA_MEM_STOP_WS	GENMASK(15, 14)
#define EXCA_MEM_OFFSET		GENMASK(13, 0)	/* A25:12, two's complement */
#define EXCA_MEM_OFFSET_WP	BIT(15)
#define EXCA_MEM_OFFSET_ATTR	BIT(14)	/* window shows attribute memory */

/* ISA bus clock the memory wait states count in, unless cycle_ns says */
#define EXCA_CYCLE_NS		120

struct pcl_exca;

/*
 * Register access, supplied by the front end.  Each call must be atomic
 * with respect to the other sockets of the same chip (an index/data pair
 * is shared by all of them).
 */
struct pcl_exca_bus {
	u8 (*read)(struct pcl_exca *exca, unsigned int reg);
	void (*write)(struct pcl_exca *exca, unsigned int reg, u8 val);
	/*
	 * The address range the chip decodes for a host memory resource.
	 * NULL when the chip sees CPU physical addresses (ISA).
	 */
	void (*mem_bus_range)(struct pcl_exca *exca, struct resource *res,
			      u64 *start, u64 *end);
};

/* pcl_exca.caps */
#define PCL_EXCA_VCC_3V3	BIT(0)	/* DF-style 3.3 V, no Vpp2 control */
#define PCL_EXCA_PAGE_REGS	BIT(1)	/* A31:24 page register per window */
#define PCL_EXCA_IRQ_ROUTED	BIT(2)	/* IRQ fields unused: chip routes IRQs */
#define PCL_EXCA_VCC_MISC1	BIT(3)	/* Cirrus 3.3 V, no Vpp2 control */

struct pcl_exca {
	struct pcmcia_socket socket;	/* what the PC Card core sees */
	const struct pcl_exca_bus *bus;
	unsigned int caps;
	u8 csc_irq;			/* ISA IRQ for status changes, or 0 */
	unsigned int cycle_ns;		/* bus clock period, 0: EXCA_CYCLE_NS */
	bool live;			/* forward status changes to the core */
	spinlock_t lock;		/* read-modify-write of shared registers */
};

static inline struct pcl_exca *pcl_exca_of(struct pcmcia_socket *socket)
{
	return container_of(socket, struct pcl_exca, socket);
}

/*
 * pccard_operations built from the functions below; pcl_exca_setup() puts
 * them in the socket.  A front end with quirks wraps them in its own.
 */
extern struct pccard_operations pcl_exca_pccard_ops;

void pcl_exca_setup(struct pcl_exca *exca, const struct pcl_exca_bus *bus,
		    unsigned int caps);
u8 pcl_exca_read(struct pcl_exca *exca, unsigned int reg);
void pcl_exca_write(struct pcl_exca *exca, unsigned int reg, u8 val);

int pcl_exca_init(struct pcl_exca *exca);
int pcl_exca_get_status(struct pcl_exca *exca, unsigned int *value);
int pcl_exca_set_socket(struct pcl_exca *exca, const socket_state_t *state);
int pcl_exca_set_io_map(struct pcl_exca *exca, const struct pccard_io_map *io);
int pcl_exca_set_mem_map(struct pcl_exca *exca,
			 const struct pccard_mem_map *mem);

void pcl_exca_quiet(struct pcl_exca *exca);
bool pcl_exca_handle_csc(struct pcl_exca *exca);

int pcl_exca_register(struct pcl_exca *exca);
void pcl_exca_stop_events(struct pcl_exca *exca);

#define PCL_EXCA_LINE_SOCKETS	8

/*
 * The sockets of one controller whose status changes share an interrupt
 * line (or a poll).  Request the line with pcl_exca_line_irq() as the
 * handler and the pcl_exca_line as its dev_id.
 */
struct pcl_exca_line {
	struct device *dev;		/* the controller, for messages */
	unsigned int nr_sockets;
	struct pcl_exca *sockets[PCL_EXCA_LINE_SOCKETS];
};

void pcl_exca_line_add(struct pcl_exca_line *line, struct pcl_exca *exca);
irqreturn_t pcl_exca_line_irq(int irq, void *data);

#endif /* PCL_EXCA_H */
