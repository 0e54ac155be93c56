#!/bin/bash
# The environment module files that `cmake --install` writes, loaded by
# Debian's Lmod: `module load oshm` puts the installation first in PATH,
# MANPATH, PKG_CONFIG_PATH and CMAKE_PREFIX_PATH (man still finds the system's
# pages), oshcc then builds a program that oshrun runs on 2 PEs, pkg-config
# and man find the tree, and `module unload oshm` gives the environment back.
# Checked for the Lua file, for the Tcl file alone (as Lmod reads it; the
# Debian package test loads it with Tcl Environment Modules), through a link
# to the modulefiles folder, and after the tree has moved.
#   modules_test.sh BUILD_DIR [CMAKE]
set -u
build=$1
# WRAPPER_CFLAGS: flags for oshcc (the sanitizers, in that build).
cmake=${2:-cmake}
lmod_init=/usr/share/lmod/lmod/init/bash
[ -r "$lmod_init" ] || { echo "SKIP: Lmod is not installed (scripts/deps installs lmod)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {  # check NAME COMMAND...
    local name=$1; shift
    if "$@" >"$tmp/out" 2>&1; then pass=$((pass + 1))
    else echo "FAIL: $name"; sed 's/^/    /' "$tmp/out" | tail -15; fail=$((fail + 1)); fi
}

"$cmake" --install "$build" --prefix "$tmp/first" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "cmake --install failed"; exit 1; }
mv "$tmp/first" "$tmp/moved"
P=$tmp/moved
version=$(ls "$P/share/modulefiles/oshm" | grep -v '\.lua$' | head -1)
check "a Tcl and a Lua module file" test -f "$P/share/modulefiles/oshm/$version" -a \
    -f "$P/share/modulefiles/oshm/$version.lua"
check "the Tcl file has the Environment Modules magic line" \
    sh -c "head -1 '$P/share/modulefiles/oshm/$version' | grep -q '^#%Module'"

# A ring of puts that checks its values (test/installed/ring.c).
cp "$(dirname "$0")/installed/ring.c" "$tmp/ring.c"

# Loads oshm from MODULEPATH_DIR in a clean shell (no login scripts: MANPATH
# unset, as on a bare system) and checks what it set, then unloads it.
loads() {
    local dir=$1
    env -i HOME="$tmp" PATH=/usr/bin:/bin TMP="$tmp" P="$P" CFLAGS="${WRAPPER_CFLAGS:-}" LMOD_INIT="$lmod_init" DIR="$dir" \
        bash -c '
set -u
source "$LMOD_INIT"
module use "$DIR"
module load oshm || { echo "module load oshm failed"; exit 1; }
bad() { echo "$*"; exit 1; }
[ "${PATH%%:*}" = "$P/bin" ] || bad "PATH starts with ${PATH%%:*}"
[ "$(command -v oshcc)" = "$P/bin/oshcc" ] || bad "oshcc is $(command -v oshcc)"
[ "${MANPATH%%:*}" = "$P/share/man" ] || bad "MANPATH is $MANPATH"
[ "${PKG_CONFIG_PATH%%:*}" = "$P/lib/pkgconfig" ] || bad "PKG_CONFIG_PATH is $PKG_CONFIG_PATH"
[ "${CMAKE_PREFIX_PATH%%:*}" = "$P" ] || bad "CMAKE_PREFIX_PATH is $CMAKE_PREFIX_PATH"
man -w shmem_put | grep -q "^$P/share/man/" || bad "man -w shmem_put: $(man -w shmem_put 2>&1)"
man -w ls >/dev/null 2>&1 || bad "the system pages are hidden: MANPATH=$MANPATH"
[ "$(readlink -f "$(pkg-config --variable=libdir oshm)")" = "$P/lib" ] ||
    bad "pkg-config: $(pkg-config --variable=libdir oshm 2>&1)"
oshcc $CFLAGS -o "$TMP/ring" "$TMP/ring.c" || bad "oshcc failed"
out=$(timeout 60 oshrun -np 2 "$TMP/ring" 2>&1)
[ "$(echo "$out" | grep -c ": ok$")" = 2 ] || bad "oshrun -np 2: $out"
module unload oshm
[ "$PATH" = /usr/bin:/bin ] || bad "after unload PATH is $PATH"
[ -z "${PKG_CONFIG_PATH:-}" ] || bad "after unload PKG_CONFIG_PATH is $PKG_CONFIG_PATH"
[ -z "${CMAKE_PREFIX_PATH:-}" ] || bad "after unload CMAKE_PREFIX_PATH is $CMAKE_PREFIX_PATH"
exit 0'
}

check "Lua file: module load oshm" loads "$P/share/modulefiles"
mkdir -p "$tmp/links" "$tmp/tcl/oshm"
ln -s "$P/share/modulefiles/oshm" "$tmp/links/oshm"
check "through a link to the folder" loads "$tmp/links"
ln -s "$P/share/modulefiles/oshm/$version" "$tmp/tcl/oshm/$version"
check "Tcl file alone (Lmod's Tcl reader), through a link to the file" loads "$tmp/tcl"
check "module avail lists oshm/$version" env -i HOME="$tmp" PATH=/usr/bin:/bin \
    bash -c "source '$lmod_init'; module use '$P/share/modulefiles'; module -t avail 2>&1 | grep -qx 'oshm/$version'"

echo "modules: $pass passed, $fail failed"
[ "$fail" = 0 ]
