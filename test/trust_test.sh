#!/bin/bash
# Trust across the network and liveness (issue 30): what an attacker who sees
# or holds the network gets from the bootstrap, strangers at the unique id's
# rendezvous, PEs that outlive or stop answering their launcher, a reader of
# oshrun's output that stops reading, and what the kernel says of a PE it
# killed. Every case has a time bound.
#   trust_test.sh OSHRUN FAULTS UID_TRUST BOOTPROXY GROUP
# GROUP: capture, rendezvous, liveness, output or memory.
set -u
OSHRUN=$1 FAULTS=$2 UID_TRUST=$3 PROXY=$4 GROUP=$5
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
T=$(mktemp -d)
cleanup() {
    [ -n "${CGROUP:-}" ] && rmdir "$CGROUP" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
failures=0 passes=0
pass() { passes=$((passes + 1)); echo "ok   $*"; }
fail() {
    failures=$((failures + 1)); echo "FAIL $1"; shift
    for f in "$@"; do [ -s "$f" ] && sed 's/^/     /' "$f"; done
}
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
PY=$(command -v python3)
now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc; }
# le A B: A <= B (decimals)
le() { [ "$(echo "$1 <= $2" | bc)" = 1 ]; }

# The PEs of a job: children of oshrun and, through a launch agent, theirs.
pes_of() { pgrep -f "^$FAULTS $1" ; }

# A launch agent that runs the PE here, as ssh would run it there: through
# it the PE's parent is not oshrun, and no parent-death signal reaches it.
cat >"$T/agent.sh" <<'EOF'
#!/bin/sh
shift
exec 3<&0
"$@" 0<&3 3<&- &
wait $!
EOF
# One that also sends the PE's bootstrap through bootproxy.py in $PROXYDIR,
# and keeps the secret it hands over for the test to look for.
cat >"$T/proxyagent.sh" <<'EOF'
#!/bin/bash
shift
IFS= read -r secret
printf '%s\n' "$secret" >"$PROXYDIR/secret"
args=()
for a in "$@"; do
    case $a in
    OSHRUN_ADDR=tcp:*)
        up=${a#OSHRUN_ADDR=tcp:}
        echo "${up%:*} ${up##*:}" >"$PROXYDIR/upstream.$$" && mv "$PROXYDIR/upstream.$$" "$PROXYDIR/upstream"
        for _ in $(seq 500); do [ -s "$PROXYDIR/port" ] && break; sleep 0.02; done
        args+=("OSHRUN_ADDR=tcp:127.0.0.1:$(cat "$PROXYDIR/port")") ;;
    *) args+=("$a") ;;
    esac
done
printf '%s\n' "$secret" | exec "${args[@]}"
EOF
chmod +x "$T/agent.sh" "$T/proxyagent.sh"

# no_secret NAME DIR: the capture holds the secret neither as text nor as bytes.
no_secret() {
    "$PY" - "$2/capture" "$2/secret" <<'EOF'
import sys
cap = open(sys.argv[1], "rb").read()
secret = open(sys.argv[2]).read().strip()
assert len(secret) == 32, "no secret to look for"
found = [form for form, b in (("text", secret.encode()), ("bytes", bytes.fromhex(secret)))
         if b in cap or b.lower() in cap or b.upper() in cap]
print("%d bytes captured, secret %s" % (len(cap), "found as " + " and ".join(found) if found else "not found"))
sys.exit(1 if found else 0)
EOF
}

# ---- capture: the TCP bootstrap and the rendezvous through a man in the middle ----
capture_launcher() {
    local name=$1 mode=$2 d=$T/$1
    mkdir -p "$d"
    "$PY" "$PROXY" proxy "$d" $mode >"$d/proxy.log" 2>&1 &
    local proxy=$!
    local start; start=$(now)
    PROXYDIR=$d timeout 40 "$OSHRUN" -np 4 --host fakehost:4 --bootstrap-addr 127.0.0.1 \
        --launch-agent "$T/proxyagent.sh" "$FAULTS" hello >"$d/out" 2>"$d/err"
    local rc=$? took; took=$(since "$start")
    touch "$d/stop"; wait $proxy
    local secret; secret=$(no_secret "$name" "$d" 2>&1)
    local secret_ok=$?
    local replay; replay=$(cat "$d/replay" 2>/dev/null)
    if [ "$mode" = inject ]; then
        # A message written into a member's connection by someone without
        # the secret does not verify: the connection is dropped, and its
        # forged ABORT (status 0) does not end the job cleanly.
        if [ $rc -ne 0 ] && [ $secret_ok = 0 ] && [ -s "$d/injected" ] &&
            grep -q "does not verify" "$d/err" && ! grep -q "aborted the job" "$d/err" && le "$took" 15; then
            pass "$name: a forged ABORT(0) injected into PE $(cat "$d/injected")'s connection is refused, the job fails (status $rc, ${took}s)"
        else
            fail "$name: status $rc after ${took}s; $secret" "$d/err" "$d/proxy.log"
        fi
        return
    fi
    if [ $rc -eq 0 ] && grep -q "hello from 4 PEs" "$d/out" && [ $secret_ok = 0 ] && [ "$replay" = refused ] &&
        grep -Eq "refused a bootstrap connection from 127\.0\.0\.1 port [0-9]+: not a member of this job" "$d/err" &&
        le "$took" 15; then
        pass "$name: $secret; a replayed HELLO is refused (${took}s)"
    else
        fail "$name: status $rc after ${took}s; $secret; replay: ${replay:-none}" "$d/out" "$d/err" "$d/proxy.log"
    fi
}

capture_uid() {
    local name=$1 d=$T/$1
    mkdir -p "$d"
    "$PY" "$PROXY" proxy "$d" >"$d/proxy.log" 2>&1 &
    local proxy=$!
    local start; start=$(now)
    timeout 40 "$UID_TRUST" proxy "$d" 3 >"$d/out" 2>"$d/err"
    local rc=$? took; took=$(since "$start")
    touch "$d/stop"; wait $proxy
    local secret; secret=$(no_secret "$name" "$d" 2>&1)
    local secret_ok=$?
    local replay; replay=$(cat "$d/replay" 2>/dev/null)
    if [ $rc -eq 0 ] && grep -q "3 processes passed" "$d/out" && [ $secret_ok = 0 ] && [ "$replay" = refused ] &&
        grep -Eq "rendezvous: refused a bootstrap connection from 127\.0\.0\.1 port [0-9]+: not a member of this job" "$d/err" &&
        le "$took" 15; then
        pass "$name: $secret; a replayed HELLO is refused (${took}s)"
    else
        fail "$name: status $rc after ${took}s; $secret; replay: ${replay:-none}" "$d/out" "$d/err" "$d/proxy.log"
    fi
}

# ---- rendezvous: strangers that say nothing or drip a HELLO ----
rendezvous_strangers() {
    local silent=$1 slow=$2
    local n=$((silent + slow))
    local name="the rendezvous with $silent silent and $slow slow strangers"
    timeout 40 "$UID_TRUST" strangers 3 "$PY" "$PROXY" strangers "$silent" "$slow" 9 >"$T/out" 2>"$T/err"
    local rc=$?
    local took; took=$(sed -n 's/.*passed in \([0-9.]*\) s.*/\1/p' "$T/out")
    local closed; closed=$(sed -n "s/^closed $n of $n after \([0-9.]*\) s/\1/p" "$T/out")
    # Start-up goes on while the strangers are held; each is dropped at the
    # deadline for a whole HELLO (5 s from its accept, which comes at rank
    # 0's first fence, after the driver's 0.5 s head start).
    if [ $rc -eq 0 ] && [ -n "$took" ] && le "$took" 3 && [ -n "$closed" ] && le "$closed" 7.5 &&
        grep -q "refused a bootstrap connection from .*: no job secret within 5 s" "$T/err"; then
        pass "$name: start-up took ${took}s, the strangers were closed after ${closed}s"
    else
        fail "$name: status $rc, start-up ${took:-?}s, strangers closed after ${closed:-?}s" "$T/out" "$T/err"
    fi
}

# ---- liveness ----
# Waits until the job whose PE 0 writes to $1 is in its loop (20 s at most).
looping() {
    for _ in $(seq 400); do grep -q looping "$1" 2>/dev/null && return; sleep 0.05; done
}

# stopped NAME OPTIONS STATUS MAX_S PATTERN: a PE stopped with SIGSTOP once
# the job runs; within MAX_S of that, the job must end naming it.
stopped() {
    local name=$1 opts=$2 want=$3 max=$4 pattern=$5
    # shellcheck disable=SC2086
    "$OSHRUN" $opts -np 4 "$FAULTS" loop >"$T/out" 2>"$T/err" &
    local job=$! pe=""
    looping "$T/out"
    local start; start=$(now)
    pe=$(pgrep -P $job | sed -n 2p)
    [ -n "$pe" ] && kill -STOP "$pe"
    for _ in $(seq $((max * 10 + 20))); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
    local took; took=$(since "$start")
    if kill -0 $job 2>/dev/null; then
        kill -9 $job; [ -n "$pe" ] && kill -9 "$pe"
        fail "$name: still running after ${took}s" "$T/err"; wait $job; return
    fi
    wait $job
    local rc=$?
    [ -n "$pe" ] && kill -CONT "$pe" 2>/dev/null
    if [ -n "$pe" ] && [ $rc -eq "$want" ] && le "$took" "$max" &&
        grep -Eq "PE [0-9]+ \(pid $pe, stopped\)$pattern" "$T/err"; then
        pass "$name (status $rc, ${took}s): $(grep -E "pid $pe" "$T/err" | sed 's/^oshrun: *//' | head -1)"
    else
        fail "$name: status $rc (want $want) after ${took}s (max $max), stopped pid ${pe:-none}" "$T/err"
    fi
}

# killed NAME OSHRUN_OPTIONS...: kill -9 of oshrun while its PEs run.
killed() {
    local name=$1
    shift
    "$OSHRUN" "$@" -np 4 "$FAULTS" loop >"$T/out" 2>"$T/err" &
    local job=$! n=0
    looping "$T/out" # past the first fence, where PEs start watching
    n=$(pes_of loop | wc -l)
    kill -9 $job
    local start; start=$(now)
    wait $job 2>/dev/null
    local left
    for _ in $(seq 20); do
        left=$(pes_of loop | wc -l)
        [ "$left" = 0 ] && break
        sleep 0.1
    done
    local took; took=$(since "$start")
    if [ "$n" -ge 4 ] && [ "$left" = 0 ]; then
        pass "$name: no PE alive ${took}s after kill -9 of oshrun"
    else
        fail "$name: $left of $n PEs alive ${took}s after kill -9 of oshrun" "$T/err"
        pes_of loop | xargs -r kill -9
    fi
}

# ---- output ----
stalled_reader() {
    local name="a PE killed while nobody reads oshrun's standard output"
    mkfifo "$T/fifo"
    # The reader opens the FIFO and never reads.
    sleep 30 <"$T/fifo" &
    local reader=$!
    "$OSHRUN" -np 4 "$FAULTS" chatty >"$T/fifo" 2>"$T/err" &
    local job=$!
    sleep 2.5
    local rss; rss=$(awk '/VmRSS/ {print $2}' /proc/$job/status 2>/dev/null)
    local pe; pe=$(pgrep -P $job | sed -n 3p)
    local start; start=$(now)
    [ -n "$pe" ] && kill -9 "$pe"
    for _ in $(seq 50); do kill -0 $job 2>/dev/null || break; sleep 0.05; done
    local took; took=$(since "$start")
    local alive=0
    kill -0 $job 2>/dev/null && { alive=1; kill -9 $job; }
    wait $job
    local rc=$?
    kill $reader 2>/dev/null; wait $reader 2>/dev/null
    # Back-pressure: oshrun holds a bounded queue, not all PE 0 wrote.
    if [ -n "$pe" ] && [ $alive = 0 ] && [ $rc -eq 137 ] && le "$took" 2 && [ "${rss:-99999}" -lt 32768 ] &&
        grep -q "was killed by signal 9" "$T/err"; then
        pass "$name: oshrun ended ${took}s after the kill (status $rc; ${rss} KiB resident while stalled)"
    else
        fail "$name: status $rc, ${took}s after the kill, still running: $alive, ${rss:-?} KiB" "$T/err"
    fi
}

# ---- memory ----
# A memory cgroup of 64 MiB, where one PE asks for 400: the OOM killer's
# kill is named as such.
oom() {
    local name="a PE killed by the OOM killer"
    local base=""
    if [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        base=/sys/fs/cgroup limit=memory.max
    elif [ -d /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/memory ]; then
        base=/sys/fs/cgroup/memory limit=memory.limit_in_bytes
    fi
    CGROUP=$base/oshm_trust_$$
    if [ -z "$base" ] || ! mkdir "$CGROUP" 2>/dev/null || ! echo $((64 << 20)) >"$CGROUP/$limit" 2>/dev/null; then
        echo "skip $name (no memory cgroup to make here)"
        CGROUP=""
        return
    fi
    [ -e "$CGROUP/memory.swap.max" ] && echo 0 >"$CGROUP/memory.swap.max"
    local start; start=$(now)
    (echo $BASHPID >"$CGROUP/cgroup.procs" && exec timeout 30 "$OSHRUN" -np 2 "$FAULTS" hog 1 400) >"$T/out" 2>"$T/err"
    local rc=$? took; took=$(since "$start")
    if [ $rc -eq 137 ] && grep -Eq "PE 1 \(pid [0-9]+\) was killed by signal 9 \(Killed\): out of memory, the kernel's OOM killer ended it" "$T/err"; then
        pass "$name: $(sed 's/^oshrun: //' "$T/err" | head -1) (${took}s)"
    else
        fail "$name: status $rc after ${took}s" "$T/out" "$T/err"
    fi
}

# Split nodes on one host talk through UCX: none of the shared memory the
# PEs create is open to the job's group or to others (/proc/sysvipc/shm:
# UCX's System V segments are 0660).
ucx_segments() {
    local name="UCX between split nodes of this host"
    if ! "$(dirname "$OSHRUN")/oshm_info" 2>/dev/null | grep -qi 'ucx'; then
        echo "skip $name (no UCX)"; return
    fi
    rm -f "$T/hold"
    SHMEM_NODE_ID=%2p SHMEM_TRANSPORT=auto timeout 30 "$OSHRUN" -np 4 "$FAULTS" hold "$T/hold" >"$T/out" 2>"$T/err" &
    local job=$! pids=""
    for _ in $(seq 100); do
        pids=$(pes_of hold | tr '\n' ' ')
        [ "$(echo $pids | wc -w)" -ge 4 ] && break
        sleep 0.05
    done
    sleep 1.5
    # perms is octal: its last two digits are the group's and others'.
    local open; open=$(awk -v pids=" $pids " 'NR > 1 && index(pids, " " $5 " ") && substr($3, length($3) - 1) != "00" {print "shmid " $2 " mode " $3}' /proc/sysvipc/shm)
    local mine; mine=$(awk -v pids=" $pids " 'NR > 1 && index(pids, " " $5 " ") {n++} END {print n + 0}' /proc/sysvipc/shm)
    touch "$T/hold"
    wait $job
    local rc=$?
    if [ $rc -eq 0 ] && grep -q "hold ok" "$T/out" && [ -z "$open" ]; then
        pass "$name: no segment open beyond the owner ($mine System V segments of the PEs, all owner-only)"
    else
        fail "$name: status $rc; segments open to group or others: ${open:-none}" "$T/out" "$T/err"
    fi
}

case $GROUP in
capture)
    capture_launcher "the TCP bootstrap seen and replayed" ""
    capture_launcher "the TCP bootstrap with a forged message" inject
    capture_uid "the unique id's rendezvous seen and replayed" ;;
rendezvous)
    rendezvous_strangers 6 2 ;;
liveness)
    stopped "a stopped PE under --timeout 6" "--timeout 6" 124 7 ": (silent for [0-9.]+ s; last )?in (shmem_|the program)"
    stopped "a stopped PE under --heartbeat 2" "--heartbeat 2" 1 4 ": silent for [0-9.]+ s; last in (shmem_|the program)"
    killed "oshrun killed, PEs of this host"
    killed "oshrun killed, PEs started through a launch agent" --host fakehost:4 --bootstrap-addr 127.0.0.1 --launch-agent "$T/agent.sh" ;;
output)
    stalled_reader ;;
memory)
    oom
    ucx_segments ;;
*)
    echo "unknown group $GROUP"; exit 2 ;;
esac
echo "trust ($GROUP): $passes passed, $failures failed"
[ "$failures" -eq 0 ]
