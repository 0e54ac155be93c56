#!/bin/bash
# The Debian package, as a user meets it: made from the build tree by
# contrib/debian/make_deb.sh, its control file checked, then installed with
# apt into a clean Debian root (debootstrap, minbase) where
# test/package_in_root.sh builds and runs the examples with it, loads its
# module, installs Open MPI beside it and removes it.
#   package_test.sh BUILD_DIR SOURCE_DIR
# The clean root is made once (about a minute, from the Debian mirror the
# host's apt uses) and kept as a tar file in $OSHM_TEST_CACHE
# (/var/cache/oshm-test), with the .debs apt fetched into it; each run
# unpacks a fresh copy, works in it in its own mount and PID namespaces
# (unshare), and deletes it. Needs root, debootstrap, and the Debian
# mirror the first time.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cache=${OSHM_TEST_CACHE:-/var/cache/oshm-test}
[ "$(id -u)" = 0 ] || { echo "FAIL: the package test needs root (chroot, mounts)"; exit 1; }
command -v debootstrap >/dev/null || { echo "FAIL: debootstrap is not installed (scripts/deps)"; exit 1; }
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
grep -q '^OSHM_HAVE_UCX:INTERNAL=ON' "$build/CMakeCache.txt" && want_deps="libucx0" || want_deps=""
grep -q '^OSHM_HAVE_PMIX:INTERNAL=ON' "$build/CMakeCache.txt" && want_deps="$want_deps libpmix2"
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
    [ -n "$mirror" ] || { echo "FAIL: no Debian mirror for $suite in the host's apt sources"; exit 1; }
    echo "making the clean $suite root (debootstrap --variant=minbase from $mirror) into $base"
    start=$(date +%s)
    if ! debootstrap --variant=minbase --cache-dir="$archives" "$suite" "$tmp/new" "$mirror" \
            >"$tmp/debootstrap.log" 2>&1; then
        tail -20 "$tmp/debootstrap.log"
        echo "FAIL: debootstrap could not make a clean root: no package test"
        exit 1
    fi
    sources >"$tmp/new/etc/apt/sources.list"
    cp /etc/resolv.conf "$tmp/new/etc/resolv.conf" 2>/dev/null
    in_root "$tmp/new" apt-get update -qq >>"$tmp/debootstrap.log" 2>&1 ||
        { tail -5 "$tmp/debootstrap.log"; echo "FAIL: apt-get update in the clean root"; exit 1; }
    tar -C "$tmp/new" -cf "$base.part" . && mv "$base.part" "$base"
    rm -rf --one-file-system "$tmp/new"
    echo "clean root made in $(($(date +%s) - start)) s"
fi
root=$tmp/root
mkdir "$root"
tar -C "$root" -xf "$base" || { echo "FAIL: cannot unpack $base"; exit 1; }
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
