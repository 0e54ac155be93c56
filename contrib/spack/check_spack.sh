#!/bin/bash
# The Spack route, as a developer checks it (docs/install.md, "Spack"), with
# no network: a Spack checkout (not part of this project) runs with the
# system's compilers and Debian's packages as externals, this recipe
# (contrib/spack) as a repository, and a source mirror made from the tree;
# `spack install oshm` builds, `spack load oshm` gives oshcc and oshrun, and
# an example runs at 4 PEs. With --variants, oshm~ucx~ofi~pmix~device too.
#   contrib/spack/check_spack.sh SPACK_ROOT [--variants]
# Everything Spack writes (configuration, caches, stage, installations) goes
# into a scratch folder, removed at the end; the checkout is left as it was.
set -u
spack_root=$(cd "$1" && pwd)
variants=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SPACK_ROOT=$spack_root SPACK_USER_CONFIG_PATH=$tmp/config SPACK_USER_CACHE_PATH=$tmp/cache
# Debian's tools only (a pyenv or a user's ~/.local would be found first otherwise).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset PYTHONPATH
. "$spack_root/share/spack/setup-env.sh"
say() { echo "== $*"; }
run() { echo "\$ $*"; "$@"; }
say "spack $(spack --version)"
scope=(--scope user)

spack config "${scope[@]}" add "config:install_tree:root:$tmp/opt"
spack config "${scope[@]}" add "config:build_stage:[$tmp/stage]"
spack config "${scope[@]}" add "config:source_cache:$tmp/source_cache"
# Nothing to download: no bootstrapping; the solver is clingo where Python
# has it (Debian 12 does not package it) and Spack's original one otherwise.
spack bootstrap disable "${scope[@]}" >/dev/null
if ! python3 -c 'import clingo' 2>/dev/null; then
    spack config "${scope[@]}" add config:concretizer:original
fi
spack compiler find "${scope[@]}" >/dev/null
spack external find "${scope[@]}" --not-buildable cmake pkgconf gmake >/dev/null
# Debian's libraries (UCX, PMIx, libfabric, hwloc, libsodium), which Spack cannot find by their programs: prefix and version from dpkg.
version_of() { dpkg-query -W -f='${Version}' "$1" | sed 's/^[0-9]*://; s/[-+~].*//'; }
pmix_prefix=$(pkg-config --variable=prefix pmix)
cat >>"$tmp/config/packages.yaml" <<YAML
  ucx:
    externals: [{spec: ucx@$(version_of libucx-dev), prefix: /usr}]
    buildable: false
  pmix:
    externals: [{spec: pmix@$(version_of libpmix-dev), prefix: $pmix_prefix}]
    buildable: false
  libfabric:
    externals: [{spec: libfabric@$(version_of libfabric-dev), prefix: /usr}]
    buildable: false
  hwloc:
    externals: [{spec: hwloc@$(version_of libhwloc-dev), prefix: /usr}]
    buildable: false
  libsodium:
    externals: [{spec: libsodium@$(version_of libsodium-dev), prefix: /usr}]
    buildable: false
YAML

# The source mirror: this tree's committed state, as a release tarball would be.
version=$(sed -n 's/^project(oshm VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
mkdir -p "$tmp/mirror/oshm"
git -C "$root" archive --format=tar.gz --prefix="oshm-$version/" HEAD \
    >"$tmp/mirror/oshm/oshm-$version.tar.gz"
spack mirror add "${scope[@]}" oshm-local "file://$tmp/mirror"
spack repo add "${scope[@]}" "$root/contrib/spack"

status=0
check_spec() {  # check_spec SPEC
    local spec=$1 start
    say "spack install $spec"
    start=$(date +%s)
    run spack spec -I "$spec" || return 1
    run spack install --no-checksum "$spec" || return 1
    say "installed in $(($(date +%s) - start)) s"
    # A user's shell: spack load, then the plain tools.
    (
        eval "$(spack load --sh "$spec")"
        set -e
        echo "oshcc: $(command -v oshcc); oshrun: $(command -v oshrun)"
        case $(command -v oshcc) in "$tmp/opt"/*) ;; *) echo "oshcc is not Spack's"; exit 1 ;; esac
        oshcc -O2 -o "$tmp/hello" "$root/docs/examples/hello.c"
        out=$(timeout 60 oshrun -np 4 "$tmp/hello")
        echo "$out"
        [ "$(echo "$out" | grep -c '^Hello from PE')" = 4 ]
        man -w shmem_put
        echo "OSHCC=$OSHCC"
    ) || return 1
}
if check_spec oshm; then say "oshm: passed"; else say "oshm: FAILED"; status=1; fi
if [ "$variants" = --variants ]; then
    if check_spec "oshm~ucx~ofi~pmix~device"; then say "oshm~ucx~ofi~pmix~device: passed"
    else say "oshm~ucx~ofi~pmix~device: FAILED"; status=1; fi
fi
exit $status
