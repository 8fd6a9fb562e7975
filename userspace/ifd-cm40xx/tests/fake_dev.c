// SPDX-License-Identifier: GPL-2.0-only
/* The fake device nodes, and pcscd's log_msg() for the handler. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <pcmcia-legacy/cm4000_cs.h>

#include "fake_dev.h"
#include "sysio.h"

struct fake fake;
char log_text[8192];

void log_msg(const int priority, const char *fmt, ...)
{
	size_t off = strlen(log_text);
	va_list ap;

	(void)priority;
	if (off > sizeof(log_text) - 256)
		off = 0;
	va_start(ap, fmt);
	vsnprintf(log_text + off, sizeof(log_text) - off - 1, fmt, ap);
	va_end(ap);
	strcat(log_text, "\n");
}

static int f_open(const char *path, bool nonblock)
{
	if (!fake.node)
		return -ENOENT;
	if (fake.open_fds)
		return -EBUSY;
	fake.is_4040 = strstr(path, "cmx") != NULL;
	if (nonblock == fake.is_4040)
		return -EINVAL;		/* each driver wants its own mode */
	fake.opens++;
	fake.open_fds++;
	fake.reply_len = -1;
	return FAKE_FD;
}

static int f_close(int fd)
{
	if (fd != FAKE_FD || !fake.open_fds)
		return -EBADF;
	fake.closes++;
	fake.open_fds--;
	return 0;
}

static int f_ioctl(int fd, unsigned long req, void *arg)
{
	struct atreq *atr = arg;
	struct ptsreq *pts = arg;

	fake.ioctls++;
	if (fd != FAKE_FD || fake.is_4040)
		return -ENOTTY;
	if (fake.gone)
		return -ENODEV;
	switch (req) {
	case CM_IOCGSTATUS:
		*(int *)arg = fake.card ? CM_CARD_INSERTED | CM_CARD_POWERED |
			      CM_ATR_PRESENT | CM_ATR_VALID : 0;
		return 0;
	case CM_IOCGATR:
		if (!fake.card || fake.atr_waits-- > 0)
			return -EAGAIN;
		atr->atr_len = (int)fake.atr_len;
		memcpy(atr->atr, fake.atr, fake.atr_len);
		return 0;
	case CM_IOCARDOFF:
		fake.cardoffs++;
		return 0;
	case CM_IOCSPTS:
		fake.pps_calls++;
		fake.pps_protocol = pts->protocol;
		return fake.pps_rc;
	}
	return -ENOTTY;
}

/* one CCID reply: header, then @len bytes of @data */
static void ccid_reply(const unsigned char *msg, unsigned char type,
		       unsigned char status, unsigned char error,
		       const unsigned char *data, size_t len)
{
	memset(fake.reply, 0, 10);
	fake.reply[0] = type;
	fake.reply[1] = len & 0xff;
	fake.reply[2] = len >> 8;
	fake.reply[6] = msg[6];
	fake.reply[7] = status;
	fake.reply[8] = error;
	memcpy(fake.reply + 10, data, len);
	fake.reply_len = (long)(10 + len);
}

static void ccid_message(const unsigned char *msg, size_t len)
{
	unsigned char rsp[STEP_BYTES];
	unsigned char icc = fake.card ? 0 : 2;
	size_t rlen = 0;
	int rc;

	switch (msg[0]) {
	case 0x62:	/* PowerOn */
		memcpy(fake.power_on, msg, 10);
		ccid_reply(msg, 0x80, fake.card ? 0 : 0x42, fake.card ? 0 : 0xfe,
			   fake.atr, fake.card ? fake.atr_len : 0);
		break;
	case 0x61:	/* SetParameters */
		memcpy(fake.set_params, msg, len);
		fake.set_params_len = len;
		fake.pps_calls++;
		ccid_reply(msg, 0x82, icc, 0, msg + 10, len - 10);
		break;
	case 0x6f:	/* XfrBlock */
		memcpy(fake.xfr, msg, len);
		fake.xfr_len = len;
		rc = script_xfer(&fake.script, msg + 10, len - 10, rsp,
				 sizeof(rsp), &rlen);
		if (rc)
			ccid_reply(msg, 0x80, 0x40 | icc,
				   rc == -ETIMEDOUT ? 0xfe : 0xfb, NULL, 0);
		else
			ccid_reply(msg, 0x80, icc, 0, rsp, rlen);
		break;
	default:	/* GetSlotStatus, PowerOff */
		ccid_reply(msg, 0x81, icc, 0, NULL, 0);
	}
}

static ssize_t f_write(int fd, const void *buf, size_t len)
{
	unsigned char rsp[STEP_BYTES];
	size_t rlen = 0;
	int rc;

	if (fd != FAKE_FD)
		return -EBADF;
	if (fake.gone)
		return -ENODEV;
	if (fake.is_4040) {
		ccid_message(buf, len);
		return (ssize_t)len;
	}
	if (!fake.card)
		return -EAGAIN;
	rc = script_xfer(&fake.script, buf, len, rsp, sizeof(rsp), &rlen);
	if (rc)
		return -EIO;
	memcpy(fake.reply, rsp, rlen);
	fake.reply_len = (long)rlen;
	return (ssize_t)len;
}

static ssize_t f_read(int fd, void *buf, size_t len)
{
	size_t n;

	if (fd != FAKE_FD)
		return -EBADF;
	if (fake.gone)
		return -ENODEV;
	if (fake.reply_len < 0)
		return fake.is_4040 ? -EIO : -EAGAIN;
	n = (size_t)fake.reply_len < len ? (size_t)fake.reply_len : len;
	memcpy(buf, fake.reply, n);
	fake.reply_len = -1;
	return (ssize_t)n;
}

static void f_sleep_ms(unsigned int ms)
{
	(void)ms;
	fake.sleeps++;
}

static const struct ifd_sys fake_sys = {
	.open = f_open,
	.close = f_close,
	.read = f_read,
	.write = f_write,
	.ioctl = f_ioctl,
	.sleep_ms = f_sleep_ms,
};

void fake_setup(const char *atr)
{
	memset(&fake, 0, sizeof(fake));
	fake.node = true;
	fake.card = true;
	fake.atr_len = hex(atr, fake.atr);
	fake.reply_len = -1;
	log_text[0] = '\0';
}

const struct ifd_sys *ifd_sys = &fake_sys;
