#!/bin/bash
# oshm_info says what the build is and lists the environment variables.
#   oshm_info_test.sh OSHM_INFO SHMEM_H HAVE_UCX HAVE_PMIX
set -uo pipefail
info=$1 header=$2 have_ucx=$3 have_pmix=$4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; echo "---- output ----"; cat "$out"; exit 1; }
has() { grep -qE -- "$1" "$out" || fail "no /$1/ in the output of oshm_info ${args:-}"; }
run() { args="$*"; "$info" "$@" >"$out" 2>&1; rc=$?; }
yes_no() { case $1 in ON|on|1|TRUE|true|YES|yes) echo yes ;; *) echo no ;; esac; }

major=$(sed -n 's/^#define SHMEM_MAJOR_VERSION \([0-9]*\).*/\1/p' "$header")
minor=$(sed -n 's/^#define SHMEM_MINOR_VERSION \([0-9]*\).*/\1/p' "$header")
[ -n "$major" ] && [ -n "$minor" ] || fail "no SHMEM_MAJOR/MINOR_VERSION in $header"

run
[ "$rc" -eq 0 ] || fail "status $rc"
has "^OpenSHMEM specification: $major\.$minor\$"
has '^Package: +oshm [0-9]+\.[0-9]+'
has '^Backends built in: +shm'
has "^UCX +$(yes_no "$have_ucx")"
has "^PMIx +$(yes_no "$have_pmix")"
if [ "$(yes_no "$have_ucx")" = yes ]; then has '^Backends built in: .*ucx'; fi
# The specification's variables, each with its default and meaning.
for v in SHMEM_VERSION SHMEM_INFO SHMEM_SYMMETRIC_SIZE SHMEM_DEBUG SHMEM_TRANSPORT; do
    has "^  $v\$"
done
has 'default 1G'
has 'deprecated name SMA_SYMMETRIC_SIZE'
grep -q OSHRUN_SECRET "$out" && fail "the default listing shows launcher variables"

run --version
has "^OpenSHMEM specification: $major\.$minor\$"

run --parsable
has "^spec:$major\.$minor\$"
has '^backend:shm$'
has '^engine:mte$'
has "^package:UCX:$(yes_no "$have_ucx")"
has '^env:SHMEM_SYMMETRIC_SIZE:default:1G$'
has '^env:SHMEM_INFO:alias:SMA_INFO$'
has '^env:OSHRUN_SECRET:scope:launcher$'

run --param SMA_DEBUG
[ "$rc" -eq 0 ] || fail "--param SMA_DEBUG: status $rc"
has '^  SHMEM_DEBUG$'
run --param SHMEM_HEAP_SIZ
[ "$rc" -ne 0 ] || fail "--param of an unknown name exited 0"
run --param SHMEM_SYMETRIC_SIZE
has 'did you mean SHMEM_SYMMETRIC_SIZE'
run --param boot
has '^  OSHRUN_ADDR$'
has '^  PMIX_RANK$'
run --param all
has '^  OSHRUN_SECRET$'

# --check parses like a PE.
args=--check; SHMEM_SYMMETRIC_SIZE=12Q "$info" --check >"$out" 2>&1 && fail "--check: 12Q accepted"
has 'SHMEM_SYMMETRIC_SIZE="12Q"'
SMA_INFO=1 SHMEM_INFO=0 "$info" --check >"$out" 2>&1 || fail "--check refused a valid environment"
has 'SHMEM_INFO wins'

# The man page documents every option --help lists.
man_page=$(dirname "$0")/../man/man1/oshm_info.1
run --help
for o in $(grep -oE -- '--[a-z]+' "$out" | sort -u); do
    grep -qF -- "\\-\\-${o#--}" "$man_page" || fail "$man_page does not document $o"
done

run --no-such-option
[ "$rc" -eq 2 ] || fail "an unknown option: status $rc, not 2"
echo "oshm_info: passed"
