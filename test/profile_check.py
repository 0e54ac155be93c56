#!/usr/bin/env python3
"""Checks what the built-in profiler wrote against what a test program did
(test/profile_test.sh runs the programs).

    profile_check.py counts DIR NP BACKEND OUTPUT   test/pe/profile_counts.c
    profile_check.py threads DIR NP OUTPUT          test/pe/profile_threads.c
    profile_check.py device DIR NP                  docs/examples/device/allgather.c
    profile_check.py trace DIR NP                   trace.json alone

OUTPUT is the run's standard output (PE 0's table); BACKEND the one that
must carry the traffic between two different PEs (shm, ucx). Prints what
differs and exits 1, or exits 0 silently.
"""
import csv
import json
import os
import sys

bad = []


def expect(what, got, want):
    if got != want:
        bad.append("%s: %r, expected %r" % (what, got, want))


def table(output):
    """PE 0's job-wide table: routine -> (calls, bytes)."""
    rows, on = {}, False
    for line in open(output, errors="replace"):
        f = line.split()
        if f[:2] == ["routine", "calls"]:
            on = True
        elif on and len(f) >= 7 and f[1].isdigit():
            rows[f[0]] = (int(f[1]), int(f[2]))
        elif on:
            on = False
    if not rows:
        bad.append("%s has no profile table" % output)
    return rows


def pe_rows(d, pe):
    """pe<N>.csv: routine -> (calls, bytes)."""
    path = os.path.join(d, "pe%d.csv" % pe)
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        bad.append(str(e))
        return {}
    if not lines or not lines[0].startswith("# oshm-profile pe=%d " % pe):
        bad.append("%s: no '# oshm-profile pe=%d' line" % (path, pe))
    return {r["routine"]: (int(r["calls"]), int(r["bytes"]))
            for r in csv.DictReader(lines[1:])}


def cells(d):
    """comm.csv: (src, dst, backend, class) -> (ops, bytes)."""
    out = {}
    try:
        for r in csv.DictReader(open(os.path.join(d, "comm.csv"))):
            key = (int(r["src"]), int(r["dst"]), r["backend"], r["class"])
            out[key] = (int(r["ops"]), int(r["bytes"]))
    except (OSError, KeyError, ValueError) as e:
        bad.append("comm.csv: %s" % e)
    return out


def trace(d, np):
    """trace.json: valid JSON, complete events from every PE, each track's
    spans in time order and nested (a span that starts inside another ends
    inside it). Returns the complete events."""
    try:
        ev = json.load(open(os.path.join(d, "trace.json")))["traceEvents"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        bad.append("trace.json: %s" % e)
        return []
    spans = [e for e in ev if e.get("ph") == "X"]
    expect("PEs with spans in trace.json", sorted({e["pid"] for e in spans}), list(range(np)))
    eps = 0.0025  # us: ts and dur are rounded to the ns each
    stacks, last = {}, {}
    for e in spans:
        track = (e["pid"], e["tid"])
        if e["ts"] < last.get(track, -1e300):
            bad.append("track %s: %s at %.3f after one at %.3f" % (track, e["name"], e["ts"],
                                                                  last[track]))
            break
        last[track] = e["ts"]
        stack = stacks.setdefault(track, [])
        while stack and stack[-1] <= e["ts"] + eps:
            stack.pop()
        end = e["ts"] + e["dur"]
        if stack and end > stack[-1] + eps:
            bad.append("track %s: %s [%.3f, %.3f] overlaps its enclosing span's end %.3f"
                       % (track, e["name"], e["ts"], end, stack[-1]))
            break
        stack.append(end)
    return spans


def check_counts(d, np, backend, output):
    # What each PE did (test/pe/profile_counts.c).
    per_pe = {"put": (1000, 8000), "get": (1, 65536), "amo_add": (5, 40), "barrier": (10, 0)}
    rows = table(output)
    for name, (calls, nbytes) in per_pe.items():
        expect("summary %s" % name, rows.get(name), (calls * np, nbytes * np))
    for pe in range(np):
        r = pe_rows(d, pe)
        for name, want in per_pe.items():
            expect("pe%d.csv %s" % (pe, name), r.get(name), want)
    want = {}
    for s in range(np):
        right, left = (s + 1) % np, (s - 1) % np
        for dst, cls, v in ((right, "put", (1000, 8000)), (left, "get", (1, 65536)),
                            (right, "amo", (5, 40))):
            # A PE reaches its own memory by stores, and so do its AMOs:
            # the tests' UCX runs over tcp, whose atomics are the CPU's
            # (docs/multinode.md, "The AMO rule").
            b = backend if dst != s else "shm"
            k = (s, dst, b, cls)
            want[k] = tuple(x + y for x, y in zip(want.get(k, (0, 0)), v))
    got = cells(d)
    if got != want:
        bad.append("comm.csv:\n  got  %s\n  want %s" % (sorted(got.items()), sorted(want.items())))
    spans = trace(d, np)
    for pe in range(np):
        n = sum(1 for e in spans if e["pid"] == pe and e["cat"] == "put")
        expect("put spans of PE %d in trace.json" % pe, n, 1000)


def check_threads(d, np, output):
    rows = table(output)
    for name, want in {"put": (200 * np, 1600 * np), "ctx_create": (2 * np, 0),
                       "ctx_destroy": (2 * np, 0), "quiet": (2 * np, 0)}.items():
        expect("summary %s" % name, rows.get(name), want)
    spans = trace(d, np)
    for pe in range(np):
        tracks = {e["tid"] for e in spans if e["pid"] == pe and e["cat"] == "put"}
        expect("tracks with puts on PE %d" % pe, len(tracks), 2)


def check_device(d, np):
    spans = trace(d, np)
    dev = [e for e in spans if e["tid"] >= 1 << 20]
    for pe in range(np):
        mine = [e for e in dev if e["pid"] == pe]
        kernels = {e["tid"] for e in mine if e["name"] == "kernel"}
        # docs/examples/device/allgather.c: 4 blocks of 2 threads.
        expect("kernel spans of PE %d" % pe, len(kernels), 8)
        names = {e["name"] for e in mine}
        for routine in ("shmemd_putmem_nbi_block", "shmemd_barrier_all"):
            if routine not in names:
                bad.append("PE %d's device tracks have no %s span" % (pe, routine))


def main():
    what, d, np = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if what == "counts":
        check_counts(d, np, sys.argv[4], sys.argv[5])
    elif what == "threads":
        check_threads(d, np, sys.argv[4])
    elif what == "device":
        check_device(d, np)
    elif what == "trace":
        trace(d, np)
    for b in bad:
        print("FAIL", b)
    sys.exit(1 if bad else 0)


main()
