#!/bin/bash
# Every routine in an OpenSHMEM API list (1.5, or the names 1.6 adds) is
# exported by libshmem (as shmem_* and as its profiling name pshmem_*) and
# declared by <shmem.h> (and <pshmem.h>). The C11 type-generic names of the
# list, given after OSHCC, are no symbols: <shmem.h> must define them as
# macros under C11.
#   api_names_test.sh API_LIST LIBSHMEM_SO OSHCC [GENERIC_NAME...]
set -u
list=$1 lib=$2 oshcc=$3
shift 3
generic=("$@")
if [ ! -r "$list" ]; then
    echo "skipped: no API list at $list"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u >"$tmp/exported"
printf '%s\n' "${generic[@]}" | grep -v '^$' | sort -u >"$tmp/generic"
grep -v '^\s*$' "$list" | sort -u | comm -23 - "$tmp/generic" >"$tmp/wanted"
missing=$(comm -23 "$tmp/wanted" "$tmp/exported")
sed -n 's/^shmem_/pshmem_/p' "$tmp/wanted" | sort -u >"$tmp/wanted_p"
missing_p=$(comm -23 "$tmp/wanted_p" "$tmp/exported")
failed=0
if [ -n "$missing" ]; then
    echo "not exported: $(echo "$missing" | wc -l) names:"; echo "$missing" | head -50; failed=1
fi
if [ -n "$missing_p" ]; then
    echo "no profiling name: $(echo "$missing_p" | wc -l) names:"; echo "$missing_p" | head -50; failed=1
fi
# Declared: taking each routine's address compiles without an implicit
# declaration.  check_declared HEADER NAME_LIST
check_declared() {
    local header=$1 names=$2 base
    base=$tmp/$(basename "$names")
    {
        echo "#include <$header>"
        echo 'void *const oshm_all_routines[] = {'
        sed 's/.*/    (void *)\&&,/' "$names"
        echo '};'
    } >"$base.c"
    if ! "$oshcc" -std=c11 -Werror -c -o "$base.o" "$base.c" 2>"$base.log"; then
        echo "not declared by <$header>:"; grep -oE "[a-z_0-9]+. undeclared" "$base.log" | head -50
        failed=1
    fi
}
check_declared shmem.h "$tmp/wanted"
if [ -s "$tmp/generic" ]; then
    {
        echo '#include <shmem.h>'
        sed 's/.*/#ifndef &\n#error & is not a C11 generic name\n#endif/' "$tmp/generic"
    } >"$tmp/generic.c"
    if ! "$oshcc" -std=c11 -Werror -c -o "$tmp/generic.o" "$tmp/generic.c" 2>"$tmp/generic.log"; then
        echo "C11 generic names not defined by <shmem.h>:"; grep -o 'error: .*' "$tmp/generic.log"
        failed=1
    fi
fi
check_declared pshmem.h "$tmp/wanted_p"
total=$(($(wc -l <"$tmp/wanted") + $(wc -l <"$tmp/generic")))
if [ $failed = 0 ]; then
    echo "api names: $total passed, 0 failed"
else
    echo "api names: failed"
fi
exit $failed
