# SPDX-License-Identifier: GPL-2.0-only
"""userspace/sockets/socket-startup, the package's stand-in for
pcmciautils' socket set-up, against a fake sysfs whose two range
attributes are FIFOs, so that every write is seen as the kernel sees
it: Debian's ranges without a config.opts, the user's
config.opts with its exclusions when there is one, nothing at all where
pcmciautils is installed, for a socket already set up, or for a socket
without these attributes (CardBus).  On a real system:
test_package.py's "newest" scenario, which removes pcmciautils before
the cards must work."""

import os
import subprocess
import threading

import pclkernels as pk

SCRIPT = os.path.join(pk.TOP, "userspace", "sockets", "socket-startup")
SOCKET = "pcmcia_socket1"
RANGES = ("available_resources_mem", "available_resources_io")
DONE = "available_resources_setup_done"
DEBIAN = {
    "available_resources_mem": ["+ 0xc0000 - 0xfffff", "+ 0xa0000000 - 0xa0ffffff",
                                "+ 0x60000000 - 0x60ffffff"],
    "available_resources_io": ["+ 0x100 - 0x3af", "+ 0x3e0 - 0x4ff", "+ 0x820 - 0x8ff",
                               "+ 0xa00 - 0xaff", "+ 0xc00 - 0xcf7"],
}


class FakeSocket:
    """A socket's resource attributes: the two range files are FIFOs, each
    held open for reading and writing by a thread of ours (so a writer
    neither blocks nor meets a closed end) that collects what comes
    (got: one entry per line written); setup_done is a plain file."""

    def __init__(self, root, done="no", ranges=True):
        self.dir = root / "sys" / "class" / "pcmcia_socket" / SOCKET
        self.dir.mkdir(parents=True)
        self.data = {a: b"" for a in RANGES}
        self.fds = {}
        self.threads = []
        self.stopping = False
        if not ranges:
            return
        (self.dir / DONE).write_text(done + "\n")
        for a in RANGES:
            os.mkfifo(str(self.dir / a))
            self.fds[a] = os.open(str(self.dir / a), os.O_RDWR)
            t = threading.Thread(target=self.reader, args=(a,), daemon=True)
            t.start()
            self.threads.append(t)

    def reader(self, attr):
        while True:
            chunk = os.read(self.fds[attr], 4096)
            if self.stopping and chunk.endswith(b"\0"):
                self.data[attr] += chunk[:-1]
                return
            self.data[attr] += chunk

    def stop(self):
        """Everything written so far read; the readers end."""
        self.stopping = True
        for a, t in zip(RANGES, self.threads):
            os.write(self.fds[a], b"\0")
            t.join(10)
            os.close(self.fds[a])

    @property
    def got(self):
        return {a: [line for line in self.data[a].decode().splitlines() if line]
                for a in RANGES}

    def done(self):
        return (self.dir / DONE).read_text().strip()


def run(tmp_path, socket, conf=None, pcmciautils=False):
    tool = tmp_path / "pcmcia-socket-startup"
    if pcmciautils:
        tool.write_text("#!/bin/sh\n")
        tool.chmod(0o755)
    env = dict(os.environ, PCL_SYSFS=str(tmp_path / "sys"),
               PCL_CONFIG_OPTS=str(conf or tmp_path / "no-config.opts"),
               PCL_PCMCIAUTILS=str(tool))
    try:
        return subprocess.run(["sh", SCRIPT, SOCKET], env=env, timeout=30,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
    finally:
        socket.stop()


def test_debian_ranges_without_config(tmp_path):
    s = FakeSocket(tmp_path)
    proc = run(tmp_path, s)
    assert proc.returncode == 0, proc.stdout
    assert s.got == DEBIAN
    assert s.done() == "1"


def test_the_users_config_opts(tmp_path):
    conf = tmp_path / "config.opts"
    conf.write_text("# a laptop's ranges\n"
                    "include port 0x100-0x3af, port 0x3e0-0x4ff  # two\n"
                    "exclude port 0x3f0-0x3ff\n"
                    "include memory 0xd0000-0xdffff\n"
                    "exclude irq 4\n"
                    "include irq 5, port 0xc00-0xcf7\n")
    s = FakeSocket(tmp_path)
    proc = run(tmp_path, s, conf=conf)
    assert proc.returncode == 0, proc.stdout
    assert s.got == {
        "available_resources_mem": ["+ 0xd0000 - 0xdffff"],
        "available_resources_io": ["+ 0x100 - 0x3af", "+ 0x3e0 - 0x4ff",
                                   "- 0x3f0 - 0x3ff", "+ 0xc00 - 0xcf7"],
    }
    assert s.done() == "1"


def test_pcmciautils_does_it(tmp_path):
    s = FakeSocket(tmp_path)
    proc = run(tmp_path, s, pcmciautils=True)
    assert proc.returncode == 0, proc.stdout
    assert s.got == {a: [] for a in RANGES} and s.done() == "no"


def test_a_socket_set_up_is_left_alone(tmp_path):
    s = FakeSocket(tmp_path, done="yes")
    proc = run(tmp_path, s)
    assert proc.returncode == 0, proc.stdout
    assert s.got == {a: [] for a in RANGES} and s.done() == "yes"


def test_a_socket_without_the_attributes(tmp_path):
    s = FakeSocket(tmp_path, ranges=False)
    proc = run(tmp_path, s)
    assert proc.returncode == 0, proc.stdout


def test_usage(tmp_path):
    proc = subprocess.run(["sh", SCRIPT, "eth0"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    assert proc.returncode == 2 and "usage" in proc.stdout
