// SPDX-License-Identifier: GPL-2.0-only
/*
 * ifdtool: drives the handler as pcscd and a PC/SC application would, for
 * the guest tests (tests/test_ifd_guest.py), on the real device nodes.
 *
 *   ifdtool [-p 0|1] [-t SECONDS] DEVICENAME apdu HEX...
 *	waits for a card, powers it up (ATR <hex>), sets the protocol
 *	(PROTOCOL T=<n>; default T=1 when offered, as pcscd does), then
 *	sends each APDU and prints R <response>, fetching 61xx data with
 *	GET RESPONSE and repeating 6Cxx with Le = xx, as applications do.
 *   ifdtool [-t SECONDS] DEVICENAME watch
 *	polls IFDHICCPresence every 100 ms: PRESENT / ABSENT at each
 *	change, DONE after SECONDS.
 * The handler's log lines go to stdout as LOG <text>.  Exit: 0 done,
 * 1 usage, 3 timeout, 4 the handler returned an error (ERROR <where> <rc>).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ifdhandler.h>

#define LUN		0
#define BUF		(3 * 1024)

void log_msg(const int priority, const char *fmt, ...)
{
	va_list ap;

	(void)priority;
	fputs("LOG ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void print_hex(const char *tag, const unsigned char *b, unsigned long n)
{
	unsigned long i;

	printf("%s ", tag);
	for (i = 0; i < n; i++)
		printf("%02X", b[i]);
	putchar('\n');
	fflush(stdout);
}

static void fail(const char *where, RESPONSECODE rc)
{
	printf("ERROR %s %ld\n", where, (long)rc);
	exit(4);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t parse_hex(const char *s, unsigned char *out)
{
	size_t n = 0;

	while (s[0] && s[1] && sscanf(s, "%2hhx", &out[n]) == 1) {
		n++;
		s += 2;
	}
	if (*s) {
		fprintf(stderr, "ifdtool: bad hex\n");
		exit(1);
	}
	return n;
}

static unsigned long xmit(const unsigned char *cmd, unsigned long len,
			  unsigned char *rsp)
{
	SCARD_IO_HEADER pci = { 0, 0 };
	DWORD rlen = BUF;
	RESPONSECODE rc;

	rc = IFDHTransmitToICC(LUN, pci, (PUCHAR)cmd, len, rsp, &rlen, NULL);
	if (rc != IFD_SUCCESS)
		fail("transmit", rc);
	return rlen;
}

/* One APDU as an application sends it, 61xx and 6Cxx handled. */
static void apdu(const char *hexstr)
{
	unsigned char cmd[BUF], rsp[BUF], out[BUF];
	unsigned long n = parse_hex(hexstr, cmd), r, got = 0;

	r = xmit(cmd, n, rsp);
	if (r == 2 && rsp[0] == 0x6c) {
		cmd[n - 1] = rsp[1];
		r = xmit(cmd, n, rsp);
	}
	while (r >= 2 && rsp[r - 2] == 0x61) {
		unsigned char gr[5] = { 0x00, 0xc0, 0x00, 0x00, rsp[r - 1] };

		memcpy(out + got, rsp, r - 2);
		got += r - 2;
		r = xmit(gr, 5, rsp);
	}
	memcpy(out + got, rsp, r);
	print_hex("R", out, got + r);
}

static void wait_card(double timeout)
{
	double end = now() + timeout;

	while (IFDHICCPresence(LUN) != IFD_ICC_PRESENT) {
		if (now() > end) {
			puts("TIMEOUT");
			exit(3);
		}
		usleep(100000);
	}
}

int main(int argc, char **argv)
{
	unsigned char atr[MAX_ATR_SIZE];
	int opt, proto = -1, i, last = -1, present;
	double timeout = 30, end;
	RESPONSECODE rc;
	DWORD len = sizeof(atr);

	while ((opt = getopt(argc, argv, "p:t:")) != -1) {
		if (opt == 'p')
			proto = atoi(optarg);
		else if (opt == 't')
			timeout = atof(optarg);
		else
			return 1;
	}
	if (argc - optind < 2)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	rc = IFDHCreateChannelByName(LUN, argv[optind]);
	if (rc != IFD_SUCCESS)
		fail("channel", rc);
	if (!strcmp(argv[optind + 1], "watch")) {
		for (end = now() + timeout; now() < end; usleep(100000)) {
			present = IFDHICCPresence(LUN) == IFD_ICC_PRESENT;
			if (present != last)
				puts(present ? "PRESENT" : "ABSENT");
			last = present;
		}
		puts("DONE");
		IFDHCloseChannel(LUN);
		return 0;
	}
	if (strcmp(argv[optind + 1], "apdu"))
		return 1;
	wait_card(timeout);
	rc = IFDHPowerICC(LUN, IFD_POWER_UP, atr, &len);
	if (rc != IFD_SUCCESS)
		fail("power", rc);
	print_hex("ATR", atr, len);
	if (proto < 0) {
		/* pcscd: T=1 when the card offers it */
		rc = IFDHSetProtocolParameters(LUN, SCARD_PROTOCOL_T1, 0, 0, 0, 0);
		proto = rc == IFD_SUCCESS;
		if (rc != IFD_SUCCESS)
			rc = IFDHSetProtocolParameters(LUN, SCARD_PROTOCOL_T0, 0,
						       0, 0, 0);
	} else {
		rc = IFDHSetProtocolParameters(LUN, proto ? SCARD_PROTOCOL_T1 :
					       SCARD_PROTOCOL_T0, 0, 0, 0, 0);
	}
	if (rc != IFD_SUCCESS)
		fail("protocol", rc);
	printf("PROTOCOL T=%d\n", proto);
	for (i = optind + 2; i < argc; i++)
		apdu(argv[i]);
	IFDHPowerICC(LUN, IFD_POWER_DOWN, atr, &len);
	IFDHCloseChannel(LUN);
	return 0;
}
