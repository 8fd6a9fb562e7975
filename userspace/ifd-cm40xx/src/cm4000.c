// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CardMan 4000 (/dev/cmmN): the driver powers the card and reads its
 * ATR by itself, runs T=0 procedure bytes, and moves whole T=1 blocks.
 * The node is kept in O_NONBLOCK mode, where every wait for a card that
 * is not (yet) ready fails with EAGAIN instead of blocking pcscd.
 */
#include <errno.h>
#include <string.h>

#include <pcmcia-legacy/cm4000_cs.h>

#include "log.h"
#include "cm40xx.h"
#include "sysio.h"

#define ATR_WAIT_MS		5000	/* the driver reads an ATR in far less */
#define ATR_POLL_MS		20
#define REPLY_MAX		512

static int cmm_status(struct reader *r)
{
	int status = 0, rc;

	rc = ifd_sys->ioctl(r->fd, CM_IOCGSTATUS, &status);
	return rc < 0 ? rc : status;
}

static int cmm_present(struct reader *r)
{
	int status = cmm_status(r);

	return status < 0 ? status : !!(status & CM_CARD_INSERTED);
}

static int cmm_power_up(struct reader *r, bool reset, unsigned char *atr,
			size_t *len)
{
	struct atreq req;
	int waited, rc;

	if (reset || !r->fresh) {
		rc = ifd_sys->ioctl(r->fd, CM_IOCARDOFF, NULL);
		if (rc < 0)
			return rc;
	}
	for (waited = 0; ; waited += ATR_POLL_MS) {
		memset(&req, 0, sizeof(req));
		rc = ifd_sys->ioctl(r->fd, CM_IOCGATR, &req);
		if (rc != -EAGAIN)
			break;
		rc = cmm_present(r);
		if (rc <= 0)
			return rc ? rc : -ENOMEDIUM;
		if (waited >= ATR_WAIT_MS)
			return -ETIMEDOUT;
		ifd_sys->sleep_ms(ATR_POLL_MS);
	}
	if (rc < 0)
		return rc;
	if (req.atr_len <= 0 || req.atr_len > ATR_MAX) {
		ifd_log_error("%s: the card gave no valid ATR", r->path);
		return -EIO;
	}
	memcpy(atr, req.atr, req.atr_len);
	*len = req.atr_len;
	r->fresh = true;
	return 0;
}

/* The driver knows no "off": the card is reset and waits, fresh. */
static int cmm_power_down(struct reader *r)
{
	int rc = ifd_sys->ioctl(r->fd, CM_IOCARDOFF, NULL);

	if (!rc)
		r->fresh = true;
	return rc;
}

static int cmm_set_protocol(struct reader *r, int t)
{
	const struct atr_info *ai = &r->ai;
	struct ptsreq req;
	int rc;

	/*
	 * The driver runs the first offered protocol and, for a card with
	 * one, has negotiated its rate at insertion: a PPS only changes
	 * something for a card offering two, or a rate beyond the default.
	 */
	if (ai->specific || (t == ai->first &&
	     (ai->protocols == (1u << t) || ai->ta1 == 0x11)))
		return t == r->proto ? 0 : -EPROTONOSUPPORT;
	memset(&req, 0, sizeof(req));
	req.protocol = 1u << t;		/* pts1 unset: TA1's best rate */
	rc = ifd_sys->ioctl(r->fd, CM_IOCSPTS, &req);
	r->fresh = false;
	return rc;
}

static int cmm_xfer(void *ctx, const unsigned char *cmd, size_t len,
		    unsigned char *rsp, size_t cap, size_t *rlen)
{
	struct reader *r = ctx;
	unsigned char buf[REPLY_MAX];
	ssize_t n;

	r->fresh = false;
	n = ifd_sys->write(r->fd, cmd, len);
	if (n >= 0 && (size_t)n != len)
		n = -EIO;
	if (n >= 0)
		n = ifd_sys->read(r->fd, buf, sizeof(buf));
	if (n == -EAGAIN)
		return -ENOMEDIUM;	/* no card with a valid ATR */
	if (n < 0)
		return (int)n;
	if ((size_t)n > cap)
		return -ENOSPC;
	memcpy(rsp, buf, n);
	*rlen = n;
	return 0;
}

const struct reader_ops cm4000_ops = {
	.kind = "cm4000",
	.nonblock = true,
	.present = cmm_present,
	.power_up = cmm_power_up,
	.power_down = cmm_power_down,
	.set_protocol = cmm_set_protocol,
	.xfer = cmm_xfer,
};
