// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfuzz: random but valid-shaped system calls on the character devices
 * and network interfaces of the drivers under test, from several
 * processes and threads at once, with random sizes and pointers (bad ones
 * too), while the host ejects and inserts the cards.  Seeded: each thread
 * draws its calls from its own generator, so a seed replays the same call
 * sequences.  The interface is described in tests/tools/README.
 *
 * Build: gcc -static -pthread -O2 -Wall -I src/include/uapi -o sysfuzz sysfuzz.c
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/mii.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <pcmcia-legacy/cm4000_cs.h>

#define EX_OK		0
#define EX_USAGE	1
#define EX_FAIL		2
#define EX_STUCK	3

#define MAX_TARGETS	8
#define MAX_THREADS	8
#define FDS		4
#define BUF_SIZE	8192
/* a call still running after this long is interrupted (SIGUSR1)... */
#define KICK_MS		2000
/* ...and one that will not end after this long is a hang */
#define STUCK_MS	30000

struct target {
	const char *name;	/* a device node, or an interface for "net:" */
	bool net;
};

struct worker {
	pthread_t thread;
	uint64_t rng;
	unsigned int proc, index;
	long calls;
	/* what runs now, for the watchdog and for a report */
	volatile int64_t call_start_ms;	/* 0: none */
	char what[96];
	unsigned long ok, failed;
	unsigned long errnos[EHWPOISON + 1];	/* failed calls by errno */
};

static struct target targets[MAX_TARGETS];
static unsigned int ntargets;
static uint64_t seed = 1;
static long total_calls = 10000;
static unsigned int nprocs = 2, nthreads = 2;
static struct worker workers[MAX_THREADS];
/*
 * A process's open descriptors, shared by its threads: they read, write
 * and close each other's (a reader has one opener at a time).
 */
static int fds[FDS], fd_targets[FDS];
#define MAX_PROCS	16
static int report_fd[MAX_PROCS];
static unsigned char *guard;	/* a page that faults */
static long page;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* splitmix64: small, and the same sequence everywhere for one seed */
static uint64_t next(struct worker *w)
{
	uint64_t z = (w->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long below(struct worker *w, unsigned long n)
{
	return n ? next(w) % n : 0;
}

/*
 * A buffer for a call: mostly a good one, sometimes NULL, a low address,
 * a kernel address, the faulting guard page, or a good one that runs
 * into the guard page after @len / 2 bytes.
 */
static void *pick_buf(struct worker *w, unsigned char *good, size_t len)
{
	switch (below(w, 10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)(8 + below(w, 4096));
	case 2:
		return (void *)(~(uintptr_t)0 - 0xfff);
	case 3:
		return guard;
	case 4:
		return guard - (len / 2 < (size_t)page ? len / 2 : 0);
	default:
		for (size_t i = 0; i < len && i < BUF_SIZE; i++)
			good[i] = next(w);
		return good;
	}
}

static size_t pick_len(struct worker *w)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 64,
					255, 256, 260, 271, 512, 4096, 8192 };

	if (below(w, 4) == 0)
		return below(w, BUF_SIZE + 1);
	return sizes[below(w, sizeof(sizes) / sizeof(sizes[0]))];
}

static void begin(struct worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void begin(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->what, sizeof(w->what), fmt, ap);
	va_end(ap);
	w->call_start_ms = now_ms();
}

static void end(struct worker *w, long rc)
{
	w->call_start_ms = 0;
	if (rc < 0) {
		w->failed++;
		w->errnos[errno >= 0 && errno <= EHWPOISON ? errno : 0]++;
	} else {
		w->ok++;
	}
}

/* -- character devices */

static unsigned long dev_ioctl_number(struct worker *w)
{
	static const unsigned long known[] = {
		CM_IOCGSTATUS, CM_IOCGATR, CM_IOCSPTS, CM_IOCSRDR,
		CM_IOCARDOFF, CM_IOSDBGLVL, FIONREAD, FIONBIO, TCGETS,
	};

	switch (below(w, 4)) {
	case 0:
		return _IOC(below(w, 4), CM_IOC_MAGIC, below(w, 256), below(w, 512));
	case 1:
		return next(w) & 0xffffffff;
	default:
		return known[below(w, sizeof(known) / sizeof(known[0]))];
	}
}

static void dev_call(struct worker *w, int slot, const char *path)
{
	unsigned char buf[BUF_SIZE];
	int fd = fds[slot];
	size_t len;
	long rc;

	if (fd < 0) {
		int flags = O_RDWR | (below(w, 3) ? 0 : O_NONBLOCK);

		begin(w, "open %s %#x", path, flags);
		rc = fd = open(path, flags);
		end(w, rc);
		if (fd >= 0 && __sync_bool_compare_and_swap(&fds[slot], -1, fd))
			return;
		if (fd >= 0)
			close(fd);	/* another thread took the slot */
		return;
	}
	/*
	 * Closes are rare: a reader has one opener at a time, and a close
	 * while another thread's read still holds the file keeps every
	 * open refused (EBUSY) until that read returns.
	 */
	switch (below(w, 20) ? below(w, 4) : 4) {	/* close: 1 in 20 */
	case 0: {
		unsigned long nr = dev_ioctl_number(w);

		len = _IOC_SIZE(nr) ? _IOC_SIZE(nr) : 64;
		begin(w, "ioctl %s %#lx", path, nr);
		rc = ioctl(fd, nr, pick_buf(w, buf, len));
		break;
	}
	case 1:
	case 2: {
		bool out = below(w, 2);

		len = pick_len(w);
		begin(w, "%s %s %zu", out ? "write" : "read", path, len);
		rc = out ? write(fd, pick_buf(w, buf, len), len) :
			   read(fd, pick_buf(w, buf, len), len);
		break;
	}
	case 3: {
		struct pollfd p = { .fd = fd, .events = next(w) & 0xffff };
		int ms = below(w, 50);

		begin(w, "poll %s %#x %d", path, p.events, ms);
		rc = poll(&p, 1, ms);
		break;
	}
	default:
		if (!__sync_bool_compare_and_swap(&fds[slot], fd, -1))
			return;		/* another thread closed it */
		begin(w, "close %s", path);
		rc = close(fd);
		break;
	}
	end(w, rc);
}

/* -- network interfaces */

static void net_ifreq(struct ifreq *ifr, const char *ifc)
{
	memset(ifr, 0, sizeof(*ifr));
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", ifc);
}

static void net_ethtool(struct worker *w, int s, const char *ifc)
{
	static const uint32_t cmds[] = {
		ETHTOOL_GSET, ETHTOOL_GDRVINFO, ETHTOOL_GLINK, ETHTOOL_GMSGLVL,
		ETHTOOL_SMSGLVL, ETHTOOL_NWAY_RST, ETHTOOL_GREGS,
		ETHTOOL_GEEPROM, ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS,
		ETHTOOL_GSTATS, ETHTOOL_GLINKSETTINGS, ETHTOOL_GPAUSEPARAM,
		ETHTOOL_GRINGPARAM, ETHTOOL_GWOL, ETHTOOL_GCOALESCE,
	};
	unsigned char buf[BUF_SIZE];
	struct ifreq ifr;
	uint32_t cmd;
	long rc;

	net_ifreq(&ifr, ifc);
	cmd = below(w, 4) ? cmds[below(w, sizeof(cmds) / sizeof(cmds[0]))] :
			    (uint32_t)below(w, 0x80);
	memset(buf, 0, 64);
	for (size_t i = 4; i < 64; i++)
		buf[i] = below(w, 3) ? 0 : next(w);
	memcpy(buf, &cmd, sizeof(cmd));
	ifr.ifr_data = below(w, 8) ? (void *)buf : pick_buf(w, buf, 64);
	if (ifr.ifr_data == (void *)buf)
		memcpy(buf, &cmd, sizeof(cmd));
	begin(w, "ethtool %s %#x", ifc, cmd);
	rc = ioctl(s, SIOCETHTOOL, &ifr);
	end(w, rc);
}

static void net_mii(struct worker *w, int s, const char *ifc)
{
	struct ifreq ifr;
	struct mii_ioctl_data *mii = (struct mii_ioctl_data *)&ifr.ifr_data;
	unsigned long nr;
	long rc;

	net_ifreq(&ifr, ifc);
	nr = below(w, 6) ? SIOCGMIIPHY + below(w, 3) :
			   SIOCDEVPRIVATE + below(w, 16);
	mii->phy_id = below(w, 2) ? 0 : below(w, 64);
	mii->reg_num = below(w, 40);
	/* writes only to registers that cannot take the PHY off the wire */
	mii->val_in = next(w);
	if (nr == SIOCSMIIREG && mii->reg_num <= MII_BMSR)
		nr = SIOCGMIIREG;
	begin(w, "mii %s %#lx reg %u", ifc, nr, mii->reg_num);
	rc = ioctl(s, nr, &ifr);
	end(w, rc);
}

static void net_flags(struct worker *w, int s, const char *ifc)
{
	static const short toggles[] = { IFF_UP, IFF_PROMISC, IFF_ALLMULTI };
	struct ifreq ifr;
	long rc;

	net_ifreq(&ifr, ifc);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return;
	ifr.ifr_flags ^= toggles[below(w, 3)];
	begin(w, "flags %s %#x", ifc, ifr.ifr_flags);
	rc = ioctl(s, SIOCSIFFLAGS, &ifr);
	end(w, rc);
}

static void net_addr(struct worker *w, int s, const char *ifc)
{
	struct ifreq ifr;
	unsigned long nr;
	long rc;

	net_ifreq(&ifr, ifc);
	switch (below(w, 4)) {
	case 0:
		nr = SIOCSIFMTU;
		ifr.ifr_mtu = below(w, 2) ? (int)(68 + below(w, 1500 - 68 + 1)) :
					    (int)next(w);
		break;
	case 1:
		/* a random unicast address of our own */
		nr = SIOCSIFHWADDR;
		ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
		for (int i = 0; i < ETH_ALEN; i++)
			ifr.ifr_hwaddr.sa_data[i] = next(w);
		ifr.ifr_hwaddr.sa_data[0] = (ifr.ifr_hwaddr.sa_data[0] & 0xfc) | 0x02;
		break;
	default:
		/* a multicast group joined or left */
		nr = below(w, 2) ? SIOCADDMULTI : SIOCDELMULTI;
		ifr.ifr_hwaddr.sa_family = AF_UNSPEC;
		memcpy(ifr.ifr_hwaddr.sa_data, "\x01\x00\x5e\x00\x00", 5);
		ifr.ifr_hwaddr.sa_data[5] = below(w, 8);
		break;
	}
	begin(w, "addr %s %#lx", ifc, nr);
	rc = ioctl(s, nr, &ifr);
	end(w, rc);
}

/* A frame of random bytes and size out of the interface. */
static void net_send(struct worker *w, const char *ifc)
{
	unsigned char frame[1600];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	size_t len = below(w, 4) ? 14 + below(w, 1500) : below(w, sizeof(frame));
	long rc;
	int s;

	s = socket(AF_PACKET, SOCK_RAW, 0);
	if (s < 0)
		return;
	sll.sll_ifindex = if_nametoindex(ifc);
	sll.sll_halen = ETH_ALEN;
	for (size_t i = 0; i < len; i++)
		frame[i] = next(w);
	/* from our own random address, to broadcast or a random one */
	frame[6] = (frame[6] & 0xfc) | 0x02;
	if (below(w, 2))
		memset(frame, 0xff, ETH_ALEN);
	begin(w, "send %s %zu", ifc, len);
	rc = sendto(s, frame, len, MSG_DONTWAIT, (struct sockaddr *)&sll, sizeof(sll));
	end(w, rc);
	close(s);
}

static void net_call(struct worker *w, const char *ifc)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		return;
	switch (below(w, 8)) {
	case 0:
	case 1:
		net_ethtool(w, s, ifc);
		break;
	case 2:
	case 3:
		net_mii(w, s, ifc);
		break;
	case 4:
		net_flags(w, s, ifc);
		break;
	case 5:
		net_addr(w, s, ifc);
		break;
	default:
		net_send(w, ifc);
		break;
	}
	close(s);
}

/* -- workers */

static void *work(void *arg)
{
	struct worker *w = arg;

	for (long i = 0; i < w->calls; i++) {
		unsigned int t = below(w, ntargets);

		if (targets[t].net) {
			net_call(w, targets[t].name);
		} else {
			int slot = below(w, FDS);

			/*
			 * A descriptor the process has open on the target
			 * already, but for 1 call in 16: a reader has one
			 * opener at a time, and a second open only tests its
			 * refusal (EBUSY).
			 */
			if (below(w, 16)) {
				for (int i = 0; i < FDS; i++) {
					if (fds[i] >= 0 && fd_targets[i] == (int)t) {
						slot = i;
						break;
					}
				}
			}
			/* a slot's descriptor belongs to one target */
			if (fds[slot] >= 0 && fd_targets[slot] != (int)t)
				slot = (slot + 1) % FDS;
			if (fds[slot] >= 0 && fd_targets[slot] != (int)t)
				continue;
			fd_targets[slot] = t;
			dev_call(w, slot, targets[t].name);
		}
	}
	return NULL;
}

static void kick(int sig)
{
	(void)sig;		/* only interrupts a blocking call */
}

/* One process: its threads, and a watchdog over their calls. */
static int run_process(unsigned int proc, long calls)
{
	struct sigaction sa = { .sa_handler = kick };
	unsigned long ok = 0, failed = 0;
	unsigned int done = 0;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART */
	for (int i = 0; i < FDS; i++)
		fds[i] = -1;
	for (unsigned int t = 0; t < nthreads; t++) {
		struct worker *w = &workers[t];

		w->proc = proc;
		w->index = t;
		w->rng = seed * 1000003 + proc * 1009 + t;
		w->calls = calls / nthreads;
		pthread_create(&w->thread, NULL, work, w);
	}
	while (done < nthreads) {
		done = 0;
		for (unsigned int t = 0; t < nthreads; t++) {
			struct worker *w = &workers[t];
			int64_t start = w->call_start_ms;

			if (start == -1) {
				done++;
				continue;
			}
			if (pthread_tryjoin_np(w->thread, NULL) == 0) {
				w->call_start_ms = -1;
				done++;
				continue;
			}
			if (start > 0 && now_ms() - start > STUCK_MS) {
				printf("STUCK seed=%llu proc=%u thread=%u call: %s\n",
				       (unsigned long long)seed, proc, t, w->what);
				fflush(stdout);
				_exit(EX_STUCK);
			}
			if (start > 0 && now_ms() - start > KICK_MS)
				pthread_kill(w->thread, SIGUSR1);
		}
		usleep(100000);
	}
	for (int i = 0; i < FDS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	for (unsigned int t = 0; t < nthreads; t++) {
		ok += workers[t].ok;
		failed += workers[t].failed;
	}
	printf("PROC %u calls=%lu failed=%lu", proc, ok + failed, failed);
	for (int e = 0; e <= EHWPOISON; e++) {
		unsigned long n = 0;

		for (unsigned int t = 0; t < nthreads; t++)
			n += workers[t].errnos[e];
		if (n) {
			const char *name = strerrorname_np(e);

			printf(" %s=%lu", name ? name : "E?", n);
		}
	}
	printf("\n");
	fflush(stdout);
	return EX_OK;
}

static int usage(void)
{
	fprintf(stderr, "usage: sysfuzz [-s SEED] [-n CALLS] [-p PROCS] [-j THREADS] "
		"TARGET...\n  TARGET: a device node, or net:IFACE\n");
	return EX_USAGE;
}

int main(int argc, char **argv)
{
	unsigned long calls = 0, failed = 0;
	int opt, status, rc = EX_OK;

	while ((opt = getopt(argc, argv, "s:n:p:j:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			total_calls = strtol(optarg, NULL, 0);
			break;
		case 'p':
			nprocs = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			nthreads = strtoul(optarg, NULL, 0);
			break;
		default:
			return usage();
		}
	}
	if (optind >= argc || !nprocs || nprocs > MAX_PROCS || !nthreads ||
	    nthreads > MAX_THREADS)
		return usage();
	for (; optind < argc && ntargets < MAX_TARGETS; optind++) {
		struct target *t = &targets[ntargets++];

		t->net = !strncmp(argv[optind], "net:", 4);
		t->name = argv[optind] + (t->net ? 4 : 0);
	}
	page = sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED)
		return EX_FAIL;
	guard += page;
	mprotect(guard, page, PROT_NONE);
	signal(SIGPIPE, SIG_IGN);

	printf("SYSFUZZ seed=%llu calls=%ld procs=%u threads=%u\n",
	       (unsigned long long)seed, total_calls, nprocs, nthreads);
	fflush(stdout);
	for (unsigned int p = 0; p < nprocs; p++) {
		int fds[2];

		if (pipe(fds) < 0)
			return EX_FAIL;
		if (fork() == 0) {
			close(fds[0]);
			dup2(fds[1], STDOUT_FILENO);
			_exit(run_process(p, total_calls / nprocs));
		}
		close(fds[1]);
		report_fd[p] = fds[0];
	}
	for (unsigned int p = 0; p < nprocs; p++) {
		char line[256];
		/* the children's reports, in order */
		FILE *f = fdopen(report_fd[p], "r");

		while (f && fgets(line, sizeof(line), f)) {
			unsigned long c, e;
			unsigned int n;

			fputs(line, stdout);
			if (sscanf(line, "PROC %u calls=%lu failed=%lu", &n, &c, &e) == 3) {
				calls += c;
				failed += e;
			}
		}
		if (f)
			fclose(f);
	}
	while (wait(&status) > 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == EX_STUCK)
			rc = EX_STUCK;
		else if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = rc ? rc : EX_FAIL;
	}
	printf("DONE calls=%lu failed=%lu %s\n", calls, failed,
	       rc == EX_OK ? "OK" : rc == EX_STUCK ? "STUCK" : "FAILED");
	return rc;
}
