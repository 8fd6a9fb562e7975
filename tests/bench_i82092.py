#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Benchmark (a report, not a test): upstream's i82092 against ours, in one
boot of bookworm's 6.1 on the same emulated 82092AA and CompactFlash card.

    /usr/bin/python3 tests/bench_i82092.py      (PCL_BENCH_ROUNDS=5)

Per round and driver: load the bridge driver, insert the card, and take the
time from insertion to the disk being attached (kernel timestamps: a marker
written to /dev/kmsg just before the QMP device_add, then sd's "Attached"
line); read the whole card with the page cache dropped; eject; unload.  The
drivers alternate which goes first.  Prints the medians and ours/upstream.
Under TCG the numbers measure the emulation as much as the drivers: compare
the ratio, not the absolute values.
"""

import os
import re
import statistics
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
sys.path.insert(0, os.path.join(TOP, "vm", "guest"))

from pclguest import Guest, make_image  # noqa: E402
from cfrig import BRIDGE, PRELOAD  # noqa: E402
from test_i82092 import MODULE, build_module  # noqa: E402

ROUNDS = int(os.environ.get("PCL_BENCH_ROUNDS", "5"))
IMAGE_SIZE = 16 << 20
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\]\s+(.*)$")


def load(g, which):
    if which == "upstream":
        g.check("modprobe %s" % MODULE)
    else:
        g.check("pcl-insmod %s" % MODULE)
    taint = g.check("cat /sys/module/%s/taint" % MODULE)
    assert ("O" in taint) == (which == "ours"), "wrong %s loaded" % MODULE
    g.check("pcl-socket-startup")


def insert_latency(g):
    """Seconds from just before the card's insertion to its disk."""
    g.check("echo pcl-bench: insert >/dev/kmsg")
    g.device_add("pcmcia-cf", id="cf0", bus="%s.0" % BRIDGE, drive="disk0")
    assert g.wait_for("[ -b /dev/sda ] && dmesg | grep -q 'sda.*Attached'", 60), \
        "no disk after insertion"
    start = end = None
    for line in g.dmesg().splitlines():
        m = STAMP.match(line)
        if not m:
            continue
        if m.group(2).startswith("pcl-bench: insert"):
            start, end = float(m.group(1)), None
        elif start is not None and end is None and "Attached SCSI" in m.group(2):
            end = float(m.group(1))
    assert start is not None and end is not None, "markers missing in dmesg"
    return end - start


def read_rate(g):
    """MB/s reading the whole card through the page cache, cold."""
    g.check("sync; echo 3 >/proc/sys/vm/drop_caches")
    out = g.check("read s _ </proc/uptime; dd if=/dev/sda of=/dev/null bs=64k "
                  "2>/dev/null; read e _ </proc/uptime; echo $s $e", timeout=600)
    start, end = (float(x) for x in out.split())
    return IMAGE_SIZE / (1 << 20) / max(end - start, 0.01)


def eject(g):
    # no STOP UNIT to the vanished disk: that costs libata timeouts, not us
    g.check("for f in /sys/block/sda/device/scsi_disk/*/manage_*start_stop; do "
            "[ ! -w $f ] || echo 0 > $f; done")
    g.device_del("cf0")
    assert g.wait_for("[ ! -e /sys/class/pcmcia_socket/pcmcia_socket0/device/0.0 ]",
                      180), "the card is still there"


def main():
    ko = build_module("bookworm-6.1")
    tmp = tempfile.mkdtemp(prefix="pcl-bench-")
    image = os.path.join(tmp, "card.img")
    make_image(image, IMAGE_SIZE, seed=0xbe4c)
    args = ["-device", "i82092,id=%s" % BRIDGE,
            "-blockdev", "driver=raw,node-name=disk0,file.driver=file,"
            "file.filename=%s" % image]
    results = {w: {"latency": [], "rate": []} for w in ("upstream", "ours")}
    with Guest("i82092-bench", kernel="6.1", modules=PRELOAD + [MODULE],
               load=PRELOAD, extra_ko=[ko], qemu_args=args) as g:
        for r in range(ROUNDS):
            order = ("upstream", "ours") if r % 2 == 0 else ("ours", "upstream")
            for which in order:
                load(g, which)
                results[which]["latency"].append(insert_latency(g))
                results[which]["rate"].append(read_rate(g))
                eject(g)
                g.check("rmmod %s" % MODULE)
                print("round %d %-8s insert->disk %.3f s, read %.2f MB/s" % (
                    r + 1, which, results[which]["latency"][-1],
                    results[which]["rate"][-1]), flush=True)
        problems = g.kernel_log_problems()

    up = {k: statistics.median(v) for k, v in results["upstream"].items()}
    ours = {k: statistics.median(v) for k, v in results["ours"].items()}
    print()
    print("i82092 on bookworm 6.1, TCG, %d rounds (medians)" % ROUNDS)
    print("%-28s %10s %10s %14s" % ("", "upstream", "ours", "ours/upstream"))
    print("%-28s %10.3f %10.3f %14.2f" % ("card insert -> disk (s)", up["latency"],
                                          ours["latency"], ours["latency"] / up["latency"]))
    print("%-28s %10.2f %10.2f %14.2f" % ("CF read (MB/s)", up["rate"], ours["rate"],
                                          ours["rate"] / up["rate"]))
    if problems:
        print("kernel log not clean:\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
