#!/usr/bin/env bash
# make dist, the Python wheel (issue 59): dist/healthetl-VERSION-py3-none-manylinux_2_G_ARCH.whl
# with the release folder's binary as the wheel's script (pip, pipx and uv install it into the
# environment's bin/ as it is) and the small module of packaging/python/src/healthetl. Built by
# hatchling (a standard PEP 517 backend from PyPI, into .build/wheel-venv once) with
# `pip wheel --no-build-isolation`, so the build itself reaches no index.
# The platform tag is what the binary needs: manylinux_2_G, G the newest GLIBC_2.G symbol version
# it asks for (objdump -T; PEP 600: glibc 2.G or newer), the same number as the .deb's Depends.
#   scripts/dist-wheel.sh RELEASE_FOLDER VERSION      (run by scripts/dist.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
release=$1 version=$2
cd "$root"
glibc=$(objdump -T "$release/bin/healthetl" | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -un | tail -1)
[ -n "$glibc" ] || { echo "dist-wheel: no GLIBC_2.x symbol versions in $release/bin/healthetl" >&2; exit 1; }
tag=manylinux_2_${glibc}_$(uname -m)
venv=${WHEEL_VENV:-.build/wheel-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import hatchling' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'hatchling>=1.26,<2'
fi
src=dist/.wheel-src
rm -rf "$src" dist/healthetl-"$version"-py3-none-*.whl
mkdir -p "$src/bin"
cp -r packaging/python/pyproject.toml packaging/python/hatch_build.py packaging/python/README.md packaging/python/src LICENSE "$src/"
cp "$release/bin/healthetl" "$src/bin/healthetl"
sed -i "s|@VERSION@|$version|" "$src/pyproject.toml" "$src/src/healthetl/__init__.py"
find "$src" -name __pycache__ -prune -exec rm -rf {} +
stamp=$(git log -1 --format=%ct 2>/dev/null || date +%s)
SOURCE_DATE_EPOCH=$stamp HEALTHETL_WHEEL_TAG=$tag "$venv/bin/python" -m pip wheel --quiet --no-deps --no-build-isolation -w dist "$src"
wheel=dist/healthetl-$version-py3-none-$tag.whl
[ -f "$wheel" ] || { echo "dist-wheel: $wheel was not built" >&2; ls dist >&2; exit 1; }
rm -rf "$src"
echo "$wheel ($(du -h "$wheel" | cut -f1))"
