/*
 * Every environment variable oshm reads, in one table. The parser
 * (util/env.c), SHMEM_INFO, oshm_info and README's table are generated from
 * it; adding a variable is adding one X(...) entry here and reading its
 * field from oshm_env.
 *
 * X(NAME, field, TYPE, SCOPE, default, accepted, alias, reader, meaning)
 *   NAME      the variable; also OSHM_ENV_<NAME>, its index in the table
 *   field     its member of struct oshm_env (util/env.h)
 *   TYPE      FLAG    any value turns it on, except 0, n, no, false, off
 *                     (the specification's "Any")
 *             BOOL    1, y, yes, true, on or 0, n, no, false, off; anything else is refused
 *             SIZE    bytes: a number, a fraction allowed, with an optional K, M, G,
 *                     T, P or E suffix (powers of 1024) and an optional trailing B
 *             UINT    a decimal number
 *             CHOICE  one of the words of "accepted"; the field holds its index
 *             STRING  any text
 *   SCOPE     USER: people set it; LAUNCH: a launcher sets it for the PEs
 *             (never printed: OSHRUN_SECRET is one)
 *   default   the value when unset, in the variable's own syntax ("": none)
 *   accepted  SIZE, UINT: "MIN..MAX"; CHOICE: "a|b|c"; otherwise ""
 *   alias     the deprecated name the OpenSHMEM specification keeps, or ""
 *   reader    the component that uses the value
 *   meaning   one line for people
 *
 * Readers of layers above util take the typed field from oshm_env; tools
 * that must not link the library name a variable with OSHM_ENV_NAME(NAME),
 * which fails to compile for a name not in this table.
 */
#ifndef OSHM_UTIL_ENV_TABLE_H
#define OSHM_UTIL_ENV_TABLE_H

#define OSHM_ENV_TABLE(X)                                                                       \
    X(SHMEM_SYMMETRIC_SIZE, symmetric_size, SIZE, USER, "1G", "0..4E", "SMA_SYMMETRIC_SIZE",    \
      "heap", "symmetric heap per PE; pages are taken only as the heap grows")                  \
    X(SHMEM_DEBUG, debug, FLAG, USER, "0", "", "SMA_DEBUG", "util",                             \
      "extra argument checks and debug messages")                                               \
    X(SHMEM_VERSION, version, FLAG, USER, "0", "", "SMA_VERSION", "core",                       \
      "PE 0 prints the library version at start-up")                                            \
    X(SHMEM_INFO, info, FLAG, USER, "0", "", "SMA_INFO", "core",                                \
      "PE 0 prints every variable, its value, default and meaning at start-up")                 \
    X(SHMEM_TRANSPORT, transport, CHOICE, USER, "auto", "auto|shm|ucx|ofi", "", "hcomm",        \
      "auto: shared memory within a node, UCX (else libfabric) between nodes; shm: shared "     \
      "memory only; ucx: UCX to every other PE; ofi: libfabric to every other PE")              \
    X(SHMEM_REMOTE_TRANSPORT, remote_transport, CHOICE, USER, "auto", "auto|ucx|ofi", "",     \
      "hcomm", "under SHMEM_TRANSPORT=auto, the backend between nodes: auto: UCX, unless only "  \
      "libfabric has a network faster than tcp; ucx; ofi (shared memory stays within a node)") \
    X(SHMEM_OFI_PROVIDER, ofi_provider, STRING, USER, "", "", "", "transport/ofi",              \
      "the libfabric provider (e.g. tcp, verbs, cxi, efa); else FI_PROVIDER, else the first "   \
      "that offers RMA and atomics")                                                            \
    X(SHMEM_OFI_FORCE, ofi_force, STRING, USER, "", "", "", "transport/ofi",                    \
      "testing: act as if the libfabric provider required these (comma-separated): local, "    \
      "prov_key, endpoint (FI_MR_*), nofence (no FI_FENCE, no ordering); all: every one")       \
    X(SHMEM_NODE_ID, node_id, STRING, USER, "", "", "", "hcomm",                                \
      "splits one host into nodes: PEs with different ids are on different nodes "              \
      "(%p: the PE number, %Kp: the PE number / K)")                                            \
    X(SHMEM_COLL_FCOLLECT, coll_fcollect, CHOICE, USER, "auto", "auto|direct|rdbl|bruck|ring", \
      "", "team", "fcollect algorithm; auto: direct puts where every peer is mapped, else up "  \
      "to 1 MiB in all recursive doubling (power-of-two PEs) or Bruck, above it a ring")        \
    X(SHMEM_COLL_REDUCE, coll_reduce, CHOICE, USER, "auto", "auto|grouped", "", "team",        \
      "reductions of up to 2 KiB where every peer is mapped; auto: above 64 PEs in groups of "   \
      "about sqrt(PEs), so that a PE reads some 2 sqrt(PEs) peers, not all; grouped: so at any " \
      "PE count")                                                                               \
    X(SHMEM_PROGRESS_THREAD, progress_thread, BOOL, USER, "1", "", "", "hcomm",                 \
      "while this PE computes, a thread serves other PEs' operations on it and sees its own "   \
      "posted ones through (UCX or libfabric in use; docs/progress.md)")                        \
    X(SHMEM_DEVICE_HEAP_SIZE, device_heap_size, SIZE, USER, "256M", "1..4E", "", "device",      \
      "device symmetric heap per PE")                                                           \
    X(SHMEM_DEVICE_ENGINE_DELAY_US, device_engine_delay_us, UINT, USER, "0", "0..10000000", "", \
      "transport/engine", "the simulated device engines hold each descriptor back this long")  \
    X(SHMEM_DEVICE_ORDERING, device_ordering, CHOICE, USER, "strong", "strong|weak", "",        \
      "transport/engine", "strong: a kernel thread's descriptors on one engine complete in "   \
      "order; weak: they may complete out of order, as on the hardware, until fence or quiet") \
    X(SHMEM_DEVICE_UB_SIZE, device_ub_size, SIZE, USER, "192K", "1..1G", "", "device",          \
      "the unified buffer (on-chip scratch) of each block of a kernel")                         \
    X(SHMEM_PROFILE, profile, CHOICE, USER, "off", "off|summary|trace", "", "prof",           \
      "the built-in profiler: summary: at shmem_finalize PE 0 prints calls, bytes and time "   \
      "per routine family; trace: that and a timeline (Chrome trace-event JSON) in "          \
      "SHMEM_PROFILE_DIR; shmem_pcontrol(0) pauses it, shmem_pcontrol(1) resumes it")          \
    X(SHMEM_PROFILE_DIR, profile_dir, STRING, USER, "", "", "", "prof",                      \
      "where the profile goes (made if missing): a CSV per PE, summary.txt, comm.csv and "     \
      "comm.svg (bytes from each PE to each PE), time.svg, trace.json; a trace without it "    \
      "goes to oshm-profile (man oshm_prof)")                                                  \
    X(SHMEM_PROFILE_EVENTS, profile_events, UINT, USER, "65536", "1024..67108864", "", "prof",  \
      "trace: events each PE keeps, rounded up to a power of two (a ring buffer, 48 bytes "    \
      "an event: the last ones stay, the dropped ones are counted)")                           \
    X(SHMEM_PROFILE_SAMPLE, profile_sample, UINT, USER, "64", "1..65536", "", "prof",          \
      "summary: a routine family whose calls take under SHMEM_PROFILE_EVERY on average has "  \
      "one call in this many (rounded up to a power of two, doubled after every 1024 "       \
      "samples) timed, and its time estimated from them (1: every call timed)")               \
    X(SHMEM_PROFILE_EVERY, profile_every, UINT, USER, "2000", "0..1000000000", "", "prof",     \
      "summary: nanoseconds a routine family's calls must average for every call of it to be " \
      "timed (a clock read is then noise); a larger one keeps the sampling under a slow "      \
      "clock (valgrind)")                                                                      \
    X(OSHRUN_LAUNCH_AGENT, launch_agent, STRING, USER, "", "", "", "oshrun",                    \
      "the command oshrun starts PEs on other hosts with (ssh when unset); "                    \
      "--launch-agent overrides it")                                                            \
    X(OSHRUN_BIND_TO, oshrun_bind_to, STRING, USER, "", "", "", "oshrun",                       \
      "oshrun's default --bind-to (none, hwthread, core, numa or socket)")                      \
    X(OSHRUN_NO_SRUN, oshrun_no_srun, FLAG, USER, "0", "", "", "oshrun",                        \
      "inside a Slurm allocation, oshrun starts the PEs itself instead of through srun")        \
    X(OSHRUN_SRUN, oshrun_srun, STRING, USER, "srun", "", "", "oshrun",                         \
      "the srun command oshrun hands a launch to inside a Slurm allocation")                    \
    X(OSHRUN_VERBOSE, oshrun_verbose, FLAG, USER, "0", "", "", "oshrun",                        \
      "oshrun says how it launches (the srun command inside Slurm)")                            \
    X(SHMEM_TIMEOUT, timeout, UINT, USER, "0", "0..100000000", "", "oshrun",                    \
      "oshrun ends a job still running after this many seconds, naming each PE still running " \
      "and the routine it is in (0: no limit); --timeout overrides it")                        \
    X(SHMEM_HEARTBEAT, heartbeat, UINT, USER, "0", "0..100000", "", "oshrun",                   \
      "oshrun ends the job when a PE has not answered for this many seconds (stopped, or its " \
      "node hangs); 0: not watched; --heartbeat overrides it")                                  \
    X(OSHRUN_ADDR, oshrun_addr, STRING, LAUNCH, "", "", "", "boot",                             \
      "where a PE reaches the oshrun that started it")                                          \
    X(OSHRUN_SECRET, oshrun_secret, STRING, LAUNCH, "", "", "", "boot",                         \
      "the job's secret, proving a PE to oshrun")                                               \
    X(OSHRUN_SECRET_FD, oshrun_secret_fd, STRING, LAUNCH, "", "", "", "boot",                   \
      "the descriptor a remote PE reads the job's secret from")                                 \
    X(OSHRUN_JOB, oshrun_job, STRING, LAUNCH, "", "", "", "boot",                               \
      "the job's public id, which oshrun's challenge must name")                                \
    X(OSHRUN_RANK, oshrun_rank, STRING, LAUNCH, "", "", "", "boot", "the PE's number")          \
    X(OSHRUN_SIZE, oshrun_size, STRING, LAUNCH, "", "", "", "boot", "the number of PEs")        \
    X(OSHM_TRACE_MERGE_DIR, trace_merge_dir, STRING, LAUNCH, "", "", "", "prof",                \
      "set by oshrun under SHMEM_PROFILE=trace: the directory whose traces it merges into "    \
      "trace.json once every PE has ended, which PE 0 then leaves to it")                      \
    X(PMIX_NAMESPACE, pmix_namespace, STRING, LAUNCH, "", "", "", "boot",                       \
      "set by a PMIx launcher (mpirun, srun --mpi=pmix): the PE starts through PMIx")           \
    X(PMIX_RANK, pmix_rank, STRING, LAUNCH, "", "", "", "boot",                                 \
      "set by a PMIx launcher: the PE's rank")

enum oshm_env_id {
#define OSHM_ENV_X_ID(name, ...) OSHM_ENV_##name,
    OSHM_ENV_TABLE(OSHM_ENV_X_ID)
#undef OSHM_ENV_X_ID
    OSHM_ENV_COUNT
};

/* The name of a variable of the table, as a string; a name that is not in
 * the table does not compile. */
#define OSHM_ENV_NAME(name) ((void)OSHM_ENV_##name, #name)

#endif
