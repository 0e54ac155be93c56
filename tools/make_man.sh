#!/bin/sh
# Generates the section 3 manual pages: one page per routine family of
# man/families.txt, and a one-line page (".so") for every other name of the
# family, typed names included, so that `man shmem_int_put` finds the page of
# shmem_put. Types and declarations come from the headers themselves
# (shmem_type_tables.h and shmem.h), so a page never disagrees with the API.
#   make_man.sh CC INCLUDE_DIR FAMILIES VERSION OUTPUT_DIR
set -eu
cc=$1 inc=$2 families=$3 version=$4 out=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every "$cc -E -P" below drops line markers itself as well: a compiler
# wrapper may not pass -P on (the build under Spack stopped here so).
tables=$(grep -oE '^#define SHMEM_[A-Z0-9_]+_TABLE\(X\)' "$inc/shmem/shmem_type_tables.h" |
         sed -E 's/#define (.*)\(X\)/\1/')

# Every table's entries, one a line: TABLE<tab>first field<tab>second field<tab>arity.
{
    echo '#include <shmem/shmem_type_tables.h>'
    echo '#define X(...) @__VA_ARGS__@'
    for t in $tables; do echo "tab $t $t(X)"; done
} | "$cc" -E -P -I"$inc" -x c - | sed '/^#/d' |
    awk '$1 == "tab" {
        line = $0; sub(/^tab [A-Z0-9_]+ /, "", line)
        n = split(line, parts, "@")
        for (i = 2; i <= n; i += 2) {
            k = split(parts[i], f, ", ")
            printf "%s\t%s\t%s\t%d\n", $2, f[1], f[2], k
        }
    }' >"$tmp/tables.tsv"

# The same headers with every table reduced to one symbolic entry: the
# declarations then read "void shmem_TYPENAME_put(TYPE *dest, ...)".
mkdir -p "$tmp/fake/shmem"
{
    echo '#ifndef SHMEM_TYPE_TABLES_H'
    echo '#define SHMEM_TYPE_TABLES_H'
    awk -F'\t' '!seen[$1]++ {
        if ($1 == "SHMEM_SIZED_TABLE") e = "X(BITS, void)"
        else if ($4 == 3) e = "X(TYPE, TYPENAME, TYPE)"
        else e = "X(TYPE, TYPENAME)"
        printf "#define %s(X) %s\n", $1, e
    }' "$tmp/tables.tsv"
    echo '#endif'
} >"$tmp/fake/shmem/shmem_type_tables.h"
# Included first with -include, not found first by -I order: Spack's compiler
# wrapper reorders -I paths, and the real tables (found first there) left the
# symbolic names of the deprecated *_to_all family undeclared. Its include
# guard is the real header's, so <shmem.h> then skips the real one.
echo '#include <shmem/shmem.h>' |
    "$cc" -E -P -DOSHM_NO_GENERIC -include "$tmp/fake/shmem/shmem_type_tables.h" -I"$inc" -x c - |
    sed '/^#/d' |
    tr '\n' ' ' | sed 's/;/;\n/g' | sed -E 's/^ +//; s/ +/ /g; s/ ?\( ?/(/; s/ \)/)/g' |
    grep -E '^[A-Za-z_].*\b[A-Za-z_][A-Za-z0-9_]* ?\(' >"$tmp/decls.txt"

mkdir -p "$out/man3"
rm -f "$out"/man3/*.3
awk -v tables="$tmp/tables.tsv" -v decls="$tmp/decls.txt" -v out="$out/man3" \
    -v version="$version" -f "$(dirname "$0")/make_man.awk" "$families"
