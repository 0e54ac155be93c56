/*
 * The bootstrap socket. PEs on this machine only: an abstract unix socket
 * (nothing on the file system to leave behind), or with --bootstrap tcp a
 * TCP socket on 127.0.0.1. PEs on other hosts: TCP on the one address of
 * this machine that reaches them, never on every interface, so that the
 * socket is not offered to networks the job does not use.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "oshrun.h"

#define BACKLOG 1024

static int listen_unix(char *addr, size_t addrlen)
{
    unsigned char rnd[8];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return -1;
    snprintf(addr, addrlen, "@oshrun-%d-%02x%02x%02x%02x%02x%02x%02x%02x", (int)getpid(),
             rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    size_t len = strlen(addr);
    memcpy(sa.sun_path, addr, len);
    sa.sun_path[0] = '\0'; /* abstract: no file to leave behind */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0 ||
        bind(fd, (struct sockaddr *)&sa,
             (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) != 0 ||
        listen(fd, BACKLOG) != 0) {
        perror("oshrun: cannot open the bootstrap socket");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* The address the kernel would send from to reach NAME: a UDP socket's
 * connect picks the route without sending anything. */
static int route_source(const char *name, struct in_addr *out)
{
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_DGRAM}, *res;
    if (getaddrinfo(name, "9", &hints, &res) != 0)
        return -1;
    int rc = -1, fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in me;
    socklen_t len = sizeof me;
    if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) == 0 &&
        getsockname(fd, (struct sockaddr *)&me, &len) == 0 &&
        (ntohl(me.sin_addr.s_addr) >> 24) != 127) {
        *out = me.sin_addr;
        rc = 0;
    }
    if (fd >= 0)
        close(fd);
    freeaddrinfo(res);
    return rc;
}

/* A host name the resolver does not know (a network namespace started by
 * "ip netns exec"): this machine's first non-loopback IPv4 address that is up. */
static int first_interface(struct in_addr *out)
{
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) != 0)
        return -1;
    int rc = -1;
    for (struct ifaddrs *i = ifs; i && rc != 0; i = i->ifa_next)
        if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
            !(i->ifa_flags & IFF_LOOPBACK)) {
            *out = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
            rc = 0;
        }
    freeifaddrs(ifs);
    return rc;
}

static const char *first_remote_host(void)
{
    for (int h = 0; h < opt.nhosts; h++)
        if (!opt.hosts[h].local)
            return opt.hosts[h].name;
    return NULL;
}

/* Where to listen: loopback when every PE is here, else the address that
 * reaches the first remote host. */
static int pick_address(struct in_addr *out)
{
    if (!opt.any_remote) {
        out->s_addr = htonl(INADDR_LOOPBACK);
        return 0;
    }
    if (route_source(first_remote_host(), out) == 0 || first_interface(out) == 0)
        return 0;
    fprintf(stderr, "oshrun: no network address reaches %s; give one with --bootstrap-addr\n",
            first_remote_host());
    return -1;
}

static int listen_tcp(char *addr, size_t addrlen)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    if (opt.bootstrap_addr) {
        if (inet_pton(AF_INET, opt.bootstrap_addr, &sa.sin_addr) != 1) {
            fprintf(stderr, "oshrun: --bootstrap-addr %s is not an IPv4 address\n",
                    opt.bootstrap_addr);
            return -1;
        }
    } else if (pick_address(&sa.sin_addr) != 0) {
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    int rc = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    if (rc != 0 && errno == EADDRNOTAVAIL && opt.bootstrap_addr) {
        /* An address PEs reach through a translation (NAT): not one of
         * this machine's, so every interface it is. */
        fprintf(stderr, "oshrun: %s is not an address of this machine; the bootstrap "
                        "listens on every interface\n", opt.bootstrap_addr);
        struct sockaddr_in any = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
        rc = bind(fd, (struct sockaddr *)&any, sizeof any);
    }
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    char ip[INET_ADDRSTRLEN];
    if (rc != 0 || listen(fd, BACKLOG) != 0 ||
        getsockname(fd, (struct sockaddr *)&bound, &blen) != 0 ||
        !inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof ip)) {
        perror("oshrun: cannot open the bootstrap socket");
        close(fd);
        return -1;
    }
    snprintf(addr, addrlen, "tcp:%s:%u", ip, (unsigned)ntohs(bound.sin_port));
    return fd;
}

int listen_bootstrap(char *addr, size_t len)
{
    return opt.tcp ? listen_tcp(addr, len) : listen_unix(addr, len);
}
