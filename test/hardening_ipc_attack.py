#!/usr/bin/env python3
"""A process outside the job attacks every PE's IPC socket while the job runs.

    hardening_ipc_attack.py MODE OSHRUN PROGRAM [NPES]

Each PE serves its memory to the other PEs of the node on an abstract unix
socket (src/ipc). Abstract names carry no permissions: anyone in the network
namespace can connect, and /proc/net/unix lists them, which is how this
attacker finds them (the PEs are oshrun's children; their sockets are named
"oshm-ipc-<pid>-...").

MODE:
  silent    connects to each socket and says nothing
  onebyte   sends one byte of a request and stops
  garbage   sends a huge bogus request (length-like prefix, then junk)
  flood     opens 100 connections to each socket and keeps them open
  startup   watches from before the launch and connects as soon as a socket
            appears; the last PE starts late, so the others' sockets are
            attacked before any PE has imported from them

The connections stay open until the job has ended. The job must end with
status 0 and its result line within BOUND seconds, every attacked PE must log
a refusal naming this process's pid (SHMEM_DEBUG=1), and no PE may be left
behind. Exit status: 0 passed, 1 failed.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

BOUND = 20.0            # seconds for the whole job under attack
FLOOD = 100             # connections per socket in flood mode


def children(ppid):
    """PIDs of the processes whose parent is PPID."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces: fields follow the last ')'.
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[1]) == ppid:
            out.append(int(d))
    return out


def alive(pid):
    """Whether PID runs (a zombie, waiting for whoever reaps it, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


def ipc_sockets(pids):
    """{pid: abstract name} of the listening IPC sockets of PIDS."""
    found = {}
    want = {f"oshm-ipc-{p}-": p for p in pids}
    try:
        with open("/proc/net/unix") as f:
            next(f)
            for line in f:
                parts = line.split()
                if len(parts) < 8 or not parts[7].startswith("@oshm-ipc-"):
                    continue
                name = parts[7][1:]
                for prefix, pid in want.items():
                    if name.startswith(prefix):
                        found[pid] = name
    except OSError:
        pass
    return found


def connect(name):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2.0)
    s.connect("\0" + name)
    s.setblocking(False)
    return s


def attack(mode, name):
    """Opens the connections of MODE to NAME; returns them, open."""
    conns = []
    for _ in range(FLOOD if mode == "flood" else 1):
        try:
            s = connect(name)
        except OSError as e:
            print(f"attacker: connect to {name}: {e}")
            continue
        conns.append(s)
        try:
            if mode == "onebyte":
                s.send(b"\x01")
            elif mode == "garbage":
                # A length-like first word no server should trust, then
                # more junk than any request; whatever the socket takes.
                s.send(b"\xff\xff\xff\xff" + os.urandom(1 << 16))
        except OSError:
            pass  # a server that hangs up on us is fine
    return conns


def main():
    mode, oshrun, program = sys.argv[1:4]
    npes = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    me = os.getpid()
    tmp = tempfile.mkdtemp(prefix="hard-ipc-")
    ready, go = os.path.join(tmp, "ready"), os.path.join(tmp, "go")
    env = dict(os.environ, SHMEM_DEBUG="1", HARD_IPC_READY=ready, HARD_IPC_GO=go)
    if mode == "startup":
        env["HARD_IPC_LATE_RANK"] = str(npes - 1)
    shm_before = set(os.listdir("/dev/shm"))
    out_path, err_path = os.path.join(tmp, "out"), os.path.join(tmp, "err")
    out, err = open(out_path, "w"), open(err_path, "w")

    start = time.monotonic()
    job = subprocess.Popen([oshrun, "-np", str(npes), program], stdout=out, stderr=err, env=env)
    deadline = start + BOUND
    conns, attacked, pes = [], set(), set()
    early = 0  # PEs attacked before the last PE's socket was there
    failures = []

    # Until every PE's socket is attacked (and, but in startup mode, the PEs
    # are past start-up), then the PEs may go on to finalize.
    while time.monotonic() < deadline and job.poll() is None:
        kids = children(job.pid)
        pes.update(kids)
        if mode != "startup" and not os.path.exists(ready):
            time.sleep(0.01)
            continue
        found = ipc_sockets(kids)
        for pid, name in found.items():
            if pid not in attacked:
                attacked.add(pid)
                early += len(found) < npes
                conns += attack(mode, name)
        if len(attacked) == npes:
            break
        time.sleep(0.001 if mode == "startup" else 0.01)
    # Let every PE's service take the connections in before finalize.
    time.sleep(0.3)
    open(go, "w").close()

    try:
        status = job.wait(timeout=max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        job.kill()  # its PEs die with it (PR_SET_PDEATHSIG)
        status = job.wait()
        failures.append(f"the job did not end within {BOUND:.0f} s")
    took = time.monotonic() - start
    for s in conns:
        s.close()
    out.close()
    err.close()
    stdout, stderr = open(out_path).read(), open(err_path).read()

    if len(attacked) != npes:
        failures.append(f"found the sockets of {len(attacked)} of {npes} PEs only")
    if mode == "startup" and early < npes - 1:
        failures.append(f"only {early} PEs attacked before start-up was over")
    if status != 0:
        failures.append(f"the job ended with status {status}")
    if f"hard_ipc: {npes} PEs passed" not in stdout:
        failures.append("no result line")
    refusals = re.findall(rf"shmem\[PE (\d+)\]: .*refused.*\bpid {me}\b", stderr)
    if len(set(refusals)) < len(attacked):
        failures.append(f"refusals naming pid {me} logged by PEs {sorted(set(refusals))} "
                        f"of {len(attacked)} attacked")
    left = [p for p in pes if alive(p)]
    for _ in range(20):  # a killed job's PEs take a moment to go
        if not left:
            break
        time.sleep(0.1)
        left = [p for p in left if alive(p)]
    if left:
        failures.append(f"PEs left behind: {left}")
    new_shm = [f for f in set(os.listdir("/dev/shm")) - shm_before
               if "oshm" in f or "shmem" in f or any(str(p) in f for p in pes)]
    if new_shm:
        failures.append(f"left in /dev/shm: {new_shm}")

    for f in (ready, go, out_path, err_path):
        if os.path.exists(f):
            os.unlink(f)
    os.rmdir(tmp)
    print(f"{mode}: {len(conns)} connections to {len(attacked)} PEs "
          f"({early} during start-up), job status {status} in {took:.1f} s")
    if failures:
        print("FAIL " + "; ".join(failures))
        print("job stdout:\n" + stdout + "job stderr:\n" + stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
