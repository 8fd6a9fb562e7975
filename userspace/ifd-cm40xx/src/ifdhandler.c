// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcsc-lite's driver interface (ifdhandler.h, API 3.0) for the Omnikey
 * CardMan 4000 and 4040 PC Cards.
 *
 * A reader is named by its device node in /etc/reader.conf.d/:
 *   DEVICENAME /dev/cmm0:cm4000        the kind after the colon, or from
 *   DEVICENAME /dev/cmx0:cm4040,apdu   the node's name; "apdu" or "tpdu"
 *                                      (default) for the 4040's level.
 * With a colon pcscd does not insist on the node at its start: the PC
 * Card may come later.  The node is opened when first needed and closed
 * the moment the driver says the reader is gone (ENODEV), so that the
 * kernel's removal of the PC Card never waits for pcscd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ifdhandler.h>
#include <reader.h>

#include "log.h"
#include "cm40xx.h"
#include "sysio.h"

#define MAX_READERS		16
#define EXPORT			__attribute__((visibility("default")))

static struct reader readers[MAX_READERS];
static bool reader_used[MAX_READERS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static struct reader *lun_reader(DWORD lun)
{
	unsigned long i = (lun >> 16) & 0xffff;

	if (i >= MAX_READERS || (lun & 0xffff) || !reader_used[i])
		return NULL;
	return &readers[i];
}

/* "path[:option,...]": kind and level; 0 or -EINVAL. */
static int parse_name(struct reader *r, const char *name)
{
	const char *colon = strchr(name, ':'), *base;
	char opts[64], *opt, *save;
	size_t plen = colon ? (size_t)(colon - name) : strlen(name);

	if (!plen || plen >= sizeof(r->path))
		return -EINVAL;
	memcpy(r->path, name, plen);
	r->path[plen] = '\0';
	base = strrchr(r->path, '/');
	base = base ? base + 1 : r->path;
	r->ops = !strncmp(base, "cmm", 3) ? &cm4000_ops :
		 !strncmp(base, "cmx", 3) ? &cm4040_ops : NULL;
	r->level = LEVEL_TPDU;
	if (!colon)
		return r->ops ? 0 : -EINVAL;
	if (strlen(colon + 1) >= sizeof(opts))
		return -EINVAL;
	strcpy(opts, colon + 1);
	for (opt = strtok_r(opts, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (!strcmp(opt, "cm4000"))
			r->ops = &cm4000_ops;
		else if (!strcmp(opt, "cm4040"))
			r->ops = &cm4040_ops;
		else if (!strcmp(opt, "apdu"))
			r->level = LEVEL_APDU;
		else if (!strcmp(opt, "tpdu"))
			r->level = LEVEL_TPDU;
		else
			return -EINVAL;
	}
	if (r->level == LEVEL_APDU && r->ops != &cm4040_ops)
		return -EINVAL;		/* the 4000 moves TPDUs only */
	return r->ops ? 0 : -EINVAL;
}

/* The reader went away: let go of the node at once. */
static void reader_gone(struct reader *r)
{
	if (r->fd >= 0) {
		ifd_log_info("%s: reader gone, device closed", r->path);
		ifd_sys->close(r->fd);
	}
	r->fd = -1;
	r->powered = false;
}

/* The node open: 0, or -ENODEV while there is no reader behind it. */
static int reader_open(struct reader *r)
{
	int fd;

	if (r->fd >= 0)
		return 0;
	fd = ifd_sys->open(r->path, r->ops->nonblock);
	if (fd < 0) {
		if (fd != -ENOENT && fd != -ENODEV && fd != -ENXIO &&
		    !r->open_failed)
			ifd_log_error("%s: %s", r->path, strerror(-fd));
		r->open_failed = true;
		return -ENODEV;
	}
	ifd_log_info("%s: %s reader opened", r->path, r->ops->kind);
	r->open_failed = false;
	r->fd = fd;
	r->fresh = true;		/* the 4000's driver powers it anew */
	r->powered = false;
	r->seq = 0;
	return 0;
}

static RESPONSECODE io_error(struct reader *r, int rc)
{
	switch (rc) {
	case 0:
		return IFD_SUCCESS;
	case -ENODEV:
		reader_gone(r);
		return IFD_NO_SUCH_DEVICE;
	case -ENOMEDIUM:
		r->powered = false;
		return IFD_ICC_NOT_PRESENT;
	case -ETIMEDOUT:
		return IFD_RESPONSE_TIMEOUT;
	case -ENOSPC:
		return IFD_ERROR_INSUFFICIENT_BUFFER;
	case -EINVAL:
		return IFD_NOT_SUPPORTED;
	default:
		return IFD_COMMUNICATION_ERROR;
	}
}

EXPORT RESPONSECODE IFDHCreateChannelByName(DWORD Lun, LPSTR DeviceName)
{
	unsigned long i = (Lun >> 16) & 0xffff;
	struct reader *r;
	RESPONSECODE ret = IFD_SUCCESS;

	if (i >= MAX_READERS || !DeviceName)
		return IFD_COMMUNICATION_ERROR;
	pthread_mutex_lock(&table_lock);
	r = &readers[i];
	if (reader_used[i]) {
		ret = IFD_COMMUNICATION_ERROR;
		goto out;
	}
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (parse_name(r, DeviceName)) {
		ifd_log_error("DEVICENAME %s: not /dev/cmmN or /dev/cmxN[:cm4000|cm4040][,tpdu|apdu]",
			      DeviceName);
		ret = IFD_COMMUNICATION_ERROR;
		goto out;
	}
	pthread_mutex_init(&r->lock, NULL);
	reader_used[i] = true;
	/* no PC Card yet is fine: it may come later */
	reader_open(r);
out:
	pthread_mutex_unlock(&table_lock);
	return ret;
}

/* Without a DEVICENAME: channel N is /dev/cmmN, 0x10 + N /dev/cmxN. */
EXPORT RESPONSECODE IFDHCreateChannel(DWORD Lun, DWORD Channel)
{
	char name[32];

	if ((Channel & 0x0f) > 9 || Channel > 0x1f)
		return IFD_COMMUNICATION_ERROR;
	snprintf(name, sizeof(name), "/dev/%s%lu", Channel & 0x10 ? "cmx" : "cmm",
		 (unsigned long)(Channel & 0x0f));
	return IFDHCreateChannelByName(Lun, name);
}

EXPORT RESPONSECODE IFDHCloseChannel(DWORD Lun)
{
	struct reader *r = lun_reader(Lun);

	if (!r)
		return IFD_COMMUNICATION_ERROR;
	pthread_mutex_lock(&table_lock);
	pthread_mutex_lock(&r->lock);
	if (r->fd >= 0)
		ifd_sys->close(r->fd);
	r->fd = -1;
	pthread_mutex_unlock(&r->lock);
	pthread_mutex_destroy(&r->lock);
	reader_used[(Lun >> 16) & 0xffff] = false;
	pthread_mutex_unlock(&table_lock);
	return IFD_SUCCESS;
}

static RESPONSECODE put_value(PDWORD Length, PUCHAR Value, const void *v,
			      size_t len)
{
	if (*Length < len)
		return IFD_ERROR_INSUFFICIENT_BUFFER;
	memcpy(Value, v, len);
	*Length = len;
	return IFD_SUCCESS;
}

EXPORT RESPONSECODE IFDHGetCapabilities(DWORD Lun, DWORD Tag, PDWORD Length,
					PUCHAR Value)
{
	struct reader *r = lun_reader(Lun);
	unsigned char byte;
	RESPONSECODE ret;
	int rc;

	if (!r || !Length || !Value)
		return IFD_COMMUNICATION_ERROR;
	pthread_mutex_lock(&r->lock);
	switch (Tag) {
	case TAG_IFD_ATR:
	case SCARD_ATTR_ATR_STRING:
		if (!r->powered) {
			*Length = 0;
			ret = IFD_SUCCESS;
			break;
		}
		ret = put_value(Length, Value, r->ai.atr, r->ai.len);
		break;
	case SCARD_ATTR_ICC_PRESENCE:
		rc = r->fd >= 0 ? r->ops->present(r) : -ENODEV;
		if (rc == -ENODEV)
			reader_gone(r);
		byte = rc == 1 ? 2 : 0;
		ret = put_value(Length, Value, &byte, 1);
		break;
	case SCARD_ATTR_CURRENT_PROTOCOL_TYPE:
		if (!r->powered) {
			ret = IFD_ERROR_TAG;
			break;
		}
		byte = r->proto ? SCARD_PROTOCOL_T1 : SCARD_PROTOCOL_T0;
		ret = put_value(Length, Value, &byte, 1);
		break;
	case SCARD_ATTR_VENDOR_NAME:
		ret = put_value(Length, Value, "Omnikey", 8);
		break;
	case SCARD_ATTR_VENDOR_IFD_TYPE:
		ret = r->ops == &cm4000_ops ?
		      put_value(Length, Value, "CardMan 4000", 13) :
		      put_value(Length, Value, "CardMan 4040", 13);
		break;
	case TAG_IFD_SLOTS_NUMBER:
		byte = 1;
		ret = put_value(Length, Value, &byte, 1);
		break;
	case TAG_IFD_SIMULTANEOUS_ACCESS:
		byte = MAX_READERS;
		ret = put_value(Length, Value, &byte, 1);
		break;
	case TAG_IFD_THREAD_SAFE:
	case TAG_IFD_SLOT_THREAD_SAFE:
		/* one lock per reader; slots: there is one */
		byte = Tag == TAG_IFD_THREAD_SAFE;
		ret = put_value(Length, Value, &byte, 1);
		break;
	default:
		ret = IFD_ERROR_TAG;
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

EXPORT RESPONSECODE IFDHSetCapabilities(DWORD Lun, DWORD Tag, DWORD Length,
					PUCHAR Value)
{
	(void)Lun;
	(void)Tag;
	(void)Length;
	(void)Value;
	return IFD_NOT_SUPPORTED;
}

/* Protocol @t for the card just powered: session state to match. */
static void use_protocol(struct reader *r, int t)
{
	r->proto = t;
	if (t == 1)
		t1_init(&r->t1, r->ops->xfer, r, r->ai.ifsc);
}

EXPORT RESPONSECODE IFDHSetProtocolParameters(DWORD Lun, DWORD Protocol,
					      UCHAR Flags, UCHAR PTS1,
					      UCHAR PTS2, UCHAR PTS3)
{
	struct reader *r = lun_reader(Lun);
	RESPONSECODE ret;
	int t, rc;

	(void)Flags;	/* the rate is TA1's best the reader can do */
	(void)PTS1;
	(void)PTS2;
	(void)PTS3;
	if (!r)
		return IFD_COMMUNICATION_ERROR;
	if (Protocol == SCARD_PROTOCOL_T0)
		t = 0;
	else if (Protocol == SCARD_PROTOCOL_T1)
		t = 1;
	else
		return IFD_PROTOCOL_NOT_SUPPORTED;
	pthread_mutex_lock(&r->lock);
	if (!r->powered || r->fd < 0) {
		ret = IFD_COMMUNICATION_ERROR;
	} else if (!(r->ai.protocols & (1u << t))) {
		ret = IFD_PROTOCOL_NOT_SUPPORTED;
	} else if (t == 1 && r->ai.crc) {
		ifd_log_error("%s: the card wants CRC in T=1; only LRC is supported, T=1 refused",
			      r->path);
		ret = IFD_PROTOCOL_NOT_SUPPORTED;
	} else {
		rc = r->ops->set_protocol(r, t);
		if (rc == -EPROTONOSUPPORT) {
			ret = IFD_PROTOCOL_NOT_SUPPORTED;
		} else if (rc == -ENODEV || rc == -ENOMEDIUM) {
			ret = io_error(r, rc);
		} else if (rc) {
			ifd_log_error("%s: PPS for T=%d failed", r->path, t);
			ret = IFD_ERROR_PTS_FAILURE;
		} else {
			use_protocol(r, t);
			ret = IFD_SUCCESS;
		}
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static RESPONSECODE power_up(struct reader *r, bool reset, PUCHAR Atr,
			     PDWORD AtrLength)
{
	unsigned char atr[ATR_MAX];
	size_t len;
	int rc;

	rc = reader_open(r);
	if (!rc)
		rc = r->ops->power_up(r, reset || r->powered, atr, &len);
	if (rc)
		return rc == -ETIMEDOUT || rc == -EIO ? IFD_ERROR_POWER_ACTION :
		       io_error(r, rc);
	rc = atr_parse(atr, len, &r->ai);
	if (rc) {
		ifd_log_error("%s: unusable ATR (error %d)", r->path, rc);
		return IFD_ERROR_POWER_ACTION;
	}
	if ((r->ai.protocols & 2) && r->ai.crc)
		ifd_log_error("%s: the card offers T=1 with CRC; only LRC is supported",
			      r->path);
	if (*AtrLength < len)
		return IFD_ERROR_INSUFFICIENT_BUFFER;
	memcpy(Atr, atr, len);
	*AtrLength = len;
	r->powered = true;
	/* until a PPS: the protocol TA2 names, else the first offered */
	use_protocol(r, r->ai.specific ? (r->ai.ta2 & 0x0f) : r->ai.first);
	return IFD_SUCCESS;
}

EXPORT RESPONSECODE IFDHPowerICC(DWORD Lun, DWORD Action, PUCHAR Atr,
				 PDWORD AtrLength)
{
	struct reader *r = lun_reader(Lun);
	RESPONSECODE ret;
	int rc;

	if (!r || !AtrLength)
		return IFD_COMMUNICATION_ERROR;
	pthread_mutex_lock(&r->lock);
	switch (Action) {
	case IFD_POWER_UP:
	case IFD_RESET:
		ret = power_up(r, Action == IFD_RESET, Atr, AtrLength);
		if (ret != IFD_SUCCESS)
			*AtrLength = 0;
		break;
	case IFD_POWER_DOWN:
		*AtrLength = 0;
		r->powered = false;
		rc = r->fd >= 0 ? r->ops->power_down(r) : 0;
		ret = rc == -ENODEV ? io_error(r, rc) : IFD_SUCCESS;
		break;
	default:
		ret = IFD_NOT_SUPPORTED;
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

EXPORT RESPONSECODE IFDHTransmitToICC(DWORD Lun, SCARD_IO_HEADER SendPci,
				      PUCHAR TxBuffer, DWORD TxLength,
				      PUCHAR RxBuffer, PDWORD RxLength,
				      PSCARD_IO_HEADER RecvPci)
{
	struct reader *r = lun_reader(Lun);
	size_t rlen = 0;
	int rc;

	(void)SendPci;		/* the protocol is the one set up */
	if (!r || !RxLength || !TxBuffer || !RxBuffer)
		return IFD_COMMUNICATION_ERROR;
	pthread_mutex_lock(&r->lock);
	if (r->fd < 0 || !r->powered)
		rc = -ENOMEDIUM;
	else if (r->level == LEVEL_APDU)
		rc = r->ops->xfer(r, TxBuffer, TxLength, RxBuffer, *RxLength,
				  &rlen);
	else if (r->proto == 1)
		rc = t1_transceive(&r->t1, TxBuffer, TxLength, RxBuffer,
				   *RxLength, &rlen);
	else
		rc = t0_transmit(r->ops->xfer, r, r->ops->p3_case1, TxBuffer,
				 TxLength, RxBuffer, *RxLength, &rlen);
	*RxLength = rc ? 0 : rlen;
	if (RecvPci)
		RecvPci->Protocol = (DWORD)r->proto;
	pthread_mutex_unlock(&r->lock);
	return io_error(r, rc);
}

EXPORT RESPONSECODE IFDHControl(DWORD Lun, DWORD dwControlCode,
				PUCHAR TxBuffer, DWORD TxLength,
				PUCHAR RxBuffer, DWORD RxLength,
				LPDWORD pdwBytesReturned)
{
	(void)Lun;
	(void)dwControlCode;
	(void)TxBuffer;
	(void)TxLength;
	(void)RxBuffer;
	(void)RxLength;
	if (pdwBytesReturned)
		*pdwBytesReturned = 0;
	return IFD_ERROR_NOT_SUPPORTED;
}

/*
 * Called by pcscd every 400 ms: one ioctl (4000) or one GetSlotStatus
 * (4040) while the reader is there, one failed open() while it is not.
 */
EXPORT RESPONSECODE IFDHICCPresence(DWORD Lun)
{
	struct reader *r = lun_reader(Lun);
	RESPONSECODE ret;
	int rc;

	if (!r)
		return IFD_COMMUNICATION_ERROR;
	pthread_mutex_lock(&r->lock);
	rc = reader_open(r);
	if (!rc)
		rc = r->ops->present(r);
	if (rc == 1) {
		ret = IFD_ICC_PRESENT;
	} else if (rc == 0 || rc == -ENODEV) {
		if (rc)
			reader_gone(r);
		r->powered = false;
		ret = IFD_ICC_NOT_PRESENT;
	} else {
		ret = IFD_COMMUNICATION_ERROR;
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}
