#include "core/fault.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "boot/boot.h"
#include "hcomm/hcomm.h"
#include "util/rawmsg.h"
#include "util/routine.h"
#include "util/state.h"

/* Big enough for the handler, which formats on its stack, whatever
 * SIGSTKSZ says. */
#define ALT_STACK_SIZE ((size_t)64 << 10)

static struct sigaction prev_bus, prev_segv;
static bool installed;
static void *alt_stack; /* ours, when the thread had none */
static atomic_flag reported = ATOMIC_FLAG_INIT;

static const char *const seg_name[HCOMM_MAX_SEGS] = {
    [HCOMM_SEG_HEAP] = "symmetric heap",
    [HCOMM_SEG_DATA] = "symmetric data (global and static variables)",
    [HCOMM_SEG_DEVICE] = "device heap",
};

/* Where an address lies: a segment of this PE, or of a same-node peer as
 * mapped here. Reads only tables that stay put while the library runs. */
struct place {
    int seg;
    int pe;
    uintptr_t base;
};

static bool locate(uintptr_t addr, struct place *at)
{
    for (int s = HCOMM_SEG_HEAP; s <= HCOMM_SEG_DEVICE; s++) {
        const struct backend_seg *g = &hcomm.seg[s];
        if (g->size && addr - g->base < g->size) {
            *at = (struct place){s, hcomm.my_pe, g->base};
            return true;
        }
    }
    if (!oshm_state.running || !hcomm.eps)
        return false;
    for (int p = 0; p < hcomm.n_pes; p++) {
        const struct hcomm_ep *ep = &hcomm.eps[p];
        if (p == hcomm.my_pe || !atomic_load_explicit(&ep->reached, memory_order_acquire) ||
            !ep->rma_ops || !ep->rma_peer || !(ep->rma_ops->flags & BACKEND_LOCAL))
            continue;
        for (int s = HCOMM_SEG_HEAP; s <= HCOMM_SEG_DEVICE; s++) {
            /* A peer's segment has the size of this PE's: it is symmetric. */
            uintptr_t base = ep->rma_ops->peek
                                 ? (uintptr_t)ep->rma_ops->peek(ep->rma_peer, s)
                                 : (uintptr_t)ep->rma_ops->ptr(ep->rma_peer, s, 0);
            if (hcomm.seg[s].size && base && addr - base < hcomm.seg[s].size) {
                *at = (struct place){s, p, base};
                return true;
            }
        }
    }
    return false;
}

static bool has_handler(const struct sigaction *sa)
{
    if (sa->sa_flags & SA_SIGINFO)
        return sa->sa_sigaction != NULL;
    return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

/* Says what faulted, where and in whose code. Silent only for a fault that
 * is none of the library's business (not symmetric memory, not in one of
 * its routines) when the program has a handler of its own for it. */
static void report(int sig, const siginfo_t *si, bool program_handles)
{
    uintptr_t addr = (uintptr_t)si->si_addr;
    struct place at;
    bool symmetric = locate(addr, &at);
    const char *routine = oshm_routine;
    if (!symmetric && !routine && program_handles)
        return;

    struct oshm_rawmsg m = {.len = 0};
    oshm_raw_str(&m, "shmem[PE ");
    oshm_raw_dec(&m, (uint64_t)oshm_boot.rank);
    oshm_raw_str(&m, sig == SIGBUS ? "]: error: SIGBUS" : "]: error: SIGSEGV");
    oshm_raw_str(&m, " at address ");
    oshm_raw_hex(&m, addr);
    if (symmetric) {
        size_t off = addr - at.base, committed = hcomm.seg[at.seg].committed;
        oshm_raw_str(&m, ", in ");
        if (at.pe != hcomm.my_pe) {
            oshm_raw_str(&m, "PE ");
            oshm_raw_dec(&m, (uint64_t)at.pe);
            oshm_raw_str(&m, "'s ");
        } else {
            oshm_raw_str(&m, "the ");
        }
        oshm_raw_str(&m, seg_name[at.seg]);
        oshm_raw_str(&m, at.pe != hcomm.my_pe ? " as mapped here [" : " [");
        oshm_raw_hex(&m, at.base);
        oshm_raw_str(&m, ", ");
        oshm_raw_hex(&m, at.base + hcomm.seg[at.seg].size);
        oshm_raw_str(&m, ") at offset ");
        oshm_raw_hex(&m, off);
        /* Every allocation lies in the backed part: past it, nothing is
         * allocated (the pages of a freed block stay backed). */
        if (off >= committed) {
            oshm_raw_str(&m, ", outside any allocation (allocations lie in its first ");
            oshm_raw_dec(&m, committed);
            oshm_raw_str(&m, " bytes)");
        }
    } else {
        oshm_raw_str(&m, ", not in symmetric memory");
    }
    if (routine) {
        oshm_raw_str(&m, "; in ");
        oshm_raw_str(&m, routine);
        oshm_raw_str(&m, " (check its arguments)");
    } else {
        oshm_raw_str(&m, "; in the program, not in an OpenSHMEM routine");
    }
    oshm_raw_write(&m);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *prev = sig == SIGBUS ? &prev_bus : &prev_segv;
    bool program_handles = has_handler(prev);
    /* si_code > 0: the kernel's, a fault; otherwise kill() or raise() sent
     * it and there is no address to speak of. Once, should several threads
     * fault together. */
    if (si->si_code > 0 && !atomic_flag_test_and_set(&reported))
        report(sig, si, program_handles);

    if (program_handles) {
        if (prev->sa_flags & SA_SIGINFO)
            prev->sa_sigaction(sig, si, uc);
        else
            prev->sa_handler(sig);
        return;
    }
    /* The previous action again (default: end the PE by this signal, which
     * the launcher reports). A fault recurs when the access is retried on
     * return; a sent signal is sent again, and stays blocked until then. */
    sigaction(sig, prev, NULL);
    if (si->si_code <= 0 && prev->sa_handler == SIG_DFL)
        raise(sig);
}

void oshm_fault_init(void)
{
    if (installed)
        return;
    /* A stack overflow is a SIGSEGV too: the handler needs a stack of its
     * own. Only where the thread has none (a sanitizer may have set one). */
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
        void *st = mmap(NULL, ALT_STACK_SIZE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        stack_t ss = {.ss_sp = st, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
        if (st != MAP_FAILED && sigaltstack(&ss, NULL) == 0)
            alt_stack = st;
        else if (st != MAP_FAILED)
            munmap(st, ALT_STACK_SIZE);
    }
    struct sigaction sa = {.sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK};
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &prev_bus) != 0)
        return;
    if (sigaction(SIGSEGV, &sa, &prev_segv) != 0) {
        sigaction(SIGBUS, &prev_bus, NULL);
        return;
    }
    installed = true;
}

/* Puts SIG's previous action back, unless the program replaced ours. */
static void restore(int sig, const struct sigaction *prev)
{
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
        cur.sa_sigaction == on_fault)
        sigaction(sig, prev, NULL);
}

void oshm_fault_fini(void)
{
    if (!installed)
        return;
    restore(SIGBUS, &prev_bus);
    restore(SIGSEGV, &prev_segv);
    installed = false;
    stack_t cur;
    if (alt_stack && sigaltstack(NULL, &cur) == 0 && cur.ss_sp == alt_stack &&
        !(cur.ss_flags & SS_ONSTACK)) {
        stack_t off = {.ss_flags = SS_DISABLE};
        if (sigaltstack(&off, NULL) == 0)
            munmap(alt_stack, ALT_STACK_SIZE);
    }
    alt_stack = NULL;
}
