/* SPDX-License-Identifier: GPL-2.0-only */
/* Command APDU cases (ISO/IEC 7816-3 12.1) and their T=0 TPDUs (12.2). */
#ifndef IFD_CM40XX_APDU_H
#define IFD_CM40XX_APDU_H

#include <stddef.h>

enum apdu_case {
	APDU_BAD = 0,
	APDU_CASE_1,
	APDU_CASE_2S,
	APDU_CASE_3S,
	APDU_CASE_4S,
	APDU_CASE_2E,
	APDU_CASE_3E,
	APDU_CASE_4E,
};

enum apdu_case apdu_case(const unsigned char *apdu, size_t len);

/*
 * One exchange with the reader: a command of len bytes out, the answer
 * (at most cap bytes) back in rsp.  0 or a negative errno.
 */
typedef int (*xfer_fn)(void *ctx, const unsigned char *cmd, size_t len,
		       unsigned char *rsp, size_t cap, size_t *rlen);

/*
 * Send an APDU as one T=0 TPDU: case 1 as the header alone (four bytes,
 * or five with P3 = 00 when p3_case1), case 4 without its Le.  61xx and
 * 6Cxx come back as they are: the caller sends GET RESPONSE or repeats
 * the command, as PC/SC applications do.  -EINVAL for an APDU T=0 cannot
 * carry (extended lengths), -EPROTO for an answer without status.
 */
int t0_transmit(xfer_fn xfer, void *ctx, int p3_case1,
		const unsigned char *apdu, size_t len,
		unsigned char *rsp, size_t cap, size_t *rlen);

#endif
