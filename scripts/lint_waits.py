#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""make lint's "waits" checker: rules of this project that the kernel's
checkers do not have (scripts/lint.sh runs it over src/).

busy-wait  No code of ours busy-waits 100 us or more: no mdelay(), no
           udelay()/ndelay() of 100 us or more, and every polling loop
           that does not sleep (a loop that delays, spins with
           cpu_relax() or tests a register in its condition) has a bound
           this checker can read, a counter against a constant, whose
           worst case stays under 100 us.  Each delay counts at its
           length, each port or MMIO access at 1 us (an ISA bus cycle).
           Where sleeping is allowed, sleep (usleep_range, msleep).
           What it cannot see: a loop that polls through a helper
           function of ours without delaying itself (only delay calls,
           cpu_relax() and the kernel's port/MMIO accessors in the loop
           are recognised), and loops that move data rather than wait
           (a bit-banged MII frame, a FIFO copy), which are not waits.
debug-level
           No debug message (pr_debug, dev_dbg, netdev_dbg, ...) carries a
           KERN_* level: it would print as text in the message.

usage: lint_waits.py ROOT FILE...   (paths relative to ROOT); prints one
"FILE:LINE: RULE: message" a finding, exits 1 if there is any.
"""

import os
import re
import sys

LIMIT_US = 100
# an access to a card register: a bus cycle (ISA: about 1 us)
ACCESS_US = 1.0
READS = re.compile(r"\b(inb|inw|inl|inb_p|inw_p|ioread8|ioread16|ioread32|"
                   r"readb|readw|readl)\s*\(")
# every access costs a bus cycle, reads and writes
ACCESSES = re.compile(r"\b(in|out)[bwl](_p)?\s*\(|\b(ioread|iowrite)(8|16|32)\s*\(|"
                      r"\b(read|write)[bwl]\s*\(")
DELAYS = {"udelay": 1.0, "ndelay": 0.001}
SLEEPS = re.compile(r"\b(msleep|msleep_interruptible|usleep_range|fsleep|ssleep|"
                    r"schedule|schedule_timeout\w*|wait_event\w*|"
                    r"wait_for_completion\w*|read_poll_timeout|readx_poll_timeout|"
                    r"cond_resched)\s*\(")
DEBUG_PRINTS = re.compile(r"\b(pr_debug|pr_devel|pr_debug_ratelimited|dev_dbg|"
                          r"dev_dbg_ratelimited|dev_vdbg|netdev_dbg|netif_dbg|"
                          r"print_hex_dump_debug|dynamic_pr_debug|dynamic_dev_dbg)\s*\(")
# kernel constants our code may use in bounds
KNOWN = {"USEC_PER_MSEC": 1000, "NSEC_PER_USEC": 1000, "HZ": 250}


def blank(text, strings):
    """Comments (and, if strings, string and character literals) replaced
    by spaces, newlines kept: offsets and line numbers stay."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + (" " * (j - i - 2) if strings else text[i + 1:j - 1]) + c
                       if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def match(text, i, open_, close):
    """The index after the bracket that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def statement(text, i):
    """(start, end) of the statement that starts at or after i: a block
    or everything up to its semicolon (a nested loop whole)."""
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text) and text[i] == "{":
        return i, match(text, i, "{", "}")
    m = re.match(r"(for|while|if)\s*\(", text[i:])
    if m:
        j = match(text, i + m.end() - 1, "(", ")")
        return i, statement(text, j)[1]
    j = text.find(";", i)
    return i, (len(text) if j < 0 else j + 1)


class Defines:
    """Integer #defines of our sources, evaluated on demand."""

    def __init__(self, texts):
        self.raw = dict(KNOWN)
        for text in texts:
            for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.+)$", text, re.M):
                self.raw.setdefault(m.group(1), m.group(2).strip())

    def value(self, expr, depth=0):
        """The integer value of expr, or None."""
        if depth > 10:
            return None
        expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", expr.strip())

        def name(m):
            v = self.raw.get(m.group(0))
            if v is None:
                raise KeyError(m.group(0))
            v = v if isinstance(v, int) else self.value(v, depth + 1)
            if v is None:
                raise KeyError(m.group(0))
            return "(%d)" % v
        try:
            py = re.sub(r"\b[A-Za-z_]\w*\b", name, expr)
            if not re.fullmatch(r"[\d\sxXa-fA-F()+\-*/%<>|&]*", py):
                return None
            return int(eval(py.replace("/", "//"), {"__builtins__": {}}))  # noqa: S307
        except (KeyError, SyntaxError, ZeroDivisionError, TypeError, ValueError):
            return None


def calls(body, names):
    """(name, argument text) of each call of names in body."""
    for m in re.finditer(r"\b(%s)\s*\(" % "|".join(names), body):
        end = match(body, m.end() - 1, "(", ")")
        yield m.group(1), body[m.end():end - 1]


def loop_bound(header, body, defs):
    """Iterations of a loop whose counter runs against a constant (in the
    for header, or an `if (VAR == / >= / > CONST)` exit in its body);
    None when none is readable."""
    parts = header.split(";") if header and header.count(";") == 2 else ["", "", ""]
    init = re.fullmatch(r"\s*(\w+)\s*=\s*(.+?)\s*", parts[0])
    cond = re.fullmatch(r"\s*(\w+)\s*(<|<=)\s*(.+?)\s*(&&.*)?", parts[1], re.S)
    step = re.fullmatch(r"\s*(?:(\w+)\s*\+\+|\+\+\s*(\w+)|(\w+)\s*\+=\s*1)\s*", parts[2])
    var = init.group(1) if init else None
    if init and cond and step and var == cond.group(1) == (
            step.group(1) or step.group(2) or step.group(3)):
        lo, hi = defs.value(init.group(2)), defs.value(cond.group(3))
        if lo is not None and hi is not None:
            return max(0, hi - lo + (1 if cond.group(2) == "<=" else 0))
    for m in re.finditer(r"\bif\s*\(\s*(\+\+)?\s*(\w+)\s*(\+\+)?\s*(==|>=|>)\s*([^)]+)\)",
                         body):
        if var and m.group(2) == var or m.group(1) or m.group(3):
            hi = defs.value(m.group(5))
            if hi is not None:
                return hi + 1
    return None


def busy_waits(code, defs):
    """Findings of the busy-wait rule in one file's code (comments and
    strings blanked)."""
    found = []

    def line(i):
        return code.count("\n", 0, i) + 1
    for m in re.finditer(r"\bmdelay\s*\(", code):
        found.append((line(m.start()), "mdelay() busy-waits a millisecond or more; "
                      "sleep where sleeping is allowed (msleep, usleep_range)"))
    for name, args in calls(code, list(DELAYS)):
        us = defs.value(args)
        if us is None:
            continue    # a variable delay: judged by the loop it is in, if any
        if us * DELAYS[name] >= LIMIT_US:
            pos = code.find(name + "(" + args)
            found.append((line(pos), "%s(%s) busy-waits %g us (limit %d us)"
                          % (name, args.strip(), us * DELAYS[name], LIMIT_US)))
    skip = set()
    for m in re.finditer(r"\b(for|while|do)\b", code):
        if m.start() in skip:
            continue
        kind, i = m.group(1), m.end()
        if kind == "do":
            bstart, bend = statement(code, i)
            w = re.match(r"\s*while\s*\(", code[bend:])
            if not w:
                continue
            cend = match(code, bend + w.end() - 1, "(", ")")
            # the while of do-while is not a loop of its own
            skip.add(code.index("while", bend))
            cond, header, body = code[bend + w.end():cend - 1], None, code[bstart:bend]
        else:
            p = re.match(r"\s*\(", code[i:])
            if not p:
                continue
            hend = match(code, i + p.end() - 1, "(", ")")
            header = code[i + p.end():hend - 1]
            cond = header if kind == "while" else header.split(";")[1] if header.count(";") == 2 else ""
            bstart, bend = statement(code, hend)
            body = code[bstart:bend]
        delays = list(calls(body, list(DELAYS)))
        spins = re.search(r"\bcpu_relax\s*\(", body)
        polls = READS.search(cond)
        # a loop that delays on some path busy-waits there, whether or not
        # another path sleeps
        if not (delays or spins) and (not polls or SLEEPS.search(body + cond)):
            continue
        per = len(ACCESSES.findall(body + cond)) * ACCESS_US
        for name, args in delays:
            us = defs.value(args)
            if us is None:
                found.append((line(m.start()), "polling loop with a delay of unknown "
                              "length (%s(%s))" % (name, args.strip())))
                per = None
                break
            per += us * DELAYS[name]
        if per is None:
            continue
        n = loop_bound(header, body, defs)
        if n is None:
            found.append((line(m.start()), "polling loop that busy-waits without a bound "
                          "this checker can read (a counter against a constant)"))
        elif n * per >= LIMIT_US:
            found.append((line(m.start()), "polling loop busy-waits up to %g us "
                          "(%d rounds of %g us; limit %d us)" % (n * per, n, per, LIMIT_US)))
    return found


def debug_levels(code, strings):
    """Findings of the debug-level rule: code has comments and strings
    blanked, strings only comments (same offsets)."""
    found = []
    for m in DEBUG_PRINTS.finditer(code):
        end = match(code, m.end() - 1, "(", ")") - 1
        # a KERN_* macro, or its expansion written out ("\001" "6")
        if (re.search(r"\bKERN_[A-Z]+\b", code[m.end():end]) or
                re.search(r"\"\\0*01", strings[m.end():end])):
            found.append((code.count("\n", 0, m.start()) + 1,
                          "%s() with a KERN_* level: a debug message has its own "
                          "level, the marker would print as text" % m.group(1)))
    return found


def main(argv):
    root, files = argv[1], argv[2:]
    texts = {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            texts[f] = fh.read()
    defs = Defines(blank(t, True) for t in texts.values())
    n = 0
    for f in files:
        if not f.endswith(".c"):
            continue
        code = blank(texts[f], True)
        results = [(ln, "busy-wait", msg) for ln, msg in busy_waits(code, defs)]
        results += [(ln, "debug-level", msg)
                    for ln, msg in debug_levels(code, blank(texts[f], False))]
        for ln, rule, msg in sorted(results):
            print("%s:%d: %s: %s" % (f, ln, rule, msg))
            n += 1
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
