#!/bin/bash
# The Python route, as a developer checks it (docs/install.md, "Python"):
# shmem4py's source built with pip against an oshm installation (shmem4py
# compiles with the oshcc it finds in PATH), then each of its demos under
# `oshrun -np 4 python3 ...` and its unit tests at 1, 2 and 4 PEs.
#   contrib/python/shmem4py_check.sh SHMEM4PY_SOURCE [OSHM_PREFIX]
# OSHM_PREFIX: an installed tree (/usr/lib/<multiarch>/oshm for the Debian
# package); by default build/ is installed into a scratch folder. Nothing is
# downloaded: pip builds offline (--no-index, --no-build-isolation) with
# Debian's python3-cffi, python3-setuptools and python3-wheel, in a scratch
# virtual environment over Debian's /usr/bin/python3 (which has them).
set -u
src=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
python=/usr/bin/python3
need=(python3-dev python3-cffi python3-setuptools python3-wheel python3-pip python3-numpy)
missing=()
for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
        { echo "cannot install ${missing[*]}"; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 2 ]; then
    prefix=$(cd "$2" && pwd)
else
    prefix=$tmp/oshm
    cmake --install "$root/build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log"; echo "cmake --install build failed"; exit 1; }
fi
export PATH=$prefix/bin:$PATH
echo "oshcc: $(command -v oshcc) ($(oshcc --showme:version))"

# A copy of the source: pip writes its build folder into it. A build folder
# left in the source by an earlier pip run is dropped: setuptools would reuse
# its extension, linked against whatever oshm was there then.
cp -r "$src" "$tmp/shmem4py"
rm -rf "$tmp/shmem4py/build"
"$python" -m venv --system-site-packages --without-pip "$tmp/venv"
start=$(date +%s)
"$tmp/venv/bin/python3" -m pip install --no-build-isolation --no-index --no-deps "$tmp/shmem4py" \
    >"$tmp/pip.log" 2>&1 || { tail -30 "$tmp/pip.log"; echo "pip install shmem4py failed"; exit 1; }
echo "pip install: $(($(date +%s) - start)) s"
py=$tmp/venv/bin/python3
ext=$(find "$tmp/venv" -path '*shmem4py/*.so' | head -1)
lib=$(ldd "$ext" | awk '/libshmem/ { print $3 }')
echo "shmem4py's extension uses $lib"
[ "$(realpath "$lib")" = "$(realpath "$prefix"/lib/libshmem.so.0)" ] ||
    { echo "shmem4py's extension does not use $prefix/lib/libshmem.so.0"; exit 1; }

pass=0 fail=0
cd "$src/demo"
for demo in *.py api/*.py; do
    if out=$(timeout 120 oshrun -np 4 "$py" "$demo" 2>&1); then
        pass=$((pass + 1)); echo "ok: oshrun -np 4 python3 demo/$demo"
    else
        fail=$((fail + 1)); echo "FAIL: oshrun -np 4 python3 demo/$demo"; echo "$out" | tail -10
    fi
done
cd "$src/test"
for n in 1 2 4; do
    out=$(timeout 300 oshrun -np "$n" "$py" -m unittest discover -s . -q 2>&1)
    if [ $? = 0 ] && [ "$(echo "$out" | grep -c '^OK')" = "$n" ]; then
        pass=$((pass + 1)); echo "ok: unit tests at $n PEs: $(echo "$out" | grep -m1 '^Ran')"
    else
        fail=$((fail + 1)); echo "FAIL: unit tests at $n PEs"; echo "$out" | tail -20
    fi
done
echo "shmem4py: $pass passed, $fail failed"
[ "$fail" = 0 ]
