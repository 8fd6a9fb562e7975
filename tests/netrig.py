# SPDX-License-Identifier: GPL-2.0-only
"""The network rig of the Ethernet card tests: a guest's PC Card NIC on a
segment that never leaves QEMU and the loopback interface.

One NetRig is one segment, a QEMU hub joining three ports:

  card --- hubport <netdev> ---+--- user (slirp), restrict=on: no way out;
                               |    host forwards on 127.0.0.1 only, for
                               |    TCP transfers host <-> guest
                               +--- socket,udp=127.0.0.1:P,localaddr=...:Q
                                    <-> Peer, a Python thread on the host
                                        that speaks raw Ethernet frames

Addresses (rig index i, so that two cards in one guest do not clash):
slirp's network 10.0.(2+i).0/24 with the guest at .15 and slirp at .2,
the peer's network 192.168.(77+i).0/24 with the peer at .1 and the guest
at .2.  The peer answers ARP and ICMP echo (reassembling fragments and
fragmenting its answers to its own MTU), counts what it sees, and sends
test frames (ethertype 0x88b5, a payload nettool checks) to any MAC.

The guest side needs tests/tools/nettool (files=rig_tools()) and the
busybox applets ip, ping, nc, netstat, sha256sum.  Python standard
library only.
"""

import hashlib
import os
import random
import socket
import struct
import threading
import time

from screaders import tools_dir

ETH_P_IP = 0x0800
ETH_P_ARP = 0x0806
ETH_P_TEST = 0x88b5         # IEEE local experimental ethertype
PEER_MAC = bytes.fromhex("020000007701")
BROADCAST = b"\xff" * 6
END_MARKER = 0xffffffff      # nettool count stops at this sequence number
PORT_TO_GUEST = 5001        # guest listens, host sends
PORT_FROM_GUEST = 5002      # guest listens, host receives


def rig_tools():
    """{guest path: host path} of the guest tools, for Guest(files=)."""
    return {"/pcl/bin/nettool": os.path.join(tools_dir(), "nettool")}


def mac_bytes(text):
    return bytes(int(b, 16) for b in text.split(":"))


def mac_text(raw):
    return ":".join("%02x" % b for b in raw)


def ether_crc(data):
    """Ethernet CRC-32 as the 8390's multicast filter computes it (bits
    LSB first into an MSB-first register, no final inversion)."""
    crc = 0xffffffff
    for byte in data:
        for i in range(8):
            carry = (crc >> 31) ^ ((byte >> i) & 1)
            crc = (crc << 1) & 0xffffffff
            if carry:
                crc ^= 0x04c11db7
    return crc


def ether_crc_le(data):
    """Ethernet CRC-32 as the LANCE family's (MACE's) logical address
    filter computes it (LSB-first register, no final inversion)."""
    crc = 0xffffffff
    for byte in data:
        for i in range(8):
            carry = (crc ^ (byte >> i)) & 1
            crc >>= 1
            if carry:
                crc ^= 0xedb88320
    return crc


def mcast_bin(mac):
    """The 8390 multicast filter bit (0-63) that a group MAC selects."""
    return ether_crc(mac_bytes(mac)) >> 26


def mcast_bin_le(mac):
    """The LANCE/MACE logical address filter bit (0-63) of a group MAC."""
    return ether_crc_le(mac_bytes(mac)) >> 26


def ip_mcast_mac(group):
    """The link-layer group of an IPv4 multicast address."""
    a = socket.inet_aton(group)
    return mac_text(bytes([0x01, 0x00, 0x5e, a[1] & 0x7f, a[2], a[3]]))


def test_payload(seq, length):
    """The payload nettool checks: seq, length, then (seq + i) & 0xff."""
    head = struct.pack(">IH", seq & 0xffffffff, length)
    return head + bytes((seq + i) & 0xff for i in range(6, length))


def free_port(kind):
    """A port on 127.0.0.1 that is free right now (SOCK_STREAM/DGRAM)."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def inet_checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


class Peer(threading.Thread):
    """The host end of the rig's socket netdev: raw Ethernet frames in UDP
    datagrams on 127.0.0.1."""

    def __init__(self, ip):
        super().__init__(daemon=True)
        self.ip = socket.inet_aton(ip)
        self.mtu = 1500
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.qemu_port = free_port(socket.SOCK_DGRAM)
        self.lock = threading.Lock()
        self.running = True
        self.frags = {}
        self.reset_stats()

    def reset_stats(self):
        with self.lock:
            self.stats = {"frames": 0, "max_len": 0, "arp": 0, "echo": 0}

    def qemu_drops(self):
        """Datagrams the host dropped at QEMU's end of the link (its
        socket's buffer full while QEMU waited for a CPU): frames that
        never reached the card.  From /proc/net/udp, the last column."""
        local = "0100007F:%04X" % self.qemu_port
        with open("/proc/net/udp") as f:
            for line in f:
                cols = line.split()
                if len(cols) > 2 and cols[1] == local:
                    return int(cols[-1])
        return 0

    def stat(self, key):
        with self.lock:
            return self.stats[key]

    def run(self):
        while self.running:
            try:
                frame = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            with self.lock:
                self.stats["frames"] += 1
                self.stats["max_len"] = max(self.stats["max_len"], len(frame))
            if len(frame) >= 14:
                self._handle(frame)

    def stop(self):
        self.running = False
        self.join(2)
        self.sock.close()

    def send(self, frame):
        self.sock.sendto(frame, ("127.0.0.1", self.qemu_port))

    def send_test_frames(self, dst, count, size, seq0=0, gap=0.0):
        """count frames of size bytes (header included) to MAC text dst."""
        head = mac_bytes(dst) + PEER_MAC + struct.pack("!H", ETH_P_TEST)
        for seq in range(seq0, seq0 + count):
            self.send(head + test_payload(seq, size - 14))
            if gap:
                time.sleep(gap)

    # -- answers

    def _handle(self, frame):
        ethertype = struct.unpack("!H", frame[12:14])[0]
        if ethertype == ETH_P_ARP:
            self._arp(frame)
        elif ethertype == ETH_P_IP and frame[:6] in (PEER_MAC, BROADCAST):
            self._ip(frame)

    def _arp(self, frame):
        arp = frame[14:42]
        if len(arp) < 28 or struct.unpack("!H", arp[6:8])[0] != 1 or arp[24:28] != self.ip:
            return
        with self.lock:
            self.stats["arp"] += 1
        sha, spa = arp[8:14], arp[14:18]
        reply = struct.pack("!HHBBH", 1, ETH_P_IP, 6, 4, 2) + PEER_MAC + self.ip + sha + spa
        self.send(sha + PEER_MAC + struct.pack("!H", ETH_P_ARP) + reply)

    def _ip(self, frame):
        ip = frame[14:]
        ihl = (ip[0] & 0x0f) * 4
        total, ident, frag, proto = struct.unpack("!HHHxB", ip[2:10])
        src, dst = ip[12:16], ip[16:20]
        if dst != self.ip:
            return
        data = ip[ihl:total]
        if frag & 0x3fff:
            data = self._reassemble((src, ident), frag, data)
            if data is None:
                return
        if proto == 1 and len(data) >= 8 and data[0] == 8:
            with self.lock:
                self.stats["echo"] += 1
            icmp = b"\0\0\0\0" + data[4:]
            icmp = icmp[:2] + struct.pack("!H", inet_checksum(icmp)) + icmp[4:]
            self._send_ip(frame[6:12], src, 1, icmp)

    def _reassemble(self, key, frag, data):
        parts = self.frags.setdefault(key, {})
        parts[(frag & 0x1fff) * 8] = (data, bool(frag & 0x2000))
        whole, offset = b"", 0
        while offset in parts:
            piece, more = parts[offset]
            whole += piece
            offset += len(piece)
            if not more:
                del self.frags[key]
                return whole
        return None

    def _send_ip(self, dst_mac, dst_ip, proto, payload):
        """One IPv4 datagram, in fragments of at most self.mtu bytes."""
        ident = random.randrange(65536)
        step = (self.mtu - 20) // 8 * 8
        for off in range(0, len(payload), step):
            piece = payload[off:off + step]
            more = 0x2000 if off + step < len(payload) else 0
            head = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(piece), ident,
                               more | off // 8, 64, proto, 0, self.ip, dst_ip)
            head = head[:10] + struct.pack("!H", inet_checksum(head)) + head[12:]
            self.send(dst_mac + PEER_MAC + struct.pack("!H", ETH_P_IP) + head + piece)


class NetRig:
    """One card's segment (see the module's docstring)."""

    def __init__(self, index, driver, card_id, bus, mac, wire_rate=0, sock=None):
        self.index = index
        self.driver = driver            # QEMU device, e.g. pcmcia-ne2000
        self.card_id = card_id
        self.bus = bus                  # e.g. pcc.0 (or a CardBus bus, ti.cb)
        # the guest's socket number: the bus's own unless given (a CardBus
        # bridge's slot <id>.0 is numbered after the sockets before it)
        tail = bus.rsplit(".", 1)[1]
        self.socket = sock if sock is not None else int(tail) if tail.isdigit() else None
        self.mac = mac
        self.wire_rate = wire_rate
        self.props = {}                 # further device properties
        self.netdev = "net%d" % index
        self.slirp_net = "10.0.%d" % (2 + index)
        self.guest_ip = self.slirp_net + ".15"
        self.gateway = self.slirp_net + ".2"
        peer_net = "192.168.%d" % (77 + index)
        self.peer_ip = peer_net + ".1"
        self.guest_peer_ip = peer_net + ".2"
        self.peer = Peer(self.peer_ip)
        self.fwd_to_guest = free_port(socket.SOCK_STREAM)
        self.fwd_from_guest = free_port(socket.SOCK_STREAM)

    # -- QEMU side

    def qemu_args(self):
        """The hub and its two other ports; the card comes from card_args()."""
        n, hub = self.netdev, self.index
        fwd = ",".join("hostfwd=tcp:127.0.0.1:%d-%s:%d" % (host, self.guest_ip, guest)
                       for host, guest in ((self.fwd_to_guest, PORT_TO_GUEST),
                                           (self.fwd_from_guest, PORT_FROM_GUEST)))
        return ["-netdev", "hubport,id=%s,hubid=%d" % (n, hub),
                "-netdev", "user,id=%s-user,restrict=on,net=%s.0/24,%s" % (n, self.slirp_net, fwd),
                "-netdev", "hubport,id=%s-hu,hubid=%d,netdev=%s-user" % (n, hub, n),
                "-netdev", "socket,id=%s-sock,udp=127.0.0.1:%d,localaddr=127.0.0.1:%d"
                % (n, self.peer.port, self.peer.qemu_port),
                "-netdev", "hubport,id=%s-hs,hubid=%d,netdev=%s-sock" % (n, hub, n)]

    def card_props(self):
        """Properties for Guest.device_add(self.driver, **props)."""
        return dict({"id": self.card_id, "bus": self.bus, "netdev": self.netdev,
                     "mac": self.mac, "wire-rate": self.wire_rate}, **self.props)

    def card_args(self):
        props = ",".join("%s=%s" % kv for kv in self.card_props().items())
        return ["-device", "%s,%s" % (self.driver, props)]

    def start(self):
        self.peer.start()

    def stop(self):
        self.peer.stop()

    # -- guest side

    def net_dir(self):
        """The sysfs directory that lists the card's interface."""
        return "/sys/bus/pcmcia/devices/%d.0/net" % self.socket

    def iface(self, g, timeout=30):
        """The interface of this rig's card (found through its socket)."""
        path = self.net_dir()
        assert g.wait_for("ls %s 2>/dev/null | grep -q ." % path, timeout), \
            "no network interface on %s:\n%s" % (self.bus, g.run("dmesg | tail -20")[0])
        return g.check("ls %s" % path).split()[0]

    def up(self, g):
        """Bring the card's interface up with the rig's addresses."""
        ifc = self.iface(g)
        g.check("ip link set %s up && ip addr add %s/24 dev %s && ip addr add %s/24 dev %s"
                % (ifc, self.guest_ip, ifc, self.guest_peer_ip, ifc))
        return ifc

    def eject(self, g, timeout=15):
        """Surprise-remove the card over QMP; whether its interface went
        away within timeout seconds."""
        ifc = self.iface(g)
        g.device_del(self.card_id)
        return g.wait_for("[ ! -e /sys/class/net/%s ]" % ifc, timeout)

    def insert(self, g, up=True, **extra):
        """Insert the card over QMP (after an eject), with extra device
        properties (e.g. {"stuck-reset": True}), and bring it up."""
        g.device_add(self.driver, **dict(self.card_props(), **extra))
        return self.up(g) if up else None

    def replug_if_missed(self, g):
        """Now and then a card found before its socket has resources gets
        no PC Card device at boot (a race in the PC Card core and the
        guest's socket setup, not in the card or its driver); plug it in
        again then, as a user would."""
        if g.wait_for("[ -e /sys/bus/pcmcia/devices/%d.0 ]" % self.socket, 20):
            return
        print("socket %d: no PC Card device after boot; card inserted again" % self.socket)
        g.device_del(self.card_id)
        g.device_add(self.driver, **self.card_props())

    def wait_up(self, g, timeout=10):
        """Whether the carrier and operstate are up within timeout: the
        kernel lets frames through only once linkwatch has seen the
        carrier, up to a second after the driver reported it."""
        ifc = self.iface(g)
        return g.wait_for("grep -qx 1 /sys/class/net/%s/carrier && "
                          "grep -qx up /sys/class/net/%s/operstate" % (ifc, ifc), timeout)

    def sysfs(self, g, name):
        """An integer of /sys/class/net/IFACE/NAME (e.g. carrier,
        statistics/rx_packets)."""
        return int(g.check("cat /sys/class/net/%s/%s" % (self.iface(g), name)))

    def ping(self, g, ip=None, count=3, size=56, wait=5):
        """Replies received from ip (default: the peer)."""
        out, _ = g.run("ping -c %d -s %d -W %d %s" % (count, size, wait, ip or self.peer_ip),
                       timeout=count * (wait + 2) + 30)
        for line in out.splitlines():
            if "packets received" in line:
                return int(line.split(",")[1].split()[0])
        return 0

    @staticmethod
    def spawn(g, command, pidfile):
        """Run a shell command detached in the guest (nettool spawn: no job
        of the console's shell); its PID goes to pidfile."""
        g.check("nettool spawn %s sh -c 'exec %s'" % (pidfile, command))

    def _listen(self, g, port, redirect):
        self.spawn(g, "nc -l -p %d %s 2>/tmp/nc.err" % (port, redirect), "/tmp/nc.pid")
        assert g.wait_for("netstat -ltn | grep -q ':%d '" % port, 10), "nc does not listen"

    def _nc_done(self, g, timeout):
        return g.wait_for("! kill -0 $(cat /tmp/nc.pid) 2>/dev/null", timeout)

    def tcp_to_guest(self, g, nbytes, seed=1, timeout=300, sent=None):
        """Send nbytes to the guest over TCP; return (match, seconds).
        sent(): called once the data is in the guest, before the guest
        hashes it (a benchmark's CPU clock stops there)."""
        data = random.Random(seed).randbytes(nbytes)
        self._listen(g, PORT_TO_GUEST, "</dev/null >/tmp/rx")
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.fwd_to_guest), timeout=timeout) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            assert self._nc_done(g, timeout), "the guest's nc did not finish"
        seconds = time.monotonic() - t0
        if sent:
            sent()
        got = g.check("sha256sum /tmp/rx; rm -f /tmp/rx").split()[0]
        return got == hashlib.sha256(data).hexdigest(), seconds

    def tcp_from_guest(self, g, nbytes, timeout=300, ready=None):
        """Receive nbytes the guest sends over TCP; return (match, seconds).
        ready(): called once the guest has made and hashed the data,
        before it sends (a benchmark's CPU clock starts there)."""
        want = g.check("head -c %d /dev/urandom >/tmp/tx && sha256sum /tmp/tx"
                       % nbytes).split()[0]
        if ready:
            ready()
        self._listen(g, PORT_FROM_GUEST, "</tmp/tx >/dev/null")
        digest, got = hashlib.sha256(), 0
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.fwd_from_guest), timeout=timeout) as s:
            while got < nbytes:
                chunk = s.recv(65536)
                if not chunk:
                    break
                digest.update(chunk)
                got += len(chunk)
        seconds = time.monotonic() - t0
        # nc ends when the host closes; a stuck one must not linger
        if not self._nc_done(g, 10):
            g.run("kill $(cat /tmp/nc.pid)")
        g.check("rm -f /tmp/tx")
        return got == nbytes and digest.hexdigest() == want, seconds

    def count_frames(self, g, send, join=(), timeout=60):
        """Run nettool count on the card while send() sends, then send the
        end marker to the card's MAC until nettool has seen it; return
        (frames, bad frames) the guest received with ETH_P_TEST.  join:
        link-layer groups the interface joins meanwhile."""
        self.spawn(g, "nettool count %s %#x %d %s </dev/null >/tmp/count 2>&1"
                   % (self.iface(g), ETH_P_TEST, timeout, " ".join(join)), "/tmp/count.pid")
        assert g.wait_for("grep -q READY /tmp/count", 10), g.run("cat /tmp/count")[0]
        send()
        done = threading.Event()

        def mark_end():
            # repeated: a marker lost in a ring overrun is sent again
            while not done.wait(0.3):
                self.peer.send_test_frames(self.mac, 1, 60, seq0=END_MARKER)

        marker = threading.Thread(target=mark_end, daemon=True)
        marker.start()
        try:
            assert g.wait_for("grep -q COUNT /tmp/count", timeout + 10), g.run("cat /tmp/count")[0]
        finally:
            done.set()
            marker.join()
        words = g.check("grep COUNT /tmp/count").split()
        assert words[5] == "1", "the end marker never reached the guest: %s" % " ".join(words)
        # frames the guest's packet socket dropped, not the card
        self.socket_drops = int(words[7])
        return int(words[1]), int(words[3])
