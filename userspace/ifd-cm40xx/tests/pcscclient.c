// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcscclient: a PC/SC application for the guest tests, through pcscd.
 *
 *   pcscclient READER removed FILE
 *	connects (T=0 or T=1), sends SELECT MF: CONNECTED <sw>; then
 *	waits until FILE exists (the test pulls the card meanwhile and
 *	then creates it), sends again: TRANSMIT <pcsc error name>; then
 *	connects anew, waiting up to 30 s for a card: AGAIN <sw>.
 *   pcscclient READER bench COUNT SIZE
 *	COUNT ECHO APDUs (80 EC 00 00 SIZE data SIZE), each checked:
 *	BENCH apdus=N size=S seconds=F
 * Exit: 0 done, 1 usage, 4 an unexpected PC/SC result (ERROR <where>
 * <name>).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <winscard.h>

static SCARDCONTEXT ctx;
static SCARDHANDLE card;
static DWORD proto;

static void fail(const char *where, LONG rv)
{
	printf("ERROR %s %s\n", where, pcsc_stringify_error(rv));
	exit(4);
}

static LONG connect_card(const char *reader)
{
	return SCardConnect(ctx, reader, SCARD_SHARE_SHARED,
			    SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1, &card, &proto);
}

static LONG xmit(const unsigned char *cmd, DWORD len, unsigned char *rsp,
		 DWORD *rlen)
{
	const SCARD_IO_REQUEST *pci = proto == SCARD_PROTOCOL_T1 ?
				      SCARD_PCI_T1 : SCARD_PCI_T0;

	*rlen = 300;
	return SCardTransmit(card, pci, cmd, len, NULL, rsp, rlen);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const unsigned char select_mf[] = { 0x00, 0xa4, 0x00, 0x0c, 0x02, 0x3f, 0x00 };

static void removed(const char *reader, const char *file)
{
	unsigned char rsp[300];
	DWORD rlen;
	LONG rv;
	int i;

	rv = connect_card(reader);
	if (rv == SCARD_S_SUCCESS)
		rv = xmit(select_mf, sizeof(select_mf), rsp, &rlen);
	if (rv != SCARD_S_SUCCESS)
		fail("first", rv);
	printf("CONNECTED %02X%02X\n", rsp[rlen - 2], rsp[rlen - 1]);
	while (access(file, F_OK))
		usleep(100000);
	rv = xmit(select_mf, sizeof(select_mf), rsp, &rlen);
	printf("TRANSMIT %s\n", pcsc_stringify_error(rv));
	SCardDisconnect(card, SCARD_LEAVE_CARD);
	for (i = 0; i < 300 && (rv = connect_card(reader)); i++)
		usleep(100000);
	if (rv == SCARD_S_SUCCESS)
		rv = xmit(select_mf, sizeof(select_mf), rsp, &rlen);
	if (rv != SCARD_S_SUCCESS)
		fail("again", rv);
	printf("AGAIN %02X%02X\n", rsp[rlen - 2], rsp[rlen - 1]);
}

static void bench(const char *reader, int count, int size)
{
	unsigned char cmd[6 + 255], rsp[300], gr[5] = { 0x00, 0xc0, 0x00, 0x00 };
	DWORD rlen;
	double t0;
	LONG rv;
	int i, k;

	rv = connect_card(reader);
	if (rv != SCARD_S_SUCCESS)
		fail("connect", rv);
	memcpy(cmd, "\x80\xec\x00\x00", 4);
	cmd[4] = (unsigned char)size;
	for (k = 0; k < size; k++)
		cmd[5 + k] = (unsigned char)(k * 3);
	cmd[5 + size] = (unsigned char)size;
	t0 = now();
	for (i = 0; i < count; i++) {
		rv = xmit(cmd, 6 + size, rsp, &rlen);
		if (rv == SCARD_S_SUCCESS && rlen == 2 && rsp[0] == 0x61) {
			gr[4] = rsp[1];
			rv = xmit(gr, 5, rsp, &rlen);
		}
		if (rv != SCARD_S_SUCCESS)
			fail("echo", rv);
		if (rlen != (DWORD)size + 2 || memcmp(rsp, cmd + 5, size)) {
			printf("ERROR echo came back wrong\n");
			exit(4);
		}
	}
	printf("BENCH apdus=%d size=%d seconds=%.4f\n", count, size, now() - t0);
}

int main(int argc, char **argv)
{
	LONG rv;

	if (argc < 4)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	rv = SCardEstablishContext(SCARD_SCOPE_SYSTEM, NULL, NULL, &ctx);
	if (rv != SCARD_S_SUCCESS)
		fail("context", rv);
	if (!strcmp(argv[2], "removed"))
		removed(argv[1], argv[3]);
	else if (!strcmp(argv[2], "bench") && argc == 5)
		bench(argv[1], atoi(argv[3]), atoi(argv[4]));
	else
		return 1;
	SCardReleaseContext(ctx);
	return 0;
}
