// SPDX-License-Identifier: GPL-2.0-only
/*
 * ISO 7816-3 facts for the smart card reader drivers; see iso7816.h.
 * Compiled into each module that uses it (its unit file includes it: see
 * drivers.list).
 */

#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "iso7816.h"

/* Clock rate conversion and baud rate adjustment factors, by TA1 nibble */
static const u16 iso7816_fi_table[16] = {
	372, 372, 558, 744, 1116, 1488, 1860, 0,
	0, 512, 768, 1024, 1536, 2048, 0, 0,
};

static const u8 iso7816_di_table[16] = {
	0, 1, 2, 4, 8, 16, 32, 64, 12, 20, 0, 0, 0, 0, 0, 0,
};

/* Fi of a TA1-coded Fi/Di; 0 for a reserved code. */
unsigned int iso7816_fi(u8 fidi)
{
	return iso7816_fi_table[fidi >> 4];
}

/* Di of a TA1-coded Fi/Di; 0 for a reserved code. */
unsigned int iso7816_di(u8 fidi)
{
	return iso7816_di_table[fidi & 0x0f];
}

/* Card clocks per ETU (Fi/Di, rounded down), 0 for a reserved code. */
unsigned int iso7816_fidi_clocks(u8 fidi)
{
	unsigned int f = iso7816_fi(fidi), d = iso7816_di(fidi);

	return f && d ? f / d : 0;
}

/*
 * The time @chars characters of @etus ETU each take at @etu_clocks card
 * clocks an ETU and a card clock of @clock_khz, in us (rounded down).
 */
unsigned int iso7816_wire_us(unsigned int chars, unsigned int etus,
			     unsigned int etu_clocks, unsigned int clock_khz)
{
	return div_u64((u64)chars * etus * etu_clocks * 1000, clock_khz);
}

/* Walk the ATR's interface bytes; false if the lengths do not add up. */
bool iso7816_parse_atr(const u8 *atr, unsigned int len,
		       struct iso7816_atr_info *ai)
{
	unsigned int pos = 2, level = 1, t = 0;
	bool tck = false, t1_seen = false;
	u8 y;

	memset(ai, 0, sizeof(*ai));
	ai->ta1 = ISO7816_FIDI_DEFAULT;
	ai->tc1 = 0;
	ai->wi = 10;
	ai->bwi = 4;
	if (len < 2 || (atr[0] != 0x3b && atr[0] != 0x3f))
		return false;
	y = atr[1] >> 4;
	for (;;) {
		if (pos + hweight8(y) > len)
			return false;
		if (y & BIT(0)) {
			if (level == 1) {
				ai->ta1 = atr[pos];
			} else if (level == 2) {
				ai->specific = true;
				ai->ta2 = atr[pos];
			}
			pos++;
		}
		if (y & BIT(1)) {
			if (level > 2 && t == 1 && !t1_seen)
				ai->bwi = atr[pos] >> 4;
			pos++;
		}
		if (y & BIT(2)) {
			if (level == 1)
				ai->tc1 = atr[pos];
			else if (level == 2 && atr[pos])
				ai->wi = atr[pos];
			pos++;
		}
		if (level > 2 && t == 1)
			t1_seen = true;
		if (!(y & BIT(3)))
			break;
		t = atr[pos] & 0x0f;
		y = atr[pos] >> 4;
		pos++;
		if (t)
			tck = true;
		if (t <= 1) {
			if (!ai->protocols)
				ai->first = t;
			ai->protocols |= BIT(t);
		}
		level++;
	}
	if (level == 1)
		ai->protocols = BIT(0);		/* no TD1: T=0 */
	if (!ai->protocols)
		return false;
	return pos + (atr[1] & 0x0f) + tck == len;
}
