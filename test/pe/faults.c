/* Failure modes, chosen by argv[1]; test/launcher_test.sh states what each
 * must produce (exit status and message). */
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <shmem/features.h>
#if SHMEMX_HAVE_DEVICE
#include <shmem/device.h>
#endif

#include "boot/boot_wire.h"
#include "check.h"

static long target;

/* slow_teardown: this PE's FINALIZE message to oshrun (src/boot/boot_wire.h)
 * leaves this many seconds late, as from a PE whose teardown a loaded node
 * starves of CPU. The library's send() is this one: the program's symbol
 * comes first. */
static unsigned teardown_delay_s;

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
    static ssize_t (*real_send)(int, const void *, size_t, int);
    if (!real_send)
        real_send = (ssize_t(*)(int, const void *, size_t, int))dlsym(RTLD_NEXT, "send");
    struct boot_wire_hdr h;
    if (teardown_delay_s && len >= sizeof h) {
        memcpy(&h, buf, sizeof h);
        if (h.type == BOOT_WIRE_FINALIZE) {
            sleep(teardown_delay_s);
            teardown_delay_s = 0;
        }
    }
    return real_send(fd, buf, len, flags);
}

#if SHMEMX_HAVE_DEVICE
static void bad_pe_kernel(void *p)
{
    long *x = *(long **)p;
    shmemd_long_p(x, 1, shmemd_n_pes() + 3);
}
#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int victim = argc > 2 ? atoi(argv[2]) : 1;
    int code = argc > 3 ? atoi(argv[3]) : 0;
    if (!strcmp(mode, "exit_before_init")) {
        /* PE VICTIM leaves before shmem_init, with status 0; the others
         * start and wait for it. Only the launcher's variable can say which
         * PE this is before shmem_init. */
        const char *rank = getenv("OSHRUN_RANK");
        if (rank && atoi(rank) == victim)
            return 0;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    if (!strcmp(mode, "signal")) {
        /* One PE dies; the others wait in a barrier that can never end. */
        if (me == victim)
            raise(code ? code : SIGSEGV);
        shmem_barrier_all();
    } else if (!strcmp(mode, "exit")) {
        shmem_finalize();
        return me == victim ? code : 0;
    } else if (!strcmp(mode, "global_exit")) {
        if (me == victim)
            shmem_global_exit(code);
        shmem_barrier_all();
    } else if (!strcmp(mode, "quit")) {
        /* Leaves without finalizing while the others wait for it. */
        if (me == victim)
            _exit(0);
        shmem_barrier_all();
    } else if (!strcmp(mode, "exit_before_init")) {
        shmem_barrier_all();
    } else if (!strcmp(mode, "exit_without_finalize")) {
        /* Leaves through exit() while the others wait in a barrier: the
         * library's finalize at exit meets their barrier, and they then
         * wait for it in shmem_finalize. */
        if (me == victim)
            exit(0);
        shmem_barrier_all();
    } else if (!strcmp(mode, "slow_teardown")) {
        /* PE VICTIM takes CODE seconds to finish shmem_finalize after the
         * PEs met in it: the others leave first, and it must be waited for. */
        if (me == victim)
            teardown_delay_s = (unsigned)code;
        shmem_barrier_all();
    } else if (!strcmp(mode, "all_exit_without_finalize")) {
        /* Every PE leaves through exit(): the library finalizes them all
         * at exit, together (programs written for start_pes do this). */
        shmem_barrier_all();
        exit(0);
    } else if (!strcmp(mode, "hello")) {
        shmem_barrier_all();
        if (me == 0)
            printf("hello from %d PEs\n", n);
    } else if (!strcmp(mode, "everyone")) {
        /* A put to every PE, then the most files any PE holds open: a PE
         * maps its peers' memory and keeps no descriptor for it, so the
         * count must not grow with the job. */
        long *slot = shmem_calloc((size_t)n, sizeof *slot);
        for (int i = 1; i <= n; i++)
            shmem_long_p(&slot[me], me + 1, (me + i) % n);
        shmem_barrier_all();
        for (int i = 0; i < n; i++)
            CHECK(slot[i] == i + 1, "slot %d holds %ld", i, slot[i]);
        /* And a get from every PE; a peer reached once or twice need not
         * be mapped (counted: the mappings of the PE, on average over PEs,
         * must not grow with the job either). */
        long got = 0;
        for (int i = 1; i <= n; i++)
            got += shmem_long_g(&slot[(me + i) % n], (me + i) % n);
        CHECK(got == (long)n * (n + 1) / 2, "gets summed to %ld", got);
        static long fds, most, maps, all_maps, most_maps;
        DIR *d = opendir("/proc/self/fd");
        CHECK(d != NULL, "cannot list /proc/self/fd");
        for (struct dirent *e; (e = readdir(d));)
            fds += e->d_name[0] != '.';
        closedir(d);
        FILE *m = fopen("/proc/self/maps", "r");
        CHECK(m != NULL, "cannot read /proc/self/maps");
        for (int c; (c = fgetc(m)) != EOF;)
            maps += c == '\n';
        fclose(m);
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, &most, &fds, 1);
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &all_maps, &maps, 1);
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, &most_maps, &maps, 1);
        if (me == 0)
            printf("everyone ok: %d PEs, at most %ld open files a PE, %ld mappings a PE on "
                   "average, %ld at most\n",
                   n, most, all_maps / n, most_maps);
        shmem_free(slot);
    } else if (!strcmp(mode, "hold")) {
        /* Runs until the file argv[2] exists (60 s at most), then checks
         * that a put reaches every PE: a job for strangers to attack. */
        shmem_barrier_all();
        for (int i = 0; me == 0 && i < 6000 && access(argv[2], F_OK) != 0; i++)
            usleep(10000);
        shmem_barrier_all();
        shmem_long_p(&target, me + 1, (me + 1) % n);
        shmem_barrier_all();
        CHECK(target == (me + n - 1) % n + 1, "got %ld from the previous PE", target);
        if (me == 0)
            printf("hold ok\n");
    } else if (!strcmp(mode, "bad_pe")) {
        shmem_long_p(&target, 1, n);
    } else if (!strcmp(mode, "bad_addr")) {
        long on_stack = 0;
        shmem_long_put(&on_stack, &on_stack, 1, 0);
    } else if (!strcmp(mode, "free_stack")) {
        long on_stack = 0;
        shmem_free(&on_stack);
    } else if (!strcmp(mode, "stranger")) {
        /* A process that knows the launcher's address but not the job's secret. */
        const char *addr = getenv("OSHRUN_ADDR");
        CHECK(addr && getenv("OSHRUN_SECRET") == NULL, "secret still in the environment");
        if (me == 0) {
            int s;
            if (!strncmp(addr, "tcp:", 4)) {
                /* "tcp:IP:PORT" */
                struct sockaddr_in in = {.sin_family = AF_INET};
                char ip[64];
                const char *colon = strrchr(addr + 4, ':');
                CHECK(colon && (size_t)(colon - addr - 4) < sizeof ip, "address %s", addr);
                memcpy(ip, addr + 4, (size_t)(colon - addr - 4));
                ip[colon - addr - 4] = '\0';
                CHECK(inet_pton(AF_INET, ip, &in.sin_addr) == 1, "address %s", addr);
                in.sin_port = htons((uint16_t)atoi(colon + 1));
                s = socket(AF_INET, SOCK_STREAM, 0);
                CHECK(connect(s, (struct sockaddr *)&in, sizeof in) == 0, "connect");
            } else {
                struct sockaddr_un sa = {.sun_family = AF_UNIX};
                size_t len = strlen(addr);
                memcpy(sa.sun_path, addr, len);
                sa.sun_path[0] = '\0';
                s = socket(AF_UNIX, SOCK_STREAM, 0);
                CHECK(connect(s, (struct sockaddr *)&sa,
                              (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) == 0,
                      "connect");
            }
            /* The old protocol's HELLO: the secret guessed, in clear. */
            struct { uint32_t type, rank; uint64_t len; char guess[32]; } hello = {1, 0, 32, {0}};
            memset(hello.guess, '0', sizeof hello.guess);
            CHECK(send(s, &hello, sizeof hello, MSG_NOSIGNAL) == sizeof hello, "write");
            /* A challenge comes first (boot_wire.h), then the connection closes. */
            char c[256];
            ssize_t got, total = 0;
            while ((got = read(s, c, sizeof c)) > 0)
                total += got;
            CHECK((got == 0 || errno == ECONNRESET) && total <= 64,
                  "the launcher did not close a stranger's connection");
            close(s);
            printf("stranger refused\n");
        }
        shmem_barrier_all();
#if SHMEMX_HAVE_DEVICE
    } else if (!strcmp(mode, "device_on_host")) {
        /* A device routine outside a kernel: a clear error, not a crash. */
        shmemd_quiet();
    } else if (!strcmp(mode, "device_bad_pe")) {
        /* A kernel naming a PE that does not exist. */
        long *x = shmemx_device_calloc(1, sizeof(long));
        shmemx_launch(bad_pe_kernel, 1, 1, &x, sizeof x, NULL);
        shmemx_stream_synchronize(NULL);
#endif
    } else if (!strcmp(mode, "asymmetric_malloc")) {
        /* PEs ask for different sizes: with SHMEM_DEBUG a clear error. */
        void *p = shmem_malloc(64 + (size_t)me * 64);
        shmem_free(p);
    } else if (!strcmp(mode, "loop") || !strcmp(mode, "chatty")) {
        /* Runs until killed: a put round the ring and a barrier, over and
         * over; chatty: PE 0 prints a line each time. */
        for (long i = 0;; i++) {
            shmem_long_p(&target, i, (me + 1) % n);
            shmem_barrier_all();
            if (i == 0 && me == 0) {
                printf("looping\n");
                fflush(stdout);
            }
            if (mode[0] == 'c' && me == 0)
                printf("line %ld of output that nobody may read\n", i);
        }
    } else if (!strcmp(mode, "hog")) {
        /* PE VICTIM takes CODE MiB, page by page, until it has them or the
         * kernel ends it; the others wait in a barrier. */
        if (me == victim) {
            size_t size = (size_t)code << 20;
            char *p = malloc(size);
            /* Volatile: clang drops a buffer written and freed unread,
             * and the kernel then never sees the memory asked for. */
            volatile char *touch = p;
            for (size_t i = 0; p && i < size; i += 4096)
                touch[i] = 1;
            printf("PE %d holds %d MiB\n", me, p ? code : 0);
            free(p);
        }
        shmem_barrier_all();
    } else if (!strcmp(mode, "lines")) {
        /* Many lines from every PE at once: each must come out whole. */
        for (int i = 0; i < 2000; i++)
            printf("PE %d line %d %s\n", me, i,
                   "................................................................");
    } else {
        fprintf(stderr, "unknown mode '%s'\n", mode);
        return 2;
    }
    shmem_finalize();
    return 0;
}
