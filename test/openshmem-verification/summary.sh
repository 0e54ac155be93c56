#!/bin/bash
# Runs every chapter of the verification suite at the given PE counts and
# prints one table: case x PE count.
#   summary.sh [OSHRUN] [PE counts...]   (from the build's verification folder)
here=$(cd "$(dirname "$0")" && pwd)
oshrun=${1:-$here/../../bin/oshrun}
shift
counts=${*:-1 2 4 5}
declare -A verdict
rows=()
for n in $counts; do
    for prog in "$here"/vv_*; do
        while read -r status chapter rest; do
            case "$status" in PASS|FAIL) ;; *) continue ;; esac
            key="$chapter $rest"
            [ -n "${verdict[$key]+x}" ] || rows+=("$key")
            verdict[$key]="${verdict[$key]} $n:$status"
        done < <(timeout 300 "$oshrun" -np "$n" "$prog" 2>/dev/null)
    done
done
printf '%-60s' "case"; for n in $counts; do printf '%6s' "np$n"; done; echo
pass=0 fail=0
for key in "${rows[@]}"; do
    printf '%-60s' "$key"
    for n in $counts; do
        v=$(echo "${verdict[$key]}" | tr ' ' '\n' | grep "^$n:" | cut -d: -f2)
        printf '%6s' "${v:--}"
        case "$v" in PASS) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
    done
    echo
done
echo "verification: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
