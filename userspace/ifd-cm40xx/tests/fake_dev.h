/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake /dev/cmmN and /dev/cmxN behind the handler's system calls: the
 * ioctls and messages of our drivers, with a scripted card inside.
 */
#ifndef IFD_CM40XX_TEST_FAKE_DEV_H
#define IFD_CM40XX_TEST_FAKE_DEV_H

#include <stdbool.h>
#include <stddef.h>

#include "card.h"

#define FAKE_FD			42

struct fake {
	bool node;			/* the node exists: the PC Card is in */
	bool gone;			/* ...and was pulled while open */
	bool card;			/* a smart card in the slot */
	bool is_4040;			/* set by open() from the path */
	int opens, closes, open_fds, ioctls, sleeps;
	unsigned char atr[33];
	size_t atr_len;
	int atr_waits;			/* CM_IOCGATR EAGAINs before the ATR */
	int cardoffs, pps_calls;
	unsigned int pps_protocol;
	int pps_rc;
	struct script script;		/* the card behind the reader */
	unsigned char reply[STEP_BYTES + 10];
	long reply_len;			/* -1: nothing to read */
	/* 4040: the last message of each kind, as the reader got it */
	unsigned char power_on[16], set_params[32], xfr[STEP_BYTES + 10];
	size_t set_params_len, xfr_len;
};

extern struct fake fake;
extern char log_text[8192];

/* a reader with a card holding @atr (hex), ifd_sys pointing here */
void fake_setup(const char *atr);

#endif
