#!/usr/bin/env python3
"""Where an import's CPU samples go, by library: the table of issue 62 (tooling only).

    perf record -e cpu-clock -F 2000 -g -o perf.data -- healthetl import EXPORT --out DIR --full
    bench/perf_split.py perf.data

A binary linked to the shared libraries (`swift build`) is split by the file each sample's code
lies in. A statically linked one (scripts/link-static.sh, as released) is one file: its samples
are split by the archive that defines their symbol (libswiftCore.a, Foundation's archives,
libsqlite3.a, libxml2.a, libz.a …; nm over each), so that the two read alike. Code the compiler
specialized into HealthETL's own modules has names of its own and counts as HealthETL's in both.
The Swift archives are looked up beside the `swift` on PATH (--swift-static DIR: elsewhere).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

def default_swift_static() -> Path:
    """The toolchain's static Swift libraries: usr/lib/swift_static/linux beside usr/bin/swift."""
    swift = shutil.which("swift")
    return Path(swift).resolve().parent.parent / "lib" / "swift_static" / "linux" if swift else Path("/nonexistent")

# Group name → the shared libraries (file name prefixes) and static archives that make it up.
GROUPS = [
    ("libswiftCore", ["libswiftCore.so"], ["libswiftCore.a"]),
    ("Swift's other libraries", ["libswift", "libdispatch", "libBlocksRuntime"],
     ["libswift_Concurrency.a", "libswiftSynchronization.a", "libswiftGlibc.a", "libswiftDispatch.a",
      "libdispatch.a", "libBlocksRuntime.a", "libswift_StringProcessing.a", "libswift_RegexParser.a"]),
    ("Foundation", ["libFoundation", "lib_Foundation", "libCoreFoundation"],
     ["libFoundation.a", "libFoundationEssentials.a", "libFoundationInternationalization.a",
      "lib_FoundationICU.a", "lib_FoundationCShims.a", "lib_FoundationCollections.a", "libCoreFoundation.a"]),
    ("SQLite", ["libsqlite3"], ["libsqlite3.a"]),
    ("libxml2", ["libxml2"], ["libxml2.a"]),
    ("zlib", ["libz."], ["libz.a"]),
    ("ICU, lzma, libstdc++", ["libicu", "liblzma", "libstdc++", "libgcc"], ["libicuuc.a", "libicudata.a", "liblzma.a", "libstdc++.a"]),
    ("libc", ["libc.so", "libm.so", "ld-linux"], []),
    ("kernel", ["[kernel"], []),
]


def archive_path(name: str, swift_static: Path) -> Path | None:
    p = swift_static / name
    if p.exists():
        return p
    found = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    return Path(found) if found and Path(found).is_file() else None


def archive_symbols(swift_static: Path) -> dict[str, str]:
    """Symbol → group, for every symbol the static archives define (the first group wins)."""
    owner: dict[str, str] = {}
    for group, _, archives in GROUPS:
        for name in archives:
            path = archive_path(name, swift_static)
            if path is None:
                continue
            out = subprocess.run(["nm", "--defined-only", str(path)], capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] not in "Uw":
                    owner.setdefault(parts[2], group)
    return owner


def samples(data: str) -> Counter:
    """(dso, symbol) → samples, self time only."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym,dso", "--no-demangle", "-G"],
                         capture_output=True, text=True, check=True).stdout
    counts: Counter = Counter()
    line_re = re.compile(r"^\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")
    for line in out.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        sym = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1))
        counts[(Path(m.group(2)).name, sym)] += 1
    return counts


def split(counts: Counter, binary: str, owner: dict[str, str] | None) -> Counter:
    """Samples by group. `owner` (symbol → group) splits a static binary's samples; without it
    every sample in `binary` is HealthETL's own."""
    groups: Counter = Counter()
    for (dso, sym), n in counts.items():
        group = next((g for g, prefixes, _ in GROUPS if any(dso.startswith(p) for p in prefixes)), None)
        if group is None and dso == binary:
            group = (owner or {}).get(sym, "healthetl's own code")
        groups[group or dso] += n
    return groups


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="perf.data of one import")
    ap.add_argument("--binary", default="healthetl", help="the executable's file name (default healthetl)")
    ap.add_argument("--symbols", type=int, default=0, help="also list the N busiest symbols of libswiftCore")
    ap.add_argument("--swift-static", type=Path, default=None, help="the folder of the toolchain's static Swift libraries")
    args = ap.parse_args()
    counts = samples(args.data)
    total = sum(counts.values())
    if total == 0:
        print("no samples", file=sys.stderr)
        return 1
    # Linked statically when no sample lies in a shared Swift runtime.
    static = not any(dso.startswith("libswiftCore") for dso, _ in counts)
    owner = archive_symbols(args.swift_static or default_swift_static()) if static else None
    groups = split(counts, args.binary, owner)
    print(f"| where ({'static binary: by defining archive' if static else 'shared libraries: by file'}) "
          f"| share of {total:,} samples |\n|---|---:|")
    for group, n in groups.most_common():
        print(f"| {group} | {100 * n / total:.1f}% |")
    if args.symbols:
        core = Counter({sym: n for (dso, sym), n in counts.items()
                        if dso.startswith("libswiftCore") or (owner or {}).get(sym) == "libswiftCore"})
        print()
        for sym, n in core.most_common(args.symbols):
            print(f"{100 * n / total:5.2f}% {sym[:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
