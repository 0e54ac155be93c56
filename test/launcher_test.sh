#!/bin/bash
# oshrun and the library facing failures: every case states the exit status
# and the message it must produce, and must end quickly.
#   launcher_test.sh OSHRUN FAULTS_PROGRAM RING_PROGRAM
set -u
OSHRUN=$1 FAULTS=$2 RING=$3
# Under AddressSanitizer a PE's fatal signal must still be a fatal signal.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
failures=0 passes=0

# expect NAME STATUS STDERR_REGEX MAX_SECONDS -- command...
expect() {
    local name=$1 want=$2 pattern=$3 max=$4
    shift 5
    local start=$SECONDS
    timeout 30 "$@" >"$out" 2>"$err"
    local got=$? took=$((SECONDS - start))
    local ok=1
    if [ "$want" = nonzero ]; then [ "$got" -ne 0 ] || ok=0; else [ "$got" -eq "$want" ] || ok=0; fi
    if [ -n "$pattern" ] && ! grep -Eq "$pattern" "$err"; then ok=0; fi
    [ "$took" -le "$max" ] || ok=0
    if [ $ok = 1 ]; then
        passes=$((passes + 1)); echo "ok   $name (status $got, ${took}s)"
    else
        failures=$((failures + 1))
        echo "FAIL $name: status $got (want $want), ${took}s (max $max), stderr:"; sed 's/^/     /' "$err"
    fi
}

# Only this user's files: other users' jobs may come and go meanwhile.
shm_before=$(find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" -printf '%f\n' 2>/dev/null | sort)

expect "PE killed by SIGSEGV ends the job" 139 "PE 1 \(pid [0-9]+\) was killed by signal 11" 5 \
    -- "$OSHRUN" -np 4 "$FAULTS" signal 1
expect "PE killed by SIGKILL, 8 PEs" 137 "PE 5 \(pid [0-9]+\) was killed by signal 9" 5 \
    -- "$OSHRUN" -np 8 "$FAULTS" signal 5 9
# Two nodes over UCX tcp: SHMEM_TRANSPORT=auto then asks libfabric too, whose
# providers install handlers of their own for SIGSEGV; the PE must still die
# of its signal.
if "$(dirname "$OSHRUN")/oshm_info" 2>/dev/null | grep -qi 'ucx'; then
    expect "PE killed by SIGSEGV, two nodes over UCX tcp" 139 "PE 3 \(pid [0-9]+\) was killed by signal 11" 10 \
        -- env SHMEM_NODE_ID=%2p UCX_TLS=tcp "$OSHRUN" -np 4 "$FAULTS" signal 3
fi
# oshrun ignores SIGPIPE itself; its PEs must not inherit that.
expect "a PE starts with SIGPIPE at its default" 0 "" 5 \
    -- "$OSHRUN" -np 2 bash -c 'v=$(awk "/^SigIgn/{print \$2}" /proc/self/status); (( (0x$v & 0x1000) == 0 ))'
expect "first non-zero exit status is returned" 3 "PE 2 \(pid [0-9]+\) exited with status 3" 5 \
    -- "$OSHRUN" -np 3 "$FAULTS" exit 2 3
expect "shmem_global_exit ends every PE with its status" 7 "PE 0 called shmem_global_exit with status 7" 5 \
    -- "$OSHRUN" -np 4 "$FAULTS" global_exit 0 7
expect "shmem_global_exit(0) is a clean end" 0 "" 5 \
    -- "$OSHRUN" -np 2 "$FAULTS" global_exit 1 0
expect "leaving without shmem_finalize ends the job" 1 "PE 1 \(pid [0-9]+\) exited without shmem_finalize" 5 \
    -- "$OSHRUN" -np 3 "$FAULTS" quit 1
expect "a PE that exits 0 before shmem_init ends the job" 1 \
    "PE 2 \(pid [0-9]+\) exited with status 0 without calling shmem_init" 5 \
    -- "$OSHRUN" -np 4 "$FAULTS" exit_before_init 2
expect "a PE whose finalize at exit meets a barrier ends the job" 1 \
    "PE 1 \(pid [0-9]+\) completed shmem_finalize \(at exit: the program did not call it\) and exited, but PEs 0, 2 did not" 15 \
    -- "$OSHRUN" -np 3 "$FAULTS" exit_without_finalize 1
# The others leave shmem_finalize at once; PE 2 ends its teardown 8 s later,
# past the 5 s given to PEs that never met the others in shmem_finalize.
expect "a PE slow to end its teardown in shmem_finalize is waited for" 0 "" 15 \
    -- "$OSHRUN" -np 3 "$FAULTS" slow_teardown 2 8
expect "every PE leaving without shmem_finalize is a clean end" 0 "" 5 \
    -- "$OSHRUN" -np 4 "$FAULTS" all_exit_without_finalize
expect "invalid PE is a clear error" nonzero "shmem_long_p: PE 2 does not exist \(the job has PEs 0 to 1\)" 5 \
    -- "$OSHRUN" -np 2 "$FAULTS" bad_pe
expect "non-symmetric address is a clear error" nonzero "shmem_long_put: address 0x[0-9a-f]+ .* is not symmetric" 5 \
    -- "$OSHRUN" -np 2 "$FAULTS" bad_addr
expect "freeing a non-heap pointer is a clear error" nonzero "shmem_free: 0x[0-9a-f]+ was not returned by a symmetric allocation" 5 \
    -- "$OSHRUN" -np 2 "$FAULTS" free_stack
expect "SHMEM_DEBUG: different allocation sizes are a clear error" nonzero \
    "shmem_malloc: this PE asks for 128 bytes aligned to 0, PE 0 for 64 aligned to 0" 5 \
    -- env SHMEM_DEBUG=1 "$OSHRUN" -np 2 "$FAULTS" asymmetric_malloc
expect "bad SHMEM_SYMMETRIC_SIZE is a clear error" nonzero 'SHMEM_SYMMETRIC_SIZE="12Q" is not a size' 5 \
    -- env SHMEM_SYMMETRIC_SIZE=12Q "$OSHRUN" -np 2 "$RING"
expect "a stranger cannot join the bootstrap" 0 "refused a bootstrap connection from pid [0-9]+: not a member" 10 \
    -- "$OSHRUN" -np 2 "$FAULTS" stranger
grep -q "stranger refused" "$out" || { failures=$((failures + 1)); echo "FAIL stranger: PE 0 did not report"; }
expect "a stranger cannot join the TCP bootstrap" 0 \
    "refused a bootstrap connection from 127\.0\.0\.1 port [0-9]+: not a member" 10 \
    -- "$OSHRUN" --bootstrap tcp -np 2 "$FAULTS" stranger
grep -q "stranger refused" "$out" || { failures=$((failures + 1)); echo "FAIL TCP stranger: PE 0 did not report"; }
expect "bad SHMEM_TRANSPORT is a clear error" nonzero 'SHMEM_TRANSPORT="rdma" is not one of the choices; accepted: auto, shm, ucx or ofi' 5 \
    -- env SHMEM_TRANSPORT=rdma "$OSHRUN" -np 2 "$RING"
expect "SHMEM_TRANSPORT=shm across nodes is a clear error" nonzero \
    "SHMEM_TRANSPORT=shm, but PE [01] runs on another node .* shared memory reaches only PEs of one node" 5 \
    -- env SHMEM_TRANSPORT=shm SHMEM_NODE_ID=%p "$OSHRUN" -np 2 "$RING"
expect "more PEs than host slots is a usage error" 2 "3 PEs do not fit in the 2 slots" 2 \
    -- "$OSHRUN" -np 3 --host localhost:2 "$RING"
if "$FAULTS" device_on_host 2>&1 | grep -q "unknown mode"; then
    echo "no simulated device in this build (OSHM_WITH_DEVICE=OFF): its two checks left out"
else
expect "a device routine on the host is a clear error" nonzero \
    "shmemd_quiet is a device routine: call it from a kernel" 5 -- "$OSHRUN" -np 2 "$FAULTS" device_on_host
expect "a kernel naming a bad PE is a clear error" nonzero \
    "shmemd_long_p: PE 5 does not exist \(the job has PEs 0 to 1\)" 5 -- "$OSHRUN" -np 2 "$FAULTS" device_bad_pe
fi
expect "bad -np is a usage error" 2 "number of PEs must be a whole number" 2 -- "$OSHRUN" -np zero "$RING"
expect "missing program is reported" 127 "cannot run '/nonexistent/prog'" 5 -- "$OSHRUN" -np 2 /nonexistent/prog
expect "-x sets a variable for every PE" 0 "" 5 -- "$OSHRUN" -np 2 -x SHMEM_SYMMETRIC_SIZE=32M "$RING"

# SHMEM_VERSION and SHMEM_INFO: PE 0 prints, once.
expect "SHMEM_VERSION and SHMEM_INFO" 0 "" 5 -- env SHMEM_VERSION=1 SHMEM_INFO=yes "$OSHRUN" -np 3 "$RING"
if [ "$(grep -c "OpenSHMEM 1.6" "$out")" -eq 1 ] && [ "$(grep -c "SHMEM_SYMMETRIC_SIZE" "$out")" -eq 1 ]; then
    passes=$((passes + 1)); echo "ok   version and variables printed once"
else
    failures=$((failures + 1)); echo "FAIL SHMEM_VERSION/SHMEM_INFO output:"; sed 's/^/     /' "$out"
fi

# Output is forwarded line by line: no line of one PE is cut by another's.
expect "output of 4 PEs at once" 0 "" 20 -- "$OSHRUN" -np 4 "$FAULTS" lines
lines=$(grep -cE '^PE [0-3] line [0-9]+ \.{64}$' "$out")
total=$(wc -l <"$out")
if [ "$lines" -eq 8000 ] && [ "$total" -eq 8000 ]; then
    passes=$((passes + 1)); echo "ok   every forwarded line whole (8000)"
else
    failures=$((failures + 1)); echo "FAIL forwarded lines: $lines whole of $total, want 8000"
fi

# No PE left behind, no shared-memory file left behind.
sleep 0.2
# Only this build's program: another build's tests may run at the same time.
if pgrep -f "^$FAULTS( |\$)" >/dev/null; then
    failures=$((failures + 1)); echo "FAIL PEs still running:"; pgrep -af "^$FAULTS( |\$)"
else
    passes=$((passes + 1)); echo "ok   no PE left running"
fi
shm_after=$(find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" -printf '%f\n' 2>/dev/null | sort)
if [ "$shm_before" = "$shm_after" ]; then
    passes=$((passes + 1)); echo "ok   no file left in /dev/shm"
else
    failures=$((failures + 1)); echo "FAIL files left in /dev/shm:"; comm -13 <(echo "$shm_before") <(echo "$shm_after")
fi

echo "launcher: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
