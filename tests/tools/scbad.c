// SPDX-License-Identifier: GPL-2.0-only
/*
 * scbad: hostile and racing calls against a PC Card smart card reader's
 * device node (/dev/cmmN: the CardMan 4000 interface, /dev/cmxN: CCID),
 * for the tests of the drivers' error paths and surprise removal.  Every
 * case prints what the driver answered; the tests hold the expectations.
 * The interface is described in tests/tools/README.
 *
 * Build: gcc -static -pthread -O2 -Wall -I src/include/uapi -o scbad scbad.c
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <pcmcia-legacy/cm4000_cs.h>

#define EX_OK		0
#define EX_USAGE	1
#define EX_FAIL		2

/*
 * Addresses no process can use: NULL, low memory, and the last page of
 * the address space, above every task's limit (a 32-bit program on a
 * 64-bit kernel may have its stack right below it).  Read through a
 * volatile, so that the compiler does not see them coming.
 */
static void *volatile bad_addr[] = {
	NULL, (void *)8, (void *)(~(uintptr_t)0 - 0xfff),
};
#define BAD_NULL	(bad_addr[0])
#define BAD_LOW		(bad_addr[1])
#define BAD_KERNEL	(bad_addr[2])

enum iface { IF_CM4000, IF_CCID };

static const char *path;
static enum iface iface;
static volatile sig_atomic_t alarms;

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* A signal that interrupts system calls (no SA_RESTART). */
static void catch_alarm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* CASE <name> OK <value> | CASE <name> <errno name> */
static void report(const char *name, long rc)
{
	if (rc < 0)
		printf("CASE %s %s\n", name, ename(errno));
	else
		printf("CASE %s OK %ld\n", name, rc);
	fflush(stdout);
}

static int open_dev(int flags)
{
	int fd = open(path, O_RDWR | flags);

	if (fd < 0) {
		printf("ERRNO %s\n", ename(errno));
		fprintf(stderr, "scbad: %s: %s\n", path, strerror(errno));
		exit(EX_FAIL);
	}
	return fd;
}

static void set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* ---- CCID messages (cm4040) ---- */

static uint8_t seq;

static int ccid_msg(uint8_t *m, uint8_t type, const uint8_t *data, int len)
{
	memset(m, 0, 10);
	m[0] = type;
	m[1] = len;
	m[2] = len >> 8;
	m[6] = ++seq;
	if (len)
		memcpy(m + 10, data, len);
	return 10 + len;
}

#define CCID_POWER_ON		0x62
#define CCID_GET_SLOT_STATUS	0x65
#define CCID_XFR_BLOCK		0x6f

/* One exchange that must work; returns the reply length. */
static int ccid(int fd, uint8_t type, const uint8_t *data, int len,
		uint8_t *rep)
{
	uint8_t m[512];
	int n = ccid_msg(m, type, data, len);

	if (write(fd, m, n) != n || (n = read(fd, rep, 512)) < 10) {
		fprintf(stderr, "scbad: CCID %02x failed: %s\n", type,
			strerror(errno));
		exit(EX_FAIL);
	}
	return n;
}

/* GET CHALLENGE for 256 bytes: one long T=0 exchange. */
static const uint8_t challenge256[] = { 0x00, 0x84, 0x00, 0x00, 0x00 };
static const uint8_t challenge8[] = { 0x00, 0x84, 0x00, 0x00, 0x08 };

/* Send the command of one long exchange (cm4000: a T=0 TPDU). */
static long exchange_write(int fd)
{
	uint8_t m[512];
	int n;

	if (iface == IF_CM4000)
		return write(fd, challenge256, sizeof(challenge256));
	n = ccid_msg(m, CCID_XFR_BLOCK, challenge256, sizeof(challenge256));
	return write(fd, m, n);
}

/* Make the card ready for exchange_write(). */
static void card_ready(int fd)
{
	uint8_t rep[512];

	if (iface == IF_CM4000) {
		struct atreq a;

		if (ioctl(fd, CM_IOCGATR, &a) < 0 || a.atr_len <= 0) {
			fprintf(stderr, "scbad: no ATR\n");
			exit(EX_FAIL);
		}
	} else {
		ccid(fd, CCID_POWER_ON, NULL, 0, rep);
		if (rep[7] & 0x40) {
			fprintf(stderr, "scbad: IccPowerOn failed\n");
			exit(EX_FAIL);
		}
	}
}

/* ---- ioctls (cm4000) ---- */

static int cmd_ioctls(void)
{
	int fd = open_dev(0), st;
	struct ptsreq pts;
	struct atreq atr;

	report("bad-magic", ioctl(fd, _IOR('x', 0, int), &st));
	report("bad-number", ioctl(fd, _IOR(CM_IOC_MAGIC, 99, int), &st));
	report("bad-direction", ioctl(fd, _IOW(CM_IOC_MAGIC, 0, void *), &st));
	report("other-abi-size",
	       ioctl(fd, _IOC(_IOC_READ, CM_IOC_MAGIC, 0,
			      sizeof(void *) == 8 ? 4 : 8), &st));
	report("srdr", ioctl(fd, CM_IOCSRDR));
	report("dbglvl", ioctl(fd, CM_IOSDBGLVL, &st));
	report("status-null", ioctl(fd, CM_IOCGSTATUS, BAD_NULL));
	report("status-low", ioctl(fd, CM_IOCGSTATUS, BAD_LOW));
	report("status-kernel", ioctl(fd, CM_IOCGSTATUS, BAD_KERNEL));
	report("atr-null", ioctl(fd, CM_IOCGATR, BAD_NULL));
	report("atr-kernel", ioctl(fd, CM_IOCGATR, BAD_KERNEL));
	report("pts-null", ioctl(fd, CM_IOCSPTS, BAD_NULL));
	report("pts-low", ioctl(fd, CM_IOCSPTS, BAD_LOW));
	memset(&pts, 0, sizeof(pts));
	report("pts-protocol-none", ioctl(fd, CM_IOCSPTS, &pts));
	pts.protocol = 3;
	report("pts-protocol-both", ioctl(fd, CM_IOCSPTS, &pts));
	pts.protocol = 4;
	report("pts-protocol-t2", ioctl(fd, CM_IOCSPTS, &pts));
	pts.protocol = 1;
	pts.flags = 0x10;
	pts.pts1 = 0x77;
	report("pts-fidi-rfu", ioctl(fd, CM_IOCSPTS, &pts));

	st = -1;
	if (ioctl(fd, CM_IOCGSTATUS, &st) < 0)
		report("status", -1);
	else
		report("status", st);
	memset(&atr, 0, sizeof(atr));
	if (ioctl(fd, CM_IOCGATR, &atr) < 0)
		report("atr", -1);
	else
		report("atr", atr.atr_len);
	pts.protocol = 2;
	pts.flags = 0;
	report("pts-t1", ioctl(fd, CM_IOCSPTS, &pts));
	report("cardoff", ioctl(fd, CM_IOCARDOFF));
	st = -1;
	ioctl(fd, CM_IOCGSTATUS, &st);
	report("status-after-cardoff", st);
	report("close", close(fd));
	return EX_OK;
}

/* ---- reads and writes ---- */

static long read_interrupted(int fd, void *buf, size_t len)
{
	double t0 = now();
	long rc;

	alarms = 0;
	alarm(1);
	rc = read(fd, buf, len);
	alarm(0);
	if (rc < 0 && errno == EINTR && now() - t0 < 0.5)
		errno = EPROTO;		/* too early: it did not wait */
	return rc;
}

/* A read that must not wait: EPROTO when it took half a second. */
static long read_prompt(int fd, void *buf, size_t len)
{
	double t0 = now();
	long rc;

	alarm(5);
	rc = read(fd, buf, len);
	alarm(0);
	if (now() - t0 > 0.5) {
		errno = EPROTO;
		return -1;
	}
	return rc;
}

static int cmd_io_cm4000(int fd, uint8_t *big, size_t big_len)
{
	static const uint8_t lc_short[] = { 0x00, 0xa4, 0x00, 0x0c, 0x02,
					    0x01 };
	static const uint8_t t1_bad[] = { 0x00, 0x00, 0x05, 0x00 };
	static const uint8_t t1_ifs[] = { 0x00, 0xc1, 0x01, 0xfe, 0x3e };
	struct ptsreq pts = { .protocol = 2 };
	uint8_t buf[512];

	report("write-short", write(fd, challenge8, 3));
	report("write-p3-mismatch", write(fd, lc_short, sizeof(lc_short)));
	report("write-oversize", write(fd, big, 513));
	report("write-huge", write(fd, big, big_len));
	report("write-null", write(fd, BAD_NULL, 5));
	report("write-low", write(fd, BAD_LOW, 5));
	report("write-kernel", write(fd, BAD_KERNEL, 5));
	/* nothing asked, no answer coming: the end of the file */
	set_nonblock(fd, 1);
	report("read-nonblock-empty", read(fd, buf, sizeof(buf)));
	set_nonblock(fd, 0);
	report("read-nothing-asked", read_prompt(fd, buf, sizeof(buf)));
	report("poll-idle-in", poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 200));
	report("write-challenge", write(fd, challenge8, sizeof(challenge8)));
	report("poll-reply-in", poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 200));
	report("read-null", read(fd, BAD_NULL, sizeof(buf)));
	report("read-kernel", read(fd, BAD_KERNEL, sizeof(buf)));
	report("read-after-efault", read(fd, buf, sizeof(buf)));
	report("write-challenge-2", write(fd, challenge8, sizeof(challenge8)));
	report("read-one-byte", read(fd, buf, 1));
	set_nonblock(fd, 1);
	report("read-again-nonblock", read(fd, buf, sizeof(buf)));
	set_nonblock(fd, 0);
	report("write-challenge-3", write(fd, challenge8, sizeof(challenge8)));
	report("read-huge-buffer", read(fd, big, big_len));
	/* T=1 blocks must say their length right */
	report("pts-t1", ioctl(fd, CM_IOCSPTS, &pts));
	report("t1-bad-len", write(fd, t1_bad, sizeof(t1_bad)));
	report("t1-ifs", write(fd, t1_ifs, sizeof(t1_ifs)));
	report("t1-ifs-reply", read(fd, buf, sizeof(buf)));
	return EX_OK;
}

static int cmd_io_ccid(int fd, uint8_t *big, size_t big_len)
{
	uint8_t m[512], buf[512];
	int n;

	n = ccid_msg(m, CCID_GET_SLOT_STATUS, NULL, 0);
	report("write-short", write(fd, m, 5));
	report("write-oversize", write(fd, big, 513));
	report("write-huge", write(fd, big, big_len));
	m[1] = 5;		/* dwLength says 5, none follow */
	report("write-dwlength", write(fd, m, n));
	m[1] = 0;
	report("write-null", write(fd, BAD_NULL, n));
	report("write-kernel", write(fd, BAD_KERNEL, n));
	report("read-nothing-sent", read(fd, buf, sizeof(buf)));
	report("poll-idle-in", poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 200));
	report("poll-idle-out",
	       poll(&(struct pollfd){ fd, POLLOUT, 0 }, 1, 200));
	report("write-status", write(fd, m, n));
	report("read-short-buffer", read(fd, buf, 9));
	report("poll-reply-in", poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 5000));
	report("read-null", read(fd, BAD_NULL, sizeof(buf)));
	report("read-kernel", read(fd, BAD_KERNEL, sizeof(buf)));
	report("read-after-efault", read(fd, buf, sizeof(buf)));
	report("read-again", read(fd, buf, sizeof(buf)));
	n = ccid_msg(m, CCID_POWER_ON, NULL, 0);
	report("write-power-on", write(fd, m, n));
	report("read-ten-bytes", read(fd, buf, 10));
	report("write-power-on-2", write(fd, m, n));
	report("read-huge-buffer", read(fd, big, big_len));
	/* a message replaces one whose reply was not read */
	n = ccid_msg(m, CCID_GET_SLOT_STATUS, NULL, 0);
	report("write-unread-1", write(fd, m, n));
	report("write-unread-2", write(fd, m, n));
	report("read-last", read(fd, buf, sizeof(buf)));
	return EX_OK;
}

static int cmd_io(void)
{
	size_t big_len = 1 << 20;
	uint8_t *big = calloc(1, big_len);
	int fd = open_dev(0), rc;

	catch_alarm();
	report("write-zero", write(fd, big, 0));
	report("read-zero", read(fd, big, 0));
	if (iface == IF_CM4000)
		rc = cmd_io_cm4000(fd, big, big_len);
	else
		rc = cmd_io_ccid(fd, big, big_len);
	report("close", close(fd));
	free(big);
	return rc;
}

/* ---- the CCID reader with wire timing: a reply that takes a while ---- */

static int cmd_slow(void)
{
	int fd = open_dev(0);
	uint8_t buf[512];

	card_ready(fd);
	report("write-long", exchange_write(fd));
	set_nonblock(fd, 1);
	report("read-nonblock-early", read(fd, buf, sizeof(buf)));
	set_nonblock(fd, 0);
	report("poll-in", poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 10000));
	report("read-reply", read(fd, buf, sizeof(buf)));
	report("close", close(fd));
	return EX_OK;
}

/* ---- no smart card in the reader (cm4000) ---- */

static long ioctl_interrupted(int fd, unsigned long cmd, void *arg)
{
	double t0 = now();
	long rc;

	alarm(1);
	rc = ioctl(fd, cmd, arg);
	alarm(0);
	if (rc < 0 && errno == EINTR && now() - t0 < 0.5)
		errno = EPROTO;
	return rc;
}

/* A write() in a thread of its own, for reads that wait for its answer. */
struct writer {
	pthread_t thread;
	int fd;
	int loop;		/* long exchanges until one fails */
	volatile int done;
	long rc;
	int err;
};

static void on_usr1(int sig)
{
	(void)sig;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	sigset_t set;

	/* SIGALRM is for the main thread's calls */
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	do
		w->rc = w->loop ? exchange_write(w->fd) :
			write(w->fd, challenge8, sizeof(challenge8));
	while (w->loop && w->rc >= 0);
	w->err = errno;
	w->done = 1;
	return NULL;
}

static void writer_start(struct writer *w, int fd, int loop)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;		/* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	w->fd = fd;
	w->loop = loop;
	w->done = 0;
	pthread_create(&w->thread, NULL, writer_main, w);
}

/* The write waits for a smart card that is not there. */
static void read_during_write(int fd)
{
	uint8_t buf[512];
	struct writer w;

	writer_start(&w, fd, 0);
	sleep_ms(300);
	set_nonblock(fd, 1);
	report("read-nonblock-writing", read(fd, buf, sizeof(buf)));
	set_nonblock(fd, 0);
	report("read-interrupted-writing",
	       read_interrupted(fd, buf, sizeof(buf)));
	pthread_kill(w.thread, SIGUSR1);
	pthread_join(w.thread, NULL);
	errno = w.err;
	report("write-thread-interrupted", w.rc);
	report("read-after-write", read_prompt(fd, buf, sizeof(buf)));
}

static int cmd_nocard(void)
{
	int fd = open_dev(0), st = -1;
	struct atreq atr;
	uint8_t buf[512];
	double t0;
	long rc;

	catch_alarm();
	sleep_ms(300);			/* the driver looks at the slot */
	ioctl(fd, CM_IOCGSTATUS, &st);
	report("status", st);
	set_nonblock(fd, 1);
	report("atr-nonblock", ioctl(fd, CM_IOCGATR, &atr));
	report("write-nonblock", write(fd, challenge8, sizeof(challenge8)));
	report("read-nonblock", read(fd, buf, sizeof(buf)));
	set_nonblock(fd, 0);
	report("atr-interrupted", ioctl_interrupted(fd, CM_IOCGATR, &atr));
	t0 = now();
	alarm(1);
	rc = write(fd, challenge8, sizeof(challenge8));
	alarm(0);
	if (rc < 0 && errno == EINTR && now() - t0 < 0.5)
		errno = EPROTO;
	report("write-interrupted", rc);
	report("read-nothing-asked", read_prompt(fd, buf, sizeof(buf)));
	read_during_write(fd);
	report("poll-out", poll(&(struct pollfd){ fd, POLLOUT, 0 }, 1, 200));
	report("cardoff", ioctl(fd, CM_IOCARDOFF));
	report("close", close(fd));
	return EX_OK;
}

/* ---- concurrent openers ---- */

static int cmd_openers(void)
{
	int fd, fd2, status;
	pid_t pid;

	fd = open(path, O_RDWR);
	report("open-first", fd < 0 ? -1 : 0);
	fd2 = open(path, O_RDWR);
	report("open-second", fd2 < 0 ? -1 : 0);
	if (fd2 >= 0)
		close(fd2);
	pid = fork();
	if (pid == 0)
		_exit(open(path, O_RDWR) < 0 ? errno : 0);
	waitpid(pid, &status, 0);
	errno = WEXITSTATUS(status);
	report("open-other-process", errno ? -1 : 0);
	fd2 = open(path, O_RDWR | O_NONBLOCK);
	report("open-nonblock-busy", fd2 < 0 ? -1 : 0);
	report("close-first", close(fd));
	fd = open(path, O_RDWR | O_NONBLOCK);
	report("open-nonblock", fd < 0 ? -1 : 0);
	if (fd >= 0)
		close(fd);
	fd = open(path, O_RDWR);
	report("open-again", fd < 0 ? -1 : 0);
	report("close-again", close(fd));
	return EX_OK;
}

/* ---- the smart card pulled during exchanges ---- */

/*
 * Long exchanges back to back until one fails; LOOPING once they run.
 * Prints FAILED <write|read|reply> <errno or CCID bError>.
 */
static int cmd_pull(void)
{
	uint8_t buf[512];
	int fd = open_dev(0);
	long n;

	card_ready(fd);
	alarm(60);		/* no failure by then: killed, no FAILED line */
	printf("LOOPING\n");
	fflush(stdout);
	for (;;) {
		if (exchange_write(fd) < 0) {
			printf("FAILED write %s\n", ename(errno));
			break;
		}
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			printf("FAILED read %s\n", ename(errno));
			break;
		}
		if (iface == IF_CCID && (n < 10 || (buf[7] & 0x40))) {
			printf("FAILED reply bStatus=%02X bError=%02X\n",
			       buf[7], buf[8]);
			break;
		}
	}
	fflush(stdout);
	report("close", close(fd));
	return EX_OK;
}

/* ---- the PC Card ejected during calls ---- */

/* Wait until the device node exists (or not); 0, or -1 after timeout. */
static int wait_node(int exists, double timeout)
{
	double end = now() + timeout;
	struct stat st;

	while ((stat(path, &st) == 0) != exists) {
		if (now() > end)
			return -1;
		sleep_ms(20);
	}
	return 0;
}

/* The reader of cycle n is gone: its node too.  GONE n, or STUCK n. */
static void wait_gone(int n)
{
	printf("%s %d\n", wait_node(0, 60) ? "STUCK" : "GONE", n);
	fflush(stdout);
}

struct outcome {
	const char *op;		/* the call that failed */
	int err;
	long calls;		/* calls that worked before */
};

/*
 * cm4000 reads: another thread sends long exchanges, the reads wait for
 * their answers (a read between two of them finds nothing: 0).
 */
static void read_loop(int fd, struct outcome *o)
{
	uint8_t buf[512];
	struct writer w;
	long rc;

	writer_start(&w, fd, 1);
	for (o->calls = 0;; o->calls++) {
		o->op = "read";
		rc = read(fd, buf, sizeof(buf));
		if (rc < 0) {
			o->err = errno;
			break;
		}
		if (!rc && w.done) {
			o->op = "write";
			o->err = w.err;
			break;
		}
	}
	pthread_join(w.thread, NULL);
}

static void call_loop(int fd, const char *kind, struct outcome *o)
{
	uint8_t buf[512];
	struct pollfd p;
	long rc;
	int st;

	for (o->calls = 0;; o->calls++) {
		if (!strcmp(kind, "read")) {
			if (iface == IF_CM4000) {
				read_loop(fd, o);
				return;
			}
			/* the read waits for a long exchange's reply */
			if (exchange_write(fd) < 0) {
				o->op = "write";
				break;
			}
			o->op = "read";
			rc = read(fd, buf, sizeof(buf));
		} else if (!strcmp(kind, "write")) {
			o->op = "write";
			rc = exchange_write(fd);
			if (rc >= 0 && iface == IF_CM4000) {
				o->op = "read";
				rc = read(fd, buf, sizeof(buf));
			}
		} else if (!strcmp(kind, "ioctl")) {
			struct ptsreq pts = { .protocol = 1 };
			struct atreq a;

			o->op = "status";
			rc = ioctl(fd, CM_IOCGSTATUS, &st);
			if (rc >= 0) {
				o->op = "atr";
				rc = ioctl(fd, CM_IOCGATR, &a);
			}
			if (rc >= 0) {
				o->op = "pts";
				rc = ioctl(fd, CM_IOCSPTS, &pts);
			}
		} else {	/* poll */
			if (iface == IF_CCID && exchange_write(fd) < 0) {
				o->op = "write";
				break;
			}
			o->op = "poll";
			p.fd = fd;
			p.events = POLLIN;
			p.revents = 0;
			rc = poll(&p, 1, 60000);
			if (rc > 0 && (p.revents & (POLLHUP | POLLERR))) {
				errno = ENODEV;	/* as the next call would say */
				o->op = "poll-hup";
				rc = -1;
			} else if (rc > 0 && iface == IF_CCID) {
				o->op = "read";
				rc = read(fd, buf, sizeof(buf));
			} else if (rc == 0) {
				errno = ETIMEDOUT;
				rc = -1;
			}
		}
		if (rc < 0) {
			o->err = errno;
			return;
		}
	}
	o->err = errno;
}

/*
 * CYCLES times: wait for the device node, open it, print READY <n>, then
 * call KIND until a call fails (the host ejects the card meanwhile), close.
 * Prints CYCLE <n> <op> <errno> calls=<n> close=<OK|errno>, then GONE <n>
 * once the node has vanished (the host inserts the next card after that),
 * and DONE at the end.
 */
static int cmd_eject(const char *kind, int cycles)
{
	struct outcome o;
	int n, fd, st;

	for (n = 0; n < cycles; n++) {
		if (wait_node(1, 120) < 0) {
			printf("NONODE %d\n", n);
			return EX_FAIL;
		}
		if (!strcmp(kind, "open")) {
			printf("READY %d\n", n);
			fflush(stdout);
			for (o.calls = 0;; o.calls++) {
				fd = open(path, O_RDWR);
				if (fd < 0)
					break;
				if (iface == IF_CM4000 &&
				    ioctl(fd, CM_IOCGSTATUS, &st) < 0 &&
				    errno != ENODEV)
					break;
				close(fd);
			}
			printf("CYCLE %d open %s calls=%ld close=OK\n", n,
			       ename(errno), o.calls);
			wait_gone(n);
			continue;
		}
		fd = open(path, O_RDWR);
		if (fd < 0) {
			/* the node of a reader on its way out */
			printf("RETRY %d open %s\n", n, ename(errno));
			sleep_ms(50);
			n--;
			continue;
		}
		card_ready(fd);
		printf("READY %d\n", n);
		fflush(stdout);
		call_loop(fd, kind, &o);
		st = close(fd);
		printf("CYCLE %d %s %s calls=%ld close=%s\n", n, o.op,
		       ename(o.err), o.calls, st < 0 ? ename(errno) : "OK");
		wait_gone(n);
	}
	printf("DONE\n");
	return EX_OK;
}

/* One write of the bytes HEX names, as a program might send them. */
static int cmd_write(const char *hex)
{
	uint8_t m[512];
	unsigned int b;
	size_t n = 0;
	int fd;

	while (n < sizeof(m) && sscanf(hex + 2 * n, "%2x", &b) == 1)
		m[n++] = b;
	fd = open_dev(0);
	report("write", write(fd, m, n));
	report("close", close(fd));
	return EX_OK;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: scbad [-i cm4000|ccid] DEVICE COMMAND [ARG...]\n"
"  ioctls            invalid ioctl numbers and arguments (cm4000)\n"
"  io                bad buffers, short and oversized reads and writes\n"
"  slow              a reply that takes a while: non-blocking read, poll\n"
"  nocard            calls without a smart card (cm4000)\n"
"  openers           concurrent and non-blocking opens\n"
"  pull              long exchanges until one fails: LOOPING, FAILED ...\n"
"  write HEX         one write of these bytes\n"
"  eject KIND N      N times: open, READY n, KIND calls until one fails:\n"
"                    CYCLE n ...; KIND: open read write ioctl poll\n"
"output: CASE <name> OK <value> | CASE <name> <errno name>\n");
}

int main(int argc, char **argv)
{
	const char *forced = NULL, *base, *cmd;
	int c;

	while ((c = getopt(argc, argv, "+hi:")) != -1) {
		switch (c) {
		case 'i':
			forced = optarg;
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
	path = argv[optind];
	cmd = argv[optind + 1];
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (forced ? !strcmp(forced, "cm4000") : !strncmp(base, "cmm", 3))
		iface = IF_CM4000;
	else if (forced ? !strcmp(forced, "ccid") : !strncmp(base, "cmx", 3))
		iface = IF_CCID;
	else
		return EX_USAGE;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "ioctls"))
		return cmd_ioctls();
	if (!strcmp(cmd, "io"))
		return cmd_io();
	if (!strcmp(cmd, "slow"))
		return cmd_slow();
	if (!strcmp(cmd, "nocard"))
		return cmd_nocard();
	if (!strcmp(cmd, "openers"))
		return cmd_openers();
	if (!strcmp(cmd, "pull"))
		return cmd_pull();
	if (!strcmp(cmd, "write") && argc - optind == 3)
		return cmd_write(argv[optind + 2]);
	if (!strcmp(cmd, "eject") && argc - optind == 4)
		return cmd_eject(argv[optind + 2], atoi(argv[optind + 3]));
	usage(stderr);
	return EX_USAGE;
}
