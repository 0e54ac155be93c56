#!/bin/bash
# The built-in profiler (SHMEM_PROFILE; README.md, "Profile"), checked by
# test/profile_check.py against programs with known traffic.
#   profile_test.sh counts shm|ucx BINDIR COUNTS
#       test/pe/profile_counts.c at 1, 2, 3 and 4 PEs under SHMEM_PROFILE=trace:
#       exact calls and bytes in PE 0's table, the per-PE files and comm.csv
#       (through shared memory, or UCX under SHMEM_TRANSPORT=ucx), and a
#       trace.json with every PE's spans, in time order and nested
#   profile_test.sh tools BINDIR COUNTS WRAPPED THREADS ALLGATHER
#       the sampled summary, a pshmem_* tool linked in (WRAPPED), threads and
#       contexts, a device kernel, a directory that cannot be written,
#       oshrun --profile, oshrun's merge of a trace whose last PE failed after
#       shmem_finalize, and oshm_prof on what the runs left
#   profile_test.sh pmix MPIRUN COUNTS
#       a trace under mpirun (PMIx): PE 0 merges it at shmem_finalize
set -u
mode=$1
check="python3 $(dirname "$0")/profile_check.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# run NAME CMD...: runs CMD (120 s at most) with its output in $T/NAME.out/.err
run() {
    local name=$1
    shift
    timeout 120 "$@" >"$T/$name.out" 2>"$T/$name.err" || {
        fail "$name: exit $? ($*)"
        sed 's/^/  /' "$T/$name.err" | tail -5
        return 1
    }
}
# verify NAME ARGS...: profile_check.py ARGS, failures named after NAME
verify() {
    local name=$1
    shift
    $check "$@" >"$T/check.out" || { fail "$name"; sed 's/^/  /' "$T/check.out"; }
}

if [ "$mode" = pmix ]; then
    mpirun=$2 counts=$3
    d=$T/pmix
    # The last PE fails after its finalize (mpirun's status is not 0).
    env PROFILE_COUNTS_LAST_FAILS=1 OMPI_MCA_btl_vader_single_copy_mechanism=none \
        OMPI_MCA_rmaps_base_oversubscribe=1 timeout 120 "$mpirun" --allow-run-as-root \
        --oversubscribe -np 2 -x SHMEM_PROFILE=trace -x SHMEM_PROFILE_DIR="$d" \
        -x PROFILE_COUNTS_LAST_FAILS "$counts" >"$T/pmix.out" 2>"$T/pmix.err"
    grep -q "^trace.json at PE 0's exit: yes$" "$T/pmix.out" ||
        fail "under mpirun PE 0 did not merge the traces at shmem_finalize"
    verify "trace merged by PE 0" trace "$d" 2
    echo "profile trace under mpirun: $fails failed"
    exit $((fails > 0))
fi

if [ "$mode" = counts ]; then
    topo=$2 bin=$3 counts=$4
    env=()
    [ "$topo" = ucx ] && env=(SHMEM_TRANSPORT=ucx UCX_TLS=tcp)
    for np in 1 2 3 4; do
        d=$T/np$np
        run "$topo.np$np" env "${env[@]}" SHMEM_PROFILE=trace SHMEM_PROFILE_DIR="$d" \
            "$bin/oshrun" -np $np "$counts" &&
            verify "$topo at $np PEs" counts "$d" $np "$topo" "$T/$topo.np$np.out"
    done
    echo "profile counts over $topo: $fails failed"
    exit $((fails > 0))
fi

bin=$2 counts=$3 wrapped=$4 threads=$5 allgather=$6
# Summary alone: puts sampled, counts still exact; no trace.
d=$T/summary
if run summary env SHMEM_PROFILE=summary SHMEM_PROFILE_DIR="$d" "$bin/oshrun" -np 2 "$counts"; then
    grep -q "^put .* ~$" "$T/summary.out" || fail "summary: put's time is not marked sampled"
    [ -e "$d/trace.json" ] && fail "summary: a trace.json without SHMEM_PROFILE=trace"
    $check counts "$d" 2 shm "$T/summary.out" | grep -v "trace.json\|spans" >"$T/c" && {
        fail "summary counts"; sed 's/^/  /' "$T/c"; }
fi
# A tool over pshmem_* in the program: each call still counted once.
if run wrapped env SHMEM_PROFILE=trace SHMEM_PROFILE_DIR="$T/wrapped" "$bin/oshrun" -np 2 "$wrapped"; then
    verify "with a pshmem_* tool linked in" counts "$T/wrapped" 2 shm "$T/wrapped.out"
    [ "$(grep -c '^wrapper: 999 shmem_putmem, 10 shmem_barrier_all$' "$T/wrapped.err")" = 2 ] ||
        fail "the pshmem_* tool did not see the program's 999 putmem and 10 barriers on each PE"
fi
# Threads and contexts: a track per thread.
run threads env SHMEM_PROFILE=trace SHMEM_PROFILE_DIR="$T/threads" "$bin/oshrun" -np 2 "$threads" &&
    verify "threads and contexts" threads "$T/threads" 2 "$T/threads.out"
# A device kernel: spans on each block's track, inside the kernel's.
run device env SHMEM_PROFILE=trace SHMEM_PROFILE_DIR="$T/device" "$bin/oshrun" -np 2 "$allgather" &&
    verify "device kernel" device "$T/device" 2
# A directory that cannot be written: said, and the job runs as ever.
if run baddir env SHMEM_PROFILE=summary SHMEM_PROFILE_DIR=/proc/oshm-profile "$bin/oshrun" -np 2 "$counts"; then
    grep -q "SHMEM_PROFILE_DIR=/proc/oshm-profile cannot be written" "$T/baddir.err" ||
        fail "no clear error for a directory that cannot be written"
    grep -q "^put " "$T/baddir.out" || fail "no table on standard output without a directory"
fi
# oshrun --profile sets SHMEM_PROFILE for the PEs.
run oshrun "$bin/oshrun" --profile -np 2 "$counts" &&
    { grep -q "^put  *2000  *16000 " "$T/oshrun.out" || fail "oshrun --profile: no put row"; }
# oshrun merges the traces once every PE has ended, not PE 0 at its
# finalize: a PE that fails after its finalize still has its trace merged;
# traces older than the launch are an earlier run's, never merged.
d2=$T/lastfails
mkdir -p "$d2/stale" && for pe in 0 1; do echo '{"name":"stale"}' >"$d2/stale/trace.pe$pe.json"; done
touch -d '1 hour ago' "$d2"/stale/*
SHMEM_PROFILE=trace SHMEM_PROFILE_DIR="$d2/stale" timeout 60 "$bin/oshrun" -np 2 false 2>/dev/null
[ -e "$d2/stale/trace.json" ] && fail "oshrun merged the traces of an earlier run"
env PROFILE_COUNTS_LAST_FAILS=1 SHMEM_PROFILE=trace SHMEM_PROFILE_DIR="$d2" \
    timeout 120 "$bin/oshrun" -np 2 "$counts" >"$T/lastfails.out" 2>"$T/lastfails.err"
[ $? = 3 ] || fail "lastfails: the job's status is not its failed PE's 3"
grep -q "^trace.json at PE 0's exit: no$" "$T/lastfails.out" ||
    fail "under oshrun PE 0 merged the traces itself"
verify "trace merged by oshrun after a PE failed" trace "$d2" 2
ls "$d2"/*.tmp >/dev/null 2>&1 && fail "a merge left its temporary file"
# oshm_prof: the table again, a comparison, the charts, the merge.
if [ -d "$d" ]; then
    "$bin/oshm_prof" "$d" >"$T/again" && cmp -s "$T/again" "$d/summary.txt" ||
        fail "oshm_prof DIR differs from summary.txt"
    "$bin/oshm_prof" compare "$d" "$T/wrapped" >"$T/cmp" &&
        grep -Eq "^put +2000 +2000 .* (faster|slower|same)$" "$T/cmp" ||
        fail "oshm_prof compare: no put line"
    "$bin/oshm_prof" chart "$d" "$T/charts" >/dev/null &&
        python3 -c "import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]" \
            "$T/charts/comm.svg" "$T/charts/time.svg" || fail "oshm_prof chart: no valid SVG"
    rm -f "$T/threads/trace.json"
    "$bin/oshm_prof" merge "$T/threads" >/dev/null && verify "oshm_prof merge" trace "$T/threads" 2
    "$bin/oshm_prof" "$T" 2>"$T/err" && fail "oshm_prof on a directory without a profile"
    grep -q "not a profile directory" "$T/err" || fail "oshm_prof: no reason for a bad directory"
fi
echo "profile tools: $fails failed"
exit $((fails > 0))
