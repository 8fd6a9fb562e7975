/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * User-space interface of the Omnikey CardMan 4000 driver (cm4000_cs),
 * /dev/cmmN.  Installed as <pcmcia-legacy/cm4000_cs.h>: kernels from 6.4
 * on no longer carry <linux/cm4000_cs.h>, whose interface this is, number
 * for number and byte for byte.  The include guard is the one that header
 * uses, so a program that ends up with both gets one set of definitions.
 *
 * The device node is opened without O_NONBLOCK (such an open fails with
 * EAGAIN) by one process at a time (EBUSY).  Opening starts watching the
 * smart card slot: a card that is in the slot, or is put in later, is
 * powered up and its ATR read by the driver.
 *
 * write() sends one command to the smart card and waits for its answer:
 *   T=0: a TPDU: CLA INS P1 P2 (case 1), CLA INS P1 P2 Le (case 2: the
 *        card sends Le bytes, 0 meaning 256) or CLA INS P1 P2 Lc and Lc
 *        bytes of data (case 3);
 *   T=1: one block: NAD PCB LEN, LEN bytes of information and the LRC.
 * read() then returns the answer: T=0: the data and SW1 SW2; T=1: the
 * card's block.  An answer is returned once, truncated to the buffer.  A
 * read() while another thread's write() on the same file is under way
 * waits for that answer; a read() with no answer waiting and no write()
 * under way returns 0, the end of the file (so `cat` and `dd` end).
 * poll() reports EPOLLIN while an answer waits and EPOLLOUT while the
 * card is ready.
 *
 * Errors: ENODEV once the reader is gone (ejected or unbound: every call
 * on a file opened before fails so; open the next reader anew), EIO when
 * the smart card was pulled, changed or did not answer properly, EINVAL
 * for a command of the wrong shape, EAGAIN where O_NONBLOCK would block.
 */
#ifndef _CM4000_H_
#define _CM4000_H_

#include <linux/ioctl.h>
#include <linux/types.h>

/* Readers one driver handles: /dev/cmm0 .. /dev/cmm3. */
#define CM4000_MAX_DEV		4

/* Longest ATR ISO 7816-3 allows. */
#define MAX_ATR			33

/* CM_IOCGATR: the ATR of the card in the slot. */
struct atreq {
	__s32 atr_len;		/* -1: the card gave no valid ATR */
	unsigned char atr[64];
	__s32 power_act;	/* not used */
	unsigned char bIFSD;	/* not used */
	unsigned char bIFSC;	/* not used */
};

/* CM_IOCSPTS: protocol and parameters selection (PPS). */
struct ptsreq {
	__u32 protocol;		/* 1 << T: 1 for T=0, 2 for T=1 */
	unsigned char flags;	/* 0x10, 0x20, 0x40: pts1, pts2, pts3 valid */
	unsigned char pts1;	/* Fi/Di as in TA1; unset: TA1's best rate */
	unsigned char pts2;
	unsigned char pts3;
};

/* The names programs written for <linux/cm4000_cs.h> use. */
typedef struct atreq atreq_t;
typedef struct ptsreq ptsreq_t;

/*
 * The ioctls.  The size fields of the first three are that of a pointer,
 * as in the original interface, so their numbers differ between 32-bit
 * and 64-bit programs; a 64-bit kernel understands both.
 */
#define CM_IOC_MAGIC		'c'
#define CM_IOC_MAXNR		255

/* int: the CM_* state bits below */
#define CM_IOCGSTATUS		_IOR(CM_IOC_MAGIC, 0, unsigned char *)
/* struct atreq: waits until a card has answered with its ATR */
#define CM_IOCGATR		_IOWR(CM_IOC_MAGIC, 1, struct atreq *)
/* struct ptsreq: a PPS, after resetting the card if it is not fresh */
#define CM_IOCSPTS		_IOW(CM_IOC_MAGIC, 2, struct ptsreq *)
/* not implemented (ENOTTY), reserved */
#define CM_IOCSRDR		_IO(CM_IOC_MAGIC, 3)
/* power the card down; it is up again with a new ATR on return */
#define CM_IOCARDOFF		_IO(CM_IOC_MAGIC, 4)
/* not implemented (ENOTTY), reserved */
#define CM_IOSDBGLVL		_IOW(CM_IOC_MAGIC, 250, int *)

/* CM_IOCGSTATUS bits */
#define CM_CARD_INSERTED	0x01	/* a smart card is in the slot */
#define CM_CARD_POWERED		0x02	/* and it is powered */
#define CM_ATR_PRESENT		0x04	/* it sent an ATR */
#define CM_ATR_VALID		0x08	/* a well-formed one */
#define CM_STATE_VALID		0x0f
#define CM_NO_READER		0x10	/* the reader does not answer */
#define CM_BAD_CARD		0x20	/* the card's ATR is unusable */

#endif /* _CM4000_H_ */
