#!/usr/bin/env bash
# Links a product of `make build` again, statically: the binary the release ships (scripts/dist.sh)
# and the one `make bench` times. The objects are `make build`'s (BUILD_DIR/PRODUCT.product), so
# the code is the same; the Swift standard library, Foundation, libxml2, SQLite, zlib and what
# they need (ICU, lzma, libstdc++, libgcc) come from their static archives, Debian's own
# libxml2.a, libsqlite3.a, libz.a, liblzma.a and libicu*.a. Only the C library's own parts stay
# shared (libc, libm, the loader); the script fails if anything else is left to load.
#   scripts/link-static.sh BUILD_DIR PRODUCT MODULE OUTPUT   (MODULE: the product's executable target)
# The output is stripped (strip removes the symbols too); with KEEP_SYMBOLS=1 it keeps them, for
# a profiler (bench/perf_split.py): the code is the same.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 product=$2 module=$3 out=$4
objects=$build/$product.product/Objects.LinkFileList
[ -f "$objects" ] || { echo "link-static: $objects missing: run make build first" >&2; exit 1; }

# The static archives, each where the C compiler finds it; a folder of links to them is searched
# first, so the linker takes the archive, never the shared library beside it.
libs=$root/dist/.static-libs
mkdir -p "$libs" "$(dirname "$out")"
for lib in xml2 sqlite3 z lzma icuuc icudata stdc++; do
  archive=$(gcc -print-file-name=lib$lib.a)
  [ -f "$archive" ] || { echo "link-static: lib$lib.a not found (Debian: libxml2-dev libsqlite3-dev zlib1g-dev liblzma-dev libicu-dev)" >&2; exit 1; }
  ln -sf "$archive" "$libs/lib$lib.a"
done
# The objects were compiled for the shared runtime, whose modules pull in Foundation's parts by
# themselves; linked statically, Foundation's own archives must be named, and with the C
# libraries in one group, since they refer to each other in both directions.
group=()
for lib in Foundation FoundationInternationalization FoundationEssentials _FoundationICU _FoundationCShims _FoundationCollections \
           CoreFoundation swiftSynchronization sqlite3 xml2 z lzma icuuc icudata stdc++; do
  group+=(-Xlinker "-l$lib")
done
# SwiftPM renames an executable target's `main` to MODULE_main.
"${SWIFTC:-swiftc}" -static-stdlib -emit-executable -o "$out" -module-name "$module" \
  -Xlinker --gc-sections -Xlinker -z -Xlinker now -Xlinker --defsym -Xlinker "main=${module}_main" "@$objects" \
  -L "$libs" -Xlinker --start-group "${group[@]}" -Xlinker --end-group -Xclang-linker -static-libgcc \
  2> >(grep -v "the use of \`mktemp' is dangerous" >&2)
[ -n "${KEEP_SYMBOLS:-}" ] || strip --remove-section=.comment "$out"

if ldd "$out" | grep -vE '^\s*(linux-vdso|linux-gate)\.so|^\s*(libc|libm|libpthread|libdl|librt)\.so|ld-linux'; then
  echo "link-static: $out still needs the shared libraries above" >&2
  exit 1
fi
