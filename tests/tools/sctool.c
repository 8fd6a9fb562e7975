// SPDX-License-Identifier: GPL-2.0-only
/*
 * sctool: exercise a PC Card smart card reader through its driver's
 * user-space interface, the same for every driver that offers it:
 *   - the CardMan 4000 interface (/dev/cmmN): ioctls CM_IOCGSTATUS,
 *     CM_IOCGATR, CM_IOCSPTS, CM_IOCARDOFF; write() a T=0 TPDU or a T=1
 *     block, read() the card's answer;
 *   - the CardMan 4040 interface (/dev/cmxN): write() one CCID message,
 *     read() the reader's reply.
 * The full interface description (arguments, output, exit codes) is in
 * tests/tools/README; `sctool -h` prints a summary.
 *
 * Build: gcc -static -O2 -Wall -o sctool sctool.c
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

/* exit codes */
#define EX_OK           0
#define EX_USAGE        1
#define EX_SYSTEM       2       /* open/ioctl/read/write failed */
#define EX_TIMEOUT      3
#define EX_CARD         4       /* reader or card said no, or made no sense */

/* The CardMan 4000 ioctl ABI (magic 'c'). */
struct cm4000_atr {
	int32_t atr_len;
	uint8_t atr[64];
	int32_t power_act;
	uint8_t ifsd, ifsc;
};

struct cm4000_pts {
	uint32_t protocol;      /* 1 << T */
	uint8_t flags, pts1, pts2, pts3;
};

#define CM_IOCGSTATUS   _IOR('c', 0, unsigned char *)
#define CM_IOCGATR      _IOWR('c', 1, struct cm4000_atr *)
#define CM_IOCSPTS      _IOW('c', 2, struct cm4000_pts *)
#define CM_IOCARDOFF    _IO('c', 4)

#define CM_ST_INSERTED  0x01
#define CM_ST_POWERED   0x02
#define CM_ST_ATR_VALID 0x08
#define CM_ST_NO_READER 0x10

/* CCID */
#define CCID_SET_PARAMS         0x61
#define CCID_POWER_ON           0x62
#define CCID_POWER_OFF          0x63
#define CCID_GET_SLOT_STATUS    0x65
#define CCID_XFR_BLOCK          0x6f
#define CCID_DATA_BLOCK         0x80
#define CCID_SLOT_STATUS        0x81
#define CCID_PARAMETERS         0x82

#define MSG_MAX         512
#define APDU_MAX        261
#define RESP_MAX        258

enum iface { IF_CM4000, IF_CCID };

struct reader {
	const char *path;
	int fd;
	enum iface iface;
	uint8_t seq;
	uint8_t atr[64];
	int atr_len;
	/* from the ATR */
	int first_proto, protos, ta1, ifsc;
	/* in use */
	int proto;
	/* T=1 host side */
	int ns, nr, ifsd;
};

static int verbose;
static unsigned timeout_s = 30;

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "sctool: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(code);
}

static void on_alarm(int sig)
{
	static const char msg[] = "TIMEOUT\nsctool: timed out\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, 8) < 0 ||
	    write(STDERR_FILENO, msg + 8, sizeof(msg) - 9) < 0)
		_exit(EX_TIMEOUT);
	_exit(EX_TIMEOUT);
}

static void print_hex(FILE *f, const char *tag, const uint8_t *b, int n)
{
	int i;

	fprintf(f, "%s ", tag);
	for (i = 0; i < n; i++)
		fprintf(f, "%02X", b[i]);
	fputc('\n', f);
	fflush(f);
}

static void trace(const char *dir, const uint8_t *b, int n)
{
	if (verbose)
		print_hex(stderr, dir, b, n);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "00A4 020C" -> bytes; -1 if not hex or longer than max. */
static int parse_hex(const char *s, uint8_t *out, int max)
{
	int n = 0, hi, lo;

	while (*s) {
		if (*s == ' ' || *s == ':') {
			s++;
			continue;
		}
		hi = hex_digit(s[0]);
		lo = s[1] ? hex_digit(s[1]) : -1;
		if (hi < 0 || lo < 0 || n == max)
			return -1;
		out[n++] = hi << 4 | lo;
		s += 2;
	}
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- ATR ---- */

static void parse_atr(struct reader *r)
{
	int i = 2, n = 1, t = 0, have_td = 0, have_ifsc = 0;
	uint8_t y;

	r->first_proto = 0;
	r->protos = 0;
	r->ta1 = 0x11;
	r->ifsc = 32;
	if (r->atr_len < 2)
		return;
	y = r->atr[1] >> 4;
	for (;;) {
		if (y & 1) {
			uint8_t ta = i < r->atr_len ? r->atr[i] : 0;

			if (n == 1)
				r->ta1 = ta;
			else if (n >= 3 && t == 1 && !have_ifsc) {
				r->ifsc = ta && ta != 0xff ? ta : 32;
				have_ifsc = 1;
			}
			i++;
		}
		i += !!(y & 2) + !!(y & 4);
		if (!(y & 8) || i >= r->atr_len)
			break;
		t = r->atr[i] & 0xf;
		y = r->atr[i++] >> 4;
		if (!have_td)
			r->first_proto = t;
		have_td = 1;
		if (t <= 1)
			r->protos |= 1 << t;
		n++;
	}
	if (!r->protos)
		r->protos = 1;
	if (r->first_proto > 1)
		r->first_proto = r->protos & 1 ? 0 : 1;
}

/* ---- CCID messages ---- */

static void sys_fail(const char *what)
{
	int e = errno;

	printf("ERRNO %s\n", strerrorname_np(e) ? strerrorname_np(e) : "?");
	fflush(stdout);
	die(EX_SYSTEM, "%s: %s", what, strerror(e));
}

/* One CCID exchange; returns the reply length or -errno. */
static int ccid_try(struct reader *r, uint8_t type, uint8_t b7,
		    const uint8_t *data, int len, uint8_t *rep)
{
	uint8_t msg[MSG_MAX];
	int n;

	msg[0] = type;
	msg[1] = len;
	msg[2] = len >> 8;
	msg[3] = msg[4] = 0;
	msg[5] = 0;
	msg[6] = ++r->seq;
	msg[7] = b7;
	msg[8] = msg[9] = 0;
	if (len)
		memcpy(msg + 10, data, len);
	trace("ccid>", msg, 10 + len);
	if (write(r->fd, msg, 10 + len) != 10 + len)
		return -errno;
	n = read(r->fd, rep, MSG_MAX);
	if (n < 0)
		return -errno;
	trace("ccid<", rep, n);
	return n;
}

/*
 * A CCID command that must succeed at the transport level; the reply's
 * status is left to the caller.  Returns the data length.
 */
static int ccid(struct reader *r, uint8_t type, uint8_t b7,
		const uint8_t *data, int len, uint8_t *rep)
{
	int n = ccid_try(r, type, b7, data, len, rep);
	uint32_t dlen;

	if (n < 0) {
		errno = -n;
		sys_fail(r->path);
	}
	if (n < 10)
		die(EX_CARD, "CCID reply of %d bytes", n);
	dlen = rep[1] | rep[2] << 8 | (uint32_t)rep[3] << 16 |
	       (uint32_t)rep[4] << 24;
	if (dlen > (uint32_t)n - 10 || rep[6] != r->seq)
		die(EX_CARD, "CCID reply out of step (length %u, seq %u/%u)",
		    dlen, rep[6], r->seq);
	return dlen;
}

static void ccid_ok(const uint8_t *rep, const char *what)
{
	if (rep[7] & 0x40)
		die(EX_CARD, "%s failed: bStatus 0x%02x bError 0x%02x", what,
		    rep[7], rep[8]);
}

/* ---- the two interfaces ---- */

static void open_reader(struct reader *r)
{
	r->fd = open(r->path, O_RDWR);
	if (r->fd < 0)
		sys_fail(r->path);
}

/* Card status: bit 0 present, bit 1 powered; -errno on failure. */
static int reader_status(struct reader *r)
{
	uint8_t rep[MSG_MAX];
	int st = 0, n;

	if (r->iface == IF_CM4000) {
		if (ioctl(r->fd, CM_IOCGSTATUS, &st) < 0)
			return -errno;
		if (st & CM_ST_NO_READER)
			return -ENODEV;
		return st & (CM_ST_INSERTED | CM_ST_POWERED);
	}
	n = ccid_try(r, CCID_GET_SLOT_STATUS, 0, NULL, 0, rep);
	if (n < 0)
		return n;
	if (n < 10 || rep[0] != CCID_SLOT_STATUS)
		return -EPROTO;
	switch (rep[7] & 3) {
	case 0:
		return 3;
	case 1:
		return 1;
	default:
		return 0;
	}
}

static void power_up(struct reader *r)
{
	uint8_t rep[MSG_MAX];
	int n;

	if (r->iface == IF_CM4000) {
		struct cm4000_atr a;

		memset(&a, 0, sizeof(a));
		if (ioctl(r->fd, CM_IOCGATR, &a) < 0)
			sys_fail(r->path);
		if (a.atr_len < 0 || a.atr_len > (int)sizeof(a.atr))
			die(EX_CARD, "no valid ATR (atr_len %d)", a.atr_len);
		r->atr_len = a.atr_len;
		memcpy(r->atr, a.atr, a.atr_len);
	} else {
		n = ccid(r, CCID_POWER_ON, 0, NULL, 0, rep);
		ccid_ok(rep, "IccPowerOn");
		if (n > (int)sizeof(r->atr))
			die(EX_CARD, "ATR of %d bytes", n);
		r->atr_len = n;
		memcpy(r->atr, rep + 10, n);
	}
	parse_atr(r);
	r->proto = r->first_proto;
}

static void select_protocol(struct reader *r, int proto, int fidi)
{
	uint8_t rep[MSG_MAX], p[7] = { 0 };

	if (r->iface == IF_CM4000) {
		struct cm4000_pts pts = { 1u << proto, 0x10, fidi, 0, 0 };

		if (ioctl(r->fd, CM_IOCSPTS, &pts) < 0)
			sys_fail("CM_IOCSPTS");
	} else {
		p[0] = fidi;
		p[1] = proto ? 0x10 : 0;
		p[3] = proto ? 0x4d : 0x0a;
		p[5] = r->ifsc;
		ccid(r, CCID_SET_PARAMS, proto, p, proto ? 7 : 5, rep);
		ccid_ok(rep, "SetParameters");
		if (rep[0] != CCID_PARAMETERS || rep[9] != proto)
			die(EX_CARD, "SetParameters: reader runs T=%d", rep[9]);
	}
	r->proto = proto;
}

/* Send a T=0 TPDU (4 bytes: case 1) or T=1 block, return the answer. */
static int transfer(struct reader *r, const uint8_t *cmd, int len,
		    uint8_t *out)
{
	uint8_t rep[MSG_MAX];
	int n;

	trace("card>", cmd, len);
	if (r->iface == IF_CM4000) {
		if (write(r->fd, cmd, len) != len)
			sys_fail("write");
		n = read(r->fd, out, MSG_MAX);
		if (n < 0)
			sys_fail("read");
	} else {
		uint8_t tpdu[MSG_MAX];

		memcpy(tpdu, cmd, len);
		if (r->proto == 0 && len == 4)
			tpdu[len++] = 0;        /* case 1: P3 = 0 */
		n = ccid(r, CCID_XFR_BLOCK, 0, tpdu, len, rep);
		ccid_ok(rep, "XfrBlock");
		memcpy(out, rep + 10, n);
	}
	trace("card<", out, n);
	return n;
}

/* ---- T=0: APDU to TPDUs ---- */

static int t0_apdu(struct reader *r, const uint8_t *apdu, int len,
		   uint8_t *resp)
{
	uint8_t tpdu[5 + 255], out[MSG_MAX];
	int lc = 0, le = -1, tlen, n, got = 0, round;

	if (len == 4) {
		tlen = 4;
	} else if (len == 5) {
		le = apdu[4];
		tlen = 5;
	} else {
		lc = apdu[4];
		if (len == 6 + lc)
			le = apdu[5 + lc];
		else if (len != 5 + lc || !lc)
			die(EX_USAGE, "not a short APDU");
		tlen = 5 + lc;
	}
	memcpy(tpdu, apdu, tlen);
	for (round = 0; round < 32; round++) {
		n = transfer(r, tpdu, tlen, out);
		if (n < 2)
			die(EX_CARD, "T=0 answer of %d bytes", n);
		if (got + n > RESP_MAX)
			die(EX_CARD, "T=0 answer too long");
		memcpy(resp + got, out, n - 2);
		got += n - 2;
		if (out[n - 2] == 0x6c && tlen == 5 && le >= 0) {
			tpdu[4] = out[n - 1];   /* wrong Le: again, exactly */
			got -= n - 2;
			continue;
		}
		if (out[n - 2] == 0x61) {
			/* GET RESPONSE for what the card holds */
			tpdu[0] = apdu[0] & 0x03;
			tpdu[1] = 0xc0;
			tpdu[2] = tpdu[3] = 0;
			tpdu[4] = out[n - 1];
			tlen = 5;
			le = out[n - 1];
			continue;
		}
		resp[got] = out[n - 2];
		resp[got + 1] = out[n - 1];
		return got + 2;
	}
	die(EX_CARD, "T=0: the card keeps asking for more rounds");
	return -1;
}

/* ---- T=1, host side ---- */

static int t1_block(struct reader *r, uint8_t pcb, const uint8_t *inf,
		    int len, uint8_t *out)
{
	uint8_t blk[4 + 254], lrc = 0;
	int i, n;

	blk[0] = 0;
	blk[1] = pcb;
	blk[2] = len;
	memcpy(blk + 3, inf, len);
	for (i = 0; i < 3 + len; i++)
		lrc ^= blk[i];
	blk[3 + len] = lrc;
	n = transfer(r, blk, 4 + len, out);
	lrc = 0;
	for (i = 0; i < n; i++)
		lrc ^= out[i];
	if (n < 4 || out[2] != n - 4 || lrc)
		die(EX_CARD, "T=1: bad block from the card (%d bytes)", n);
	return n;
}

static void t1_set_ifsd(struct reader *r, int ifsd)
{
	uint8_t out[MSG_MAX], v = ifsd;

	t1_block(r, 0xc1, &v, 1, out);
	if (out[1] != 0xe1 || out[2] != 1 || out[3] != v)
		die(EX_CARD, "T=1: S(IFS request) not answered");
	r->ifsd = ifsd;
}

static int t1_apdu(struct reader *r, const uint8_t *apdu, int len,
		   uint8_t *resp)
{
	uint8_t out[MSG_MAX];
	int off = 0, got = 0, chunk, more, tries = 0, n;

	/* send, chaining above IFSC */
	for (;;) {
		chunk = len - off < r->ifsc ? len - off : r->ifsc;
		more = off + chunk < len;
		n = t1_block(r, (r->ns << 6) | (more ? 0x20 : 0), apdu + off,
			     chunk, out);
		if ((out[1] & 0xc0) == 0x80 && !(out[1] & 0x0f) && more &&
		    !!(out[1] & 0x10) != r->ns) {
			r->ns ^= 1;             /* chunk acknowledged */
			off += chunk;
			tries = 0;
			continue;
		}
		if ((out[1] & 0x80) == 0) {
			r->ns ^= 1;
			break;                  /* the answer begins */
		}
		if (++tries > 3)
			die(EX_CARD, "T=1: block refused (PCB 0x%02x)", out[1]);
	}
	/* receive, acknowledging chained blocks */
	for (tries = 0;;) {
		if ((out[1] & 0x80) || !!(out[1] & 0x40) != r->nr) {
			if (++tries > 3)
				die(EX_CARD, "T=1: unexpected block (PCB 0x%02x)",
				    out[1]);
			n = t1_block(r, 0x80 | (r->nr << 4), NULL, 0, out);
			continue;
		}
		if (got + out[2] > RESP_MAX)
			die(EX_CARD, "T=1: answer too long");
		memcpy(resp + got, out + 3, out[2]);
		got += out[2];
		r->nr ^= 1;
		tries = 0;
		if (!(out[1] & 0x20))
			break;
		n = t1_block(r, 0x80 | (r->nr << 4), NULL, 0, out);
	}
	(void)n;
	if (got < 2)
		die(EX_CARD, "T=1: answer without status word");
	return got;
}

static int apdu(struct reader *r, const uint8_t *cmd, int len, uint8_t *resp)
{
	return r->proto ? t1_apdu(r, cmd, len, resp) : t0_apdu(r, cmd, len, resp);
}

/* ---- commands ---- */

struct opts {
	int proto;      /* -1: the card's first offered protocol */
	int pps;        /* ask for TA1's Fi/Di */
};

/* Power up, pick the protocol, get ready for APDUs. */
static void start_session(struct reader *r, const struct opts *o)
{
	int proto;

	power_up(r);
	print_hex(stdout, "ATR", r->atr, r->atr_len);
	proto = o->proto >= 0 ? o->proto : r->first_proto;
	if (!(r->protos & (1 << proto)))
		die(EX_CARD, "the card does not offer T=%d", proto);
	if (proto != r->first_proto || o->pps)
		select_protocol(r, proto, o->pps ? r->ta1 : 0x11);
	r->proto = proto;
	printf("PROTOCOL T=%d\n", proto);
	fflush(stdout);
	if (proto == 1) {
		r->ns = r->nr = 0;
		r->ifsd = 32;
		t1_set_ifsd(r, 254);
	}
}

static int cmd_atr(struct reader *r)
{
	power_up(r);
	print_hex(stdout, "ATR", r->atr, r->atr_len);
	return EX_OK;
}

static void print_status(int st)
{
	printf("CARD %s POWERED %s\n", st & 1 ? "present" : "absent",
	       st & 2 ? "yes" : "no");
	fflush(stdout);
}

/*
 * The card state once it is settled: the same on three readings 100 ms
 * apart, the first 300 ms after opening (a driver may learn about the
 * card only after open).
 */
static int settled_status(struct reader *r, int want)
{
	int last = -1, same = 0, st;

	sleep_ms(300);
	for (;;) {
		st = reader_status(r);
		if (st < 0) {
			errno = -st;
			sys_fail("status");
		}
		same = st == last ? same + 1 : 1;
		last = st;
		if (same >= 3 && (want < 0 || (st & 1) == want))
			return st;
		sleep_ms(100);
	}
}

static int cmd_status(struct reader *r)
{
	print_status(settled_status(r, -1));
	return EX_OK;
}

static int cmd_wait(struct reader *r, const char *what)
{
	int want;

	if (!strcmp(what, "present"))
		want = 1;
	else if (!strcmp(what, "absent"))
		want = 0;
	else
		die(EX_USAGE, "wait: present or absent, not '%s'", what);
	printf("WAITING\n");
	fflush(stdout);
	print_status(settled_status(r, want));
	return EX_OK;
}

static int cmd_apdu(struct reader *r, const struct opts *o, int argc,
		    char **argv)
{
	uint8_t cmd[APDU_MAX], resp[RESP_MAX];
	int i, n;

	if (!argc)
		die(EX_USAGE, "apdu: no APDU given");
	for (i = 0; i < argc; i++)
		if (parse_hex(argv[i], cmd, sizeof(cmd)) < 4)
			die(EX_USAGE, "apdu: '%s' is not a command APDU", argv[i]);
	start_session(r, o);
	for (i = 0; i < argc; i++) {
		n = parse_hex(argv[i], cmd, sizeof(cmd));
		n = apdu(r, cmd, n, resp);
		print_hex(stdout, "R", resp, n);
	}
	return EX_OK;
}

static int cmd_bench(struct reader *r, const struct opts *o, int argc,
		     char **argv)
{
	uint8_t cmd[APDU_MAX], resp[RESP_MAX];
	int count, size, i, j, n, len;
	double t0, dt;

	if (argc != 2)
		die(EX_USAGE, "bench COUNT SIZE");
	count = atoi(argv[0]);
	size = atoi(argv[1]);
	if (count < 1 || size < 0 || size > 255)
		die(EX_USAGE, "bench: COUNT >= 1, 0 <= SIZE <= 255");
	start_session(r, o);
	cmd[0] = 0x80;
	cmd[1] = 0xec;
	cmd[2] = cmd[3] = 0;
	len = 4;
	if (size) {
		cmd[4] = size;
		for (j = 0; j < size; j++)
			cmd[5 + j] = j * 7 + 1;
		cmd[5 + size] = size;
		len = 6 + size;
	}
	t0 = now();
	for (i = 0; i < count; i++) {
		cmd[2] = i;
		n = apdu(r, cmd, len, resp);
		if (n != size + 2 || resp[size] != 0x90 || resp[size + 1] ||
		    memcmp(resp, cmd + 5, size))
			die(EX_CARD, "bench: echo %d came back wrong", i);
	}
	dt = now() - t0;
	printf("BENCH apdus=%d size=%d seconds=%.6f apdu_per_s=%.2f "
	       "bytes_per_s=%.1f\n", count, size, dt, count / dt,
	       2.0 * count * size / dt);
	return EX_OK;
}

static int cmd_cardoff(struct reader *r)
{
	uint8_t rep[MSG_MAX];

	if (r->iface == IF_CM4000) {
		if (ioctl(r->fd, CM_IOCARDOFF) < 0)
			sys_fail("CM_IOCARDOFF");
	} else {
		ccid(r, CCID_POWER_OFF, 0, NULL, 0, rep);
		ccid_ok(rep, "IccPowerOff");
	}
	printf("OFF\n");
	return EX_OK;
}

/*
 * Hold the device open: idle for @delay seconds, then poll the status
 * until it fails (the device went away), then close it.
 */
static int cmd_hold(struct reader *r, int argc, char **argv)
{
	int st, delay = argc ? atoi(argv[0]) : 0;

	printf("HELD\n");
	fflush(stdout);
	if (delay > 0)
		sleep(delay);
	for (;;) {
		st = reader_status(r);
		if (st < 0) {
			printf("LOST %s\n", strerrorname_np(-st) ?
			       strerrorname_np(-st) : "?");
			fflush(stdout);
			break;
		}
		sleep_ms(100);
	}
	if (close(r->fd) < 0) {
		printf("CLOSE %s\n", strerrorname_np(errno) ?
		       strerrorname_np(errno) : "?");
		return EX_SYSTEM;
	}
	printf("CLOSED\n");
	return EX_OK;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: sctool [-v] [-t SECONDS] [-i cm4000|ccid] [-p 0|1] [-P] DEVICE COMMAND [ARG...]\n"
"  DEVICE   /dev/cmmN (CardMan 4000 interface) or /dev/cmxN (CCID); -i overrides\n"
"  -t       give up after SECONDS (default 30): prints TIMEOUT, exit 3\n"
"  -p       protocol (default: the first one the ATR offers)\n"
"  -P       PPS for TA1's Fi/Di (also when keeping the default protocol)\n"
"  -v       frames to stderr\n"
"commands:\n"
"  atr                 power the card up, print ATR <hex>\n"
"  status              print CARD present|absent POWERED yes|no\n"
"  wait present|absent the same, once the card is so\n"
"  apdu HEX...         print ATR, PROTOCOL T=n, then R <data+SW> per APDU\n"
"  bench COUNT SIZE    COUNT ECHO APDUs (80 EC) of SIZE bytes, print BENCH ...\n"
"  cardoff             power the card down, print OFF\n"
"  hold [DELAY]        print HELD, idle DELAY s, poll the status until it fails\n"
"                      (LOST <errno>), close, print CLOSED\n"
"exit: 0 ok, 1 usage, 2 system call failed (ERRNO <name> printed), 3 timeout,\n"
"      4 reader or card error\n");
}

int main(int argc, char **argv)
{
	struct reader r = { .fd = -1 };
	struct opts o = { .proto = -1 };
	const char *iface = NULL, *base, *cmd;
	int c;

	while ((c = getopt(argc, argv, "+vht:i:p:P")) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		case 'i':
			iface = optarg;
			break;
		case 'p':
			o.proto = atoi(optarg);
			if (o.proto != 0 && o.proto != 1)
				die(EX_USAGE, "-p 0 or -p 1");
			break;
		case 'P':
			o.pps = 1;
			break;
		case 'h':
			usage(stdout);
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (argc - optind < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	r.path = argv[optind];
	cmd = argv[optind + 1];
	argc -= optind + 2;
	argv += optind + 2;
	base = strrchr(r.path, '/');
	base = base ? base + 1 : r.path;
	if (iface ? !strcmp(iface, "cm4000") : !strncmp(base, "cmm", 3))
		r.iface = IF_CM4000;
	else if (iface ? !strcmp(iface, "ccid") : !strncmp(base, "cmx", 3))
		r.iface = IF_CCID;
	else
		die(EX_USAGE, "%s: say -i cm4000 or -i ccid", r.path);

	signal(SIGALRM, on_alarm);
	alarm(timeout_s);
	open_reader(&r);
	if (!strcmp(cmd, "atr"))
		return cmd_atr(&r);
	if (!strcmp(cmd, "status"))
		return cmd_status(&r);
	if (!strcmp(cmd, "wait") && argc == 1)
		return cmd_wait(&r, argv[0]);
	if (!strcmp(cmd, "apdu"))
		return cmd_apdu(&r, &o, argc, argv);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(&r, &o, argc, argv);
	if (!strcmp(cmd, "cardoff"))
		return cmd_cardoff(&r);
	if (!strcmp(cmd, "hold"))
		return cmd_hold(&r, argc, argv);
	usage(stderr);
	return EX_USAGE;
}
