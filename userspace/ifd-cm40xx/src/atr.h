/* SPDX-License-Identifier: GPL-2.0-only */
/* Answer To Reset (ISO/IEC 7816-3, clause 8): what a handler needs of it. */
#ifndef IFD_CM40XX_ATR_H
#define IFD_CM40XX_ATR_H

#include <stdbool.h>
#include <stddef.h>

#define ATR_MAX			33

/* atr_parse() results */
#define ATR_OK			0
#define ATR_E_LENGTH		(-1)	/* too short, too long, bytes missing */
#define ATR_E_TS		(-2)	/* neither convention */
#define ATR_E_TCK		(-3)	/* check byte wrong */
#define ATR_E_VALUE		(-4)	/* an interface byte with a reserved value */

struct atr_info {
	unsigned char atr[ATR_MAX];	/* direct convention, logical bytes */
	size_t len;
	bool inverse;			/* TS 3F (or raw 03) */
	unsigned char ta1;		/* Fi/Di, 0x11 when absent */
	unsigned char tc1;		/* extra guard time */
	bool specific;			/* TA2 present: no PPS */
	unsigned char ta2;
	unsigned int protocols;		/* bit T: T=T offered (T=15 left out) */
	int first;			/* first offered protocol */
	unsigned char wi;		/* T=0 waiting integer (TC2), 10 */
	unsigned char ifsc;		/* T=1, first TA for T=1, 32 */
	unsigned char bwi, cwi;		/* T=1, first TB for T=1, 4 and 13 */
	bool crc;			/* T=1 error detection code is CRC */
	bool has_t15_ta, has_t15_tb;
	unsigned char t15_ta;		/* clock stop (b8-7), classes (b6-1) */
	unsigned char t15_tb;		/* SPU */
	size_t hist_off, hist_len;	/* historical bytes in atr[] */
	bool tck;			/* a TCK is present (and right) */
};

/*
 * Parse an ATR as a reader hands it out: logical bytes (TS 3B or 3F) or
 * the raw bytes of an inverse convention card read as direct (TS 03).
 */
int atr_parse(const unsigned char *atr, size_t len, struct atr_info *ai);

/* ISO/IEC 7816-3 TA1 to F / D; 0 for a reserved value. */
unsigned int atr_fi(unsigned char ta1);
unsigned int atr_di(unsigned char ta1);

#endif
