#!/bin/sh
# Generates pshmem.h: the profiling names (pshmem_*) of every routine that
# <shmem/shmem.h> declares, derived from it so that the two never disagree.
#   make_pshmem_h.sh CC INCLUDE_DIR OUTPUT
set -eu
cc=$1 inc=$2 out=$3
{
    echo '/* Generated from <shmem/shmem.h> by tools/make_pshmem_h.sh: the profiling'
    echo ' * interface. Every routine shmem_NAME is also pshmem_NAME; a tool that'
    echo ' * defines shmem_NAME itself calls pshmem_NAME to reach the library. */'
    echo '#ifndef SHMEM_PSHMEM_H'
    echo '#define SHMEM_PSHMEM_H'
    echo '#include <shmem/shmem.h>'
    echo '#ifdef __cplusplus'
    echo 'extern "C" {'
    echo '#endif'
    # One declaration per line (the preprocessor keeps the header's line
    # breaks); a routine is an identifier followed by "(", which no type is.
    echo '#include <shmem/shmem.h>' |
        # sed: line markers out, should a compiler wrapper not pass -P on.
        "$cc" -E -P -DOSHM_NO_GENERIC -I"$inc" -x c - | sed '/^#/d' |
        tr '\n' ' ' | sed 's/;/;\n/g' | sed -E 's/^ +//; s/ +/ /g' |
        grep -E '^[a-z].*\bshmem_[a-z0-9_]+ ?\(' |
        sed -E 's/\b(shmem_[a-z0-9_]+) ?\(/p\1(/'
    echo '#ifdef __cplusplus'
    echo '}'
    echo '#endif'
    echo '#endif'
} >"$out"
