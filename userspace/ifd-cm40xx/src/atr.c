// SPDX-License-Identifier: GPL-2.0-only
/* ATR parsing, ISO/IEC 7816-3 clause 8. */
#include <string.h>

#include "atr.h"

/* Table 7 and 8 of ISO/IEC 7816-3: F and D by nibble, 0 = RFU. */
static const unsigned short fi_table[16] = {
	372, 372, 558, 744, 1116, 1488, 1860, 0,
	0, 512, 768, 1024, 1536, 2048, 0, 0,
};
static const unsigned char di_table[16] = {
	0, 1, 2, 4, 8, 16, 32, 64, 12, 20, 0, 0, 0, 0, 0, 0,
};

unsigned int atr_fi(unsigned char ta1)
{
	return fi_table[ta1 >> 4];
}

unsigned int atr_di(unsigned char ta1)
{
	return di_table[ta1 & 0x0f];
}

/* A byte of an inverse card as seen in direct convention, and back. */
static unsigned char flip(unsigned char b)
{
	unsigned char r = 0;
	int i;

	for (i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= 0x80 >> i;
	return (unsigned char)~r;
}

/* The interface bytes of one group i >= 3 for protocol t. */
static int specific_bytes(struct atr_info *ai, int t, const unsigned char *b,
			  unsigned int y, bool *t1_seen)
{
	if (t == 1 && !*t1_seen) {
		if (y & 1) {
			if (b[0] == 0x00 || b[0] == 0xff)
				return ATR_E_VALUE;
			ai->ifsc = b[0];
		}
		if (y & 2) {
			ai->bwi = b[(y & 1)] >> 4;
			ai->cwi = b[(y & 1)] & 0x0f;
			if (ai->bwi > 9)
				return ATR_E_VALUE;
		}
		if (y & 4)
			ai->crc = b[!!(y & 1) + !!(y & 2)] & 1;
		*t1_seen = true;
	} else if (t == 15) {
		if (y & 1) {
			ai->has_t15_ta = true;
			ai->t15_ta = b[0];
		}
		if (y & 2) {
			ai->has_t15_tb = true;
			ai->t15_tb = b[(y & 1)];
		}
	}
	return ATR_OK;
}

int atr_parse(const unsigned char *in, size_t len, struct atr_info *ai)
{
	unsigned char *a = ai->atr;
	unsigned int y, i, nbytes, level = 1;
	bool t1_seen = false, need_tck = false;
	size_t pos = 2, k;
	int t = 0, rc;

	memset(ai, 0, sizeof(*ai));
	ai->ta1 = 0x11;
	ai->wi = 10;
	ai->ifsc = 32;
	ai->bwi = 4;
	ai->cwi = 13;
	ai->first = -1;
	if (len < 2 || len > ATR_MAX)
		return ATR_E_LENGTH;
	memcpy(a, in, len);
	ai->len = len;
	if (a[0] == 0x03) {
		for (k = 0; k < len; k++)
			a[k] = flip(a[k]);
	}
	if (a[0] != 0x3b && a[0] != 0x3f)
		return ATR_E_TS;
	ai->inverse = a[0] == 0x3f;

	y = a[1] >> 4;
	for (;;) {
		nbytes = __builtin_popcount(y);
		if (pos + nbytes > len)
			return ATR_E_LENGTH;
		i = 0;
		if (level == 1) {
			if (y & 1)
				ai->ta1 = a[pos + i++];
			if (y & 2)
				i++;		/* TB1: deprecated, ignored */
			if (y & 4)
				ai->tc1 = a[pos + i++];
		} else if (level == 2) {
			if (y & 1) {
				ai->specific = true;
				ai->ta2 = a[pos + i++];
			}
			if (y & 2)
				i++;		/* TB2: deprecated */
			if (y & 4) {
				if (a[pos + i] == 0)
					return ATR_E_VALUE;
				ai->wi = a[pos + i];
				i++;
			}
		} else {
			rc = specific_bytes(ai, t, a + pos, y, &t1_seen);
			if (rc)
				return rc;
		}
		pos += nbytes;
		if (!(y & 8))
			break;
		/* TDi: the protocol of the next group, which bytes follow */
		t = a[pos - 1] & 0x0f;
		y = a[pos - 1] >> 4;
		if (t != 0)
			need_tck = true;
		if (t != 15) {
			if (ai->first < 0)
				ai->first = t;
			ai->protocols |= 1u << t;
		}
		level++;
	}
	if (ai->first < 0) {
		ai->first = 0;
		ai->protocols |= 1;
	}
	ai->hist_off = pos;
	ai->hist_len = a[1] & 0x0f;
	if (pos + ai->hist_len + need_tck != len)
		return ATR_E_LENGTH;
	if (need_tck) {
		unsigned char x = 0;

		for (k = 1; k < len; k++)
			x ^= a[k];
		if (x)
			return ATR_E_TCK;
		ai->tck = true;
	}
	if (ai->specific && (ai->ta2 & 0x0f) != 15)
		ai->protocols |= 1u << (ai->ta2 & 0x0f);
	return ATR_OK;
}
