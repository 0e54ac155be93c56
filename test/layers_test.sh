#!/bin/bash
# The include graph of src/ is a strict layering (docs/design.md, "Layers").
#   layers_test.sh [SRC_DIR]    (default: the src/ beside this script's folder)
#
# 1. Every #include "..." in src/**/*.c and src/**/*.h: the including file's
#    folder may include headers of its own folder and of folders of a LOWER
#    rank only. Two folders of the same rank may not include each other, with
#    one exception: a folder may include the folder it is nested in when both
#    have the same rank (transport/shm and transport/ucx use the backend
#    interface in src/transport/, never each other). A folder that is not in
#    the table is a violation too: a new folder must be given a rank here.
# 2. Outside src/transport no source names a backend's symbols: hcomm reaches
#    backends only through the interface they register.
set -uo pipefail

# folder rank (a file's folder is the longest entry that prefixes its path)
RANKS='
util              0
vmm               1
ipc               2
fabric            2
heap              2
transport         3
transport/shm     3
transport/ucx     3
transport/engine  3
hcomm             4
team              6
api               7
boot              7
device            8
prof              8
core              9
'

src=${1:-$(cd "$(dirname "$0")/../src" && pwd)}
src=${src%/}
[ -d "$src" ] || { echo "layers: no source folder $src" >&2; exit 2; }

declare -A rank
while read -r folder r; do
    [ -n "$folder" ] && rank[$folder]=$r
done <<<"$RANKS"

# The table entry a src-relative path belongs to, or "" when none does.
layer_of() {
    local dir best=""
    dir=$(dirname "$1")
    for folder in "${!rank[@]}"; do
        if [[ $dir == "$folder" || $dir == "$folder"/* ]] && ((${#folder} > ${#best})); then
            best=$folder
        fi
    done
    printf '%s' "$best"
}

# How a folder is named in a message: its table entry, or its own path.
name_of() {
    local layer=$1 path=$2 dir
    if [ -n "$layer" ]; then
        printf '%s (rank %s)' "$layer" "${rank[$layer]}"
    else
        dir=$(dirname "$path")
        [ "$dir" = . ] && dir="src/"
        printf '%s (no rank)' "$dir"
    fi
}

include_violations=0
includes=0
files=0
while IFS= read -r -d '' file; do
    rel=${file#"$src"/}
    files=$((files + 1))
    from=$(layer_of "$rel")
    while IFS= read -r header; do
        includes=$((includes + 1))
        # "x.h" with no folder is relative to the including file.
        target=$header
        [[ $header != */* && -e $(dirname "$file")/$header ]] && target=$(dirname "$rel")/$header
        to=$(layer_of "$target")
        if [ -n "$from" ] && [ -n "$to" ]; then
            [ "$from" = "$to" ] && continue
            ((${rank[$from]} > ${rank[$to]})) && continue
            ((${rank[$from]} == ${rank[$to]})) && [[ $from == "$to"/* ]] && continue
        fi
        echo "src/$rel includes $header: $(name_of "$from" "$rel") may not include $(name_of "$to" "$target")"
        include_violations=$((include_violations + 1))
    done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$file")
done < <(find "$src" -type f \( -name '*.c' -o -name '*.h' \) -print0 | sort -z)

backend_violations=0
while IFS= read -r hit; do
    echo "$hit: names a backend's symbol outside src/transport"
    backend_violations=$((backend_violations + 1))
done < <(find "$src" -path "$src/transport" -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print0 |
         sort -z | xargs -0 -r grep -noE '\b(shm|ucx|ofi)_[a-z_]+\s*\(|\b(shm|ucx)_ops\b' |
         sed -E "s#^$src/#src/#; s/\s*\($//")

echo "layers: $files files, $includes includes: $include_violations include violations," \
     "$backend_violations backend names outside src/transport"
((include_violations == 0 && backend_violations == 0))
