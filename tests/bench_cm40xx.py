#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Benchmark (a report, not a test): upstream's cm4000_cs and cm4040_cs
against ours, in one boot of bookworm's 6.1 with both emulated readers in
wire-timing mode (replies come when the modelled card would have sent
them: 9600 bps, 12 ETU a character).

    /usr/bin/python3 tests/bench_cm40xx.py      (PCL_BENCH_ROUNDS=3)

Per round, reader and driver (the drivers alternate which goes first):
load the driver, then run sctool's ECHO bench (T=0, 64 bytes: a case 4
APDU, i.e. two TPDUs and about 0.18 s on the wire) twice, with 2 and
62 APDUs; the differences between the two runs cancel the session's
cost (activation, PPS).  (60 APDUs of difference, not fewer: the
session's CPU time varies from run to run by several ms on a busy host,
and the interrupt time comes in 10 ms ticks.)  Per APDU that gives
  - the round trip: sctool's own clock;
  - the CPU time: the guest's busy time around the tool (all of it: the
    tool, the driver's polling in process context, its work items, and
    timers: /proc/schedstat's task time plus /proc/stat's interrupt and
    softirq ticks);
  - the wake-ups: how often the guest's only CPU went idle and had to be
    woken again (/proc/schedstat's sched_goidle, with kernel.sched_schedstats
    on), whoever woke it: the driver's timers and work items, the tool, the
    interrupts.  A driver that sleeps until the reply can be there costs a
    few; one that polls costs one per poll;
  - the host CPU time of the QEMU process (all its threads, from their
    schedstat): the emulation of the guest's work, which on a busy host
    does not grow with the time the host takes the CPU away from the
    guest, as the guest's own figure does;
  - the wire time: the model's wire-ns counter.
Prints the medians, ours/upstream, and each driver's round trip against
the wire time.  Upstream's cm4040_cs is known to lose replies with wire
timing on (see tests/test_upstream_readers.py): its failed runs are
counted and retried.  Under TCG the CPU times measure the emulation as
much as the drivers: compare the ratios, not the absolute values.
"""

import os
import re
import statistics
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
sys.path.insert(0, os.path.join(TOP, "vm", "guest"))

import pclkernels as pk  # noqa: E402
from pclguest import Guest  # noqa: E402
from screaders import READERS, Rig, guest_tools, reader_args  # noqa: E402

ROUNDS = int(os.environ.get("PCL_BENCH_ROUNDS", "3"))
SHORT, LONG = 2, 62
SIZE = 64
RETRIES = 5
MODELS = sorted(READERS)


def build_ours():
    """Our modules for Debian's 6.1 (which ships its own: PCL_ALL_DRIVERS)."""
    return pk.our_modules("bookworm-6.1", [READERS[m][3] for m in MODELS])


def load(rig, which):
    """Bind every reader to upstream's or our driver."""
    g = rig.g
    for m in MODELS:
        _, sock, node, driver = READERS[m]
        if g.run("[ -d /sys/module/%s ]" % driver)[1] == 0:
            g.run("echo %d.0 > /sys/bus/pcmcia/drivers/%s/unbind" % (sock, driver))
            g.check("rmmod %s" % driver)
        g.check(("modprobe %s" if which == "upstream" else "pcl-insmod %s") % driver)
        taint = g.check("cat /sys/module/%s/taint" % driver)
        assert ("O" in taint) == (which == "ours"), "wrong %s loaded" % driver
        assert g.wait_for("[ -c %s ]" % node, 60), "no %s" % node


# The guest's CPU time so far, in ns: what tasks ran (/proc/schedstat's
# rq_cpu_time, the idle task excluded) plus interrupt and softirq time
# (/proc/stat's ticks, 10 ms each: timers that fire while idle); then its
# idle entries so far (sched_goidle: each one ends in a wake-up).
CPU_NS = ("awk '/^cpu0 /{printf \"%.0f \", $8}' /proc/schedstat; "
          "awk '/^cpu /{printf \"%.0f \", ($7+$8)*10000000}' /proc/stat; "
          "awk '/^cpu0 /{printf \"%.0f\", $5}' /proc/schedstat")


def qemu_cpu_ns(g):
    """The QEMU process's CPU time so far, all threads, in ns."""
    total = 0
    task = "/proc/%d/task" % g.proc.pid
    for tid in os.listdir(task):
        try:
            with open(os.path.join(task, tid, "schedstat")) as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass        # a thread that has just ended
    return total


def run_bench(rig, model, count):
    """(seconds, CPU s, wire s, wake-ups, host CPU s) of one sctool bench
    run, or None.  CPU time and wake-ups are taken around the tool inside
    the guest, console excluded; the host's CPU time around the command."""
    g = rig.g
    wire0 = rig.prop(model, "wire-ns")
    host0 = qemu_cpu_ns(g)
    out, rc = g.run("c0=$(%s); sctool -t 120 -p 0 %s bench %d %d; rc=$?; c1=$(%s); "
                    "echo CPU $c0 $c1; [ $rc -eq 0 ]" % (CPU_NS, READERS[model][2], count,
                                                   SIZE, CPU_NS), timeout=180)
    host1 = qemu_cpu_ns(g)
    wire1 = rig.prop(model, "wire-ns")
    if rc != 0:
        return None
    secs = float(re.search(r"seconds=([0-9.]+)", out).group(1))
    c = [int(x) for x in re.search(r"^CPU" + r" (\d+)" * 6 + "$", out, re.M).groups()]
    cpu_ns = (c[3] - c[0]) + (c[4] - c[1])
    return secs, cpu_ns / 1e9, (wire1 - wire0) / 1e9, c[5] - c[2], (host1 - host0) / 1e9


def per_apdu(rig, model, failures):
    """Round trip, CPU and wire seconds, wake-ups and host CPU seconds per
    APDU, from a SHORT and a LONG run; failed runs are retried and
    counted."""
    runs = {}
    for count in (SHORT, LONG):
        for _ in range(RETRIES):
            r = run_bench(rig, model, count)
            if r:
                runs[count] = r
                break
            failures[model] += 1
        else:
            return None
    n = LONG - SHORT
    return tuple((runs[LONG][i] - runs[SHORT][i]) / n for i in range(5))


def main():
    ours_ko = build_ours()
    results = {(w, m): [] for w in ("upstream", "ours") for m in MODELS}
    failures = {w: {m: 0 for m in MODELS} for w in ("upstream", "ours")}
    drivers = [READERS[m][3] for m in MODELS]
    with Guest("cm40xx-bench", kernel="6.1", modules=drivers + ["i82092"],
               load=["i82092"], extra_ko=ours_ko, files=guest_tools(),
               qemu_args=reader_args(MODELS, wire_timing=True),
               autoload=False) as g:
        rig = Rig(g)
        g.check("echo 1 > /proc/sys/kernel/sched_schedstats")
        for m in MODELS:
            rig.card(m)
        for r in range(ROUNDS):
            order = ("upstream", "ours") if r % 2 == 0 else ("ours", "upstream")
            for which in order:
                load(rig, which)
                for m in MODELS:
                    res = per_apdu(rig, m, failures[which])
                    if res:
                        results[(which, m)].append(res)
                        print("round %d %-8s %s: %.1f ms round trip, %.2f ms CPU, "
                              "%.1f wake-ups, %.2f ms QEMU CPU, %.1f ms on the wire"
                              % (r + 1, which, m, res[0] * 1e3, res[1] * 1e3, res[3],
                                 res[4] * 1e3, res[2] * 1e3), flush=True)
                    else:
                        print("round %d %-8s %s: no result" % (r + 1, which, m),
                              flush=True)
        problems = g.kernel_log_problems()

    print()
    print("cm4000/cm4040 on bookworm 6.1, TCG, wire timing on, T=0 ECHO of %d "
          "bytes, %d rounds (medians per APDU)" % (SIZE, ROUNDS))
    print("wake-ups: times the guest's CPU went idle and was woken again "
          "(schedstat sched_goidle), whatever woke it; QEMU CPU time: the "
          "host's, for the emulation")
    print("%-8s %-22s %10s %10s %14s" % ("", "", "upstream", "ours", "ours/upstream"))
    for m in MODELS:
        med = {}
        for w in ("upstream", "ours"):
            rows = results[(w, m)]
            med[w] = [statistics.median(x[i] for x in rows) for i in range(5)] \
                if rows else None
        for i, label, scale in ((0, "round trip (ms)", 1e3), (1, "CPU time (ms)", 1e3),
                                (3, "wake-ups", 1), (4, "QEMU CPU time (ms)", 1e3)):
            up = med["upstream"][i] * scale if med["upstream"] else float("nan")
            ours = med["ours"][i] * scale if med["ours"] else float("nan")
            print("%-8s %-22s %10.2f %10.2f %14.2f" % (m, label, up, ours,
                                                       ours / up if up else float("nan")))
        for w in ("upstream", "ours"):
            if med[w]:
                print("%-8s %-22s %s: round trip / wire time = %.3f (wire %.1f ms)"
                      % (m, "", w, med[w][0] / med[w][2], med[w][2] * 1e3))
        print("%-8s %-22s failed runs: upstream %d, ours %d"
              % (m, "", failures["upstream"][m], failures["ours"][m]))
    if problems:
        print("kernel log not clean:\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
