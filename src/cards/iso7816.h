/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ISO 7816-3 facts both smart card reader drivers need: what an ATR
 * says, the rates its Fi/Di codes stand for, and how long characters
 * take on the card's wire (so that a driver can sleep until a reply can
 * be there).  Linked into each module like screader.c.
 */
#ifndef PCL_ISO7816_H
#define PCL_ISO7816_H

#include <linux/types.h>

#define ISO7816_FIDI_DEFAULT	0x11
#define ISO7816_ETU_DEFAULT	372	/* card clocks per ETU before a PPS */
#define ISO7816_CHAR_ETU	12	/* a character and the minimum guard time */
#define ISO7816_T1_CHAR_ETU	11	/* T=1 from the card: one ETU less */
#define ISO7816_T1_BGT		22	/* block guard time, in ETU */
#define ISO7816_ATR_DELAY_MIN	400	/* clocks from reset to TS, at least */

/* What the drivers need from an ATR. */
struct iso7816_atr_info {
	u8 protocols;		/* bit T: T=0 or T=1 offered */
	u8 first;		/* the first one offered */
	u8 ta1;			/* the card's best Fi/Di */
	u8 tc1;			/* extra guard time */
	bool specific;		/* TA2: no PPS, the card runs as it says */
	u8 ta2;
	u8 wi;			/* T=0 waiting time integer */
	u8 bwi;			/* T=1 block waiting time integer */
};

bool iso7816_parse_atr(const u8 *atr, unsigned int len,
		       struct iso7816_atr_info *ai);
unsigned int iso7816_fi(u8 fidi);
unsigned int iso7816_di(u8 fidi);
unsigned int iso7816_fidi_clocks(u8 fidi);
unsigned int iso7816_wire_us(unsigned int chars, unsigned int etus,
			     unsigned int etu_clocks, unsigned int clock_khz);

#endif /* PCL_ISO7816_H */
