#!/bin/bash
# An installed tree, moved elsewhere afterwards, still builds and runs
# programs through every route a user has: oshcc, oshc++ (the generic names as
# C++ overloads), oshcc -static, pkg-config, CMake's find_package; the
# wrappers' --showme forms describe the moved tree; man finds the pages.
#   install_test.sh BUILD_DIR [CMAKE]
set -u
build=$1
cmake=${2:-cmake}
cflags=${WRAPPER_CFLAGS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() {  # check NAME COMMAND...
    local name=$1; shift
    if "$@" >"$tmp/out" 2>&1; then ok; else bad "$name"; sed 's/^/    /' "$tmp/out" | tail -15; fi
}

"$cmake" --install "$build" --prefix "$tmp/first" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "cmake --install failed"; exit 1; }
mv "$tmp/first" "$tmp/moved"
P=$tmp/moved
run() { timeout 60 "$P/bin/oshrun" "$@"; }

# A ring of puts that checks its values (test/installed/ring.c).
cp "$(dirname "$0")/installed/ring.c" "$tmp/ring.c"
# Runs PROGRAM on NP PEs and expects NP "ok" lines and exit status 0.
ring_runs() {
    local prog=$1 np=$2
    run -np "$np" "$prog" >"$tmp/ring.out" 2>&1 || { cat "$tmp/ring.out"; return 1; }
    [ "$(grep -c ": ok$" "$tmp/ring.out")" = "$np" ] || { cat "$tmp/ring.out"; return 1; }
}

# ---- the moved tree has nothing pointing into the old location
check "no file names the old prefix" \
    sh -c "! grep -rlI -- '$tmp/first' '$P'"

# ---- oshcc
check "oshcc builds" "$P/bin/oshcc" $cflags -O2 -o "$tmp/ring" "$tmp/ring.c"
for np in 1 2 3 4; do check "oshcc program, $np PEs" ring_runs "$tmp/ring" $np; done
check "oshcc program's run path is the moved lib" \
    sh -c "readelf -d '$tmp/ring' | grep -E 'R(UN)?PATH' | grep -qF '$P/lib'"
check "oshcc -c then link" sh -c "'$P/bin/oshcc' $cflags -c -o '$tmp/ring.o' '$tmp/ring.c' &&
    '$P/bin/oshcc' $cflags -o '$tmp/ring2' '$tmp/ring.o'"
check "separately linked program runs" ring_runs "$tmp/ring2" 2

# A copy of the tree in a folder whose name has a space works as well.
cp -a "$P" "$tmp/with space"
check "copy in a folder with a space: oshcc builds" \
    "$tmp/with space/bin/oshcc" $cflags -o "$tmp/ring_space" "$tmp/ring.c"
check "copy in a folder with a space: program runs" ring_runs "$tmp/ring_space" 2

# ---- oshcc -static: libshmem is inside the program
check "oshcc -static builds" "$P/bin/oshcc" $cflags -static -o "$tmp/ring_static" "$tmp/ring.c"
check "-static program needs no libshmem.so" \
    sh -c "! readelf -d '$tmp/ring_static' | grep -q 'libshmem'"
check "-static program, 2 PEs" ring_runs "$tmp/ring_static" 2
check "-static program, 3 PEs" ring_runs "$tmp/ring_static" 3

# ---- --showme forms name the moved tree
check "--showme:compile" sh -c "[ \"\$('$P/bin/oshcc' --showme:compile)\" = '-I$P/include' ]"
check "--showme:link" sh -c "'$P/bin/oshcc' --showme:link | grep -qE -- '^-L$P/lib .*-lshmem'"
check "--showme" sh -c "'$P/bin/oshcc' --showme -c x.c | grep -qE -- '^cc -I$P/include -c x.c\$'"
check "--showme:command (C++)" sh -c "[ \"\$('$P/bin/oshc++' --showme:command)\" = c++ ]"
check "--showme:version" sh -c "'$P/bin/oshcc' --showme:version | grep -q 'OpenSHMEM 1\\.6'"
check "--showme:link -static names libshmem.a" \
    sh -c "'$P/bin/oshcc' -static --showme:link | grep -qF '$P/lib/libshmem.a'"
check "unknown --showme form is refused by name" \
    sh -c "'$P/bin/oshcc' --showme:nonsense 2>&1 | grep -q 'unknown option --showme:nonsense'"
if "$P/bin/oshcc" --showme:nonsense >/dev/null 2>&1; then bad "--showme:nonsense exits 0"; else ok; fi
check "OSHM_PREFIX overrides the prefix" \
    sh -c "[ \"\$(OSHM_PREFIX=/elsewhere '$P/bin/oshcc' --showme:compile)\" = -I/elsewhere/include ]"
# Through a symbolic link (as module systems and /usr/local/bin links do).
ln -s "$P/bin/oshcc" "$tmp/oshcc-link"
check "a link to oshcc finds the tree" \
    sh -c "[ \"\$('$tmp/oshcc-link' --showme:compile)\" = '-I$P/include' ]"
# The Debian package's names: the language is the wrapper's own, not the link's.
ln -s "$P/bin/oshc++" "$tmp/oshc++.oshm"
check "a link named oshc++.oshm compiles C++" sh -c "[ \"\$('$tmp/oshc++.oshm' --showme:command)\" = c++ ]"

# ---- oshc++: the generic names as overloads, with values checked
cat >"$tmp/generic.cpp" <<'CPP'
#include <shmem.h>
#include <cstdio>
static long src[4], dst[4];
static double half = -1;
static int counter;
static unsigned long bits;
static long flag;
static int total, mine;
static short stride[6];
static uint64_t sigword;
int main() {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int wrong = 0;
    for (int i = 0; i < 4; i++) src[i] = 100 * me + i;
    shmem_barrier_all();
    shmem_put(dst, src, 4, right);                   // long
    shmem_p(&half, 0.5 * me, right);                 // double
    shmem_atomic_fetch_add(&counter, me + 1, 0);     // int
    shmem_atomic_or(&bits, 1UL << me, 0);            // unsigned long
    short vals[3] = {short(me), short(me + 1), short(me + 2)};
    shmem_iput(stride, vals, 2, 1, 3, right);        // short, strided
    shmem_barrier_all();
    for (int i = 0; i < 4; i++) wrong |= dst[i] != 100 * left + i;
    wrong |= half != 0.5 * left;
    wrong |= shmem_g(&src[2], right) != 100 * right + 2;
    wrong |= stride[0] != left || stride[2] != left + 1 || stride[4] != left + 2;
    if (me == 0) {
        shmem_wait_until(&counter, SHMEM_CMP_EQ, n * (n + 1) / 2);
        wrong |= shmem_atomic_fetch(&bits, 0) != (1UL << n) - 1;
    }
    mine = me + 1;
    shmem_sum_reduce(SHMEM_TEAM_WORLD, &total, &mine, 1);
    wrong |= total != n * (n + 1) / 2;
    static int scan;                                 // OpenSHMEM 1.6 generic names
    shmem_sum_exscan(SHMEM_TEAM_WORLD, &scan, &mine, 1);
    wrong |= scan != me * (me + 1) / 2;
    long blocks[4] = {0, 0, 0, 0};
    shmem_ibget(blocks, src, 2, 2, 1, 2, right);     // src[0] and src[2]
    wrong |= blocks[0] != 100 * right || blocks[2] != 100 * right + 2;
    shmem_signal_add(SHMEM_CTX_DEFAULT, &sigword, 2, right);
    shmem_barrier_all();
    wrong |= shmem_signal_fetch(&sigword) != 2;
    shmem_atomic_set(&flag, 7L, right);
    shmem_wait_until(&flag, SHMEM_CMP_EQ, 7L);       // long: the deprecated C name's type too
    wrong |= shmem_test(&flag, SHMEM_CMP_NE, 7L);
    std::printf("PE %d of %d: %s\n", me, n, wrong ? "WRONG" : "ok");
    shmem_finalize();
    return wrong;
}
CPP
check "oshc++ builds generic names" "$P/bin/oshc++" $cflags -Wall -Wextra -Werror \
    -o "$tmp/generic" "$tmp/generic.cpp"
for np in 1 2 3; do check "oshc++ program, $np PEs" ring_runs "$tmp/generic" $np; done

# ---- pkg-config
pc="env PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config"
check "pkg-config knows oshm" $pc --exists oshm
check "pkg-config's includedir is the moved tree's" \
    sh -c "[ \"\$(readlink -f \"\$($pc --variable=includedir oshm)\")\" = '$P/include' ]"
check "pkg-config build" sh -c "cc $cflags -o '$tmp/ring_pc' '$tmp/ring.c' \$($pc --cflags --libs oshm)"
check "pkg-config program, 2 PEs" ring_runs "$tmp/ring_pc" 2

# ---- CMake find_package
mkdir -p "$tmp/cm"
cat >"$tmp/cm/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(consumer C CXX)
find_package(oshm 0.1 REQUIRED)
add_executable(ring_shared $tmp/ring.c)
target_link_libraries(ring_shared oshm::shmem)
add_executable(ring_static $tmp/ring.c)
target_link_libraries(ring_static oshm::shmem_static)
add_executable(generic_cxx $tmp/generic.cpp)
target_link_libraries(generic_cxx oshm::shmem)
EOF
check "find_package(oshm) configures and builds" sh -c "'$cmake' -S '$tmp/cm' -B '$tmp/cm/b' \
    -DCMAKE_PREFIX_PATH='$P' -DCMAKE_C_FLAGS='$cflags' -DCMAKE_CXX_FLAGS='$cflags' \
    -DCMAKE_EXE_LINKER_FLAGS='$cflags' && '$cmake' --build '$tmp/cm/b'"
check "oshm::shmem program, 2 PEs" ring_runs "$tmp/cm/b/ring_shared" 2
check "oshm::shmem_static program, 3 PEs" ring_runs "$tmp/cm/b/ring_static" 3
check "oshm::shmem_static has no libshmem.so" \
    sh -c "! readelf -d '$tmp/cm/b/ring_static' | grep -q libshmem"
check "oshm::shmem C++ program, 2 PEs" ring_runs "$tmp/cm/b/generic_cxx" 2

# ---- manual pages, by MANPATH and through PATH
check "oshm_prof installed" sh -c "'$P/bin/oshm_prof' --help | grep -q 'oshm_prof compare'"
for name in oshcc oshc++ oshrun oshm_prof shmem_init shmem_put shmem_int_put shmem_ctx_int_put shmem_put64 \
            shmem_putmem shmem_barrier_all shmem_atomic_fetch_add shmem_ulonglong_atomic_fetch_add \
            shmem_sum_reduce shmem_complexd_prod_reduce shmem_wait_until shmem_int32_wait_until_any \
            shmem_malloc shmem_free shmem_team_split_strided shmem_double_sum_to_all; do
    check "man -w $name" sh -c "MANPATH='$P/share/man' man -w '$name' | grep -q '^$P/share/man/'"
done
check "man shmem_int_put shows the put page" \
    sh -c "MANPATH='$P/share/man' MANWIDTH=200 man shmem_int_put 2>/dev/null | grep -q 'shmem_put.*copy contiguous data'"
check "man finds the pages from PATH alone" \
    sh -c "unset MANPATH; PATH='$P/bin':\$PATH man -w shmem_put | grep -q '^$P/share/man/'"
# Every routine family of the API has its page.
check "a page for every family" sh -c "[ \$(grep -c '^@family' '$(dirname "$0")/../man/families.txt') \
    -le \$(grep -L '^\\.so' '$P'/share/man/man3/*.3 | wc -l) ]"

# Every routine that the installed <shmem.h> declares has a page.
echo '#include <shmem.h>' | cc -E -P -I"$P/include" -x c - | tr '\n' ' ' | sed 's/;/;\n/g' |
    grep -oE '\b(shmem|shm|_my|_num|start)[a-z0-9_]* ?\(' | tr -d '( ' | sort -u >"$tmp/routines"
missing=$(while read -r r; do [ -f "$P/share/man/man3/$r.3" ] || echo "$r"; done <"$tmp/routines")
if [ "$(wc -l <"$tmp/routines")" -gt 1000 ] && [ -z "$missing" ]; then ok
else bad "routines without a page: $(echo $missing | head -c 300)"; fi

echo "install: $pass passed, $fail failed"
[ "$fail" = 0 ]
