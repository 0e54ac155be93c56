#!/bin/bash
# Makes the Debian package oshm_<version>_<arch>.deb from a built tree.
#   contrib/debian/make_deb.sh BUILD_DIR OUT_DIR
# (scripts/package builds a Release tree and calls this.)
#
# Layout, beside Open MPI's packages (which own /usr/bin/oshcc, oshc++,
# oshrun and their section 1 pages):
#   /usr/lib/<multiarch>/oshm/         the installed tree, as `cmake --install`
#                                      makes it (bin/oshcc, lib/libshmem.so, include/, ...)
#   /usr/bin/oshcc.oshm, oshc++.oshm,  links into it, always there; the plain names
#     oshrun.oshm, oshm_info           are links that postinst makes where no other
#                                      package has them (postinst says why not
#                                      update-alternatives)
#   /usr/share/man/man3/shmem_*.3.gz   the routines' pages (Open MPI names its
#                                      shmem_*.openmpi.3); man1 as oshcc.oshm.1.gz ...
#   /usr/lib/<multiarch>/pkgconfig/oshm.pc and cmake/oshm: pkg-config and
#                                      find_package(oshm) without a search path
#   /usr/share/modules/modulefiles/oshm (Environment Modules) and
#   /etc/lmod/modules/oshm (Lmod):     links to the tree's module files
# Nothing is created at installation but those plain names' links, which
# prerm takes away: `apt remove oshm` leaves nothing.
set -euo pipefail
build=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || { echo "make_deb: no project version in $build/CMakeCache.txt" >&2; exit 1; }
version=${OSHM_DEB_VERSION:-$version}
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
prefix=/usr/lib/$multiarch/oshm

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
DESTDIR=$root cmake --install "$build" --prefix "$prefix" >"$stage/install.log" 2>&1 ||
    { cat "$stage/install.log"; echo "make_deb: cmake --install failed" >&2; exit 1; }
P=$root$prefix

# Debug information stays in the build tree.
for f in "$P"/bin/* "$P"/lib/*.so.*; do
    [ -L "$f" ] || ! file -b "$f" | grep -q ELF || strip --strip-unneeded "$f"
done
strip --strip-debug "$P"/lib/*.a

# Manual pages where man looks, compressed; the tree's share/man leads there.
mkdir -p "$root/usr/share/man"
mv "$P/share/man"/* "$root/usr/share/man/"
rmdir "$P/share/man"
ln -s "$(realpath -m --relative-to="$prefix/share" /usr/share/man)" "$P/share/man"
for page in oshcc oshc++ oshrun; do
    mv "$root/usr/share/man/man1/$page.1" "$root/usr/share/man/man1/$page.oshm.1"
done
find "$root/usr/share/man" -type f -exec gzip -9n {} +

# Links from the system's folders into the tree; relative, so that the
# package also works unpacked at another root (dpkg-deb -x).
link() {  # link TARGET LINK (absolute paths inside the package)
    mkdir -p "$(dirname "$root$2")"
    ln -s "$(realpath -m --relative-to="$(dirname "$2")" "$1")" "$root$2"
}
for tool in oshcc oshc++ oshrun; do link "$prefix/bin/$tool" "/usr/bin/$tool.oshm"; done
link "$prefix/bin/oshm_info" /usr/bin/oshm_info
link "$prefix/share/modulefiles/oshm" /usr/share/modules/modulefiles/oshm
link "$prefix/share/modulefiles/oshm" /etc/lmod/modules/oshm
link "$prefix/lib/cmake/oshm" "/usr/lib/$multiarch/cmake/oshm"
# pkg-config does not follow links to find a .pc file's folder: this one
# names the tree.
mkdir -p "$root/usr/lib/$multiarch/pkgconfig"
sed "s|^prefix=.*|prefix=$prefix|" "$P/lib/pkgconfig/oshm.pc" >"$root/usr/lib/$multiarch/pkgconfig/oshm.pc"

doc=$root/usr/share/doc/oshm
mkdir -p "$doc"
cp "$here/copyright" "$doc/copyright"
printf 'oshm (%s) unstable; urgency=medium\n\n  * Built from the source tree by scripts/package.\n\n -- oshm developers <oshm@localhost>  %s\n' \
    "$version" "$(date -R -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")" | gzip -9n >"$doc/changelog.gz"

# Dependencies: the shared libraries the programs and libshmem link
# (libsodium, libc), as dpkg-shlibdeps finds them, and those it opens; a C
# compiler for oshcc.
mkdir -p "$stage/shlibs/debian"
printf 'Source: oshm\n\nPackage: oshm\nArchitecture: any\n' >"$stage/shlibs/debian/control"
elfs=()
while IFS= read -r f; do file -b "$f" | grep -q '^ELF' && elfs+=("-e$f"); done \
    < <(find "$P/bin" "$P/lib" -maxdepth 1 -type f)
shlibs=$(cd "$stage/shlibs" && dpkg-shlibdeps -O "${elfs[@]}" 2>"$stage/shlibdeps.log" |
         sed -n 's/^shlibs:Depends=//p') ||
    { cat "$stage/shlibdeps.log"; echo "make_deb: dpkg-shlibdeps failed" >&2; exit 1; }
# UCX and PMIx are opened with dlopen when a job needs them (not linked, so
# dpkg-shlibdeps does not see them): the packages that hold them here, at
# least at the version built against.
built_with() { # UCX or PMIX: asked for and found
    grep -q "^OSHM_WITH_$1:BOOL=ON" "$build/CMakeCache.txt" &&
        grep -q "^$1_FOUND:INTERNAL=1" "$build/CMakeCache.txt"
}
opened=()
built_with UCX && opened+=(libucp.so.0)
built_with PMIX && opened+=(libpmix.so.2)
for so in "${opened[@]}"; do
    pkg=$(dpkg -S "*/$so" 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$pkg" ] || { echo "make_deb: no installed package holds $so" >&2; exit 1; }
    ver=$(dpkg-query -W -f '${Version}' "$pkg")
    shlibs="$shlibs, $pkg (>= ${ver%%-*})"
done

mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: oshm
Version: $version
Architecture: $arch
Maintainer: oshm developers <oshm@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $shlibs, gcc | c-compiler
Recommends: g++
Suggests: libfabric1, environment-modules | lmod, libsodium-dev
Section: devel
Priority: optional
Description: OpenSHMEM 1.6 implementation (library, oshcc, oshrun, manual)
 oshm is an OpenSHMEM implementation in C11: PEs on one node reach each
 other's symmetric memory through shared mappings, PEs on other nodes
 through UCX (or libfabric). Programs build with oshcc.oshm / oshc++.oshm
 (and oshcc, oshc++ where no other package, such as openmpi-bin, has
 those names) and run with oshrun.oshm -np N (or oshrun). "module load oshm"
 puts the plain names first. oshcc -static needs libsodium-dev.
EOF
cp "$here/postinst" "$here/prerm" "$here/triggers" "$root/DEBIAN/"
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
    xargs -0 md5sum >DEBIAN/md5sums)

deb=$out/oshm_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
