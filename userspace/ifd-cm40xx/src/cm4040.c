// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CardMan 4040 (/dev/cmxN): a CCID reader behind a FIFO.  Each
 * write() is one PC_to_RDR message, each read() the RDR_to_PC reply
 * (CCID 1.1, clause 6).  The node blocks; the driver bounds every wait.
 */
#include <errno.h>
#include <string.h>

#include "log.h"
#include "cm40xx.h"
#include "sysio.h"

#define CCID_HDR		10
#define CCID_MSG_MAX		512

/* PC_to_RDR and the RDR_to_PC reply each one gets */
#define PC_SET_PARAMETERS	0x61
#define PC_POWER_ON		0x62
#define PC_POWER_OFF		0x63
#define PC_GET_SLOT_STATUS	0x65
#define PC_XFR_BLOCK		0x6f
#define RDR_DATA_BLOCK		0x80
#define RDR_SLOT_STATUS		0x81
#define RDR_PARAMETERS		0x82

/* bStatus */
#define ICC_STATUS(s)		((s) & 0x03)
#define ICC_ABSENT		2
#define CMD_STATUS(s)		((s) >> 6)
#define CMD_FAILED		1
#define CMD_TIME_EXTENSION	2
/* bError */
#define ERR_ICC_MUTE		0xfe

static unsigned char reply_type(unsigned char type)
{
	switch (type) {
	case PC_SET_PARAMETERS:
		return RDR_PARAMETERS;
	case PC_POWER_ON:
	case PC_XFR_BLOCK:
		return RDR_DATA_BLOCK;
	default:
		return RDR_SLOT_STATUS;
	}
}

/*
 * One message and its reply.  @p holds bytes 7-9 (the message-specific
 * ones).  On success the reply's data is in @data (@dlen bytes) and its
 * bStatus in *status.
 */
static int ccid(struct reader *r, unsigned char type, const unsigned char p[3],
		const unsigned char *in, size_t len, unsigned char *data,
		size_t cap, size_t *dlen, unsigned char *status)
{
	unsigned char msg[CCID_MSG_MAX], rep[CCID_MSG_MAX];
	unsigned char seq = r->seq++;
	size_t rlen;
	ssize_t n;

	if (len > CCID_MSG_MAX - CCID_HDR)
		return -EINVAL;
	msg[0] = type;
	msg[1] = len & 0xff;
	msg[2] = (len >> 8) & 0xff;
	msg[3] = 0;
	msg[4] = 0;
	msg[5] = 0;			/* bSlot */
	msg[6] = seq;
	memcpy(msg + 7, p, 3);
	if (len)
		memcpy(msg + CCID_HDR, in, len);
	n = ifd_sys->write(r->fd, msg, CCID_HDR + len);
	if (n < 0)
		return (int)n;
	do {
		n = ifd_sys->read(r->fd, rep, sizeof(rep));
		if (n < 0)
			return (int)n;
		if (n < CCID_HDR)
			return -EPROTO;
		rlen = rep[1] | rep[2] << 8 | (size_t)rep[3] << 16 |
		       (size_t)rep[4] << 24;
		if (rep[0] != reply_type(type) || rep[6] != seq ||
		    rlen != (size_t)n - CCID_HDR) {
			ifd_log_error("%s: CCID reply %02x seq %u to %02x seq %u",
				      r->path, rep[0], rep[6], type, seq);
			return -EPROTO;
		}
	} while (CMD_STATUS(rep[7]) == CMD_TIME_EXTENSION);
	*status = rep[7];
	if (ICC_STATUS(rep[7]) == ICC_ABSENT)
		return -ENOMEDIUM;
	if (CMD_STATUS(rep[7]) == CMD_FAILED) {
		ifd_log_debug("%s: CCID %02x failed, bError %02x", r->path,
			      type, rep[8]);
		return rep[8] == ERR_ICC_MUTE ? -ETIMEDOUT : -EIO;
	}
	if (rlen > cap)
		return -ENOSPC;
	memcpy(data, rep + CCID_HDR, rlen);
	*dlen = rlen;
	return 0;
}

static int cmx_present(struct reader *r)
{
	static const unsigned char p[3];
	unsigned char status;
	size_t len;
	int rc;

	rc = ccid(r, PC_GET_SLOT_STATUS, p, NULL, 0, NULL, 0, &len, &status);
	if (rc == -ENOMEDIUM)
		return 0;
	return rc ? rc : 1;
}

static int cmx_power_up(struct reader *r, bool reset, unsigned char *atr,
			size_t *len)
{
	static const unsigned char p[3];	/* bPowerSelect: automatic */
	unsigned char status;
	int rc;

	(void)reset;		/* PowerOn resets a powered card */
	rc = ccid(r, PC_POWER_ON, p, NULL, 0, atr, ATR_MAX, len, &status);
	if (!rc)
		r->fresh = true;
	return rc;
}

static int cmx_power_down(struct reader *r)
{
	static const unsigned char p[3];
	unsigned char status;
	size_t len;

	return ccid(r, PC_POWER_OFF, p, NULL, 0, NULL, 0, &len, &status);
}

/* abProtocolDataStructure (CCID 6.1.7) from the ATR, at Fi/Di @fidi. */
static size_t protocol_data(const struct atr_info *ai, int t,
			    unsigned char fidi, unsigned char *d)
{
	d[0] = fidi;
	d[1] = (t ? 0x10 : 0x00) | (ai->inverse ? 0x02 : 0x00);
	d[2] = ai->tc1;
	if (t == 0) {
		d[3] = ai->wi;
		d[4] = 0;		/* clock stop not allowed */
		return 5;
	}
	d[3] = (unsigned char)(ai->bwi << 4 | ai->cwi);
	d[4] = 0;
	d[5] = ai->ifsc;
	d[6] = 0;			/* NAD */
	return 7;
}

static int cmx_set_protocol(struct reader *r, int t)
{
	unsigned char p[3] = { (unsigned char)t, 0, 0 }, d[7], rep[32], status;
	unsigned char fidi = r->ai.specific && (r->ai.ta2 & 0x10) ? 0x11 :
			     r->ai.ta1;
	size_t len;
	int rc;

	/* the reader runs the PPS; at the default rate if TA1's fails */
	len = protocol_data(&r->ai, t, fidi, d);
	rc = ccid(r, PC_SET_PARAMETERS, p, d, len, rep, sizeof(rep), &len,
		  &status);
	if (rc == -EIO && fidi != 0x11 && !r->ai.specific) {
		ifd_log_info("%s: Fi/Di %02x refused, trying the default",
			     r->path, fidi);
		len = protocol_data(&r->ai, t, 0x11, d);
		rc = ccid(r, PC_SET_PARAMETERS, p, d, len, rep, sizeof(rep),
			  &len, &status);
	}
	r->fresh = false;
	return rc;
}

static int cmx_xfer(void *ctx, const unsigned char *cmd, size_t len,
		    unsigned char *rsp, size_t cap, size_t *rlen)
{
	struct reader *r = ctx;
	/* bBWI: the card's waiting time extension for this block */
	unsigned char p[3] = { (unsigned char)r->t1.wtx, 0, 0 }, status;

	r->fresh = false;
	return ccid(r, PC_XFR_BLOCK, p, cmd, len, rsp, cap, rlen, &status);
}

const struct reader_ops cm4040_ops = {
	.kind = "cm4040",
	.p3_case1 = true,
	.present = cmx_present,
	.power_up = cmx_power_up,
	.power_down = cmx_power_down,
	.set_protocol = cmx_set_protocol,
	.xfer = cmx_xfer,
};
