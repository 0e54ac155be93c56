#!/bin/sh
# Runs a command on fewer cores than the machine has, so that tests can put
# more PEs than cores on a node of any size.
#   on_cores.sh K CMD...        CMD may use the first K cores this process may use
#   on_cores.sh --rank K CMD... (as a PE, under oshrun) this PE is bound to one
#                               of those K cores, OSHRUN_RANK mod K
# Fewer than K cores available: uses what there is.
set -eu
per_rank=0
if [ "$1" = --rank ]; then
  per_rank=1
  shift
fi
k=$1
shift
# The allowed list ("0-3,6,8-9") spelled out, one core a line.
cores=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' |
  awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) print c }' | head -n "$k")
n=$(printf '%s\n' "$cores" | wc -l)
if [ "$per_rank" = 1 ]; then
  pick=$(( ${OSHRUN_RANK:-0} % n + 1 ))
  set -- "$(printf '%s\n' "$cores" | sed -n "${pick}p")" "$@"
else
  set -- "$(printf '%s\n' "$cores" | paste -sd, -)" "$@"
fi
exec taskset -c "$@"
