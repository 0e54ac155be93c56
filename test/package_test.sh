#!/bin/bash
# The Debian package, as a user meets it: made from the build tree by
# contrib/debian/make_deb.sh, its control file checked, then installed with
# apt into a clean Debian root (debootstrap, minbase) where
# test/package_in_root.sh builds and runs the examples with it, loads its
# module, installs Open MPI beside it and removes it.
#   package_test.sh BUILD_DIR SOURCE_DIR
# The clean root is made once (a few minutes, from the Debian mirror the
# host's apt uses) and kept as tar files in $OSHM_TEST_CACHE
# (/var/cache/oshm-test), with the .debs apt fetched; each run unpacks a
# fresh copy, works in it in its own mount and PID namespaces (unshare), and
# deletes it. Needs root, debootstrap, and the Debian mirror the first time;
# skipped (77) otherwise.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cache=${OSHM_TEST_CACHE:-/var/cache/oshm-test}
# Where a clean root cannot be made (not root, no debootstrap, no Debian
# mirror the first time) the test says so loudly and is skipped (77), not
# failed: CI runs as root on Debian 12 with scripts/deps, where it runs.
skip() { echo "SKIP: $*: no package test"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (the clean root needs chroot and mounts)"
for tool in debootstrap unshare chroot dpkg-deb; do
    command -v $tool >/dev/null || skip "$tool is not installed (scripts/deps)"
done
. /etc/os-release
suite=$VERSION_CODENAME
tmp=$(mktemp -d /var/tmp/oshm-package.XXXXXX)
# The root's mounts live in a namespace that ends with each command: nothing
# of the host's is mounted in it when it is removed.
trap 'rm -rf --one-file-system "$tmp"' EXIT

# ---- the package and its control file
deb=$("$src/contrib/debian/make_deb.sh" "$build" "$tmp" 2>"$tmp/make_deb.log") ||
    { cat "$tmp/make_deb.log"; echo "FAIL: make_deb.sh"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
# (UCX and PMIx are opened at run time: nothing links them, make_deb.sh
# names them; the cache has no OSHM_HAVE_* entries, which made this check
# ask for nothing until 2026-12-07.)
built_with() { grep -q "^OSHM_WITH_$1:BOOL=ON" "$build/CMakeCache.txt" &&
               grep -q "^$1_FOUND:INTERNAL=1" "$build/CMakeCache.txt"; }
want_deps=""
built_with UCX && want_deps="libucx0"
built_with PMIX && want_deps="$want_deps libpmix2"
for dep in $want_deps libc6 gcc; do
    echo "$depends" | grep -q "\b$dep\b" || { echo "FAIL: Depends lacks $dep: $depends"; exit 1; }
done

# ---- the clean root: debootstrap once, then a copy per run
base=$cache/$suite-minbase.tar
archives=$cache/archives
mkdir -p "$archives/partial"
# The host's own Debian sources for this release (main, updates, security).
sources() {
    apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT) $(IDENTIFIER)' |
        awk -v s="$suite" '$4 == "Packages" && ($2 == s || $2 == s "-updates" || $2 == s "-security") {
            print "deb " $1 " " $2 " " $3 }' | sort -u
}
# Runs a command in the root ROOT, in its own mount and PID namespaces: /dev,
# a private /dev/shm, /proc, /sys, and the kept .debs as apt's cache. Every
# mount and process ends with the command.
in_root() {  # in_root ROOT COMMAND...
    local r=$1; shift
    timeout 900 unshare --mount --pid --fork --kill-child -- /bin/sh -c '
        set -e
        r=$1 archives=$2; shift 2
        mount --make-rprivate /
        mount --rbind /dev "$r/dev"
        mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
        mount -t proc proc "$r/proc"
        mount --rbind /sys "$r/sys"
        mount --bind "$archives" "$r/var/cache/apt/archives"
        exec chroot "$r" "$@"' sh "$r" "$archives" "$@"
}

if [ ! -f "$base" ]; then
    mirror=$(sources | awk -v s="$suite" '$3 == s { print $2; exit }')
    [ -n "$mirror" ] || skip "no Debian mirror for $suite in the host's apt sources"
    echo "making the clean $suite root (debootstrap --variant=minbase from $mirror) into $base"
    start=$(date +%s)
    if ! debootstrap --variant=minbase --cache-dir="$archives" "$suite" "$tmp/new" "$mirror" \
            >"$tmp/debootstrap.log" 2>&1; then
        tail -20 "$tmp/debootstrap.log"
        skip "debootstrap could not make a clean root from $mirror"
    fi
    sources >"$tmp/new/etc/apt/sources.list"
    cp /etc/resolv.conf "$tmp/new/etc/resolv.conf" 2>/dev/null
    in_root "$tmp/new" apt-get update -qq >>"$tmp/debootstrap.log" 2>&1 ||
        { tail -5 "$tmp/debootstrap.log"; echo "FAIL: apt-get update in the clean root"; exit 1; }
    tar -C "$tmp/new" -cf "$base.$$.part" . && mv "$base.$$.part" "$base"
    rm -rf --one-file-system "$tmp/new"
    echo "clean root made in $(($(date +%s) - start)) s"
fi
# The tools the test itself uses (a compiler, man, Environment Modules,
# pkg-config) are installed once into a second kept root: apt unpacking gcc
# took most of each run's minutes. What the package alone brings (UCX,
# PMIx, hwloc, libsodium) stays out of it, so each run's apt install still
# has to pull those from the archive; that Depends names gcc is checked above.
tools=$cache/$suite-minbase-tools.tar
if [ ! -f "$tools" ]; then
    echo "adding the test's tools to the clean root into $tools"
    mkdir "$tmp/new" && tar -C "$tmp/new" -xf "$base" || { echo "FAIL: cannot unpack $base"; exit 1; }
    in_root "$tmp/new" /bin/sh -c 'export DEBIAN_FRONTEND=noninteractive
        echo "man-db man-db/auto-update boolean false" | debconf-set-selections
        apt-get update -qq || true
        apt-get -y -q -o Dpkg::Options::=--force-unsafe-io --no-install-recommends install gcc g++ libc6-dev man-db environment-modules pkgconf' \
        >"$tmp/tools.log" 2>&1 || { tail -20 "$tmp/tools.log"; skip "apt could not install the test's tools"; }
    tar -C "$tmp/new" -cf "$tools.$$.part" . && mv "$tools.$$.part" "$tools"
    rm -rf --one-file-system "$tmp/new"
fi
root=$tmp/root
mkdir "$root"
tar -C "$root" -xf "$tools" || { echo "FAIL: cannot unpack $tools"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mkdir -p "$root/tmp/test"
cp "$deb" "$src/test/package_in_root.sh" "$root/tmp/test/"
cp -r "$src/docs/examples" "$root/tmp/test/examples"

# ---- in the root
start=$(date +%s)
in_root "$root" /bin/bash /tmp/test/package_in_root.sh "/tmp/test/$(basename "$deb")" /tmp/test/examples
status=$?
echo "in the clean root: $(($(date +%s) - start)) s"
exit $status
