/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scripted card for the unit tests: a list of steps, each the exact
 * bytes the host must send and what the card (or the reader) answers.
 * Hex strings are written with spaces as wished; "L" appends the LRC of
 * the bytes so far, "X" a wrong one.
 */
#ifndef IFD_CM40XX_TEST_CARD_H
#define IFD_CM40XX_TEST_CARD_H

#include <stdbool.h>
#include <stddef.h>

#include "t1.h"

#define STEP_MAX		64
#define STEP_BYTES		600

struct step {
	unsigned char cmd[STEP_BYTES];
	size_t clen;
	unsigned char rsp[STEP_BYTES];
	size_t rlen;
	int err;			/* instead of an answer: -ETIMEDOUT, ... */
	unsigned int wtx;		/* t1->wtx seen when it ran */
};

struct script {
	struct step steps[STEP_MAX];
	int n, pos;
	char failure[512];		/* the first unexpected exchange */
	const struct t1 *t1;		/* whose wtx to note, if any */
};

size_t hex(const char *s, unsigned char *out);
void script_reset(struct script *s);
/* a step from hex strings */
void expect(struct script *s, const char *cmd, const char *rsp);
void expect_err(struct script *s, const char *cmd, int err);
/* a step of T=1 blocks built from their parts (LRC added) */
void expect_blocks(struct script *s, unsigned char pcb,
		   const unsigned char *inf, size_t len, unsigned char rpcb,
		   const unsigned char *rinf, size_t rlen);
/* an xfer_fn; ctx is the script */
int script_xfer(void *ctx, const unsigned char *cmd, size_t len,
		unsigned char *rsp, size_t cap, size_t *rlen);
/* every step ran and matched */
bool script_done(const struct script *s);

#endif
