#!/usr/bin/env python3
"""Prints the test classes that run a process (the healthetl binary, Python tooling, Chromium,
LibreOffice, Spark), joined by "|", for `swift test --skip`: `make check`, the fast tier, runs
every other test. Found from the sources, so the list cannot go stale (issue 47: a hand-kept list
missed 17 such classes). A class is of this kind when its file starts a process: `healthetl(`,
`runProcess(`, `runQLProcess(`, `generateExport(`, or names the binary (`TestPaths.binary`,
`QLPaths.binary`). The store fixture `SharedStore` (one import per test run) does not count.
    scripts/integration-tests.py [--list]
"""
import pathlib, re, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNS = re.compile(r"\b(healthetl|runProcess|runQLProcess|generateExport)\(|\b(TestPaths|QLPaths)\.binary\b")
CLASS = re.compile(r"^(?:final\s+)?class\s+(\w+)\s*:\s*XCTestCase", re.M)
SUPPORT = {"TestSupport.swift", "QLTestSupport.swift", "PublishedOutputs.swift"}


def classes():
    found = set()
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        if path.name in SUPPORT:
            continue
        text = path.read_text(encoding="utf-8")
        if RUNS.search(text):
            found.update(CLASS.findall(text))
    return sorted(found)


if __name__ == "__main__":
    names = classes()
    print("\n".join(names) if "--list" in sys.argv else "|".join(names))
