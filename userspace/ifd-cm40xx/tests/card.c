// SPDX-License-Identifier: GPL-2.0-only
/* The scripted card. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"

size_t hex(const char *s, unsigned char *out)
{
	unsigned char lrc = 0;
	size_t n = 0, i;

	for (; *s; s++) {
		if (*s == ' ')
			continue;
		if (*s == 'L' || *s == 'X') {
			for (lrc = 0, i = 0; i < n; i++)
				lrc ^= out[i];
			out[n++] = *s == 'L' ? lrc : (unsigned char)(lrc ^ 0x5a);
			continue;
		}
		if (sscanf(s, "%2hhx", &out[n]) != 1) {
			fprintf(stderr, "bad hex in test: %s\n", s);
			exit(2);
		}
		n++;
		s++;
	}
	return n;
}

void script_reset(struct script *s)
{
	memset(s, 0, sizeof(*s));
}

static struct step *next_step(struct script *s)
{
	if (s->n >= STEP_MAX) {
		fprintf(stderr, "test script too long\n");
		exit(2);
	}
	return &s->steps[s->n++];
}

void expect(struct script *s, const char *cmd, const char *rsp)
{
	struct step *st = next_step(s);

	st->clen = hex(cmd, st->cmd);
	st->rlen = hex(rsp, st->rsp);
}

void expect_err(struct script *s, const char *cmd, int err)
{
	struct step *st = next_step(s);

	st->clen = hex(cmd, st->cmd);
	st->err = err;
}

void expect_blocks(struct script *s, unsigned char pcb,
		   const unsigned char *inf, size_t len, unsigned char rpcb,
		   const unsigned char *rinf, size_t rlen)
{
	struct step *st = next_step(s);

	st->clen = t1_block(st->cmd, 0, pcb, inf, len);
	st->rlen = t1_block(st->rsp, 0, rpcb, rinf, rlen);
}

static void note_failure(struct script *s, const unsigned char *cmd,
			 size_t len)
{
	size_t i, off;

	if (s->failure[0])
		return;
	off = snprintf(s->failure, sizeof(s->failure), "step %d got", s->pos);
	for (i = 0; i < len && off < sizeof(s->failure) - 4; i++)
		off += snprintf(s->failure + off, sizeof(s->failure) - off,
				" %02x", cmd[i]);
}

int script_xfer(void *ctx, const unsigned char *cmd, size_t len,
		unsigned char *rsp, size_t cap, size_t *rlen)
{
	struct script *s = ctx;
	struct step *st;

	if (s->pos >= s->n || s->steps[s->pos].clen != len ||
	    memcmp(s->steps[s->pos].cmd, cmd, len)) {
		note_failure(s, cmd, len);
		return -EIO;
	}
	st = &s->steps[s->pos++];
	st->wtx = s->t1 ? s->t1->wtx : 0;
	if (st->err)
		return st->err;
	if (st->rlen > cap)
		return -ENOSPC;
	memcpy(rsp, st->rsp, st->rlen);
	*rlen = st->rlen;
	return 0;
}

bool script_done(const struct script *s)
{
	if (s->failure[0])
		fprintf(stderr, "  script: %s\n", s->failure);
	else if (s->pos != s->n)
		fprintf(stderr, "  script: %d of %d steps ran\n", s->pos, s->n);
	return !s->failure[0] && s->pos == s->n;
}
