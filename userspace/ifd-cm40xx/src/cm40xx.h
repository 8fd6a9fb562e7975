/* SPDX-License-Identifier: GPL-2.0-only */
/* One reader as the handler sees it, and what each kind of reader does. */
#ifndef IFD_CM40XX_CM40XX_H
#define IFD_CM40XX_CM40XX_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "atr.h"
#include "t1.h"

/* What the reader gets in one exchange: TPDUs/blocks, or whole APDUs. */
enum xfer_level {
	LEVEL_TPDU,
	LEVEL_APDU,
};

struct reader;

/* Every call: 0 or a negative errno; -ENODEV: the reader is gone. */
struct reader_ops {
	const char *kind;		/* "cm4000", "cm4040" */
	bool nonblock;			/* open the node with O_NONBLOCK */
	bool p3_case1;			/* T=0 case 1 with P3 = 00 */
	/* 1 when a card is in the slot, 0 when not */
	int (*present)(struct reader *r);
	/* a fresh ATR: after a reset of the card if @reset or it was used */
	int (*power_up)(struct reader *r, bool reset, unsigned char *atr,
			size_t *len);
	int (*power_down)(struct reader *r);
	/* protocol @t at the best rate the card offers */
	int (*set_protocol)(struct reader *r, int t);
	/* one exchange with the card: an xfer_fn, ctx is the reader */
	xfer_fn xfer;
};

struct reader {
	const struct reader_ops *ops;
	char path[256];
	int fd;				/* -1 while closed */
	enum xfer_level level;
	bool open_failed;		/* logged already */
	bool powered;			/* an ATR went to pcscd since power-up */
	bool fresh;			/* nothing went to the card since its ATR */
	struct atr_info ai;
	int proto;			/* T in use */
	struct t1 t1;
	unsigned char seq;		/* CCID bSeq */
	pthread_mutex_t lock;
};

extern const struct reader_ops cm4000_ops;
extern const struct reader_ops cm4040_ops;

#endif
