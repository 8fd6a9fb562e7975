// SPDX-License-Identifier: GPL-2.0-only
/*
 * The T=1 engine.  Every exchange is "block out, block in"; all error
 * recovery of ISO/IEC 7816-3 11.6 happens here: an unusable block is
 * answered with an R-block (three times), then S(RESYNCH) (three times),
 * after which the APDU is sent again from its start once.
 */
#include <errno.h>
#include <string.h>

#include "log.h"
#include "t1.h"

#define PCB_R			0x80
#define PCB_S			0xc0
#define PCB_I_NS		0x40
#define PCB_I_MORE		0x20
#define PCB_R_NR		0x10
#define PCB_R_EDC		0x01	/* error codes in an R-block */
#define PCB_R_OTHER		0x02
#define PCB_S_RESPONSE		0x20
#define S_RESYNCH		0x00
#define S_IFS			0x01
#define S_ABORT			0x02
#define S_WTX			0x03

#define T1_RETRIES		3

/* failures the engine recovers from; anything else ends the exchange */
static bool recoverable(int rc)
{
	return rc == -EIO || rc == -ETIMEDOUT || rc == -EPROTO;
}

size_t t1_block(unsigned char *blk, unsigned char nad, unsigned char pcb,
		const unsigned char *inf, size_t len)
{
	unsigned char lrc = 0;
	size_t i;

	blk[0] = nad;
	blk[1] = pcb;
	blk[2] = (unsigned char)len;
	if (len)
		memcpy(blk + 3, inf, len);
	for (i = 0; i < 3 + len; i++)
		lrc ^= blk[i];
	blk[3 + len] = lrc;
	return 4 + len;
}

void t1_init(struct t1 *t1, xfer_fn xfer, void *ctx, unsigned int ifsc)
{
	memset(t1, 0, sizeof(*t1));
	t1->xfer = xfer;
	t1->ctx = ctx;
	t1->ifsc = t1->ifsc_atr = ifsc;
	t1->ifsd = 32;
}

static bool is_i(unsigned char pcb)
{
	return !(pcb & 0x80);
}

static bool is_r(unsigned char pcb)
{
	return (pcb & 0xc0) == PCB_R;
}

static bool is_s(unsigned char pcb)
{
	return (pcb & 0xc0) == PCB_S;
}

/*
 * Exchange one block.  A block that came back broken (LRC, length, NAD)
 * is reported as -EPROTO; the card's silence as the transport says.
 */
static int exchange(struct t1 *t1, const unsigned char *blk, size_t len,
		    unsigned char *rx, size_t *rlen)
{
	unsigned char lrc = 0;
	size_t i;
	int rc;

	rc = t1->xfer(t1->ctx, blk, len, rx, T1_BLOCK_MAX, rlen);
	t1->wtx = 0;
	if (rc)
		return rc;
	if (*rlen < 4 || rx[2] == 0xff || *rlen != 4u + rx[2] || rx[0] != 0)
		return -EPROTO;
	for (i = 0; i < *rlen; i++)
		lrc ^= rx[i];
	if (lrc) {
		ifd_log_debug("T=1: block with a wrong LRC");
		return -EPROTO;
	}
	if (is_i(rx[1]) && rx[2] > t1->ifsd)
		return -EPROTO;
	if (is_r(rx[1]) && (rx[2] != 0 || (rx[1] & 0x2c)))
		return -EPROTO;
	if (is_s(rx[1])) {
		unsigned int type = rx[1] & 0x1f;

		if (type > S_WTX)
			return -EPROTO;
		if (rx[2] != ((type == S_IFS || type == S_WTX) ? 1 : 0))
			return -EPROTO;
	}
	return 0;
}

static size_t r_block(struct t1 *t1, unsigned char *blk, unsigned char err)
{
	return t1_block(blk, 0, PCB_R | (t1->nr ? PCB_R_NR : 0) | err,
			NULL, 0);
}

/* A supervisory request of ours, until its response comes (or not). */
static int s_request(struct t1 *t1, unsigned char type,
		     const unsigned char *inf, size_t ilen,
		     unsigned char *rx, size_t *rlen)
{
	unsigned char blk[8];
	size_t len = t1_block(blk, 0, PCB_S | type, inf, ilen);
	int tries, rc = -EIO;

	for (tries = 0; tries < T1_RETRIES; tries++) {
		rc = exchange(t1, blk, len, rx, rlen);
		if (rc && !recoverable(rc))
			return rc;
		if (!rc && rx[1] == (PCB_S | PCB_S_RESPONSE | type))
			return 0;
		rc = -EIO;
	}
	return rc;
}

int t1_resync(struct t1 *t1)
{
	unsigned char rx[T1_BLOCK_MAX];
	size_t rlen;
	int rc;

	rc = s_request(t1, S_RESYNCH, NULL, 0, rx, &rlen);
	if (rc) {
		ifd_log_error("T=1: the card does not resynchronise");
		return rc;
	}
	t1->ns = 0;
	t1->nr = 0;
	t1->ifsc = t1->ifsc_atr;
	t1->ifsd = 32;
	t1->ifsd_done = false;
	return 0;
}

int t1_negotiate_ifsd(struct t1 *t1, unsigned int ifsd)
{
	unsigned char rx[T1_BLOCK_MAX], inf = (unsigned char)ifsd;
	size_t rlen;
	int rc;

	t1->ifsd_done = true;
	rc = s_request(t1, S_IFS, &inf, 1, rx, &rlen);
	if (rc)
		return rc;
	if (rx[3] != inf)
		return -EIO;
	t1->ifsd = ifsd;
	return 0;
}

/*
 * One pass of an APDU: 0 when done, -EAGAIN when the exchange got lost
 * and was resynchronised (send the APDU again), or an error.
 */
static int transceive_once(struct t1 *t1, const unsigned char *apdu,
			   size_t len, unsigned char *rsp, size_t cap,
			   size_t *rlen)
{
	unsigned char iblk[T1_BLOCK_MAX], pend[T1_BLOCK_MAX], rx[T1_BLOCK_MAX];
	size_t off = 0, chunk, ilen, plen, xlen, got = 0;
	bool sending = true, more;
	int errors = 0, rc;
	unsigned char pcb;

	/* our first (or next) I-block */
	chunk = len - off < t1->ifsc ? len - off : t1->ifsc;
	more = off + chunk < len;
	ilen = t1_block(iblk, 0, (t1->ns ? PCB_I_NS : 0) |
			(more ? PCB_I_MORE : 0), apdu + off, chunk);
	memcpy(pend, iblk, ilen);
	plen = ilen;

	for (;;) {
		rc = exchange(t1, pend, plen, rx, &xlen);
		if (rc && !recoverable(rc))
			return rc;
		if (rc) {
			if (++errors > T1_RETRIES)
				goto resync;
			/* Rule 7.1: ask for the block again */
			plen = r_block(t1, pend, rc == -EPROTO ? PCB_R_EDC :
				       PCB_R_OTHER);
			continue;
		}
		pcb = rx[1];
		if (is_s(pcb)) {
			unsigned char type = pcb & 0x1f;

			if (pcb & PCB_S_RESPONSE)
				goto invalid;
			if (type == S_WTX) {
				plen = t1_block(pend, 0, PCB_S | PCB_S_RESPONSE |
						S_WTX, rx + 3, 1);
				t1->wtx = rx[3];
			} else if (type == S_IFS) {
				if (rx[3] == 0 || rx[3] == 0xff)
					goto invalid;
				t1->ifsc = rx[3];
				plen = t1_block(pend, 0, PCB_S | PCB_S_RESPONSE |
						S_IFS, rx + 3, 1);
			} else if (type == S_ABORT) {
				plen = t1_block(pend, 0, PCB_S | PCB_S_RESPONSE |
						S_ABORT, NULL, 0);
				rc = exchange(t1, pend, plen, rx, &xlen);
				ifd_log_error("T=1: the card aborted the exchange");
				return rc && !recoverable(rc) ? rc : -ECANCELED;
			} else {
				goto invalid;
			}
			continue;
		}
		if (is_r(pcb)) {
			unsigned char nr = !!(pcb & PCB_R_NR);

			if (sending && nr != t1->ns && more) {
				/* our chained block is in: the next one */
				t1->ns ^= 1;
				off += chunk;
				chunk = len - off < t1->ifsc ? len - off :
					t1->ifsc;
				more = off + chunk < len;
				ilen = t1_block(iblk, 0,
						(t1->ns ? PCB_I_NS : 0) |
						(more ? PCB_I_MORE : 0),
						apdu + off, chunk);
				memcpy(pend, iblk, ilen);
				plen = ilen;
				errors = 0;
				continue;
			}
			if (++errors > T1_RETRIES)
				goto resync;
			if (sending && nr == t1->ns) {
				/* the card did not get our I-block */
				memcpy(pend, iblk, ilen);
				plen = ilen;
			}
			/* else: it lost our R-block; pend holds it still */
			continue;
		}
		/* an I-block from the card */
		if (sending && more)
			goto invalid;	/* it may not talk while we chain */
		if (!!(pcb & PCB_I_NS) != t1->nr)
			goto invalid;
		if (sending) {
			t1->ns ^= 1;	/* it implies our last block's ack */
			sending = false;
		}
		t1->nr ^= 1;
		errors = 0;
		if (got + rx[2] > cap) {
			ifd_log_error("T=1: response larger than %zu bytes", cap);
			t1_resync(t1);
			return -ENOSPC;
		}
		memcpy(rsp + got, rx + 3, rx[2]);
		got += rx[2];
		if (!(pcb & PCB_I_MORE)) {
			*rlen = got;
			return 0;
		}
		plen = r_block(t1, pend, 0);
		continue;
invalid:
		if (++errors > T1_RETRIES)
			goto resync;
		plen = r_block(t1, pend, PCB_R_OTHER);
	}
resync:
	ifd_log_info("T=1: no progress, resynchronising");
	rc = t1_resync(t1);
	return rc ? rc : -EAGAIN;
}

int t1_transceive(struct t1 *t1, const unsigned char *apdu, size_t len,
		  unsigned char *rsp, size_t cap, size_t *rlen)
{
	int rc, pass;

	for (pass = 0; pass < 2; pass++) {
		if (!t1->ifsd_done) {
			rc = t1_negotiate_ifsd(t1, T1_IFSD);
			if (rc && rc != -EIO)
				return rc;
			if (rc) {
				ifd_log_info("T=1: the card keeps IFSD 32");
				rc = t1_resync(t1);
				t1->ifsd_done = true;
				if (rc)
					return rc;
			}
		}
		rc = transceive_once(t1, apdu, len, rsp, cap, rlen);
		if (rc != -EAGAIN)
			return rc;
	}
	return -EIO;
}
