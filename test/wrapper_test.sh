#!/bin/bash
# oshcc and oshc++ compile and link programs that run.
#   wrapper_test.sh BINDIR PE_TEST_SOURCE_DIR
set -eu
bin=$1 src=$2
# Extra flags for programs linked to a sanitized library.
cflags=${WRAPPER_CFLAGS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/oshcc" --showme | grep -q -- "-lshmem"
"$bin/oshcc" $cflags -O2 -o "$tmp/ring" "$src/ring.c"
"$bin/oshcc" $cflags -c -o "$tmp/ring.o" "$src/ring.c"
"$bin/oshcc" $cflags -o "$tmp/ring2" "$tmp/ring.o"
cat >"$tmp/hello.cpp" <<'CPP'
#include <shmem.h>
#include <cstdio>
int main() {
    shmem_init();
    long *x = static_cast<long *>(shmem_malloc(sizeof(long)));
    shmem_long_p(x, shmem_my_pe(), (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_barrier_all();
    int ok = *x == (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes();
    shmem_free(x);
    shmem_finalize();
    std::printf("c++ PE ok=%d\n", ok);
    return ok ? 0 : 1;
}
CPP
"$bin/oshc++" $cflags -o "$tmp/hello" "$tmp/hello.cpp"
"$bin/oshrun" -np 3 "$tmp/ring"
"$bin/oshrun" -np 2 "$tmp/ring2"
"$bin/oshrun" -np 2 "$tmp/hello" | grep -c "ok=1" | grep -qx 2
echo "wrappers: 5 passed, 0 failed"
