// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the handler's protocol layers against scripted cards,
 * and of the handler as pcscd calls it against fake device nodes.
 * `unit-tests` runs them all, `unit-tests NAME...` some, `-l` lists them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ifdhandler.h>

#include "apdu.h"
#include "atr.h"
#include "card.h"
#include "fake_dev.h"
#include "t1.h"

/* ---- the runner ---- */

struct test {
	const char *name;
	void (*fn)(void);
};

static struct test tests[128];
static int ntests;
static int failed;

static void add_test(const char *name, void (*fn)(void))
{
	tests[ntests].name = name;
	tests[ntests++].fn = fn;
}

#define TEST(fn) \
	static void fn(void); \
	__attribute__((constructor)) static void reg_##fn(void) \
	{ add_test(#fn, fn); } \
	static void fn(void)

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "  %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		failed = 1; \
		return; \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) { \
		fprintf(stderr, "  %s:%d: %s == %lld, not %lld\n", __FILE__, \
			__LINE__, #a, a_, b_); \
		failed = 1; \
		return; \
	} \
} while (0)

/* @len bytes at @p are @hexstr */
static int bytes_are(const unsigned char *p, size_t len, const char *hexstr)
{
	unsigned char want[STEP_BYTES];
	size_t n = hex(hexstr, want);

	return n == len && !memcmp(p, want, n);
}

/* ---- ATR ---- */

/* what the emulated card says by default: T=0 and T=1, TA1 13, TB3 45 */
#define DEFAULT_ATR "3B 98 13 80 21 45 50 43 4C 76 63 61 72 64 52"

static int parse_hex(const char *s, struct atr_info *ai)
{
	unsigned char atr[64];

	return atr_parse(atr, hex(s, atr), ai);
}

TEST(atr_direct_t0_only)
{
	struct atr_info ai;

	CHECK_EQ(parse_hex("3B 02 14 50", &ai), ATR_OK);
	CHECK(!ai.inverse);
	CHECK_EQ(ai.protocols, 1);
	CHECK_EQ(ai.first, 0);
	CHECK_EQ(ai.ta1, 0x11);
	CHECK_EQ(ai.wi, 10);
	CHECK_EQ(ai.hist_off, 2);
	CHECK_EQ(ai.hist_len, 2);
	CHECK(!ai.tck);
}

TEST(atr_two_protocols_ta1_tck)
{
	struct atr_info ai;

	CHECK_EQ(parse_hex(DEFAULT_ATR, &ai), ATR_OK);
	CHECK_EQ(ai.protocols, 3);
	CHECK_EQ(ai.first, 0);
	CHECK_EQ(ai.ta1, 0x13);
	CHECK_EQ(atr_fi(ai.ta1), 372);
	CHECK_EQ(atr_di(ai.ta1), 4);
	CHECK_EQ(ai.bwi, 4);
	CHECK_EQ(ai.cwi, 5);
	CHECK_EQ(ai.ifsc, 32);
	CHECK(!ai.crc);
	CHECK(ai.tck);
	CHECK_EQ(ai.hist_len, 8);
	CHECK(!memcmp(ai.atr + ai.hist_off, "PCLvcard", 8));
}

TEST(atr_inverse_convention)
{
	struct atr_info logical, raw;

	/* as the readers hand it out, and as read in direct convention */
	CHECK_EQ(parse_hex("3F 02 14 50", &logical), ATR_OK);
	CHECK_EQ(parse_hex("03 BF D7 F5", &raw), ATR_OK);
	CHECK(logical.inverse);
	CHECK(raw.inverse);
	CHECK(!memcmp(logical.atr, raw.atr, 4));
	CHECK_EQ(raw.hist_len, 2);
	CHECK_EQ(raw.atr[2], 0x14);
}

TEST(atr_t15_global_bytes)
{
	struct atr_info ai;

	/* TD1 T=0, TD2 T=15 with TA3 07 (classes A, B, C): TCK needed */
	CHECK_EQ(parse_hex("3B 80 80 1F 07 18", &ai), ATR_OK);
	CHECK_EQ(ai.protocols, 1);
	CHECK(ai.has_t15_ta);
	CHECK_EQ(ai.t15_ta, 0x07);
	CHECK(!ai.has_t15_tb);
	CHECK(ai.tck);
}

TEST(atr_tck_checked)
{
	struct atr_info ai;

	CHECK_EQ(parse_hex("3B 80 80 1F 07 19", &ai), ATR_E_TCK);
	CHECK_EQ(parse_hex("3B 80 80 1F 07", &ai), ATR_E_LENGTH);
}

TEST(atr_specific_mode)
{
	struct atr_info ai;

	/* TA1 96, TA2 01: the card runs T=1 at TA1's rate, no PPS */
	CHECK_EQ(parse_hex("3B 90 96 11 01 16", &ai), ATR_OK);
	CHECK(ai.specific);
	CHECK_EQ(ai.ta2, 0x01);
	CHECK_EQ(ai.ta1, 0x96);
	CHECK_EQ(ai.protocols, 2);
	CHECK_EQ(atr_fi(ai.ta1), 512);
	CHECK_EQ(atr_di(ai.ta1), 32);
}

TEST(atr_t1_ifsc_and_crc)
{
	struct atr_info ai;

	CHECK_EQ(parse_hex("3B 80 81 71 FE 45 01 CA", &ai), ATR_OK);
	CHECK_EQ(ai.protocols, 2);
	CHECK_EQ(ai.first, 1);
	CHECK_EQ(ai.ifsc, 0xfe);
	CHECK_EQ(ai.bwi, 4);
	CHECK(ai.crc);
}

TEST(atr_malformed)
{
	struct atr_info ai;

	CHECK_EQ(parse_hex("3A 02 14 50", &ai), ATR_E_TS);
	CHECK_EQ(parse_hex("3B", &ai), ATR_E_LENGTH);
	CHECK_EQ(parse_hex("3B 02 14", &ai), ATR_E_LENGTH);
	CHECK_EQ(parse_hex("3B 02 14 50 00", &ai), ATR_E_LENGTH);
	/* IFSC FF is reserved */
	CHECK_EQ(parse_hex("3B 80 81 11 FF 6F", &ai), ATR_E_VALUE);
}

/* ---- T=0 ---- */

static struct script sc;

static int t0(int p3_case1, const char *apdu_hex, unsigned char *rsp,
	      size_t *rlen)
{
	unsigned char apdu[STEP_BYTES];

	return t0_transmit(script_xfer, &sc, p3_case1, apdu,
			   hex(apdu_hex, apdu), rsp, 258, rlen);
}

/*
 * An APDU goes to the card as @tpdu; the card's @answer comes back to
 * the caller unchanged (61xx and 6Cxx included).
 */
static bool t0_maps(int p3_case1, const char *apdu, const char *tpdu,
		    const char *answer)
{
	unsigned char rsp[258];
	size_t rlen;

	script_reset(&sc);
	expect(&sc, tpdu, answer);
	return t0(p3_case1, apdu, rsp, &rlen) == 0 &&
	       bytes_are(rsp, rlen, answer) && script_done(&sc);
}

TEST(apdu_cases)
{
	unsigned char a[STEP_BYTES];

	CHECK_EQ(apdu_case(a, hex("00 A4 00 00", a)), APDU_CASE_1);
	CHECK_EQ(apdu_case(a, hex("00 B0 00 00 10", a)), APDU_CASE_2S);
	CHECK_EQ(apdu_case(a, hex("00 A4 00 0C 02 3F 00", a)), APDU_CASE_3S);
	CHECK_EQ(apdu_case(a, hex("00 A4 00 00 02 3F 00 00", a)), APDU_CASE_4S);
	CHECK_EQ(apdu_case(a, hex("00 B0 00 00 00 01 00", a)), APDU_CASE_2E);
	CHECK_EQ(apdu_case(a, hex("00 D6 00 00 00 00 01 AA", a)), APDU_CASE_3E);
	CHECK_EQ(apdu_case(a, hex("00 D6 00 00 00 00 01 AA 00 00", a)),
		 APDU_CASE_4E);
	CHECK_EQ(apdu_case(a, hex("00 A4 00", a)), APDU_BAD);
	CHECK_EQ(apdu_case(a, hex("00 A4 00 0C 03 3F 00", a)), APDU_BAD);
}

TEST(t0_case1)
{
	/* the 4000 takes the bare header, CCID readers P3 = 00 */
	CHECK(t0_maps(0, "00 A4 00 00", "00 A4 00 00", "90 00"));
	CHECK(t0_maps(1, "00 A4 00 00", "00 A4 00 00 00", "90 00"));
}

TEST(t0_case2)
{
	CHECK(t0_maps(0, "00 B0 00 00 04", "00 B0 00 00 04",
		      "01 02 03 04 90 00"));
}

TEST(t0_case3)
{
	CHECK(t0_maps(0, "00 A4 02 0C 02 01 01", "00 A4 02 0C 02 01 01",
		      "90 00"));
}

TEST(t0_case4_without_le_61xx_to_caller)
{
	CHECK(t0_maps(0, "00 A4 02 00 02 01 01 00", "00 A4 02 00 02 01 01",
		      "61 1C"));
}

TEST(t0_6cxx_to_caller)
{
	CHECK(t0_maps(0, "00 B0 00 00 10", "00 B0 00 00 10", "6C 08"));
}

TEST(t0_refuses_extended_and_bad_answers)
{
	unsigned char rsp[258];
	size_t rlen;

	script_reset(&sc);
	expect(&sc, "00 B0 00 00 02", "01 02 03 90 00");
	expect(&sc, "00 A4 00 00", "90");
	CHECK_EQ(t0(0, "00 B0 00 00 00 01 00", rsp, &rlen), -EINVAL);
	CHECK_EQ(t0(0, "00 B0 00 00 02", rsp, &rlen), -EPROTO);
	CHECK_EQ(t0(0, "00 A4 00 00", rsp, &rlen), -EPROTO);
	CHECK(script_done(&sc));
}

/* ---- T=1 ---- */

static struct t1 t1;

static void t1_setup(unsigned int ifsc, bool ifsd_negotiated)
{
	script_reset(&sc);
	t1_init(&t1, script_xfer, &sc, ifsc);
	t1.ifsd_done = ifsd_negotiated;
	sc.t1 = &t1;
}

static int t1_apdu(const char *apdu_hex, unsigned char *rsp, size_t *rlen)
{
	unsigned char apdu[STEP_BYTES];

	return t1_transceive(&t1, apdu, hex(apdu_hex, apdu), rsp, 300, rlen);
}

/* @apdu gets the answer @want, and the card's script ran to its end */
static bool t1_answers(const char *apdu, const char *want)
{
	unsigned char rsp[300];
	size_t rlen;

	return t1_apdu(apdu, rsp, &rlen) == 0 && bytes_are(rsp, rlen, want) &&
	       script_done(&sc);
}

/*
 * The script of a SELECT MF (00 A4 00 00) in the first I-block: the card
 * answers @first, to which the host must say @then, which gets @last.
 */
static void t1_two_steps(const char *first, const char *then,
			 const char *last)
{
	t1_setup(32, true);
	expect(&sc, "00 00 04 00 A4 00 00 L", first);
	expect(&sc, then, last);
}

/* @apdu fails with @rc after the whole script */
static bool t1_fails(const char *apdu, int rc)
{
	unsigned char rsp[300];
	size_t rlen;

	return t1_apdu(apdu, rsp, &rlen) == rc && script_done(&sc);
}

TEST(t1_ifs_negotiation)
{
	t1_setup(32, false);
	expect(&sc, "00 C1 01 FE L", "00 E1 01 FE L");
	expect(&sc, "00 00 05 00 84 00 00 04 L", "00 00 06 01 02 03 04 90 00 L");
	CHECK(t1_answers("00 84 00 00 04", "01 02 03 04 90 00"));
	CHECK_EQ(t1.ifsd, 254);
	CHECK_EQ(t1.ns, 1);
	CHECK_EQ(t1.nr, 1);
}

TEST(t1_ifs_refused_then_resynch)
{
	/* a card that does not understand S(IFS): 3 tries, then resynch */
	t1_setup(32, false);
	expect(&sc, "00 C1 01 FE L", "00 82 00 L");
	expect(&sc, "00 C1 01 FE L", "00 82 00 L");
	expect(&sc, "00 C1 01 FE L", "00 82 00 L");
	expect(&sc, "00 C0 00 L", "00 E0 00 L");
	expect(&sc, "00 00 04 00 A4 00 00 L", "00 00 02 90 00 L");
	CHECK(t1_answers("00 A4 00 00", "90 00"));
	CHECK_EQ(t1.ifsd, 32);
}

/* an APDU of 5 + @lc bytes: 00 D6 00 00 lc, data byte i = i */
static size_t write_apdu(unsigned char *apdu, size_t lc)
{
	size_t i;

	memcpy(apdu, "\x00\xd6\x00\x00", 4);
	apdu[4] = (unsigned char)lc;
	for (i = 0; i < lc; i++)
		apdu[5 + i] = (unsigned char)i;
	return 5 + lc;
}

static const unsigned char sw_ok[] = { 0x90, 0x00 };

/*
 * Our APDU goes out in IFSC-sized I-blocks, each chained one taken by an
 * R-block; the card answers the last one with 90 00.
 */
static void chained_send(unsigned int ifsc, size_t lc)
{
	unsigned char apdu[300], rsp[300], ns = 0, pcb;
	size_t len = write_apdu(apdu, lc), off, n, rlen;

	t1_setup(ifsc, true);
	for (off = 0; off < len; off += n) {
		n = len - off < ifsc ? len - off : ifsc;
		pcb = (ns ? 0x40 : 0) | (off + n < len ? 0x20 : 0);
		if (off + n < len)
			expect_blocks(&sc, pcb, apdu + off, n,
				      0x80 | (ns ? 0 : 0x10), NULL, 0);
		else
			expect_blocks(&sc, pcb, apdu + off, n, 0x00, sw_ok, 2);
		ns ^= 1;
	}
	CHECK_EQ(t1_transceive(&t1, apdu, len, rsp, sizeof(rsp), &rlen), 0);
	CHECK(bytes_are(rsp, rlen, "90 00"));
	CHECK_EQ(t1.ns, ns);
	CHECK(script_done(&sc));
}

TEST(t1_chaining_out_ifsc_32)
{
	chained_send(32, 100);		/* 105 bytes: 32 + 32 + 32 + 9 */
	CHECK_EQ(sc.n, 4);
}

TEST(t1_chaining_out_ifsc_254)
{
	chained_send(254, 255);		/* 260 bytes: 254 + 6 */
	CHECK_EQ(sc.n, 2);
}

/* The card's answer of @total bytes comes in @ifsd-sized I-blocks. */
static void chained_receive(unsigned int ifsd, size_t total)
{
	unsigned char data[300], rsp[300], nr = 0, pcb;
	size_t off, n, rlen, i;

	for (i = 0; i < total; i++)
		data[i] = (unsigned char)(i * 7);
	t1_setup(254, true);
	if (ifsd != 32)
		expect(&sc, "00 C1 01 FE L", "00 E1 01 FE L");
	t1.ifsd_done = ifsd == 32;
	for (off = 0; off < total; off += n) {
		n = total - off < ifsd ? total - off : ifsd;
		pcb = (nr ? 0x40 : 0) | (off + n < total ? 0x20 : 0);
		if (off == 0)
			expect_blocks(&sc, 0x00, (const unsigned char *)
				      "\x00\xb0\x00\x00\x00", 5, pcb,
				      data, n);
		else
			expect_blocks(&sc, 0x80 | (nr ? 0x10 : 0), NULL, 0,
				      pcb, data + off, n);
		nr ^= 1;
	}
	CHECK_EQ(t1_apdu("00 B0 00 00 00", rsp, &rlen), 0);
	CHECK_EQ(rlen, total);
	CHECK(!memcmp(rsp, data, total));
	CHECK_EQ(t1.nr, nr);
	CHECK(script_done(&sc));
}

TEST(t1_chaining_in_ifsd_32)
{
	chained_receive(32, 100);	/* 32 + 32 + 32 + 4 */
	CHECK_EQ(sc.n, 4);
}

TEST(t1_chaining_in_ifsd_254)
{
	chained_receive(254, 258);	/* after S(IFS): 254 + 4 */
	CHECK_EQ(sc.n, 3);
}

TEST(t1_wtx)
{
	unsigned char rsp[300];
	size_t rlen;

	t1_two_steps("00 C3 01 05 L", "00 E3 01 05 L", "00 00 02 90 00 L");
	expect(&sc, "00 40 04 00 A4 00 00 L", "00 40 02 90 00 L");
	CHECK_EQ(t1_apdu("00 A4 00 00", rsp, &rlen), 0);
	CHECK(t1_answers("00 A4 00 00", "90 00"));
	/* the extension holds for the one block after S(WTX response) */
	CHECK_EQ(sc.steps[0].wtx, 0);
	CHECK_EQ(sc.steps[1].wtx, 5);
	CHECK_EQ(sc.steps[2].wtx, 0);
}

/* SELECT MF must get the right answer despite the card's @bad one */
static bool t1_recovers(const char *bad, const char *then)
{
	t1_two_steps(bad, then, "00 00 02 90 00 L");
	return t1_answers("00 A4 00 00", "90 00");
}

TEST(t1_bad_lrc_gets_r_block)
{
	CHECK(t1_recovers("00 00 02 90 00 X", "00 81 00 L"));
}

TEST(t1_bad_length_gets_r_block)
{
	/* LEN says 3, two bytes came */
	CHECK(t1_recovers("00 00 03 90 00 L", "00 81 00 L"));
}

TEST(t1_card_asks_for_retransmission)
{
	CHECK(t1_recovers("00 81 00 L", "00 00 04 00 A4 00 00 L"));
}

TEST(t1_resynch_after_silence)
{
	/* mute four times: three R-blocks, then S(RESYNCH) and all anew */
	t1_setup(32, true);
	t1.ns = 1;
	t1.nr = 1;
	expect_err(&sc, "00 40 04 00 A4 00 00 L", -ETIMEDOUT);
	expect_err(&sc, "00 92 00 L", -ETIMEDOUT);
	expect_err(&sc, "00 92 00 L", -ETIMEDOUT);
	expect_err(&sc, "00 92 00 L", -ETIMEDOUT);
	expect(&sc, "00 C0 00 L", "00 E0 00 L");
	expect(&sc, "00 C1 01 FE L", "00 E1 01 FE L");
	expect(&sc, "00 00 04 00 A4 00 00 L", "00 00 02 90 00 L");
	CHECK(t1_answers("00 A4 00 00", "90 00"));
	CHECK_EQ(t1.ns, 1);
}

TEST(t1_gives_up_without_resynch)
{
	int i;

	t1_setup(32, true);
	expect_err(&sc, "00 00 04 00 A4 00 00 L", -ETIMEDOUT);
	for (i = 0; i < 3; i++)
		expect_err(&sc, "00 82 00 L", -ETIMEDOUT);
	for (i = 0; i < 3; i++)
		expect_err(&sc, "00 C0 00 L", -ETIMEDOUT);
	CHECK(t1_fails("00 A4 00 00", -EIO));
}

TEST(t1_fatal_errors_end_at_once)
{
	t1_setup(32, true);
	expect_err(&sc, "00 00 04 00 A4 00 00 L", -ENODEV);
	CHECK(t1_fails("00 A4 00 00", -ENODEV));
}

TEST(t1_ifs_request_from_card)
{
	unsigned char apdu[64], rsp[300];
	size_t rlen;

	t1_two_steps("00 C1 01 10 L", "00 E1 01 10 L", "00 00 02 90 00 L");
	CHECK(t1_answers("00 A4 00 00", "90 00"));
	CHECK_EQ(t1.ifsc, 16);
	/* 25 bytes now go as 16 + 9 */
	write_apdu(apdu, 20);
	expect_blocks(&sc, 0x60, apdu, 16, 0x80, NULL, 0);
	expect_blocks(&sc, 0x00, apdu + 16, 9, 0x40, sw_ok, 2);
	CHECK_EQ(t1_transceive(&t1, apdu, 25, rsp, sizeof(rsp), &rlen), 0);
	CHECK(script_done(&sc));
}

TEST(t1_abort_from_card)
{
	t1_two_steps("00 C2 00 L", "00 E2 00 L", "00 80 00 L");
	CHECK(t1_fails("00 A4 00 00", -ECANCELED));
}

TEST(t1_response_too_large)
{
	unsigned char apdu[8], rsp[4];
	size_t rlen;

	t1_setup(32, true);
	expect(&sc, "00 00 05 00 84 00 00 04 L", "00 00 06 01 02 03 04 90 00 L");
	expect(&sc, "00 C0 00 L", "00 E0 00 L");
	CHECK_EQ(t1_transceive(&t1, apdu, hex("00 84 00 00 04", apdu), rsp,
			       sizeof(rsp), &rlen), -ENOSPC);
	CHECK(script_done(&sc));
}

/* ---- the handler as pcscd calls it ---- */

/* a fresh fake reader; channels a failed test left open closed first */
static void ifdh_setup(const char *atr)
{
	IFDHCloseChannel(0);
	IFDHCloseChannel(0x10000);
	fake_setup(atr);
}

static RESPONSECODE power(DWORD action, unsigned char *atr, DWORD *len)
{
	*len = 33;
	return IFDHPowerICC(0, action, atr, len);
}

static RESPONSECODE transmit(const char *apdu_hex, unsigned char *rsp,
			     DWORD *rlen)
{
	SCARD_IO_HEADER pci = { 0, 0 };
	unsigned char apdu[STEP_BYTES];

	*rlen = 300;
	return IFDHTransmitToICC(0, pci, apdu, hex(apdu_hex, apdu), rsp,
				 rlen, NULL);
}

/* @apdu through IFDHTransmitToICC gets @want */
static bool ifdh_answers(const char *apdu, const char *want)
{
	unsigned char rsp[300];
	DWORD len;

	return transmit(apdu, rsp, &len) == IFD_SUCCESS &&
	       bytes_are(rsp, len, want);
}

/*
 * Reader @name with a card answering @atr, powered up; then, unless 0,
 * protocol @proto asked for: what that gives (-1: an earlier step failed).
 */
static RESPONSECODE ifdh_ready(char *name, const char *atr, DWORD proto)
{
	unsigned char buf[33];
	DWORD len;

	ifdh_setup(atr);
	if (IFDHCreateChannelByName(0, name) != IFD_SUCCESS ||
	    power(IFD_POWER_UP, buf, &len) != IFD_SUCCESS)
		return -1;
	return proto ? IFDHSetProtocolParameters(0, proto, 0, 0, 0, 0) :
	       IFD_SUCCESS;
}

TEST(ifdh_cm4000_t0)
{
	unsigned char atr[33];
	DWORD len;

	ifdh_setup(DEFAULT_ATR);
	fake.atr_waits = 2;
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmm0:cm4000"), IFD_SUCCESS);
	CHECK_EQ(fake.opens, 1);
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_PRESENT);
	CHECK_EQ(power(IFD_POWER_UP, atr, &len), IFD_SUCCESS);
	CHECK(bytes_are(atr, len, DEFAULT_ATR));
	CHECK_EQ(fake.cardoffs, 0);	/* the driver had just powered it */
	CHECK_EQ(fake.sleeps, 2);
	/* two protocols offered: a PPS for T=0 at TA1's rate */
	CHECK_EQ(IFDHSetProtocolParameters(0, SCARD_PROTOCOL_T0, 0, 0, 0, 0),
		 IFD_SUCCESS);
	CHECK_EQ(fake.pps_calls, 1);
	CHECK_EQ(fake.pps_protocol, 1);
	expect(&fake.script, "80 EC 00 00 02 AA BB", "61 02");
	expect(&fake.script, "00 C0 00 00 02", "AA BB 90 00");
	CHECK(ifdh_answers("80 EC 00 00 02 AA BB 02", "61 02"));
	CHECK(ifdh_answers("00 C0 00 00 02", "AA BB 90 00"));
	CHECK(script_done(&fake.script));
	/* used since its ATR: powering up again resets it */
	CHECK_EQ(power(IFD_POWER_UP, atr, &len), IFD_SUCCESS);
	CHECK_EQ(fake.cardoffs, 1);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
	CHECK_EQ(fake.closes, 1);
}

TEST(ifdh_cm4000_t1)
{
	CHECK_EQ(ifdh_ready("/dev/cmm0:cm4000", DEFAULT_ATR, SCARD_PROTOCOL_T1),
		 IFD_SUCCESS);
	CHECK_EQ(fake.pps_protocol, 2);
	expect(&fake.script, "00 C1 01 FE L", "00 E1 01 FE L");
	expect(&fake.script, "00 00 05 00 84 00 00 02 L", "00 00 04 5A A5 90 00 L");
	CHECK(ifdh_answers("00 84 00 00 02", "5A A5 90 00"));
	CHECK(script_done(&fake.script));
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_crc_card_refused)
{
	CHECK_EQ(ifdh_ready("/dev/cmm0", "3B 80 81 71 FE 45 01 CA",
			    SCARD_PROTOCOL_T1), IFD_PROTOCOL_NOT_SUPPORTED);
	CHECK(strstr(log_text, "CRC in T=1; only LRC is supported"));
	CHECK_EQ(fake.pps_calls, 0);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_pps_failure)
{
	/* fake_setup() clears pps_rc: the failure comes with the first PPS */
	CHECK_EQ(ifdh_ready("/dev/cmm0", DEFAULT_ATR, 0), IFD_SUCCESS);
	fake.pps_rc = -EIO;
	CHECK_EQ(IFDHSetProtocolParameters(0, SCARD_PROTOCOL_T1, 0, 0, 0, 0),
		 IFD_ERROR_PTS_FAILURE);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_pc_card_pulled_closes_at_once)
{
	unsigned char rsp[300];
	int ioctls;
	DWORD len;

	ifdh_setup(DEFAULT_ATR);
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmm0:cm4000"), IFD_SUCCESS);
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_PRESENT);
	fake.gone = true;
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(fake.closes, 1);
	CHECK_EQ(fake.open_fds, 0);
	CHECK(strstr(log_text, "reader gone, device closed"));
	/* no node: one failed open() a poll, nothing else */
	fake.node = false;
	fake.gone = false;
	ioctls = fake.ioctls;
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(transmit("00 A4 00 00", rsp, &len), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(fake.ioctls, ioctls);
	/* the PC Card is back */
	fake.node = true;
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_PRESENT);
	CHECK_EQ(fake.opens, 2);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_smart_card_pulled)
{
	unsigned char atr[33];
	DWORD len;

	CHECK_EQ(ifdh_ready("/dev/cmm0", DEFAULT_ATR, 0), IFD_SUCCESS);
	fake.card = false;
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(fake.closes, 0);
	CHECK_EQ(power(IFD_POWER_UP, atr, &len), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(len, 0);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_reader_absent_at_start)
{
	ifdh_setup(DEFAULT_ATR);
	fake.node = false;
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmx0:cm4040"), IFD_SUCCESS);
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_NOT_PRESENT);
	fake.node = true;
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_PRESENT);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_cm4040_ccid_t1)
{
	unsigned char atr[33];
	DWORD len;

	ifdh_setup(DEFAULT_ATR);
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmx0:cm4040"), IFD_SUCCESS);
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_PRESENT);		/* seq 0 */
	CHECK_EQ(power(IFD_POWER_UP, atr, &len), IFD_SUCCESS);	/* seq 1 */
	CHECK(bytes_are(fake.power_on, 10, "62 00000000 00 01 00 0000"));
	CHECK(bytes_are(atr, len, DEFAULT_ATR));
	CHECK_EQ(IFDHSetProtocolParameters(0, SCARD_PROTOCOL_T1, 0, 0, 0, 0),
		 IFD_SUCCESS);
	/* T=1, Fi/Di 13, LRC direct, BWI 4 CWI 5, IFSC 32 */
	CHECK(bytes_are(fake.set_params, fake.set_params_len,
			"61 07000000 00 02 01 0000 13 10 00 45 00 20 00"));
	expect(&fake.script, "00 C1 01 FE L", "00 E1 01 FE L");
	expect(&fake.script, "00 00 05 00 84 00 00 02 L", "00 C3 01 02 L");
	expect(&fake.script, "00 E3 01 02 L", "00 00 04 5A A5 90 00 L");
	CHECK(ifdh_answers("00 84 00 00 02", "5A A5 90 00"));
	CHECK(script_done(&fake.script));
	/* the block after S(WTX response) went with bBWI 2 */
	CHECK(bytes_are(fake.xfr, 10, "6F 05000000 00 05 02 0000"));
	CHECK(bytes_are(fake.xfr + 10, fake.xfr_len - 10, "00 E3 01 02 L"));
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_cm4040_t0_tpdu)
{
	CHECK_EQ(ifdh_ready("/dev/cmx0", DEFAULT_ATR, SCARD_PROTOCOL_T0),
		 IFD_SUCCESS);
	CHECK(bytes_are(fake.set_params, fake.set_params_len,
			"61 05000000 00 01 00 0000 13 00 00 0A 00"));
	expect(&fake.script, "00 A4 00 00 00", "90 00");
	expect(&fake.script, "00 A4 02 00 02 01 01", "61 1C");
	CHECK(ifdh_answers("00 A4 00 00", "90 00"));
	CHECK(ifdh_answers("00 A4 02 00 02 01 01 00", "61 1C"));
	CHECK(script_done(&fake.script));
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_cm4040_apdu_level)
{
	CHECK_EQ(ifdh_ready("/dev/cmx0:cm4040,apdu", DEFAULT_ATR,
			    SCARD_PROTOCOL_T1), IFD_SUCCESS);
	/* the reader gets the APDU whole, Le and all */
	expect(&fake.script, "00 A4 02 00 02 01 01 00", "62 03 82 01 01 90 00");
	CHECK(ifdh_answers("00 A4 02 00 02 01 01 00", "62 03 82 01 01 90 00"));
	CHECK(script_done(&fake.script));
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_cm4040_card_absent)
{
	unsigned char atr[33];
	DWORD len;

	ifdh_setup(DEFAULT_ATR);
	fake.card = false;
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmx0"), IFD_SUCCESS);
	CHECK_EQ(IFDHICCPresence(0), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(power(IFD_POWER_UP, atr, &len), IFD_ICC_NOT_PRESENT);
	CHECK_EQ(IFDHCloseChannel(0), IFD_SUCCESS);
}

TEST(ifdh_device_names)
{
	ifdh_setup(DEFAULT_ATR);
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/ttyS0"), IFD_COMMUNICATION_ERROR);
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmm0:apdu"),
		 IFD_COMMUNICATION_ERROR);
	CHECK_EQ(IFDHCreateChannelByName(0, "/dev/cmm0:fast"),
		 IFD_COMMUNICATION_ERROR);
	CHECK_EQ(IFDHCreateChannelByName(0x10000, "/dev/cmx1:cm4040,tpdu"),
		 IFD_SUCCESS);
	CHECK_EQ(IFDHCreateChannelByName(0x10000, "/dev/cmx1"),
		 IFD_COMMUNICATION_ERROR);	/* that Lun is taken */
	CHECK_EQ(IFDHCloseChannel(0x10000), IFD_SUCCESS);
	CHECK_EQ(IFDHCloseChannel(0), IFD_COMMUNICATION_ERROR);
}

int main(int argc, char **argv)
{
	int i, j, ran = 0, bad = 0;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		for (i = 0; i < ntests; i++)
			puts(tests[i].name);
		return 0;
	}
	for (i = 0; i < ntests; i++) {
		for (j = 1; j < argc && strcmp(argv[j], tests[i].name); j++)
			;
		if (argc > 1 && j == argc)
			continue;
		failed = 0;
		tests[i].fn();
		printf("%s %s\n", failed ? "FAIL" : "ok", tests[i].name);
		bad += failed;
		ran++;
	}
	printf("%d tests, %d failed\n", ran, bad);
	return bad || !ran ? 1 : 0;
}
