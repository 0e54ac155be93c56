#!/bin/bash
# Older programs include <mpp/shmem.h> and <mpp/shmemx.h>: they build
# unchanged with oshcc from the build tree and from an installed prefix,
# and run.
#   mpp_headers_test.sh BUILD_DIR CMAKE
set -eu
build=$1 cmake=$2
bin=$build/bin
cflags=${WRAPPER_CFLAGS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/old.c" <<'C'
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <stdio.h>
static long x;
int main(void) {
    start_pes(0);
    int me = _my_pe(), n = _num_pes();
    shmem_long_p(&x, me, (me + 1) % n);
    shmem_barrier_all();
    int ok = x == (me + n - 1) % n && shmemx_heap_size() > 0;
    printf("mpp PE %d ok=%d\n", me, ok);
    return ok ? 0 : 1;
}
C
run() { # PROGRAM: 2 PEs, both ok
    "$bin/oshrun" -np 2 "$1" >"$tmp/out"
    [ "$(grep -c "ok=1" "$tmp/out")" = 2 ] || { echo "FAIL $1:"; cat "$tmp/out"; exit 1; }
}

# From the build tree.
"$bin/oshcc" $cflags -o "$tmp/old_build" "$tmp/old.c"
run "$tmp/old_build"

# From an installed prefix: the headers must be there, and a program built
# against them (and only them) runs.
"$cmake" --install "$build" --prefix "$tmp/prefix" >/dev/null
for h in mpp/shmem.h mpp/shmemx.h; do
    [ -f "$tmp/prefix/include/$h" ] || { echo "FAIL: $h not installed"; exit 1; }
done
libdir=$(dirname "$(find "$tmp/prefix" -name 'libshmem.so' | head -1)")
# The installed oshcc finds its own prefix (which is not the configured one).
"$tmp/prefix/bin/oshcc" $cflags -o "$tmp/old_installed" "$tmp/old.c"
run "$tmp/old_installed"
# And with this prefix's headers alone, nothing of the source tree.
cc $cflags -I"$tmp/prefix/include" -o "$tmp/old_plain" "$tmp/old.c" -L"$libdir" \
    -Wl,-rpath,"$libdir" -lshmem
run "$tmp/old_plain"
echo "mpp headers: build tree and installed prefix passed"
