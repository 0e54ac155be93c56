/*
 * oshrun, the built-in launcher: what its parts share.
 *
 *   options.c  the command line and the host list
 *   place.c    which host each PE runs on (-N, --map-by, slots)
 *   program.c  finding the program (PATH, working directory)
 *   bind.c     binding local PEs to cores, NUMA domains or packages (hwloc)
 *   slurm.c    handing the launch to srun inside a Slurm allocation
 *   limits.c   open-file limits, checked before anything starts
 *   listen.c   the bootstrap socket: abstract unix, or TCP on one address
 *   server.c   the job's secret and id, and the bootstrap server
 *              (src/boot/boot_server.c, shared with the unique id's
 *              rendezvous): connections, proofs, the start-up exchange
 *   spawn.c    starting a PE, here or through a launch agent
 *   output.c   forwarding the PEs' output line by line, never blocking
 *   job.c      the PEs' lives: judging each exit, ending the job
 *   liveness.c --timeout and --heartbeat: a job that runs too long, a PE
 *              that stops answering
 *   resources.c what the kernel says of a PE it killed (out of memory)
 *   profile.c  merging the PEs' traces (SHMEM_PROFILE=trace) at the end
 *   main.c     the poll loop that drives them all
 */
#ifndef OSHRUN_OSHRUN_H
#define OSHRUN_OSHRUN_H

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- options.c ---- */

/* Where PEs run: hosts in order, each with its number of slots. */
struct host {
    char *name;
    int slots;
    bool local; /* this machine: its PEs are started directly */
};

/* --bind-to and --map-by, with Open MPI's meanings. */
enum bind_level { BIND_DEFAULT, BIND_NONE, BIND_HWTHREAD, BIND_CORE, BIND_NUMA, BIND_SOCKET };
enum map_by { MAP_DEFAULT, MAP_SLOT, MAP_HWTHREAD, MAP_CORE, MAP_NUMA, MAP_SOCKET, MAP_NODE };
/* --tag-output: "[1,RANK]<stdout>:"; -l (hydra): "[RANK] " */
enum tag_style { TAG_NONE, TAG_OMPI, TAG_RANK };

struct options {
    int npes;
    bool np_given;
    int per_node;               /* -N: PEs on each node, 0 when not given */
    struct host *hosts;
    int nhosts;
    const char *launch_agent;   /* how a PE on another host is started */
    bool tcp;                   /* the bootstrap is TCP (some host is remote, or asked) */
    bool any_remote;            /* some host is not this machine */
    const char *bootstrap_addr; /* --bootstrap-addr: the address remote PEs connect to */
    char **forward_vars;        /* -x names, passed to remote PEs */
    int nforward;
    const char *wdir;           /* -wdir: where PEs start, NULL: here */
    enum tag_style tag;
    bool report_bindings;
    bool oversubscribe;         /* more PEs than slots (or than cores to bind to) is allowed */
    bool bind_overload;         /* --bind-to X:overload-allowed */
    enum bind_level bind;
    enum map_by map;
    bool no_srun;               /* inside a Slurm allocation, still start PEs directly */
    unsigned long timeout_s;    /* --timeout: the job's time limit, 0: none */
    unsigned long heartbeat_s;  /* --heartbeat: a PE silent this long is lost, 0: not watched */
    char **prog;                /* the program and its arguments, as given */
    char *local_path;           /* the program found in PATH or the working directory */
};

extern struct options opt;

/* Fills opt from the command line; exits with a usage error (2) on a bad one. */
void options_parse(int argc, char **argv);
void options_free(void);
/* The host of RANK, NULL when no hosts were given (this machine). */
const struct host *host_of(int rank);
/* RANK's place among the PEs of this machine, -1 when it runs elsewhere. */
int local_index(int rank);
/* How many PEs run on this machine. */
int local_pe_count(void);
/* RANK's place among the PEs of its host, and how many that host runs. */
int host_index(int rank);
int host_pe_count(int rank);

/* ---- place.c ---- */

/* Spreads the PEs over the hosts as -N, --map-by and the slots say; exits
 * with a usage error (2) when they do not fit. */
void place_pes(void);
void place_fini(void);

/* ---- program.c ---- */

/* Finds the program as mpirun does: a name without '/' in PATH, then in the
 * working directory; exits (127) when a PE of this machine could not run it. */
void program_find(void);

/* ---- bind.c ---- */

/* Loads the topology and decides each local PE's binding (Open MPI's
 * defaults: core for 2 PEs or fewer, NUMA domain beyond, none when the PEs
 * outnumber the cores); exits (2) when the binding asked for is impossible. */
void bind_plan(void);
/* Before starting RANK: 1 with its cores in *MASK and, in FAILED, the line
 * to print should binding fail; 0 when it is not bound; -1 on error. */
int bind_mask(int rank, cpu_set_t *mask, char *failed, size_t len);
/* --report-bindings: one line on stderr for RANK. */
void bind_report(int rank);
void bind_fini(void);
/* PEs on other hosts are bound there (--bind-to given): the launch agent
 * starts "oshrun --bound-exec ..." (bind_exec_main), which binds itself with
 * that host's topology and execs the program. */
bool bind_remote(void);
int bind_exec_main(int argc, char **argv);

/* ---- slurm.c ---- */

/* Inside a Slurm allocation (salloc, sbatch), hands the launch to srun
 * --mpi=pmix, as mpirun uses the allocation; returns when it does not apply. */
void slurm_handover(void);

/* ---- limits.c ---- */

/* Raises the open-file limit; exits with a message naming the numbers when
 * even the hard limit is too low for oshrun or for the local PEs. */
void limits_check(void);

/* ---- listen.c ---- */

/* Opens the bootstrap socket (non-blocking) and writes the address PEs
 * connect to into ADDR: "@name" or "tcp:IP:PORT". Returns the socket or -1
 * after printing why. */
int listen_bootstrap(char *addr, size_t len);

/* ---- server.c ---- */

/* The job's secret, made from getrandom: PEs prove membership with it (it
 * never crosses the bootstrap socket). Its id, public, in hex. */
extern char job_secret[];
extern char job_id_hex[];
int server_init(int listen_fd);
void server_fini(void);
/* Appends the descriptors to poll (the socket, every connection) to P,
 * which has room for server_nfds() more. */
size_t server_nfds(void);
size_t server_fill(struct pollfd *p);
/* Serves what poll found on the descriptors server_fill gave. */
void server_handle(const struct pollfd *p, size_t n);
/* Drops connections whose deadline passed; returns ms until the next one
 * (-1: none). */
int server_tick(void);
/* Serves whatever RANK sent before it exited. */
void server_drain(int rank);
/* Closes every PE's connection: those still running leave. */
void server_shutdown(void);
/* What RANK's connection last said (boot_server_member). */
bool server_member(int rank, long *heard, const char **routine, bool *beating);

/* ---- output.c ---- */

struct outbuf {
    int fd;  /* read end of the PE's pipe, -1 at EOF */
    int to;  /* 1 or 2 */
    int rank;
    bool midline; /* the last bytes forwarded did not end a line */
    size_t queued; /* bytes of it waiting for the stream to take them */
    size_t len;
    char data[8192];
};

/* Sets up the streams; from then on stderr queues too. */
void output_init(void);
/* B's pipe is to be read: it is open and not too much of it waits. */
bool output_wants_read(const struct outbuf *b);
/* Reads what the PE wrote and forwards every whole line. */
void output_read(struct outbuf *b);
/* Forwards what is left and closes the pipe. */
void output_close(struct outbuf *b);
/* Poll: two entries for the streams (fd -1 when nothing waits). */
size_t output_fill(struct pollfd *p);
void output_handle(const struct pollfd *p);
/* Something waits for a stream; it has taken nothing for a while. */
bool output_pending(void);
bool output_stalled(void);
/* ms until a waiting stream counts as stalled (-1: none waits). */
int output_tick(void);
/* Writes what waits: until done, or (BOUNDED) until the streams stall. */
void output_finish(bool bounded);

/* ---- job.c ---- */

struct pe {
    pid_t pid;
    bool running;
    bool connected;       /* its HELLO carried the secret: it called shmem_init */
    bool tearing_down;    /* its last shmem_finalize met the others': only its teardown remains */
    bool finalized;       /* it completed shmem_finalize */
    bool finalize_at_exit; /* ... called by the library at exit, not by the program */
    bool left_before_init; /* exited with status 0 without connecting */
    long settle_deadline; /* exited with 0, connection still open: judged then (0: not) */
    struct outbuf out[2];
};

extern struct pe *pes;
extern bool ending;     /* the job is being torn down */
extern int exit_status; /* oshrun's */

int job_init(void);
void job_fini(void);
/* Starts the teardown: every PE still running gets SIGTERM now, SIGKILL
 * later. The first status given is oshrun's. */
void job_end(int status);
/* Reaps every PE that ended and judges how it ended. */
void job_reap(void);
/* Events from the bootstrap. */
void job_pe_connected(int rank);
/* An abort (GLOBAL_EXIT: shmem_global_exit) with the PE's text. */
void job_pe_aborted(int rank, int status, bool global_exit, const char *text, size_t len);
void job_pe_tearing_down(int rank);
void job_pe_finalized(int rank, bool at_exit);
/* Acts on passed deadlines; returns ms until the next one (-1: none). */
int job_tick(void);
/* Some PE still runs or still has output to forward. */
bool job_alive(void);
long now_ms(void);

/* ---- liveness.c ---- */

/* What PEs are asked to send (0: nothing): heartbeats for --heartbeat,
 * reports of their routine for --timeout. */
unsigned liveness_heartbeat_ms(void);
/* The clock of --timeout starts. */
void liveness_start(void);
/* Ends the job past --timeout or when a PE stopped answering; ms until the
 * next check (-1: none). */
int liveness_tick(void);
/* "PE 3 (pid 1234, stopped): in shmem_barrier_all" into OUT. */
void liveness_describe(int rank, char *out, size_t size);

/* ---- profile.c ---- */

/* Under SHMEM_PROFILE=trace (--profile=trace): makes the profile directory
 * and tells the PEs that oshrun merges their traces. Before any PE starts. */
void profile_prepare(void);
/* Once every PE has ended: merges the traces of this run into trace.json. */
void profile_merge(void);

/* ---- resources.c ---- */

/* Counts what the kernel says before the PEs start. */
void resources_init(void);
/* What to add to "PE N was killed by signal SIG": the OOM killer, when
 * the kernel's counters say it ran since; "" otherwise. */
const char *resources_killed_note(int sig);
/* What a PE writes to its /proc/self/oom_score_adj before exec, NULL for
 * nothing. When memory runs out, the OOM killer must end a PE, not oshrun:
 * oshrun is the one that names what happened and ends the rest. It cannot
 * lower its own score unprivileged, so it raises its PEs' above its own by
 * what its size needs (on a machine of gigabytes, a few thousandths). */
const char *resources_pe_oom_adj(void);

/* ---- spawn.c ---- */

/* Starts RANK with the bootstrap at ADDR; signals as in OLDMASK. */
void spawn(int rank, const char *addr, const sigset_t *oldmask);

#endif
