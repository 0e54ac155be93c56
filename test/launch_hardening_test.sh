#!/bin/bash
# oshrun against strangers and limits: processes of this machine that find
# the bootstrap socket and misbehave on it, where the TCP bootstrap listens,
# and jobs larger than the open-file limit. Every case has a time bound.
#   launch_hardening_test.sh OSHRUN FAULTS_PROGRAM STRANGER_SCRIPT
set -u
OSHRUN=$1 FAULTS=$2 STRANGER=$3
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0 passes=0
pass() { passes=$((passes + 1)); echo "ok   $*"; }
fail() {
    failures=$((failures + 1)); echo "FAIL $1"; shift
    for f in "$@"; do [ -s "$f" ] && sed 's/^/     /' "$f"; done
}
# Only this user's files: other users' jobs may come and go meanwhile.
shm_before=$(find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" -printf '%f\n' 2>/dev/null | sort)

# The PEs wait for a file before they start, so that a stranger can be the
# first to connect.
cat >"$T/gate.sh" <<'EOF'
#!/bin/sh
i=0
while [ ! -e "$GATE" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
exec "$@"
EOF
chmod +x "$T/gate.sh"

# The pid of the oshrun that `timeout` (pid $1) started.
oshrun_pid() {
    local p
    for _ in $(seq 100); do
        p=$(pgrep -P "$1" -x oshrun) && { echo "$p"; return; }
        sleep 0.02
    done
}

# attack NAME "OSHRUN OPTIONS" MODE COUNT LIMIT_S STDERR_REGEX [RUN_AS...]
# A 4-PE job whose PEs start only once COUNT strangers are connected and
# whose PE 0 keeps it running until every stranger was dropped; the
# strangers must be dropped within LIMIT_S seconds, the refusal logged, and
# the job must end correctly within 30 s.
attack() {
    local name=$1 opts=$2 mode=$3 count=$4 limit=$5 pattern=$6
    shift 6
    rm -f "$T/go" "$T/hold"
    local start=$SECONDS
    # shellcheck disable=SC2086
    GATE=$T/go timeout 40 "$OSHRUN" $opts -np 4 "$T/gate.sh" "$FAULTS" hold "$T/hold" \
        >"$T/out" 2>"$T/err" &
    local tpid=$! pid
    pid=$(oshrun_pid $tpid)
    if [ -z "$pid" ]; then
        fail "$name: oshrun did not start" "$T/err"; wait $tpid; return
    fi
    timeout 30 "$@" "$STRANGER" "$pid" "$mode" "$count" "$T/go" "$limit" >"$T/stranger" 2>&1
    local src=$?
    touch "$T/go" "$T/hold"
    wait $tpid
    local rc=$? took=$((SECONDS - start))
    if [ $src -eq 0 ] && [ $rc -eq 0 ] && grep -q "hold ok" "$T/out" &&
        grep -Eq "$pattern" "$T/err" && [ $took -le 30 ]; then
        pass "$name ($(cat "$T/stranger"); job status 0 in ${took}s)"
    else
        fail "$name: stranger status $src, job status $rc after ${took}s" "$T/stranger" "$T/out" "$T/err"
    fi
}

if command -v python3 >/dev/null; then
    PY=$(command -v python3)
    attack "a silent stranger first in line" "" silent 1 9 \
        "refused a bootstrap connection from pid [0-9]+: no job secret within 5 s" "$PY"
    attack "a stranger that sends one byte and stops" "" byte 1 9 \
        "refused a bootstrap connection from pid [0-9]+: no job secret within 5 s" "$PY"
    attack "strangers with a wrong secret (right length, and one announced as 64 MiB)" "" \
        wrong,huge 2 3 "refused a bootstrap connection from pid [0-9]+: not a member of this job" "$PY"
    attack "a flood of 200 strangers" "" silent,byte,wrong,huge 200 9 \
        "refused 200 bootstrap connections in all" "$PY"
    attack "a silent stranger on the TCP bootstrap" "--bootstrap tcp" silent 1 9 \
        "refused a bootstrap connection from 127\.0\.0\.1 port [0-9]+: no job secret within 5 s" "$PY"
    attack "strangers with a wrong secret on the TCP bootstrap" "--bootstrap tcp" wrong,huge 2 3 \
        "refused a bootstrap connection from 127\.0\.0\.1 port [0-9]+: not a member of this job" "$PY"
    # Another user: refused at once, before it could send anything. The
    # system's python3, which that user can run.
    if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && [ -x /usr/bin/python3 ]; then
        chmod 755 "$T" "$STRANGER" 2>/dev/null
        chmod 1777 "$T"
        attack "a silent stranger of another user" "" silent 1 3 \
            "refused a bootstrap connection from pid [0-9]+ \(uid 65534\): another user" \
            setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3
        chmod 700 "$T"
    else
        echo "skip another user's stranger (needs root, setpriv and /usr/bin/python3)"
    fi
else
    echo "skip the strangers (no python3)"
fi

# With every PE on this machine the TCP bootstrap listens on loopback only.
rm -f "$T/hold"
timeout 30 "$OSHRUN" --bootstrap tcp -np 2 "$FAULTS" hold "$T/hold" >"$T/out" 2>"$T/err" &
tpid=$!
pid=$(oshrun_pid $tpid)
listening=""
for _ in $(seq 100); do
    listening=$(ss -ltnpH 2>/dev/null | grep "pid=$pid," | awk '{print $4}')
    [ -n "$listening" ] && break
    sleep 0.05
done
touch "$T/hold"
wait $tpid
rc=$?
if [ $rc -eq 0 ] && [ -n "$listening" ] && ! echo "$listening" | grep -qv '^127\.0\.0\.1:'; then
    pass "the local TCP bootstrap listens on $listening only"
else
    fail "local TCP bootstrap: status $rc, listening on '${listening:-nothing found}'" "$T/err"
fi

# Open files: more PEs than a soft limit allows run, since oshrun and each
# PE raise it to the hard limit. NPES PEs need about 3 * NPES + 32
# descriptors each, so from about 330 PEs on 1024 is too few (before, such a
# job hung or failed with "Input/output error"). 400 PEs take about 45 s on
# 2 busy cores; OSHM_TEST_FDLIMIT_NPES sets that case's size (0: skipped,
# as in sanitizer builds, where the 100-PE case shows the same).
# fdlimit NAME SOFT NPES MAX_S
fdlimit() {
    local name=$1 soft=$2 n=$3 max=$4 start=$SECONDS
    (ulimit -Sn "$soft" && exec timeout $((max + 30)) "$OSHRUN" -np "$n" "$FAULTS" hello) \
        >"$T/out" 2>"$T/err"
    local rc=$? took=$((SECONDS - start))
    if [ $rc -eq 0 ] && grep -q "hello from $n PEs" "$T/out" && [ $took -le "$max" ]; then
        pass "$name (${took}s)"
    else
        fail "$name: status $rc after ${took}s (max $max)" "$T/out" "$T/err"
    fi
}
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 2048 ]; then
    fdlimit "100 PEs under a soft limit of 256 open files" 256 100 30
    n=${OSHM_TEST_FDLIMIT_NPES:-400}
    if [ "$n" -gt 0 ]; then
        fdlimit "$n PEs under a soft limit of 1024 open files" 1024 "$n" 150
    else
        echo "skip the 1024-file case (OSHM_TEST_FDLIMIT_NPES=0)"
    fi
else
    echo "skip the soft-limit cases (hard limit $hard)"
fi
# A hard limit too low fails up front, with the numbers (ulimit -n sets
# both limits).
start=$SECONDS
(ulimit -n 64 && exec timeout 20 "$OSHRUN" -np 30 "$FAULTS" hello) >"$T/out" 2>"$T/err"
rc=$? took=$((SECONDS - start))
if [ $rc -eq 1 ] && [ $took -le 5 ] &&
    grep -Eq "30 PEs .*need about 122 open files .*but the limit is 64" "$T/err"; then
    pass "a hard limit of 64 for 30 PEs: $(cat "$T/err")"
else
    fail "hard limit of 64 for 30 PEs: status $rc after ${took}s" "$T/out" "$T/err"
fi

# A PE keeps no descriptor per peer (it maps a peer's memory and closes the
# file): the most files a PE holds after a put to every PE does not grow
# with the job, and a PE limited to 64 runs in a job of many more. Nor do
# its mappings: a peer reached by one put and one get is not mapped
# (src/transport/shm: copied through the kernel), and reductions over many
# PEs read some 2 sqrt(n) peers, not all; nor does one PE map every peer
# to release the others from a barrier (a tree of at most 64 children a
# PE, src/team/barrier.c): the most mappings of any PE grows by at most
# those 64 and some 4 sqrt(n).
# everyone N [WRAP...]: "FILES MAPPINGS MOST" (most files a PE, mappings a
# PE on average, most mappings of a PE), or empty on failure
everyone() {
    local n=$1
    shift
    timeout 120 "$OSHRUN" -np "$n" "$@" "$FAULTS" everyone >"$T/out" 2>"$T/err" &&
        sed -n "s/^everyone ok: $n PEs, at most \([0-9]*\) open files a PE, \([0-9]*\) mappings a PE on average, \([0-9]*\) at most$/\1 \2 \3/p" "$T/out"
}
base=$(everyone 8)
n=${OSHM_TEST_SCALE_NPES:-160}
start=$SECONDS
many=$(everyone "$n" sh -c 'ulimit -n 64 && exec "$0" "$@"')
took=$((SECONDS - start))
read -r base_fds base_maps base_most <<<"${base:-}" || true
read -r many_fds many_maps many_most <<<"${many:-}" || true
if [ -n "$base_fds" ] && [ -n "$many_fds" ] && [ "$many_fds" -le $((base_fds + 2)) ]; then
    pass "open files a PE after a put to every PE: $base_fds at 8 PEs, $many_fds at $n PEs limited to 64 each (${took}s)"
else
    fail "open files a PE: '${base_fds}' at 8 PEs, '${many_fds}' at $n PEs limited to 64 each" "$T/out" "$T/err"
fi
if [ -n "$base_maps" ] && [ -n "$many_maps" ] && [ "$many_maps" -le $((base_maps + 32)) ]; then
    pass "mappings a PE after a put and a get to every PE: $base_maps at 8 PEs, $many_maps at $n PEs"
else
    fail "mappings a PE: '${base_maps}' at 8 PEs, '${many_maps}' at $n PEs (a peer touched once mapped?)" "$T/out" "$T/err"
fi
most_limit=$(awk -v b="${base_most:-0}" -v n="$n" 'BEGIN { printf "%d", b + 64 + 4 * sqrt(n) }')
if [ -n "$base_most" ] && [ -n "$many_most" ] && [ "$many_most" -le "$most_limit" ]; then
    pass "most mappings of one PE: $base_most at 8 PEs, $many_most at $n PEs (at most $most_limit)"
else
    fail "most mappings of one PE: '${base_most}' at 8 PEs, '${many_most}' at $n PEs, more than $most_limit (one PE mapped every peer?)" "$T/out" "$T/err"
fi

# No PE left behind, no shared-memory file left behind.
sleep 0.2
if pgrep -f "^$FAULTS( |\$)" >/dev/null || pgrep -f "^$T/gate.sh" >/dev/null; then
    fail "PEs still running:"; pgrep -af "^$FAULTS( |\$)|^$T/gate.sh"
else
    pass "no PE left running"
fi
shm_after=$(find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" -printf '%f\n' 2>/dev/null | sort)
if [ "$shm_before" = "$shm_after" ]; then
    pass "no file left in /dev/shm"
else
    fail "files left in /dev/shm:"; comm -13 <(echo "$shm_before") <(echo "$shm_after")
fi

echo "launch hardening: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
