#!/bin/bash
# Two "hosts" on one machine: network namespaces joined by a veth pair.
# oshrun runs in the first and starts half the PEs there, half in the second
# through "ip netns exec"; the bootstrap crosses the link over TCP and the
# PEs reach each other over UCX tcp. Skipped (77) where namespaces cannot be
# made (not root, no CAP_SYS_ADMIN, no iproute2).
# With MPIRUN given, Open MPI's mpirun (PMIx) launches across them too.
#   netns_test.sh OSHRUN VV_DIR FAULTS_PROGRAM [MPIRUN]
set -u
OSHRUN=$1 VV=$2 FAULTS=$3 MPIRUN=${4:-}
if ! command -v ip >/dev/null; then
    echo "SKIP: no 'ip' command (apt-get install iproute2)"; exit 77
fi
a=oshm-a-$$ b=oshm-b-$$
cleanup() { ip netns del "$a" 2>/dev/null; ip netns del "$b" 2>/dev/null; }
trap cleanup EXIT
if ! ip netns add "$a" 2>/dev/null || ! ip netns add "$b" 2>/dev/null; then
    echo "SKIP: cannot create network namespaces here (needs root with CAP_SYS_ADMIN)"; exit 77
fi
# The same interface name on both ends, so one UCX_NET_DEVICES fits both.
ip link add oshm0 netns "$a" type veth peer name oshm0 netns "$b" &&
ip -n "$a" addr add 10.231.0.1/24 dev oshm0 && ip -n "$b" addr add 10.231.0.2/24 dev oshm0 &&
ip -n "$a" link set oshm0 up && ip -n "$b" link set oshm0 up &&
ip -n "$a" link set lo up && ip -n "$b" link set lo up || { echo "FAIL: cannot set up the veth pair"; exit 1; }
# UCX takes only interfaces that are running: wait for the link's carrier.
for i in $(seq 50); do
    ip -n "$a" link show oshm0 | grep -q LOWER_UP && ip -n "$b" link show oshm0 | grep -q LOWER_UP && break
    sleep 0.1
done

export UCX_TLS=tcp UCX_NET_DEVICES=oshm0
# Under AddressSanitizer a PE's fatal signal must still be a fatal signal.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
failures=0
out=$(mktemp) err=$(mktemp)
trap 'cleanup; rm -f "$out" "$err"' EXIT

# run NAME HOSTS PROGRAM ARGS...: in namespace a, PEs on HOSTS
run() {
    local name=$1 hosts=$2
    shift 2
    timeout 300 ip netns exec "$a" "$OSHRUN" --host "$hosts" --launch-agent "ip netns exec" "$@" \
        >"$out" 2>"$err"
}

for prog in "$VV"/vv_*; do
    for hosts in "localhost:1,$b:1" "localhost:2,$b:2"; do
        run "$(basename "$prog")" "$hosts" "$prog"
        rc=$?
        summary=$(grep '^chapter' "$out")
        if [ $rc -ne 0 ] || ! grep -q ', 0 failed' "$out"; then
            failures=$((failures + 1))
            echo "FAIL $(basename "$prog") on $hosts: status $rc"; grep -v '^PASS' "$out" "$err" | sed 's/^/     /'
        else
            echo "ok   $(basename "$prog") on $hosts: $summary"
        fi
    done
done

# A stranger in the other namespace knows the bootstrap address but not the
# secret: refused, and the refusal names where it came from.
run stranger "$b:1,localhost:1" "$FAULTS" stranger
rc=$?
if [ $rc -eq 0 ] && grep -q "stranger refused" "$out" &&
   grep -Eq "refused a bootstrap connection from 10\.231\.0\.2 port [0-9]+: not a member" "$err"; then
    echo "ok   a stranger across the link is refused and logged"
else
    failures=$((failures + 1)); echo "FAIL stranger across the link: status $rc"; sed 's/^/     /' "$err"
fi

# The bootstrap listens on the address that reaches the other host, not on
# every interface.
hold=$(mktemp -u)
timeout 60 ip netns exec "$a" "$OSHRUN" --host "localhost:1,$b:1" --launch-agent "ip netns exec" \
    "$FAULTS" hold "$hold" >"$out" 2>"$err" &
job=$!
listening=""
for _ in $(seq 200); do
    listening=$(ip netns exec "$a" ss -ltnpH | grep '"oshrun"' | awk '{print $4}')
    [ -n "$listening" ] && break
    sleep 0.05
done
touch "$hold"
wait $job
rc=$?
rm -f "$hold"
if [ $rc -eq 0 ] && [ "$listening" = "${listening#*$'\n'}" ] && [[ $listening == 10.231.0.1:* ]]; then
    echo "ok   the bootstrap listens on $listening only"
else
    failures=$((failures + 1))
    echo "FAIL bootstrap listener: status $rc, listening on '${listening:-nothing found}'"; sed 's/^/     /' "$err"
fi

# Open MPI's launcher starts its daemon through an agent that takes one
# command string, as ssh does.
if [ -n "$MPIRUN" ]; then
    agent=$(mktemp)
    printf '#!/bin/sh\nns=$1; shift\nexec ip netns exec "$ns" sh -c "$*"\n' >"$agent"
    chmod +x "$agent"
    for chapter in amo signal coll; do
        timeout 300 ip netns exec "$a" "$MPIRUN" --allow-run-as-root --oversubscribe \
            --host "localhost:2,$b:2" -np 4 --mca plm_rsh_agent "$agent" \
            --mca plm_rsh_no_tree_spawn 1 -x UCX_TLS -x UCX_NET_DEVICES \
            "$VV/vv_$chapter" >"$out" 2>"$err"
        rc=$?
        if [ $rc -eq 0 ] && grep -q ', 0 failed' "$out"; then
            echo "ok   mpirun vv_$chapter on localhost:2,$b:2: $(grep '^chapter' "$out")"
        else
            failures=$((failures + 1))
            echo "FAIL mpirun vv_$chapter: status $rc"; grep -v '^PASS' "$out" "$err" | sed 's/^/     /'
        fi
    done
    rm -f "$agent"
fi

# A PE that dies on the other host ends the job, named with its signal.
run killed "localhost:2,$b:2" "$FAULTS" signal 3
rc=$?
if [ $rc -eq 139 ] && grep -Eq "PE 3 \(pid [0-9]+\) was killed by signal 11" "$err"; then
    echo "ok   a PE killed on the other host ends the job (status 139)"
else
    failures=$((failures + 1)); echo "FAIL killed PE on the other host: status $rc"; sed 's/^/     /' "$err"
fi

[ $failures -eq 0 ] && echo "netns: all passed"
exit $((failures > 0))
