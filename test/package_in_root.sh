#!/bin/bash
# Runs inside the clean Debian root of test/package_test.sh, as root:
#   package_in_root.sh DEB EXAMPLES_DIR
# Installs the package with apt (its dependencies from the archive), builds
# and runs the examples with the installed tools, loads the module with Tcl
# Environment Modules, installs Open MPI's openmpi-bin beside it (after it
# and before it), and removes it, checking that nothing of it is left.
set -u
deb=$1
examples=$2
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
apt_get() { apt-get -y -q -o Dpkg::Options::=--force-unsafe-io -o Dpkg::Use-Pty=0 "$@"; }
pass=0 fail=0
ok() { echo "ok: $* (${SECONDS} s)"; pass=$((pass + 1)); }
bad() { echo "FAIL: $* (${SECONDS} s)"; fail=$((fail + 1)); }
check() {  # check NAME COMMAND...
    local name=$1; shift
    if "$@" >/tmp/out 2>&1; then ok "$name"; else bad "$name"; sed 's/^/    /' /tmp/out | tail -15; fi
}
finish() { echo "package: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
prefix=/usr/lib/$multiarch/oshm
work=/tmp/work
mkdir -p $work
# Everything on the system that names oshm, but this test's own files.
oshm_paths() {
    find / -xdev \( -path /proc -o -path /tmp -o -path /var/cache/apt -o -path /var/log \
        -o -path /var/lib/dpkg/info \) -prune -o \( -name oshm -o -name 'oshm[._]*' -o -name '*.oshm' \
        -o -name '*.oshm.*' \) -print | sort
}
oshm_paths >$work/before

# ---- apt installs it with its dependencies (and the tools this test uses)
apt_get update -qq >$work/update.log 2>&1 || echo "note: apt-get update failed, using the lists the root has"
echo "apt-get update: ${SECONDS} s"
# man-db's trigger would index every page after each install (man finds the
# pages without its index): the test's time goes to the package instead.
echo "man-db man-db/auto-update boolean false" | debconf-set-selections
if ! apt_get install "$deb" man-db environment-modules pkgconf >$work/apt.log 2>&1; then
    tail -20 $work/apt.log; bad "apt-get install ./oshm_*.deb"; finish
fi
ok "apt-get install ./oshm_*.deb pulls its dependencies"
dpkg-query -L oshm >$work/files

# ---- the plain names, the clearly named links, the examples at 4 PEs
check "oshcc is oshm's (no other package has the name)" \
    sh -c "[ \"\$(readlink -f \"\$(command -v oshcc)\")\" = $prefix/bin/oshcc ]"
check "oshrun and oshc++ are oshm's" sh -c "[ \"\$(readlink -f /usr/bin/oshrun)\" = $prefix/bin/oshrun ] &&
    [ \"\$(readlink -f /usr/bin/oshc++)\" = $prefix/bin/oshc++ ]"
# Builds and runs at 4 PEs every example: hello prints one line per PE, the
# device examples check their results and print "passed".
run_examples() {  # run_examples OSHCC OSHRUN
    local cc=$1 run=$2 src exe out
    rm -rf $work/ex && mkdir -p $work/ex
    local all=("$examples"/hello.c)
    # The device examples where the package has the simulated device.
    [ -e $prefix/include/shmem/device.h ] && all+=("$examples"/device/*.c "$examples"/device/compat/*.c)
    for src in "${all[@]}"; do
        exe=$work/ex/$(basename "$src" .c)
        "$cc" -O2 -o "$exe" "$src" || { echo "$cc $src failed"; return 1; }
        out=$(timeout 120 "$run" -np 4 "$exe" 2>&1) || { echo "$exe: $out"; return 1; }
        case $src in
            */hello.c) [ "$(echo "$out" | grep -c '^Hello from PE')" = 4 ] ;;
            *) echo "$out" | grep -q passed ;;
        esac || { echo "$exe: $out"; return 1; }
    done
}
check "oshcc and oshrun -np 4: every example" run_examples oshcc oshrun
# PEs that reach each other through UCX over tcp, as on several nodes.
check "hello over UCX (tcp), 4 PEs" sh -c "oshcc -o $work/hello $examples/hello.c &&
    SHMEM_NODE_ID=%2p UCX_TLS=tcp timeout 60 oshrun -np 4 $work/hello | grep -c '^Hello' | grep -qx 4"
cat >$work/generic.cpp <<'CPP'
#include <shmem.h>
#include <cstdio>
static long dst = -1;
int main() {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_p(&dst, long(me), (me + 1) % n);
    shmem_barrier_all();
    std::printf("%s\n", dst == (me + n - 1) % n ? "ok" : "WRONG");
    shmem_finalize();
}
CPP
check "oshc++.oshm builds the C++ generic names, 2 PEs" sh -c "oshc++.oshm -o $work/generic $work/generic.cpp &&
    timeout 60 oshrun.oshm -np 2 $work/generic | grep -c '^ok' | grep -qx 2"
check "pkg-config finds oshm without a search path" sh -c "cc -o $work/hello_pc $examples/hello.c \
    \$(pkg-config --cflags --libs oshm) && timeout 60 oshrun -np 2 $work/hello_pc | grep -c '^Hello' | grep -qx 2"
check "oshm_info runs" sh -c "oshm_info | grep -qi ucx"

# ---- manual pages
check "man -w shmem_put" sh -c "man -w shmem_put | grep -qx /usr/share/man/man3/shmem_put.3.gz"
check "man shmem_int_put shows the put page" \
    sh -c "MANWIDTH=200 man shmem_int_put 2>/dev/null | grep -q 'shmem_put.*copy contiguous data'"
check "man oshrun" sh -c "MANWIDTH=200 man oshrun 2>/dev/null | grep -q -- '-np'"

# ---- module load oshm, Tcl Environment Modules (which skips the .lua file)
modules() {  # modules COMMANDS: runs them in a login shell where `module` is defined
    env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -lc ". /etc/profile.d/modules.sh; $*"
}
check "module avail lists oshm/<version> once (not the .lua file)" \
    modules "module -t avail oshm 2>&1 | grep -c '^oshm/' | grep -qx 1"
check "module load oshm: PATH, MANPATH, PKG_CONFIG_PATH, CMAKE_PREFIX_PATH" modules "
    module load oshm || exit 1
    [ \"\$(command -v oshcc)\" = $prefix/bin/oshcc ] || { echo PATH=\$PATH; exit 1; }
    case :\$MANPATH: in *:$prefix/share/man:*) ;; *) echo MANPATH=\$MANPATH; exit 1 ;; esac
    man -w ls >/dev/null || { echo system pages hidden: MANPATH=\$MANPATH; exit 1; }
    [ \"\${PKG_CONFIG_PATH%%:*}\" = $prefix/lib/pkgconfig ] || { echo PKG_CONFIG_PATH=\$PKG_CONFIG_PATH; exit 1; }
    [ \"\${CMAKE_PREFIX_PATH%%:*}\" = $prefix ] || { echo CMAKE_PREFIX_PATH=\$CMAKE_PREFIX_PATH; exit 1; }
    oshcc -o $work/hello_mod $examples/hello.c && timeout 60 oshrun -np 4 $work/hello_mod | grep -c ^Hello | grep -qx 4
    module unload oshm && [ \"\$(command -v oshcc)\" = /usr/bin/oshcc ]"

# ---- beside Open MPI: installed after oshm, then oshm removed and installed again
if apt_get install openmpi-bin >$work/ompi.log 2>&1; then
    ok "openmpi-bin installs beside oshm"
    check "oshcc and oshrun are now Open MPI's" sh -c "[ \"\$(readlink -f /usr/bin/oshcc)\" = /usr/bin/opal_wrapper ] &&
        [ \"\$(readlink -f /usr/bin/oshrun)\" = /usr/bin/orterun ]"
    check "oshcc.oshm and oshrun.oshm still build and run" sh -c "oshcc.oshm -o $work/hello2 $examples/hello.c &&
        timeout 60 oshrun.oshm -np 4 $work/hello2 | grep -c ^Hello | grep -qx 4"
    check "module load oshm puts oshm's oshcc first" \
        modules "module load oshm && [ \"\$(command -v oshcc)\" = $prefix/bin/oshcc ]"
    check "apt remove oshm keeps Open MPI's oshcc" sh -c "apt-get -y -q remove oshm >/dev/null 2>&1 &&
        [ \"\$(readlink -f /usr/bin/oshcc)\" = /usr/bin/opal_wrapper ] && [ -e /usr/bin/oshrun ]"
    check "oshm installs where openmpi-bin is" apt_get install "$deb"
    check "Open MPI's oshcc is untouched, oshcc.oshm is oshm's" sh -c "
        [ \"\$(readlink -f /usr/bin/oshcc)\" = /usr/bin/opal_wrapper ] &&
        [ \"\$(readlink -f /usr/bin/oshcc.oshm)\" = $prefix/bin/oshcc ]"
    check "apt remove openmpi-bin gives oshcc back to oshm" sh -c "apt-get -y -q remove openmpi-bin >/dev/null 2>&1 &&
        [ \"\$(readlink -f /usr/bin/oshcc)\" = $prefix/bin/oshcc ] &&
        [ \"\$(readlink -f /usr/bin/oshrun)\" = $prefix/bin/oshrun ]"
else
    tail -5 $work/ompi.log; bad "apt-get install openmpi-bin"
fi

# ---- apt remove leaves nothing
check "apt remove oshm" apt_get remove oshm
check "dpkg forgets it (no conffiles kept)" sh -c "! dpkg-query -W oshm"
left=$(while read -r f; do
           [ "$f" = /. ] && continue
           [ -e "$f" ] || [ -L "$f" ] || continue
           [ -d "$f" ] && [ ! -L "$f" ] && dpkg-query -S "$f" >/dev/null 2>&1 && continue
           echo "$f"
       done <$work/files)
[ -z "$left" ] && ok "none of its files is left" || bad "left behind: $(echo $left | head -c 400)"
left=$(for f in /usr/bin/oshcc /usr/bin/oshrun /usr/bin/oshc++ /usr/share/man/man1/oshcc.1.gz \
                /usr/share/man/man1/oshc++.1.gz /usr/share/man/man1/oshrun.1.gz; do
           [ -e "$f" ] || [ -L "$f" ] && echo "$f"
       done)
[ -z "$left" ] && ok "no plain name's link left" || bad "links left behind: $(echo $left)"
oshm_paths >$work/after
check "nothing else that names oshm appeared" diff $work/before $work/after
finish
