#!/bin/bash
# A real Slurm on this machine, started here and torn down after: munged with
# its own key and socket, a slurmctld and a slurmd with a generated
# slurm.conf (localhost only, free ports, everything in one temporary
# directory). Then what users type: srun with each --mpi, sbatch and salloc
# running oshrun, a PE that crashes, shmem_global_exit.
#   slurm_test.sh RING FAULTS WHERE
# Exits 77 (ctest: Skipped, with the reason printed) only when Slurm or munge
# is not installed or Slurm has no PMIx plugin; daemons that are installed but
# do not start are a failure, with their logs.
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
RING=$(abs "$1") FAULTS=$(abs "$2") WHERE=$(abs "$3")
# Under AddressSanitizer a PE's fatal signal must still be a fatal signal.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
OSHRUN=$(dirname "$RING")/../bin/oshrun
OSHRUN=$(cd "$(dirname "$OSHRUN")" && pwd)/oshrun

skip() { echo "SKIPPED: $*" >&2; echo "SKIPPED: $*"; exit 77; }
for b in munged slurmctld slurmd srun sbatch salloc scancel squeue; do
    command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] ||
        skip "no $b here (Debian: apt-get install slurm-wlm munge): the Slurm tests did not run"
done
PATH=$PATH:/usr/sbin

T=$(mktemp -d /tmp/oshm-slurm.XXXXXX) || exit 1
chmod 755 "$T" # munged wants its socket's directory reachable
pids=()
cleanup() {
    if [ -f "$T/slurm.conf" ]; then
        SLURM_CONF=$T/slurm.conf scancel --quiet --user="$(id -un)" 2>/dev/null
        for _ in $(seq 50); do
            [ -z "$(SLURM_CONF=$T/slurm.conf squeue -h 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null
        for _ in $(seq 50); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.1; done
        kill -9 "${pids[i]}" 2>/dev/null
        wait "${pids[i]}" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
fail_start() {
    echo "FAIL: $1 did not start; its log:"
    tail -n 30 "$2" 2>/dev/null | sed 's/^/     /'
    exit 1
}

# Two free TCP ports for slurmctld and slurmd.
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

head -c 1024 /dev/urandom >"$T/munge.key" && chmod 400 "$T/munge.key"
munged -F -f --socket="$T/munge.sock" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
    --seed-file="$T/munged.seed" --log-file="$T/munged.log" >"$T/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$T/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge.sock" ] || fail_start munged "$T/munged.out"

me=$(id -un)
host=$(hostname -s)
cpus=$(nproc)
[ "$cpus" -ge 4 ] || cpus=4 # room for 4 tasks; nothing is bound (task/none)
mkdir -p "$T/state" "$T/spool"
cat >"$T/slurm.conf" <<EOF
ClusterName=oshmtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
PropagateResourceLimits=NONE
KillWait=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=oshm Nodes=$host Default=YES MaxTime=10 State=UP OverSubscribe=FORCE:4
EOF
export SLURM_CONF=$T/slurm.conf
unset SLURM_JOB_ID SLURM_JOBID SLURM_NODELIST SLURM_JOB_NODELIST SLURM_STEP_ID SLURM_NTASKS
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$T/slurmd.out" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 100); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && { up=1; break; }
    sleep 0.2
done
if [ $up = 0 ]; then
    cat "$T/slurmctld.out" "$T/slurmd.out"
    kill -0 "${pids[1]}" 2>/dev/null || fail_start slurmctld "$T/slurmctld.log"
    fail_start slurmd "$T/slurmd.log"
fi
srun --mpi=list 2>&1 | grep -q pmix ||
    skip "this Slurm has no PMIx plugin (srun --mpi=list): the Slurm tests did not run"

out=$T/out err=$T/err
failures=0 passes=0
# expect NAME STATUS STDOUT_REGEX STDERR_REGEX -- command...
expect() {
    local name=$1 want=$2 opat=$3 epat=$4
    shift 5
    timeout 90 "$@" >"$out" 2>"$err"
    local got=$? ok=1
    if [ "$want" = nonzero ]; then [ "$got" -ne 0 ] || ok=0; else [ "$got" -eq "$want" ] || ok=0; fi
    [ -z "$opat" ] || grep -Eq -- "$opat" "$out" || ok=0
    [ -z "$epat" ] || grep -Eq -- "$epat" "$err" || ok=0
    if [ $ok = 1 ]; then
        passes=$((passes + 1)); echo "ok   $name (status $got)"
    else
        failures=$((failures + 1))
        echo "FAIL $name: status $got (want $want); stdout, stderr:"
        sed 's/^/     /' "$out" "$err" | tail -n 30
    fi
}

expect "srun --mpi=pmix, 2 tasks" 0 "^ring: 2 PEs passed" "" -- srun --mpi=pmix -n 2 "$RING"
expect "srun --mpi=pmix, 3 tasks" 0 "^ring: 3 PEs passed" "" -- srun --mpi=pmix -n 3 "$RING"
expect "srun --mpi=none, 2 tasks: refused, naming --mpi=pmix" nonzero "" \
    "task [01] of 2 .*--mpi=none.*srun --mpi=pmix" -- srun --mpi=none -n 2 "$RING"
expect "srun's default --mpi (none here), 2 tasks: refused" nonzero "" \
    "--mpi=none.*srun --mpi=pmix" -- srun -n 2 "$RING"
expect "srun --mpi=pmi2, 2 tasks: refused, naming --mpi=pmix" nonzero "" \
    "--mpi=pmi2.*srun --mpi=pmix" -- srun --mpi=pmi2 -n 2 "$RING"
expect "srun --mpi=none, 1 task: a 1-PE job" 0 "^ring: 1 PEs passed" "" -- srun -n 1 "$RING"
expect "a PE that crashes: srun reports it, non-zero" nonzero "" \
    "task 1: Segmentation fault" -- srun --mpi=pmix -n 2 "$FAULTS" signal 1
expect "shmem_global_exit(3) under srun: status 3" 3 "" "" \
    -- srun --mpi=pmix -n 2 "$FAULTS" global_exit 0 3

cat >"$T/job.sh" <<EOF
#!/bin/bash
OSHRUN_VERBOSE=1 "$OSHRUN" "$RING"
EOF
chmod +x "$T/job.sh"
expect "sbatch -n 3: oshrun runs the allocation's 3 tasks through srun" 0 "" "" \
    -- sbatch -W -n 3 -o "$T/job.out" "$T/job.sh"
if grep -q "^ring: 3 PEs passed" "$T/job.out" && grep -q "srun --mpi=pmix" "$T/job.out"; then
    passes=$((passes + 1)); echo "ok   sbatch job output"
else
    failures=$((failures + 1)); echo "FAIL sbatch job output:"; sed 's/^/     /' "$T/job.out"
fi
expect "sbatch: a program started alone in the script is a 1-PE job" 0 "" "" \
    -- sbatch -W -n 2 -o "$T/single.out" --wrap "$RING"
grep -q "^ring: 1 PEs passed" "$T/single.out" && passes=$((passes + 1)) ||
    { failures=$((failures + 1)); echo "FAIL singleton in sbatch:"; cat "$T/single.out"; }
expect "salloc -n 2: oshrun uses srun --mpi=pmix" 0 "^ring: 2 PEs passed" \
    "srun --mpi=pmix --kill-on-bad-exit=1 $RING" -- salloc -n 2 env OSHRUN_VERBOSE=1 "$OSHRUN" "$RING"
expect "salloc -n 4: oshrun -np 3" 0 "^ring: 3 PEs passed" "--ntasks=3" \
    -- salloc -n 4 env OSHRUN_VERBOSE=1 "$OSHRUN" -np 3 "$RING"
expect "salloc -n 4: oshrun -N 2 (per node, one node)" 0 "^ring: 2 PEs passed" "--ntasks=2 --ntasks-per-node=2" \
    -- salloc -n 4 env OSHRUN_VERBOSE=1 "$OSHRUN" -N 2 "$RING"
expect "salloc: oshrun --timeout 90 becomes srun --time=2 (whole minutes)" 0 "^ring: 2 PEs passed" \
    "--timeout 90 becomes --time=2" -- salloc -n 2 env OSHRUN_VERBOSE=1 "$OSHRUN" --timeout 90 -np 2 "$RING"
expect "salloc: oshrun -x and -wdir reach the PEs through srun" 0 \
    "^PE [01] of 2 .* cwd / var viasrun" "" \
    -- salloc -n 2 "$OSHRUN" -np 2 -x OSHT_VAR=viasrun -wdir / "$WHERE"
expect "salloc: shmem_global_exit(3) through oshrun: status 3" 3 "" "" \
    -- salloc -n 2 "$OSHRUN" -np 2 "$FAULTS" global_exit 1 3
expect "salloc: a PE that crashes through oshrun: non-zero" nonzero "" "Segmentation fault" \
    -- salloc -n 2 "$OSHRUN" -np 2 "$FAULTS" signal 1
expect "salloc: --no-srun starts the PEs here" 0 "^ring: 2 PEs passed" "" \
    -- salloc -n 2 env OSHRUN_VERBOSE=1 "$OSHRUN" --no-srun -np 2 "$RING"
if grep -q "srun --mpi" "$err"; then
    failures=$((failures + 1)); echo "FAIL --no-srun still used srun"
fi
expect "salloc: --host keeps the launch here" 0 "^ring: 2 PEs passed" "" \
    -- salloc -n 1 env OSHRUN_VERBOSE=1 "$OSHRUN" --host localhost:2 "$RING"
if grep -q "srun --mpi" "$err"; then
    failures=$((failures + 1)); echo "FAIL --host still used srun"
fi

echo "slurm: $passes passed, $failures failed"
[ "$failures" = 0 ]
