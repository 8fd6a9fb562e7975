// SPDX-License-Identifier: GPL-2.0-only
/* APDU cases and their mapping onto T=0 command TPDUs. */
#include <errno.h>
#include <string.h>

#include "apdu.h"

enum apdu_case apdu_case(const unsigned char *a, size_t len)
{
	size_t lc;

	if (len < 4)
		return APDU_BAD;
	if (len == 4)
		return APDU_CASE_1;
	if (len == 5)
		return APDU_CASE_2S;
	if (a[4] != 0) {
		lc = a[4];
		if (len == 5 + lc)
			return APDU_CASE_3S;
		if (len == 6 + lc)
			return APDU_CASE_4S;
		return APDU_BAD;
	}
	/* B1 = 00 and more bytes: extended lengths */
	if (len == 7)
		return APDU_CASE_2E;
	lc = (size_t)a[5] << 8 | a[6];
	if (lc == 0)
		return APDU_BAD;
	if (len == 7 + lc)
		return APDU_CASE_3E;
	if (len == 9 + lc)
		return APDU_CASE_4E;
	return APDU_BAD;
}

int t0_transmit(xfer_fn xfer, void *ctx, int p3_case1,
		const unsigned char *apdu, size_t len,
		unsigned char *rsp, size_t cap, size_t *rlen)
{
	unsigned char tpdu[5 + 255];
	size_t tlen, want = 2;
	int rc;

	switch (apdu_case(apdu, len)) {
	case APDU_CASE_1:
		memcpy(tpdu, apdu, 4);
		tpdu[4] = 0;
		tlen = p3_case1 ? 5 : 4;
		break;
	case APDU_CASE_2S:
		memcpy(tpdu, apdu, 5);
		tlen = 5;
		want += apdu[4] ? apdu[4] : 256;
		break;
	case APDU_CASE_3S:
		memcpy(tpdu, apdu, len);
		tlen = len;
		break;
	case APDU_CASE_4S:
		/* Le stays behind: the card answers 61xx, or 9000 at once */
		memcpy(tpdu, apdu, len - 1);
		tlen = len - 1;
		break;
	default:
		return -EINVAL;
	}
	rc = xfer(ctx, tpdu, tlen, rsp, cap, rlen);
	if (rc)
		return rc;
	if (*rlen < 2 || *rlen > want)
		return -EPROTO;
	return 0;
}
