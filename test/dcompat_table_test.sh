#!/bin/sh
# Every shmemd_ name that docs/device.md's compatibility table mentions is
# declared in include/ (a routine or type after preprocessing <shmem/device.h>,
# or a macro there), so the table cannot name routines that do not exist.
# Placeholders expand to instances: TYPE (every RMA type) -> int and half,
# ITYPE (integer types of the AMO and point-to-point tables) -> int32,
# OP -> sum, BITS -> 32, ENGINE -> mte, GROUP -> block.
#   dcompat_table_test.sh CC INCLUDE_DIR DEVICE_MD
set -eu
cc=$1 inc=$2 md=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '#include <shmem/device.h>' | "$cc" -E -P -I"$inc" -x c - | tr -c 'A-Za-z0-9_' '\n' | sort -u >"$tmp/declared"
grep -rhoE '#[[:space:]]*define[[:space:]]+shmemd_[A-Za-z0-9_]+' "$inc" | awk '{print $NF}' >>"$tmp/declared"
sort -u -o "$tmp/declared" "$tmp/declared"

# The table: from its heading to the next second-level heading.
sed -n '/^## Compatibility headers/,/^## [^C]/p' "$md" >"$tmp/table"
[ -s "$tmp/table" ] || { echo "no '## Compatibility headers' section in $md"; exit 1; }
grep -oE 'shmemd_[A-Za-z0-9_]+' "$tmp/table" | sort -u |
    sed -e 's/ITYPE/int32/g' -e 's/GROUP/block/g' -e 's/OP/sum/g' -e 's/BITS/32/g' -e 's/ENGINE/mte/g' |
    awk '/TYPE/ { a = $0; b = $0; gsub(/TYPE/, "int", a); gsub(/TYPE/, "half", b); print a; print b; next } { print }' |
    sort -u >"$tmp/mentioned"
n=$(wc -l <"$tmp/mentioned")
[ "$n" -ge 100 ] || { echo "only $n shmemd_ names in the table: is it there?"; exit 1; }

check() { grep -qx "$1" "$tmp/declared"; }
# The checker itself must be able to fail.
if check shmemd_no_such_routine; then echo "checker broken"; exit 1; fi

missing=0
while read -r name; do
    if ! check "$name"; then
        echo "docs/device.md names $name, which include/ does not declare"
        missing=$((missing + 1))
    fi
done <"$tmp/mentioned"
[ "$missing" -eq 0 ] || exit 1
echo "dcompat table: $n shmemd_ names, all declared"
