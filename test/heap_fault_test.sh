#!/bin/bash
# A load or store to symmetric memory that no allocation covers: the PE
# still dies by the signal (non-zero job status), but first the library says
# which address faulted, that it lies in the symmetric (or device) heap
# outside any allocation, the range, and who made the access. No /dev/shm
# file is left behind.
#   heap_fault_test.sh OSHRUN HEAP_FAULT_PROGRAM
set -u
OSHRUN=$1 PROG=$2
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
failures=0 passes=0
# Only this user's files: other users' jobs may come and go meanwhile.
shm_before=$(find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" -printf '%f\n' 2>/dev/null | sort)

# expect NAME NPES MODE PATTERN... : every extended regex must match stderr.
expect() {
    local name=$1 np=$2 mode=$3
    shift 3
    local start=$SECONDS
    SHMEM_SYMMETRIC_SIZE=64M timeout 30 "$OSHRUN" -np "$np" "$PROG" "$mode" >"$out" 2>"$err"
    local got=$? took=$((SECONDS - start)) ok=1 why=""
    # Killed by the signal (128+7 or 128+11), or a sanitizer's exit after
    # its own report; never 0, never a hang (124), never "did not fault" (3).
    case $got in 0 | 3 | 124) ok=0 why="status $got" ;; esac
    [ "$took" -le 10 ] || { ok=0; why="$why, ${took}s"; }
    for pattern in "$@"; do
        grep -Eq -- "$pattern" "$err" || { ok=0; why="$why, no \"$pattern\""; }
    done
    if [ $ok = 1 ]; then
        passes=$((passes + 1)); echo "ok   $name (status $got)"
    else
        failures=$((failures + 1))
        echo "FAIL $name:$why; stdout:"; sed 's/^/     /' "$out"
        echo "     stderr:"; sed 's/^/     /' "$err"
    fi
}

# The address the program printed (stdout, before the access).
printed() { grep -Eo '0x[0-9a-f]+' "$out" | head -1; }

heap_msg="in the symmetric heap \[0x[0-9a-f]+, 0x[0-9a-f]+\) at offset 0x[0-9a-f]+, outside any allocation"
for np in 1 2; do
    expect "store beyond every allocation, $np PEs" $np store \
        "shmem\[PE 0\]: error: SIGBUS at address 0x[0-9a-f]+, $heap_msg" \
        "in the program, not in an OpenSHMEM routine"
    addr=$(printed)
    if [ -n "$addr" ] && grep -q "SIGBUS at address $addr," "$err"; then
        passes=$((passes + 1))
    else
        failures=$((failures + 1)); echo "FAIL store, $np PEs: the message does not name $addr"
    fi
done
# The fault lies in this PE's mapping of PE 1's heap.
expect "shmem_putmem beyond every allocation" 2 put \
    "SIGBUS at address 0x[0-9a-f]+, in PE 1's symmetric heap as mapped here \[0x[0-9a-f]+, 0x[0-9a-f]+\) at offset 0x[0-9a-f]+, outside any allocation" \
    "in shmem_putmem"
expect "shmem_getmem beyond every allocation" 2 get \
    "SIGBUS at address 0x[0-9a-f]+, in PE 1's symmetric heap as mapped here" "in shmem_getmem"
expect "store beyond the device heap's allocations" 2 device \
    "SIGBUS at address 0x[0-9a-f]+, in the device heap \[0x[0-9a-f]+, 0x[0-9a-f]+\) at offset 0x[0-9a-f]+, outside any allocation" \
    "in the program"

shm_after=$(find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" -printf '%f\n' 2>/dev/null | sort)
if [ "$shm_before" != "$shm_after" ]; then
    failures=$((failures + 1))
    echo "FAIL files left in /dev/shm:"; comm -13 <(echo "$shm_before") <(echo "$shm_after")
fi
echo "heap_fault: $passes passed, $failures failed"
[ $failures = 0 ]
