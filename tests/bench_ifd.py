#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Benchmark (a report, not a test): the APDU round trip through pcscd and
our pcsc-lite driver against the direct device, in one boot of bookworm's
6.12 with our cm4000_cs/cm4040_cs and both emulated readers in wire-timing
mode (replies come when the modelled card would have sent them).

    /usr/bin/python3 tests/bench_ifd.py      (PCL_BENCH_ROUNDS=9)

Per round and reader, T=1 ECHO APDUs of 64 bytes (case 4): first direct,
sctool's bench on the node; then through pcscd, tests/pcscclient's
bench (SCardTransmit).  Each is run with 2 and 12 APDUs after a warm-up
run, and the difference cancels the session's cost.  Printed: the
medians per APDU of the round trip both ways, of the modelled wire time
and of the characters on the wire (the same both ways: the handler sends
no block sctool does not), and the overhead (pcscd minus direct) as a
share of the wire time.
The goal of issue 16: under 5 %.
"""

import os
import re
import statistics
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
sys.path.insert(0, os.path.join(TOP, "vm", "guest"))

from pclguest import Guest  # noqa: E402
from screaders import (ATRS, READERS, Rig, build_modules, guest_tools,  # noqa: E402
                       reader_args)
from pcscscenarios import READER_NAMES, build_ifd  # noqa: E402
from test_ifd_guest import DRIVERS, LIBPATH, pcsc_userland  # noqa: E402

ROUNDS = int(os.environ.get("PCL_BENCH_ROUNDS", "9"))
SHORT, LONG = 2, 12
SIZE = 64
MODELS = sorted(READERS)


def timed(rig, model, cmd):
    """(seconds the program reports, modelled wire ns, characters on
    the wire) of one run."""
    ns, chars = rig.prop(model, "wire-ns"), rig.prop(model, "wire-chars")
    out, rc = rig.g.run(cmd, timeout=120)
    if rc != 0:
        sys.exit("%s failed:\n%s" % (cmd, out))
    return (float(re.search(r"seconds=([0-9.]+)", out).group(1)),
            rig.prop(model, "wire-ns") - ns, rig.prop(model, "wire-chars") - chars)


def per_apdu(rig, model, cmd_fmt):
    """(round trip s, wire s, wire characters) per APDU: LONG minus SHORT
    APDUs.  Both runs must start alike: pcscd keeps a card powered
    between two clients, so a warm-up run powers it up, runs the PPS and
    the T=1 IFSD negotiation first (else the first run alone pays them
    and the difference undercounts)."""
    timed(rig, model, cmd_fmt % 1)
    short = timed(rig, model, cmd_fmt % SHORT)
    long_ = timed(rig, model, cmd_fmt % LONG)
    n = LONG - SHORT
    return tuple((b - a) / n for a, b in zip(short, long_))


def main():
    work = os.path.join(os.environ.get("TMPDIR", "/tmp"), "pcl-bench-ifd")
    os.makedirs(os.path.join(work, "ko"), exist_ok=True)
    os.makedirs(os.path.join(work, "ifd"), exist_ok=True)
    mods = build_modules("bookworm-6.12", os.path.join(work, "ko"))
    built = build_ifd(os.path.join(work, "ifd"))
    files = pcsc_userland(built["libifd-cm40xx.so"])
    files.update(guest_tools())
    files["/pcl/bin/pcscclient"] = built["pcscclient"]
    keys = ("direct", "pcscd", "wire", "wire-pcscd", "chars", "chars-pcscd")
    results = {m: {k: [] for k in keys} for m in MODELS}
    with Guest("pcsc-bench", kernel="6.12", modules=["i82092"], load=["i82092"],
               extra_ko=[os.path.join(mods, d + ".ko") for d in DRIVERS],
               files=files, memory=768, append="tsc=unstable",
               qemu_args=reader_args(MODELS, wire_timing=True)) as g:
        g.check(" && ".join("pcl-insmod %s" % d for d in DRIVERS))
        rig = Rig(g)
        for m in MODELS:
            assert g.wait_for("[ -c %s ]" % READERS[m][2], 60)
            rig.card(m, ATRS["dual"])
        for r in range(ROUNDS):
            for m in MODELS:
                # -P: at TA1's rate, as the handler's PPS asks for
                direct, wire, chars = per_apdu(rig, m, "sctool -t 100 -P -p 1 %s bench %%d %d"
                                               % (READERS[m][2], SIZE))
                results[m]["direct"].append(direct)
                results[m]["wire"].append(wire / 1e9)
                results[m]["chars"].append(chars)
            g.check("mkdir -p /run/pcscd; (%s pcscd --foreground >/dev/null 2>&1 "
                    "</dev/null &); pcl-wait 30 '[ -S /run/pcscd/pcscd.comm ]'"
                    % LIBPATH, timeout=60)
            for m in MODELS:
                via, wire, chars = per_apdu(rig, m, "%s pcscclient '%s' bench %%d %d"
                                            % (LIBPATH, READER_NAMES[m], SIZE))
                results[m]["pcscd"].append(via)
                results[m]["wire-pcscd"].append(wire / 1e9)
                results[m]["chars-pcscd"].append(chars)
            g.check("kill $(pidof pcscd); pcl-wait 10 '! pidof pcscd >/dev/null'")
            print("round %d of %d done" % (r + 1, ROUNDS), flush=True)
    print("\nper T=1 ECHO APDU of %d bytes, medians of %d rounds (ms)" % (SIZE, ROUNDS))
    print("%-8s %9s %9s %11s %9s %10s %9s %6s %6s" % (
        "reader", "wire", "direct", "wire pcscd", "pcscd", "overhead", "of wire",
        "chars", "pcscd"))
    for m in MODELS:
        w, d, wp, p, c, cp = (statistics.median(results[m][k]) for k in
                              ("wire", "direct", "wire-pcscd", "pcscd", "chars", "chars-pcscd"))
        print("%-8s %9.2f %9.2f %11.2f %9.2f %10.2f %8.1f%% %6.1f %6.1f"
              % (m, w * 1e3, d * 1e3, wp * 1e3, p * 1e3, (p - d) * 1e3,
                 100 * (p - d) / w, c, cp))
    print("(chars: characters on the wire per APDU, direct and through pcscd: "
          "the same when the handler sends what sctool sends)")


if __name__ == "__main__":
    main()
