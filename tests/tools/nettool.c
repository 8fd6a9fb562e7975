// SPDX-License-Identifier: GPL-2.0-only
/*
 * nettool: the guest side of the network rig (tests/netrig.py).
 *
 *   nettool spawn PIDFILE COMMAND [ARG...]
 *
 * Runs COMMAND in the background, detached: a session of its own, stdin
 * from /dev/null, its PID in PIDFILE; returns at once.  The console's
 * shell gets no job to track (its job control and a transfer that ends
 * have taken the shell down with them).
 *
 *   nettool count IFACE ETHERTYPE SECONDS [MCAST-MAC...]
 *
 * Counts the frames of ETHERTYPE (e.g. 0x88b5) that IFACE receives,
 * through a packet socket, until the end marker arrives or SECONDS have
 * passed.  Each MCAST-MAC is added to the interface's link-layer
 * multicast list for that time (as a group membership would).  Prints
 * READY once it listens, then at the end
 *
 *   COUNT <frames> BAD <frames whose payload is not the rig's pattern> END <0|1>
 *       DROPS <frames the packet socket dropped (its buffer was full)>
 *
 * The rig's payload: a 32-bit sequence number, a 16-bit length L (both
 * big-endian), then L - 6 bytes where byte i (from the payload start) is
 * (seq + i) & 0xff.  Bytes past L (padding) are not checked.  The end
 * marker is a payload with sequence number 0xffffffff: the sender is
 * done, and what it sent before has come through (frames keep their
 * order), so the count does not depend on how fast the guest runs.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PAYLOAD_HEAD 6
#define END_MARKER 0xffffffffu

static void die(const char *what)
{
	fprintf(stderr, "nettool: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_mac(const char *s, unsigned char *mac)
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return 0;
}

static uint32_t payload_seq(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* Whether a payload carries the rig's pattern. */
static int payload_ok(const unsigned char *p, size_t len)
{
	uint32_t seq;
	uint16_t want;
	size_t i;

	if (len < PAYLOAD_HEAD)
		return 0;
	seq = payload_seq(p);
	want = p[4] << 8 | p[5];
	if (want < PAYLOAD_HEAD || want > len)
		return 0;
	for (i = PAYLOAD_HEAD; i < want; i++)
		if (p[i] != (unsigned char)(seq + i))
			return 0;
	return 1;
}

static int count(int argc, char **argv)
{
	unsigned char frame[2048];
	struct sockaddr_ll sll;
	struct packet_mreq mr;
	unsigned long frames = 0, bad = 0;
	struct tpacket_stats st;
	socklen_t len = sizeof(st);
	int rcvbuf = 8 << 20;
	int ended = 0;
	double end;
	int fd, ifindex, proto, i;

	if (argc < 5) {
		fprintf(stderr, "usage: nettool count IFACE ETHERTYPE SECONDS [MCAST-MAC...]\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[2]);
	if (!ifindex)
		die(argv[2]);
	proto = strtol(argv[3], NULL, 0);
	fd = socket(AF_PACKET, SOCK_RAW, htons(proto));
	if (fd < 0)
		die("socket");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(proto);
	sll.sll_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("bind");
	/* a guest starved of CPU must not lose frames here: room for a burst */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		die("SO_RCVBUFFORCE");
	for (i = 5; i < argc; i++) {
		memset(&mr, 0, sizeof(mr));
		mr.mr_ifindex = ifindex;
		mr.mr_type = PACKET_MR_MULTICAST;
		mr.mr_alen = 6;
		if (parse_mac(argv[i], mr.mr_address) < 0) {
			fprintf(stderr, "nettool: bad MAC %s\n", argv[i]);
			return 2;
		}
		if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
			       sizeof(mr)) < 0)
			die("PACKET_ADD_MEMBERSHIP");
	}
	printf("READY\n");
	fflush(stdout);

	end = now() + atof(argv[4]);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = end - now();
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (!(pfd.revents & POLLIN))
			continue;
		n = recv(fd, frame, sizeof(frame), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recv");
		}
		if (n >= ETH_HLEN + PAYLOAD_HEAD &&
		    payload_seq(frame + ETH_HLEN) == END_MARKER) {
			ended = 1;
			break;
		}
		frames++;
		if (n < ETH_HLEN || !payload_ok(frame + ETH_HLEN, n - ETH_HLEN))
			bad++;
	}
	if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) < 0)
		die("PACKET_STATISTICS");
	printf("COUNT %lu BAD %lu END %d DROPS %u\n", frames, bad, ended, st.tp_drops);
	return 0;
}

static int spawn(int argc, char **argv)
{
	FILE *f;
	pid_t pid;
	int fd;

	if (argc < 4) {
		fprintf(stderr, "usage: nettool spawn PIDFILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid > 0) {
		f = fopen(argv[2], "w");
		if (!f)
			die(argv[2]);
		fprintf(f, "%d\n", (int)pid);
		return fclose(f) ? 1 : 0;
	}
	setsid();
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	execvp(argv[3], argv + 3);
	die(argv[3]);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "count"))
		return count(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "spawn"))
		return spawn(argc, argv);
	fprintf(stderr, "usage: nettool count|spawn ...\n");
	return 2;
}
