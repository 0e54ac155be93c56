/*
 * What a communication backend provides to hcomm, and all it learns of the
 * rest of the library. hcomm is the only caller: it decides which backend
 * reaches which PE, keeps operations in order across backends, and calls a
 * backend only through its table (struct backend_ops).
 *
 * Addresses: a backend reaches a peer's symmetric segment SEG at byte
 * offset OFF from the segment's start; where that lies in the peer (or in
 * a local mapping of the peer's memory) is the backend's business.
 *
 * State: a backend keeps per-peer state (struct backend_peer, made by
 * connect) and per-channel state (struct backend_chan, made by chan_open).
 * A channel is the unit that fence and quiet act on: one per context.
 */
#ifndef OSHM_TRANSPORT_BACKEND_H
#define OSHM_TRANSPORT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "vmm/vmm.h"

#define BACKEND_MAX_SEGS 4

/* A symmetric segment of this PE. Peers address [0, size); only
 * [0, committed) has memory behind it. */
struct backend_seg {
    uintptr_t base;
    size_t size;
    size_t committed;
    struct vmm_handle mem;
};

struct backend_config {
    int my_pe;
    int n_pes;
    const struct backend_seg *seg; /* BACKEND_MAX_SEGS of them; size 0: unused */
    /* Serve peers' operations on this PE from a thread of the backend's
     * own, so that they progress while the program computes. */
    bool progress_thread;
    /* This node runs more PEs than it has cores for them: never spin long. */
    bool oversubscribed;
    /* SHMEM_DEBUG: check what can be checked. */
    bool debug;
};

/* Who may use a channel, and how. */
enum backend_chan_mode {
    BACKEND_CHAN_PRIVATE,    /* only the thread that opened it */
    BACKEND_CHAN_SERIALIZED, /* several threads, never two at once */
    BACKEND_CHAN_SHARED,     /* several threads at once */
};

enum backend_signal_op {
    BACKEND_SIGNAL_SET = 0,
    BACKEND_SIGNAL_ADD = 1,
};

enum backend_amo_op {
    BACKEND_AMO_FETCH,
    BACKEND_AMO_SET,
    BACKEND_AMO_SWAP,
    BACKEND_AMO_CSWAP,
    BACKEND_AMO_FETCH_ADD,
    BACKEND_AMO_ADD,
    BACKEND_AMO_FETCH_AND,
    BACKEND_AMO_AND,
    BACKEND_AMO_FETCH_OR,
    BACKEND_AMO_OR,
    BACKEND_AMO_FETCH_XOR,
    BACKEND_AMO_XOR,
};

/* Whether OP returns the old value (and so has completed on return). */
static inline bool backend_amo_fetches(enum backend_amo_op op)
{
    return op == BACKEND_AMO_FETCH || op == BACKEND_AMO_SWAP || op == BACKEND_AMO_CSWAP ||
           op == BACKEND_AMO_FETCH_ADD || op == BACKEND_AMO_FETCH_AND ||
           op == BACKEND_AMO_FETCH_OR || op == BACKEND_AMO_FETCH_XOR;
}

struct backend_peer;
struct backend_chan;

enum backend_flags {
    /* Reaches only PEs of this node, by mapping their memory: every
     * operation has completed when it returns (stores are visible once a
     * release fence has passed). */
    BACKEND_LOCAL = 1u << 0,
};

struct backend_ops {
    const char *name;
    unsigned flags;

    /* ---- set-up and teardown, in this order ---- */
    /* 0 when usable; -1 after saying why not. */
    int (*open)(const struct backend_config *cfg);
    /* What peers need to reach this PE, in a new buffer (free() it). PIDS:
     * the processes that may map this PE's memory (a local backend's
     * peers). */
    int (*card)(const pid_t *pids, int npids, void **blob, size_t *len);
    /* Connects to PE from its card. */
    int (*connect)(int pe, const void *blob, size_t len, struct backend_peer **peer);
    /* Completes nothing: every channel is quiet and closed, and every PE
     * has stopped using this one when disconnect is called. */
    void (*disconnect)(struct backend_peer *peer);
    void (*close)(void);

    /* ---- channels ----
     * EAGER: the default context, opened at start-up while every PE
     * progresses: the backend may connect to every peer now rather than on
     * the first operation to it (UCX does where no progress thread would
     * answer a later wire-up while the peer computes). */
    int (*chan_open)(enum backend_chan_mode mode, bool eager, struct backend_chan **ch);
    void (*chan_close)(struct backend_chan *ch);
    /* From now on threads other than the opener use CH at once (called
     * while only one thread uses it). NULL when nothing changes. */
    void (*chan_share)(struct backend_chan *ch);

    /* ---- memory that grows ----
     * Segment SEG now has COMMITTED bytes behind it (never less than
     * before). A backend that must describe the new memory to its peers
     * (registration keys) returns that description in a new buffer;
     * *LEN 0 when there is nothing to say. Every PE calls it at the same
     * point (symmetric allocation is collective), then every PE's
     * description reaches peer_grow on every other PE. NULL: nothing to do. */
    int (*grow)(int seg, size_t committed, void **blob, size_t *len);
    int (*peer_grow)(struct backend_peer *peer, const void *blob, size_t len);

    /* ---- data ----
     * Non-blocking forms complete at quiet; blocking puts return when the
     * source may be reused, blocking gets and fetching AMOs when the value
     * is there. */
    void (*put)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                const void *src, size_t len, bool nbi);
    void (*get)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off, void *dst,
                size_t len, bool nbi);
    /* NELEMS elements of ELEM bytes; strides in bytes. */
    void (*iput)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                 ptrdiff_t rstride, const void *src, ptrdiff_t sstride, size_t elem,
                 size_t nelems);
    void (*iget)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                 ptrdiff_t rstride, void *dst, ptrdiff_t dstride, size_t elem, size_t nelems);
    /* Sets or adds a 64-bit word after every earlier put of CH to the same
     * PE through this backend (put-with-signal). */
    void (*signal)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                   uint64_t value, enum backend_signal_op op);
    /* A small put and a signal as one message, where the backend has such
     * a thing (UCX's active messages): LEN bytes (at most NOTIFY_MAX) from
     * SRC to P's segment SEG at OFF, then VALUE added to or set into P's
     * 64-bit word at SIG_SEG, SIG_OFF, both applied by the target in its
     * progress, the data first; atomic with this backend's AMOs only where
     * cpu_atomics says so. Not ordered with the channel's other operations,
     * and complete at quiet only as far as this PE goes: the signal is how
     * the target learns it arrived (the library's collectives, which wait
     * on it). SRC may be reused on return. NULL: hcomm puts, then signals. */
    void (*notify)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                   const void *src, size_t len, int sig_seg, size_t sig_off, uint64_t value,
                   enum backend_signal_op op);
    size_t notify_max;
    /* LEN bytes (at most MAILBOX_MSG_MAX) from SRC to P's mailbox under
     * TAG (transport/mailbox.h): the target keeps them in its own memory
     * until it takes them. Not ordered with anything; SRC may be reused on
     * return. NULL: the backend has none. */
    void (*mail)(struct backend_chan *ch, struct backend_peer *p, uint64_t tag, const void *src,
                 size_t len);
    /* OP on the 4- or 8-byte word; the old value for fetching operations.
     * Atomic with respect to this backend's AMOs from any PE. */
    uint64_t (*amo)(struct backend_chan *ch, struct backend_peer *p, int seg, size_t off,
                    enum backend_amo_op op, size_t size, uint64_t operand, uint64_t compare);
    /* A pointer for direct loads and stores, or NULL. May map the peer's
     * memory on first use. */
    void *(*ptr)(struct backend_peer *p, int seg, size_t off);
    /* Where the segment is mapped already, or NULL; maps nothing, takes no
     * lock (a fault handler asks). NULL: as ptr. */
    void *(*peek)(struct backend_peer *p, int seg);
    /* Orders CH's earlier puts, AMOs and signals to each PE before its
     * later ones (through this backend). */
    void (*fence)(struct backend_chan *ch);
    /* Completes every operation CH issued through this backend. */
    void (*quiet)(struct backend_chan *ch);
    /* Completes CH's operations to P only (shmem_pe_quiet); the others may
     * stay in flight. NULL: hcomm calls quiet instead. */
    void (*quiet_pe)(struct backend_chan *ch, struct backend_peer *p);
    /* Carries out peers' operations that need this PE's CPU, and moves
     * this PE's own along; safe from any thread; returns how much it did.
     * NULL when there are none. */
    unsigned (*progress)(void);
    /* How the backend reaches PE, for diagnostics ("tcp", "posix", ...). */
    const char *(*describe)(struct backend_peer *p);

    /* Whether the AMOs that peers post through this backend to this PE's
     * memory are carried out by a CPU with its atomic instructions (UCX's
     * software emulation at the target over tcp, its shared-memory
     * transports), and so are atomic with this PE's own CPU atomics on the
     * same word; false where a NIC may do them (InfiniBand, RoCE). Asked
     * once the backend is open; NULL: false. */
    bool (*cpu_atomics)(void);

    /* ---- SHMEM_TRANSPORT=auto between network backends ----
     * What this backend would reach other nodes with: at most MAX names
     * (UCX: the transports of its open context; libfabric: the providers it
     * offers, asked without opening), each with ON_DEVICE (the provider
     * reported a NIC on a bus). The names stay valid until the next call.
     * Returns how many; NULL: never asked. */
    int (*networks)(const char **names, bool *on_device, int max);
};

#endif
