#!/bin/bash
# Routines called before shmem_init or after shmem_finalize: each must say
# plainly that the library is not initialized / finalized, name the routine,
# and end the PE with the library's error status, not a crash.
#   uninit_test.sh OSHRUN UNINIT_PROGRAM
set -u
OSHRUN=$1 PROG=$2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
failures=0 passes=0

routines="shmem_putmem shmem_int_g shmem_int_atomic_fetch_add shmem_int_sum_reduce
          shmem_int_sum_to_all shmem_barrier_all shmem_malloc shmem_my_pe shmem_n_pes
          shmem_quiet shmem_int_wait_until shmem_int_test_any"
for when in before after; do
    for r in $routines; do
        if [ $when = before ]; then
            want="$r: the OpenSHMEM library is not initialized"
        else
            want="$r: the OpenSHMEM library is finalized"
        fi
        # Under oshrun (2 PEs) and on its own (a singleton).
        for how in oshrun single; do
            if [ $how = oshrun ]; then
                timeout 30 "$OSHRUN" -np 2 "$PROG" $when $r >/dev/null 2>"$err"
            else
                timeout 30 "$PROG" $when $r >/dev/null 2>"$err"
            fi
            got=$?
            ok=1
            if [ $when = after ] && { [ $r = shmem_my_pe ] || [ $r = shmem_n_pes ]; }; then
                # After finalize these still answer, as other implementations
                # do: programs print their PE number on the way out.
                out=$(timeout 30 "$PROG" after $r 2>/dev/null)
                got=$?
                if [ $got -eq 3 ] && [ "$out" = "$r returned $([ $r = shmem_my_pe ] && echo 0 || echo 1)" ]; then
                    passes=$((passes + 1))
                else
                    failures=$((failures + 1))
                    echo "FAIL $r after finalize ($how): status $got, printed '$out'"
                fi
                continue
            fi
            # 1: the library's error status; never 124 (hang), 128+n (signal),
            # 3 (the call returned).
            [ $got -eq 1 ] || ok=0
            grep -qF "$want" "$err" || ok=0
            if grep -Eq "signal|Segmentation|SIGSEGV|AddressSanitizer" "$err"; then ok=0; fi
            if [ $ok = 1 ]; then
                passes=$((passes + 1))
            else
                failures=$((failures + 1))
                echo "FAIL $r $when init ($how): status $got (want 1), want \"$want\"; stderr:"
                sed 's/^/     /' "$err"
            fi
        done
    done
done
echo "uninit: $passes passed, $failures failed"
[ $failures = 0 ]
