#!/bin/bash
# The environment table as a job sees it (test/env.cmake runs each case).
#   env_test.sh CASE OSHRUN SETUP ENV_HEAP
set -uo pipefail
case_=$1 oshrun=$2 setup=$3 env_heap=$4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL ($case_): $*"; echo "---- output ----"; cat "$out"; exit 1; }
# run NPES [VAR=VALUE...] -- PROGRAM ARGS: output in $out, status in $rc
run() {
    local np=$1; shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env -u SHMEM_INFO -u SHMEM_SYMMETRIC_SIZE -u SMA_SYMMETRIC_SIZE -u SMA_INFO \
        "${envs[@]}" timeout 60 "$oshrun" -np "$np" "$@" >"$out" 2>&1
    rc=$?
}
expect_refused() { # NPES VAR=VALUE TEXT...: the job fails, saying TEXT
    local np=$1 setting=$2; shift 2
    run "$np" "$setting" -- "$setup"
    [ "$rc" -ne 0 ] || fail "$setting: the job exited 0"
    for text in "$@"; do
        grep -qF -- "$text" "$out" || fail "$setting: no \"$text\" in the error"
    done
}
has() { grep -qF -- "$1" "$out" || fail "no \"$1\" in the output"; }
hasnt() { ! grep -qF -- "$1" "$out" || fail "\"$1\" in the output"; }
count() { grep -cF -- "$1" "$out"; }

case $case_ in
bad_size)
    expect_refused 2 SHMEM_SYMMETRIC_SIZE=12Q 'SHMEM_SYMMETRIC_SIZE="12Q"' 'accepted' \
        'K, M, G, T'
    expect_refused 2 SHMEM_DEVICE_HEAP_SIZE=-5M 'SHMEM_DEVICE_HEAP_SIZE="-5M"' 'accepted' ;;
bad_number)
    expect_refused 2 SHMEM_DEVICE_ENGINE_DELAY_US=soon 'SHMEM_DEVICE_ENGINE_DELAY_US="soon"' \
        'whole number'
    expect_refused 3 SHMEM_DEVICE_ENGINE_DELAY_US=99999999999 'out of range' '10000000' ;;
bad_choice)
    expect_refused 2 SHMEM_TRANSPORT=infiniband 'SHMEM_TRANSPORT="infiniband"' 'auto, shm, ucx or ofi'
    expect_refused 1 SHMEM_TRANSPORT=ucz 'did you mean ucx' ;;
bad_bool)
    expect_refused 2 SHMEM_PROGRESS_THREAD=maybe 'SHMEM_PROGRESS_THREAD="maybe"' 'yes' 'off' ;;
bad_alias)
    # A bad value under the deprecated name is named by that name.
    expect_refused 2 SMA_SYMMETRIC_SIZE=lots 'SMA_SYMMETRIC_SIZE="lots"' ;;
sma_size)
    for np in 1 3; do
        run "$np" SMA_SYMMETRIC_SIZE=8M -- "$env_heap" $((8 << 20)) $((64 << 20))
        [ "$rc" -eq 0 ] || fail "SMA_SYMMETRIC_SIZE=8M, $np PEs: status $rc"
        has passed
        has 'SMA_SYMMETRIC_SIZE is deprecated'
        has 'SHMEM_SYMMETRIC_SIZE'
        [ "$(count 'is deprecated')" -eq 1 ] || fail "the deprecation note is not said once"
    done ;;
precedence)
    # Both set: SHMEM_* wins, and the job says so.
    run 2 SHMEM_SYMMETRIC_SIZE=8M SMA_SYMMETRIC_SIZE=2G -- "$env_heap" $((8 << 20)) $((64 << 20))
    [ "$rc" -eq 0 ] || fail "status $rc"
    has passed
    has 'SHMEM_SYMMETRIC_SIZE="8M"'
    has 'SHMEM_SYMMETRIC_SIZE wins'
    run 2 SHMEM_SYMMETRIC_SIZE=1.5M -- "$env_heap" $((3 << 19)) $((64 << 20))
    [ "$rc" -eq 0 ] || fail "SHMEM_SYMMETRIC_SIZE=1.5M: status $rc"
    has passed ;;
unknown)
    run 3 SHMEM_SYMETRIC_SIZE=1G SHMEM_TRANSPRT=shm -- "$setup"
    [ "$rc" -eq 0 ] || fail "an unknown variable ended the job (status $rc)"
    has 'SHMEM_SYMETRIC_SIZE'
    has 'did you mean SHMEM_SYMMETRIC_SIZE?'
    has 'did you mean SHMEM_TRANSPORT?'
    [ "$(count 'SHMEM_SYMETRIC_SIZE is not')" -eq 1 ] || fail "the warning is not said once" ;;
info)
    for setting in SHMEM_INFO=1 SMA_INFO=yes; do
        run 2 "$setting" -- "$setup"
        [ "$rc" -eq 0 ] || fail "$setting: status $rc"
        for v in SHMEM_SYMMETRIC_SIZE SHMEM_DEBUG SHMEM_VERSION SHMEM_INFO SHMEM_TRANSPORT; do
            has "$v"
        done
        has 'default 1G'
        hasnt OSHRUN_SECRET
        [ "$(count '  SHMEM_SYMMETRIC_SIZE =')" -eq 1 ] || fail "$setting: not printed once"
    done
    run 1 SHMEM_INFO=1 SHMEM_SYMMETRIC_SIZE=64M -- "$setup"
    has 'SHMEM_SYMMETRIC_SIZE = 64M'
    run 2 SHMEM_INFO=0 -- "$setup"
    hasnt 'SHMEM_SYMMETRIC_SIZE =' ;;
version)
    run 2 SMA_VERSION=1 -- "$setup"
    [ "$rc" -eq 0 ] || fail "status $rc"
    has 'OpenSHMEM' ;;
*)
    echo "unknown case $case_"; exit 2 ;;
esac
echo "env $case_: passed"
