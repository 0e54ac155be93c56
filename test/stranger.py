#!/usr/bin/env python3
"""A stranger at oshrun's bootstrap socket: a process of this machine that
finds the socket as anyone could (the abstract unix name in /proc/net/unix,
or the TCP port oshrun listens on) and misbehaves on it.

    stranger.py OSHRUN_PID MODE COUNT GO_FILE LIMIT_S

Opens COUNT connections, each behaving as MODE (a comma-separated list is
taken in turn, connection by connection):
    silent  connects and says nothing
    byte    sends one byte of a message, then nothing
    wrong   a HELLO with a wrong secret of the right length
    huge    a HELLO that announces a 64 MiB secret and sends 32 bytes of it
then creates GO_FILE (the PEs wait for it, so the strangers are first in
line), and waits until oshrun has closed every connection. Exits 0 when
it did within LIMIT_S seconds, 1 otherwise.
"""
import os
import select
import socket
import struct
import sys
import time

HELLO = 1


def find_unix(pid):
    prefix = "@oshrun-%d-" % pid
    with open("/proc/net/unix") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if len(fields) >= 8 and fields[7].startswith(prefix):
                return ("unix", "\0" + fields[7][1:])
    return None


def socket_inodes(pid):
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    return inodes


def find_tcp(pid):
    try:
        mine = socket_inodes(pid)
    except OSError:
        return None
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in mine:  # listening, oshrun's
                ip_hex, port_hex = fields[1].split(":")
                ip = socket.inet_ntoa(struct.pack("<I", int(ip_hex, 16)))
                if ip == "0.0.0.0":
                    ip = "127.0.0.1"
                return ("tcp", (ip, int(port_hex, 16)))
    return None


def find(pid):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        where = find_unix(pid) or find_tcp(pid)
        if where:
            return where
        time.sleep(0.02)
    sys.exit("stranger: no bootstrap socket of pid %d" % pid)


def connect(where):
    kind, addr = where
    s = socket.socket(socket.AF_UNIX if kind == "unix" else socket.AF_INET, socket.SOCK_STREAM)
    s.connect(addr)
    return s


def misbehave(s, mode):
    header = struct.Struct("=IIQ")
    if mode == "byte":
        s.send(b"\x01")
    elif mode == "wrong":
        s.send(header.pack(HELLO, 0, 32) + b"0" * 32)
    elif mode == "huge":
        s.send(header.pack(HELLO, 0, 64 << 20) + b"0" * 32)


def main():
    pid, mode, count, go, limit = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
    modes = mode.split(",")
    where = find(pid)
    socks = []
    for i in range(count):
        s = connect(where)
        misbehave(s, modes[i % len(modes)])
        socks.append(s)
    start = time.monotonic()
    open(go, "w").close()
    open_socks = set(socks)
    while open_socks and time.monotonic() - start < limit:
        ready, _, _ = select.select(list(open_socks), [], [], 0.1)
        for s in ready:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                open_socks.discard(s)
    took = time.monotonic() - start
    if open_socks:
        print("stranger: %d of %d connections still open after %.1f s" % (len(open_socks), count, took))
        return 1
    print("stranger: all %d connections closed by oshrun after %.1f s" % (count, took))
    return 0


if __name__ == "__main__":
    sys.exit(main())
