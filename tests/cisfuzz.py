# SPDX-License-Identifier: GPL-2.0-only
"""Mutated CIS images for CIS fuzzing (tests/test_fuzz_cards.py).

A card's real CIS (the tuple chain, as the kernel's socket attribute
"cis" gives it) is the seed; mutate(cis, rng) returns one image that
breaks it in one of the ways listed in MUTATIONS, and says which.  The
emulated cards take an image through their "cis" property
(vm/qemu/hw/pcmcia/pcmcia-slot.h); image_for() pads it with 0xff up to
the card's configuration registers, so that nothing of the card's own
CIS shows behind it.

Everything comes from the random.Random given, so a seed replays a run.
"""

import struct

# tuple codes (PC Card Standard, Metaformat Specification)
NULL, LONGLINK_MFC, LONGLINK_A, LONGLINK_C, LINKTARGET, NO_LINK = 0x00, 0x06, 0x11, 0x12, 0x13, 0x14
VERS_1, CONFIG, CFTABLE_ENTRY, MANFID, FUNCID, END = 0x15, 0x1a, 0x1b, 0x20, 0x21, 0xff


def parse(cis):
    """The tuples of a chain, [(code, body)], up to END or the end of
    the bytes (a truncated last tuple keeps what there is)."""
    tuples, i = [], 0
    while i < len(cis):
        code = cis[i]
        if code == END:
            break
        if code == NULL:
            tuples.append((code, b""))
            i += 1
            continue
        if i + 1 >= len(cis):
            break
        link = cis[i + 1]
        tuples.append((code, bytes(cis[i + 2:i + 2 + link])))
        i += 2 + link
    return tuples


def build(tuples, end=True):
    """The chain of tuples (bodies longer than 254 bytes are cut)."""
    out = bytearray()
    for code, body in tuples:
        if code == NULL:
            out.append(NULL)
        else:
            body = bytes(body[:254])
            out += bytes((code, len(body))) + body
    if end:
        out.append(END)
    return bytes(out)


def config_base(cis):
    """The attribute address of the card's configuration registers
    (TPCC_RADR of its CONFIG tuple), or None."""
    for code, body in parse(cis):
        if code == CONFIG and len(body) >= 2:
            size = (body[0] & 3) + 1
            radr = body[2:2 + size]
            if len(radr) == size:
                return int.from_bytes(radr, "little")
    return None


def image_for(image, cis):
    """The image, padded with 0xff up to where the card's configuration
    registers start (only the image reads below them)."""
    base = config_base(cis) or 0x200
    return image + b"\xff" * max(0, base // 2 - len(image))


# -- the mutations: each (rng, tuples, cis) -> image bytes

def bit_flips(rng, tuples, cis):
    data = bytearray(cis)
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(len(data))
        data[pos] ^= 1 << rng.randrange(8)
    return bytes(data)


def truncated(rng, tuples, cis):
    """The chain stops in the middle of a tuple, without END; what
    follows reads as a floating bus (0xff)."""
    return cis[:rng.randrange(1, max(2, len(cis) - 1))]


def oversized(rng, tuples, cis):
    """A tuple claims more bytes than it has (swallowing the next ones),
    or a body grows to the maximum with random bytes."""
    i = rng.randrange(len(tuples))
    code, body = tuples[i]
    if rng.random() < 0.5:
        out = build(tuples[:i])[:-1]
        rest = build(tuples[i + 1:])
        return out + bytes((code or VERS_1, rng.randint(len(body) + 1, 255))) + body + rest
    body = bytes(body) + bytes(rng.randrange(256) for _ in range(254 - len(body)))
    return build(tuples[:i] + [(code or VERS_1, body)] + tuples[i + 1:])


def bad_link(rng, tuples, cis):
    """A long link, or a multi-function link, to nowhere useful: past
    the card's memory, an odd address, an address without a LINKTARGET."""
    target = rng.choice((0xffffffff, 0x03fffffe, 0x1, 0x7f, 2 * len(cis) + 2,
                         rng.randrange(1 << 26)))
    if rng.random() < 0.7:
        link = (rng.choice((LONGLINK_A, LONGLINK_C)), struct.pack("<I", target))
    else:
        count = rng.randint(0, 255)
        body = bytes((count,)) + b"".join(
            bytes((rng.randrange(2),)) + struct.pack("<I", rng.choice((target, 0)))
            for _ in range(min(count, 50)))
        link = (LONGLINK_MFC, body)
    pos = rng.randrange(len(tuples) + 1)
    return build(tuples[:pos] + [link] + tuples[pos:])


def link_loop(rng, tuples, cis):
    """LONGLINK_A chains that come back: to the start of the primary
    chain, or to a LINKTARGET that links to itself."""
    primary = build(tuples, end=False)
    if rng.random() < 0.5:
        return build(tuples + [(LONGLINK_A, struct.pack("<I", 0))])
    # the primary chain's link goes to a second chain right after it
    link_len = 6
    second = 2 * (len(primary) + link_len + 1)       # past the primary's END
    chain2 = build([(LINKTARGET, b"CIS"), (LONGLINK_A, struct.pack("<I", second))])
    return primary + build([(LONGLINK_A, struct.pack("<I", second))]) + chain2


def missing_config(rng, tuples, cis):
    """No CONFIG tuple, no CFTABLE_ENTRY, or neither."""
    drop = rng.choice(((CONFIG,), (CFTABLE_ENTRY,), (CONFIG, CFTABLE_ENTRY)))
    return build([t for t in tuples if t[0] not in drop])


def absurd_entry(rng):
    """A CFTABLE_ENTRY asking for what no socket gives: 16 I/O ranges
    at the top of the space, ranges longer than the space, every or no
    IRQ, a memory window of 4 GB."""
    index = rng.randrange(0x40) | (0x40 if rng.random() < 0.5 else 0)
    body = bytearray((index | 0x80, 0x41))     # interface byte: I/O card
    features = 0x08 | 0x10 | (0x60 if rng.random() < 0.5 else 0)   # io, irq[, mem]
    body.append(features)
    # I/O: 16 address lines, ranges with 4-byte addresses and lengths
    nranges = rng.randint(1, 16)
    body.append(0x80 | 0x10)
    body.append((nranges - 1) | 0x30 | 0xc0)
    for _ in range(nranges):
        body += struct.pack("<I", rng.choice((0xfffffff0, 0xffff, 0, rng.randrange(1 << 32))))
        body += struct.pack("<I", rng.choice((0xffffffff, 0xffff, 0, rng.randrange(1 << 32))))
    # IRQ: a mask of every line, of none, or a single absurd one
    kind = rng.randrange(3)
    if kind == 0:
        body += bytes((0x10 | 0x20, 0xff, 0xff))
    elif kind == 1:
        body += bytes((0x10, 0x00, 0x00))
    else:
        body.append(rng.choice((0x0f, 0x00, 0xe2)))
    if features & 0x60:
        body += bytes((0x7f,)) + struct.pack("<HHH", 0xffff, 0xffff, 0xffff) * 8
    return (CFTABLE_ENTRY, bytes(body))


def absurd_requests(rng, tuples, cis):
    """The card's configuration entries replaced by absurd ones."""
    out, done = [], False
    for t in tuples:
        if t[0] == CFTABLE_ENTRY:
            if not done:
                out += [absurd_entry(rng) for _ in range(rng.randint(1, 3))]
                done = True
            continue
        out.append(t)
    if not done:
        out.append(absurd_entry(rng))
    return build(out)


def absurd_config(rng, tuples, cis):
    """A CONFIG tuple with registers at an absurd address or with a
    huge register mask and last index."""
    body = bytes((0x03 | 0x3c, rng.randrange(256))) + struct.pack(
        "<I", rng.choice((0xfffffffe, 0x03ffffff, 0x1, 0))) + bytes(rng.randrange(256) for _ in range(16))
    return build([(CONFIG, body) if t[0] == CONFIG else t for t in tuples])


def bad_strings(rng, tuples, cis):
    """Identity tuples cut short or without terminators: VERS_1 of
    unterminated or very long strings, MANFID and FUNCID too short."""
    out = []
    for code, body in tuples:
        if code == VERS_1:
            body = rng.choice((b"\x04\x01" + b"A" * 252,
                               b"\x04\x01" + bytes(rng.randrange(1, 256) for _ in range(40)),
                               b"\x04", b"", b"\x04\x01\x00\x00\x00\x00\x00"))
        elif code in (MANFID, FUNCID):
            body = body[:rng.randrange(len(body) + 1)]
        out.append((code, body))
    return build(out)


def shuffled(rng, tuples, cis):
    """The same tuples, some repeated, in another order, with random
    tuples among them."""
    out = list(tuples)
    for _ in range(rng.randint(0, 4)):
        out.append(rng.choice(tuples))
    for _ in range(rng.randint(0, 4)):
        out.append((rng.randrange(1, 0xff), bytes(rng.randrange(256)
                                                   for _ in range(rng.randrange(32)))))
    rng.shuffle(out)
    return build(out)


MUTATIONS = {
    "bit-flips": bit_flips,
    "truncated": truncated,
    "oversized-tuple": oversized,
    "bad-link": bad_link,
    "link-loop": link_loop,
    "missing-config": missing_config,
    "absurd-io-irq": absurd_requests,
    "absurd-config": absurd_config,
    "bad-strings": bad_strings,
    "shuffled": shuffled,
}


def mutate(cis, rng, kind=None):
    """(kind, image): one mutation of the card's CIS, padded for the
    card (image_for()).  kind: one of MUTATIONS, else a random one."""
    kind = kind or rng.choice(sorted(MUTATIONS))
    tuples = parse(cis)
    assert tuples, "a CIS without tuples"
    image = MUTATIONS[kind](rng, tuples, bytes(cis))
    return kind, image_for(image, cis)
