/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * T=1, the block protocol of ISO/IEC 7816-3 clause 11, run by the host:
 * the reader only moves blocks.  LRC only.
 */
#ifndef IFD_CM40XX_T1_H
#define IFD_CM40XX_T1_H

#include <stdbool.h>
#include <stddef.h>

#include "apdu.h"

#define T1_BLOCK_MAX		(3 + 254 + 1)
#define T1_IFSD			254	/* what we offer the card */

struct t1 {
	xfer_fn xfer;		/* one block out, one block in */
	void *ctx;
	unsigned char ns;	/* N(S) of our next I-block */
	unsigned char nr;	/* N(S) we expect from the card */
	unsigned int ifsc;	/* the card's information field size */
	unsigned int ifsc_atr;
	unsigned int ifsd;	/* ours, as the card knows it */
	unsigned int wtx;	/* BWT multiplier for the next block, 0: none */
	bool ifsd_done;		/* S(IFS request) sent since the last reset */
};

/* A fresh T=1 session after an ATR announcing IFSC. */
void t1_init(struct t1 *t1, xfer_fn xfer, void *ctx, unsigned int ifsc);

/*
 * One APDU, one response.  Offers IFSD 254 first when it has not yet.
 * 0, -ENOSPC (response larger than cap), -ECANCELED (the card aborted),
 * -EIO (no recovery) or the transport's fatal errno (-ENODEV, ...).
 */
int t1_transceive(struct t1 *t1, const unsigned char *apdu, size_t len,
		  unsigned char *rsp, size_t cap, size_t *rlen);

/* S(IFS request) for our IFSD; 0 when the card took it. */
int t1_negotiate_ifsd(struct t1 *t1, unsigned int ifsd);

/* S(RESYNCH request): sequence numbers and sizes back to their start. */
int t1_resync(struct t1 *t1);

/* A block with its LRC; returns its length. */
size_t t1_block(unsigned char *blk, unsigned char nad, unsigned char pcb,
		const unsigned char *inf, size_t len);

#endif
