#!/usr/bin/env python3
"""A man in the middle of the bootstrap (src/boot/boot_wire.h), for
test/trust_test.sh: what an attacker who sees or holds the network sees and
can do.

    bootproxy.py proxy DIR [inject]
        Listens on 127.0.0.1, writes its port to DIR/port, and once DIR/upstream
        names the real server ("IP PORT") forwards every connection to it,
        recording every byte both ways in DIR/capture. After the first
        connection's HELLO it replays that HELLO on a connection of its own
        and writes to DIR/replay what the server did: "refused" (it closed the
        connection without a welcome) or "accepted". With "inject", it then
        writes into that first connection, towards the server, an ABORT with
        status 0 as the PE would frame it (a tag it cannot compute).
        Runs until DIR/stop exists (60 s at most).

    bootproxy.py strangers SILENT SLOW LIMIT_S HOST PORT
        Holds SILENT connections that say nothing and SLOW ones that send one
        byte of a HELLO every 0.2 s (creating the file $STRANGERS_READY once
        they are connected), and prints, once the server closed them all (or
        LIMIT_S passed), how long that took: "closed N of M after T s".
"""
import os
import select
import socket
import struct
import sys
import time

HDR = struct.Struct("=IIQ")
HELLO, ABORT, CHALLENGE, WELCOME = 1, 3, 6, 7
CHALLENGE_LEN, HELLO_LEN, TAG_LEN = 48, 64, 32


def wait_file(path, limit=30):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path) as f:
                return f.read().strip()
        time.sleep(0.02)
    sys.exit("bootproxy: no %s" % path)


def recv_exact(s, n, limit=10):
    data = b""
    s.settimeout(limit)
    while len(data) < n:
        try:
            chunk = s.recv(n - len(data))
        except (socket.timeout, OSError):
            return data
        if not chunk:
            return data
        data += chunk
    return data


def replay(upstream, hello):
    """Sends a captured HELLO on a new connection: refused or accepted?"""
    s = socket.create_connection(upstream)
    challenge = recv_exact(s, HDR.size + CHALLENGE_LEN)
    if len(challenge) != HDR.size + CHALLENGE_LEN:
        return "no challenge"
    s.sendall(hello)
    answer = recv_exact(s, HDR.size)
    s.close()
    if len(answer) == HDR.size and HDR.unpack(answer)[0] == WELCOME:
        return "accepted"
    return "refused"


class Pipe:
    """One proxied connection: client (a PE) and server (the real one)."""

    def __init__(self, client, server, capture):
        self.client, self.server, self.capture = client, server, capture
        self.up = b""  # what the PE sent so far
        self.hello = None

    def forward(self, src):
        dst = self.server if src is self.client else self.client
        try:
            data = src.recv(65536)
        except OSError:
            data = b""
        if not data:
            return False
        self.capture.write(data)
        self.capture.flush()
        if src is self.client and self.hello is None:
            self.up += data
            if len(self.up) >= HDR.size + HELLO_LEN:
                self.hello = self.up[:HDR.size + HELLO_LEN]
        try:
            dst.sendall(data)
        except OSError:
            return False
        return True


def proxy(d, inject):
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(64)
    with open(os.path.join(d, "port.tmp"), "w") as f:
        f.write(str(lsock.getsockname()[1]))
    os.rename(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
    ip, port = wait_file(os.path.join(d, "upstream")).split()
    upstream = (ip, int(port))
    capture = open(os.path.join(d, "capture"), "wb")
    pipes, done_replay = [], False
    end = time.monotonic() + 60
    while time.monotonic() < end and not os.path.exists(os.path.join(d, "stop")):
        socks = [lsock] + [s for p in pipes for s in (p.client, p.server)]
        ready, _, _ = select.select(socks, [], [], 0.1)
        for s in ready:
            if s is lsock:
                c, _ = lsock.accept()
                pipes.append(Pipe(c, socket.create_connection(upstream), capture))
                continue
            for p in pipes:
                if s in (p.client, p.server):
                    if not p.forward(s):
                        p.client.close()
                        p.server.close()
                        pipes.remove(p)
                    break
        first = next((p for p in pipes if p.hello), None)
        if first and not done_replay:
            done_replay = True
            result = replay(upstream, first.hello)
            with open(os.path.join(d, "replay"), "w") as f:
                f.write(result + "\n")
            if inject:
                rank = HDR.unpack(first.hello[:HDR.size])[1]
                payload = struct.pack("=iI", 0, 0) + b"forged"
                forged = HDR.pack(ABORT, rank, len(payload)) + payload + b"\0" * TAG_LEN
                first.server.sendall(forged)
                with open(os.path.join(d, "injected"), "w") as f:
                    f.write("%d\n" % rank)
    return 0


def strangers(silent, slow, limit, host, port):
    start = time.monotonic()
    socks = []
    for i in range(silent + slow):
        s = socket.create_connection((host, port))
        s.setblocking(False)
        socks.append((s, i >= silent))
    if os.environ.get("STRANGERS_READY"):
        open(os.environ["STRANGERS_READY"], "w").close()
    hello = HDR.pack(HELLO, 1, HELLO_LEN) + b"x" * HELLO_LEN
    sent = {s: 0 for s, _ in socks}
    open_socks = {s for s, _ in socks}
    slow_socks = {s for s, is_slow in socks if is_slow}
    next_drip = start
    while open_socks and time.monotonic() - start < limit:
        now = time.monotonic()
        if now >= next_drip:
            next_drip = now + 0.2
            for s in list(slow_socks & open_socks):
                try:
                    s.send(hello[sent[s] % len(hello):][:1])
                    sent[s] += 1
                except OSError:
                    pass
        ready, _, _ = select.select(list(open_socks), [], [], 0.05)
        for s in ready:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                open_socks.discard(s)
    took = time.monotonic() - start
    print("closed %d of %d after %.1f s" % (len(socks) - len(open_socks), len(socks), took))
    return 0 if not open_socks else 1


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "proxy":
        return proxy(sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "inject")
    if len(sys.argv) == 7 and sys.argv[1] == "strangers":
        return strangers(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5],
                         int(sys.argv[6]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
