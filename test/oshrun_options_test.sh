#!/bin/bash
# oshrun's options as mpirun users type them (Open MPI 4.1's meanings, hydra's
# spellings), each checked from inside the PEs: test/pe/where.c prints
#   PE <me> of <n> cpus <Cpus_allowed_list> cwd <dir> var <$OSHT_VAR> host <$FAKE_HOST>
# "Hosts" nodea, nodeb are this machine reached through a launch agent that
# clears the environment and sets FAKE_HOST, so a PE says where it was placed.
#   oshrun_options_test.sh OSHRUN WHERE
set -u
OSHRUN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WHERE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
out=$T/out err=$T/err
failures=0 passes=0

cat >"$T/agent" <<'EOF'
#!/bin/sh
h=$1; shift
exec env -i PATH="$PATH" FAKE_HOST="$h" "$@"
EOF
chmod +x "$T/agent"
FAKE=(--launch-agent "$T/agent" --bootstrap-addr 127.0.0.1)

# run NAME WANT_STATUS -- command...: runs it; checks the status; the checks
# that follow read $out (sorted by PE) and $err.
run() {
    local name=$1 want=$2
    shift 3
    current=$name
    timeout 60 "$@" >"$out.raw" 2>"$err"
    local got=$?
    sort -k2,2n "$out.raw" >"$out"
    if [ "$want" = nonzero ] && [ "$got" -ne 0 ] || [ "$got" = "$want" ]; then
        return 0
    fi
    bad "status $got, want $want"
    return 1
}
bad() {
    failures=$((failures + 1))
    echo "FAIL $current: $*"
    sed 's/^/     out: /' "$out.raw" | head -20
    sed 's/^/     err: /' "$err" | head -20
}
good() { passes=$((passes + 1)); echo "ok   $current"; }
# check CONDITION-COMMAND... : good or bad
check() { if "$@"; then good; else bad "check failed: $*"; fi; }
npes_seen() { grep -c '^PE ' "$out"; }
field() { awk -v pe="$1" -v f="$2" '$1 == "PE" && $2 == pe { for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' "$out"; }

# The cpus oshrun may use, and how many cores they hold.
mine=$(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status)
expand() { # "0-2,5" -> "0 1 2 5"
    local r a b
    for r in ${1//,/ }; do
        a=${r%-*} b=${r#*-}
        seq "$a" "$b"
    done | tr '\n' ' '
}
core_of() { cat "/sys/devices/system/cpu/cpu$1/topology/core_id" 2>/dev/null || echo "$1"; }
pkg_of() { cat "/sys/devices/system/cpu/cpu$1/topology/physical_package_id" 2>/dev/null || echo 0; }
ncores=$(for c in $(expand "$mine"); do echo "$(pkg_of "$c")-$(core_of "$c")"; done | sort -u | wc -l)
# One core's cpus as a list, in the kernel's form, for each PE: every cpu
# of the set shares one core, and the PEs' sets do not overlap.
one_core_each() {
    local n=$1 p c key seen=""
    for ((p = 0; p < n; p++)); do
        local set; set=$(field "$p" cpus)
        [ -n "$set" ] || return 1
        key=""
        for c in $(expand "$set"); do
            case " $seen " in *" $c "*) return 1 ;; esac
            seen="$seen $c"
            local k; k="$(pkg_of "$c")-$(core_of "$c")"
            [ -z "$key" ] || [ "$key" = "$k" ] || return 1
            key=$k
        done
    done
}
all_pes_have() { # FIELD VALUE N
    local p
    for ((p = 0; p < $3; p++)); do [ "$(field "$p" "$1")" = "$2" ] || return 1; done
}

# ---- version, help, refusals ----
run "--version prints the version" 0 -- "$OSHRUN" --version
check grep -Eq '^oshrun \(oshm\) [0-9]+\.[0-9]+' "$out"
run "--help describes what oshrun does, nothing it ignores" 0 -- "$OSHRUN" --help
check bash -c "grep -q -- --bind-to '$out' && grep -q -- --report-bindings '$out' &&
    grep -q -- -wdir '$out' && ! grep -qi 'ignored' '$out'"
run "an unknown option is refused by name" 2 -- "$OSHRUN" --frobnicate -np 2 "$WHERE"
check grep -q "unknown option '--frobnicate'" "$err"
run "Open MPI's --mca is refused by name, not ignored" 2 -- "$OSHRUN" --mca btl self -np 1 "$WHERE"
check grep -q "unknown option '--mca'" "$err"
run "--bind-to with a level oshrun lacks is refused" 2 -- "$OSHRUN" --bind-to l3cache "$WHERE"
check grep -q "bind-to takes none, hwthread, core, numa or socket, not 'l3cache'" "$err"

# ---- how many PEs, and where ----
run "-N 2 without hosts: 2 PEs on this machine" 0 -- "$OSHRUN" -N 2 "$WHERE"
check [ "$(npes_seen)" = 2 ]
run "-ppn (hydra) is -N" 0 -- "$OSHRUN" -ppn 3 "$WHERE"
check [ "$(npes_seen)" = 3 ]
run "-N 2 --host nodea:2,nodeb:2: 2 PEs on each host" 0 \
    -- "$OSHRUN" -N 2 --host nodea:2,nodeb:2 "${FAKE[@]}" "$WHERE"
check bash -c "[ \"\$(awk '{print \$2, \$NF}' '$out' | tr '\n' ' ')\" = '0 nodea 1 nodea 2 nodeb 3 nodeb ' ]"
run "--npernode 1 -hosts nodea:2,nodeb:2: one PE on each" 0 \
    -- "$OSHRUN" --npernode 1 -hosts nodea:2,nodeb:2 "${FAKE[@]}" "$WHERE"
check bash -c "[ \"\$(awk '{print \$2, \$NF}' '$out' | tr '\n' ' ')\" = '0 nodea 1 nodeb ' ]"
run "-N 2 is more than 1 slot: refused" 2 -- "$OSHRUN" -N 2 --host nodea,nodeb "${FAKE[@]}" "$WHERE"
check grep -q "more than the 1 slots of host nodea" "$err"
run "-N 2 on 1-slot hosts with --oversubscribe" 0 \
    -- "$OSHRUN" -N 2 --oversubscribe --host nodea,nodeb "${FAKE[@]}" "$WHERE"
check [ "$(npes_seen)" = 4 ]
run "--map-by node deals PEs to the hosts in turn" 0 \
    -- "$OSHRUN" -np 4 --map-by node --host nodea:2,nodeb:2 "${FAKE[@]}" "$WHERE"
check bash -c "[ \"\$(awk '{print \$2, \$NF}' '$out' | tr '\n' ' ')\" = '0 nodea 1 nodeb 2 nodea 3 nodeb ' ]"
run "by slot (default) fills each host first" 0 \
    -- "$OSHRUN" -np 3 --host nodea:2,nodeb:2 "${FAKE[@]}" "$WHERE"
check bash -c "[ \"\$(awk '{print \$2, \$NF}' '$out' | tr '\n' ' ')\" = '0 nodea 1 nodea 2 nodeb ' ]"
run "more PEs than slots: refused" 2 -- "$OSHRUN" -np 3 --host nodea,nodeb "${FAKE[@]}" "$WHERE"
check grep -q "3 PEs do not fit in the 2 slots" "$err"
run "more PEs than slots with --oversubscribe" 0 \
    -- "$OSHRUN" -np 3 --oversubscribe --host nodea,nodeb "${FAKE[@]}" "$WHERE"
check [ "$(npes_seen)" = 3 ]
printf 'nodea slots=1\nnodeb:2\n' >"$T/hosts"
run "-f (hydra) host file, both forms" 0 -- "$OSHRUN" -f "$T/hosts" "${FAKE[@]}" "$WHERE"
check bash -c "[ \"\$(awk '{print \$2, \$NF}' '$out' | tr '\n' ' ')\" = '0 nodea 1 nodeb 2 nodeb ' ]"

# ---- binding, checked in each PE's /proc/self/status ----
if [ "$ncores" -ge 2 ]; then
    run "--bind-to core: each of 2 PEs on its own core" 0 -- "$OSHRUN" -np 2 --bind-to core "$WHERE"
    check one_core_each 2
    run "default for 2 PEs (Open MPI's): bound to a core each" 0 -- "$OSHRUN" -np 2 "$WHERE"
    check one_core_each 2
    run "--bind-to core on other hosts: each host's PEs on distinct cores there" 0 \
        -- "$OSHRUN" -np 4 --bind-to core --report-bindings --host nodea:2,nodeb:2 "${FAKE[@]}" "$WHERE"
    check bash -c "$(declare -f field expand core_of pkg_of one_core_each); out='$out'
        grep 'host nodea' '$out' | sed 's/^PE [0-9]*/PE 0/;2s/^PE 0/PE 1/' > '$out.a' &&
        grep 'host nodeb' '$out' | sed 's/^PE [0-9]*/PE 0/;2s/^PE 0/PE 1/' > '$out.b' &&
        out='$out.a' one_core_each 2 && out='$out.b' one_core_each 2 &&
        [ \$(grep -c 'bound to socket' '$err') = 4 ]"
    run "--bind-to hwthread: one cpu each, distinct" 0 -- "$OSHRUN" -np 2 --bind-to hwthread "$WHERE"
    check bash -c "[ \"\$(awk '{print \$6}' '$out' | sort -u | grep -vc '[-,]')\" = 2 ]"
else
    echo "ok   (skipped: $ncores core here, the distinct-core cases need 2)"
fi
run "default for 1 PE: bound to one core" 0 -- "$OSHRUN" -np 1 "$WHERE"
check one_core_each 1
run "--bind-to none: every PE may use every cpu" 0 -- "$OSHRUN" -np 2 --bind-to none "$WHERE"
check all_pes_have cpus "$mine" 2
over=$((ncores + 1))
run "more PEs than cores: not bound (Open MPI's default)" 0 -- "$OSHRUN" -np $over --report-bindings "$WHERE"
check bash -c "$(declare -f field all_pes_have); out='$out'; all_pes_have cpus '$mine' $over &&
    grep -q 'PE 0 is not bound' '$err'"
run "--bind-to core, more PEs than cores: refused" 2 -- "$OSHRUN" -np $over --bind-to core "$WHERE"
check grep -q "bind-to core: $over PEs on this machine but only $ncores cores" "$err"
run "--bind-to core, more PEs than cores, --oversubscribe: one core each, stacked" 0 \
    -- "$OSHRUN" -np $over --bind-to core --oversubscribe "$WHERE"
check bash -c "! awk '{print \$6}' '$out' | grep -q '[-,]'"
run "--bind-to numa: each PE on a whole NUMA domain" 0 -- "$OSHRUN" -np 2 --bind-to numa "$WHERE"
numa_ok() {
    local p set
    for ((p = 0; p < 2; p++)); do
        set=$(field "$p" cpus)
        [ "$set" = "$mine" ] && continue
        grep -qx -- "$set" /sys/devices/system/node/node*/cpulist || return 1
    done
}
check numa_ok
run "--report-bindings says where each PE is bound" 0 -- "$OSHRUN" -np 2 --bind-to core --report-bindings "$WHERE"
check bash -c "grep -Eq '^\[[^]]+:[0-9]+\] PE 0 bound to socket [0-9]+\[core [0-9]+\[hwt [0-9-]+\]\]: \[[B./]+\]' '$err' &&
    grep -q 'PE 1 bound to' '$err'"

# ---- the program, its directory, its environment, its output ----
mkdir -p "$T/bin" "$T/here"
cp "$WHERE" "$T/bin/where_in_path"
cp "$WHERE" "$T/here/where_here"
run "a program named without ./ is found in PATH" 0 \
    -- env PATH="$T/bin:$PATH" "$OSHRUN" -np 2 where_in_path
check [ "$(npes_seen)" = 2 ]
run "then in the working directory (mpirun a.out)" 0 \
    -- bash -c "cd '$T/here' && '$OSHRUN' -np 1 where_here"
check [ "$(npes_seen)" = 1 ]
run "a program found nowhere: one clear error, 127" 127 -- "$OSHRUN" -np 2 no_such_program_here
check grep -q "cannot find the program 'no_such_program_here' in PATH" "$err"
run "-wdir: every PE starts there" 0 -- "$OSHRUN" -np 2 -wdir "$T/here" "$WHERE"
check all_pes_have cwd "$T/here" 2
run "-wdir with a bare name finds the program there" 0 -- "$OSHRUN" -np 1 -wdir "$T/here" where_here
check all_pes_have cwd "$T/here" 1
run "-wdir on remote hosts (env -C)" 0 \
    -- "$OSHRUN" -np 2 -wd "$T/here" --host nodea:2 "${FAKE[@]}" "$WHERE"
check all_pes_have cwd "$T/here" 2
run "-wdir that does not exist: refused" 2 -- "$OSHRUN" -np 1 -wdir "$T/nowhere" "$WHERE"
check grep -q "wdir $T/nowhere" "$err"
run "-x VAR=VALUE" 0 -- "$OSHRUN" -np 2 -x OSHT_VAR=one "$WHERE"
check all_pes_have var one 2
run "-x VAR passes this environment's value to remote PEs" 0 \
    -- env OSHT_VAR=two "$OSHRUN" -np 2 -x OSHT_VAR --host nodea,nodeb "${FAKE[@]}" "$WHERE"
check all_pes_have var two 2
run "-genv VAR VALUE (hydra), remote PEs too" 0 \
    -- "$OSHRUN" -np 2 -genv OSHT_VAR three --host nodea,nodeb "${FAKE[@]}" "$WHERE"
check all_pes_have var three 2
run "-genvlist VAR (hydra)" 0 \
    -- env OSHT_VAR=four "$OSHRUN" -np 1 -genvlist OSHT_VAR --host nodea "${FAKE[@]}" "$WHERE"
check all_pes_have var four 1
run "without -x a remote PE does not get the variable" 0 \
    -- env OSHT_VAR=five "$OSHRUN" -np 1 --host nodea "${FAKE[@]}" "$WHERE"
check all_pes_have var - 1
run "--tag-output: [1,PE]<stdout>: and <stderr>:" 0 -- "$OSHRUN" -np 2 --tag-output "$WHERE" to_stderr
check bash -c "grep -q '^\[1,0\]<stdout>:PE 0 of 2' '$out.raw' && grep -q '^\[1,1\]<stdout>:PE 1 of 2' '$out.raw' &&
    grep -qx '\[1,1\]<stderr>:to_stderr' '$err'"
run "-l (hydra -prepend-rank): [PE] " 0 -- "$OSHRUN" -np 2 -l "$WHERE"
check grep -q '^\[1\] PE 1 of 2' "$out.raw"

echo "oshrun options: $passes passed, $failures failed"
[ "$failures" = 0 ]
