#!/usr/bin/env python3
"""Checks how the tests are laid out (issue 47), from `swift package describe --type json`:

1. Every test target is the unit target of one module (`<Module>Tests`, depending on
   `<Module>`) or the end-to-end target `HealthETLEndToEndTests`; `TestSupport` is the one
   support target under Tests/, shared by all.
2. A unit target never runs the `healthetl` binary or the export generator (`healthetl(`,
   `importJSON(`, `generateExport(`, `TestPaths.binary`, `TestPaths.generator`, the shared
   imported store `SharedStore`) and starts no process of its own (`Process()`): a tool that
   reads a library's bytes back (Python's zipfile, pyarrow, openpyxl) goes through TestSupport's
   `runProcess`, whose timeout is a failure. So `make check`, which runs every target but the
   end-to-end one, needs no list of slow tests that could go stale.
3. The helpers are written once, in TestSupport: no other target defines `runProcess`,
   `importJSON`, `temporaryFolder`, `generateExport` or a `TestPaths`.
4. Every dependency a test target declares is imported by one of its files (an unused one only
   slows the build and hides what the tests need).

    scripts/check-test-targets.py          the check (make check, make test)
"""
import importlib.util, pathlib, re, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
END_TO_END = "HealthETLEndToEndTests"
SUPPORT = "TestSupport"
RUNS_THE_PRODUCT = re.compile(r"\b(healthetl|importJSON|generateExport)\(|\bTestPaths\.(binary|generator)\b|\bSharedStore\b"
                              r"|\bProcess\(\)")
HELPERS = re.compile(r"^\s*(?:(?:package|private|fileprivate|internal|public|static)\s+)*"
                     r"(?:func\s+(runProcess|importJSON|temporaryFolder|generateExport)\b|enum\s+(TestPaths)\b)", re.M)
# The import pattern and the package's description are the module check's (one copy).
_spec = importlib.util.spec_from_file_location("module_graph", ROOT / "scripts" / "check-module-graph.py")
module_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(module_graph)
IMPORT = module_graph.IMPORT


def problems_of(targets, files):
    """`targets`: {name: {"type": …, "deps": set, "path": str}}; `files`: {target: [(path, text)]}."""
    problems = []
    modules = {n for n, t in targets.items() if t["type"] != "test"}
    for name, target in sorted(targets.items()):
        if target["path"].startswith("Tests/") and target["type"] != "test" and name != SUPPORT:
            problems.append(f"{name}: the only support target under Tests/ is {SUPPORT}")
        if target["type"] != "test":
            continue
        unit = name != END_TO_END
        if unit:
            module = name[:-len("Tests")] if name.endswith("Tests") else None
            if module not in modules:
                problems.append(f"{name}: a test target is <Module>Tests of a module, or {END_TO_END}")
            elif module not in target["deps"]:
                problems.append(f"{name} does not depend on {module}, the module it tests")
        imported = set()
        for path, text in files.get(name, []):
            imported.update(IMPORT.findall(text))
            if unit:
                for number, line in enumerate(text.splitlines(), 1):
                    found = RUNS_THE_PRODUCT.search(line.split("//", 1)[0])
                    if found:
                        problems.append(f"{path}:{number}: {found.group(0)} in unit target {name} "
                                        f"(the binary, the generator and processes of its own belong in {END_TO_END})")
        for dep in sorted(target["deps"] - imported):
            problems.append(f"{name} declares {dep} and no file of it imports it")
    for name, pairs in sorted(files.items()):
        if name == SUPPORT:
            continue
        for path, text in pairs:
            for m in HELPERS.finditer(text):
                problems.append(f"{path}: defines {m.group(1) or m.group(2)}, which is {SUPPORT}'s (one copy)")
    return problems


def self_test():
    """Planted faults are found, and a sound layout passes."""
    targets = {"Lib": {"type": "library", "deps": set(), "path": "Sources/Lib"},
               SUPPORT: {"type": "library", "deps": set(), "path": "Tests/TestSupport"},
               "Helpers": {"type": "library", "deps": set(), "path": "Tests/Helpers"},
               "LibTests": {"type": "test", "deps": {"Lib", SUPPORT}, "path": "Tests/LibTests"},
               "OtherTests": {"type": "test", "deps": {SUPPORT}, "path": "Tests/OtherTests"},
               END_TO_END: {"type": "test", "deps": {"Lib", SUPPORT}, "path": "Tests/E"}}
    files = {"LibTests": [("a.swift", "import Lib\nimport TestSupport\nlet r = try healthetl([\"import\"])\n"
                                      "// healthetl( in a comment is fine\nlet p = Process()\n")],
             "OtherTests": [("b.swift", "import TestSupport\nfunc runProcess(_ x: String) {}\n")],
             END_TO_END: [("e.swift", "import Lib\nlet r = try healthetl([])\n")],
             SUPPORT: [("s.swift", "package func runProcess() {}\n")]}
    found = problems_of(targets, files)
    expected = ["HealthETLEndToEndTests declares TestSupport and no file of it imports it",
                "Helpers: the only support target under Tests/ is TestSupport",
                "a.swift:3: healthetl( in unit target LibTests (the binary, the generator and processes of its own belong in HealthETLEndToEndTests)",
                "a.swift:5: Process() in unit target LibTests (the binary, the generator and processes of its own belong in HealthETLEndToEndTests)",
                "OtherTests: a test target is <Module>Tests of a module, or HealthETLEndToEndTests",
                "b.swift: defines runProcess, which is TestSupport's (one copy)"]
    if found != expected:
        print("test targets: the self-test failed:", *found, sep="\n  ", file=sys.stderr)
        return 1
    return 0


def main():
    if self_test():
        return 1
    described = module_graph.describe()
    targets = {t["name"]: {"type": t.get("type"), "deps": set(t.get("target_dependencies") or []), "path": t["path"]}
               for t in described["targets"]}
    files = {name: [(p.relative_to(ROOT), p.read_text(encoding="utf-8")) for p in sorted((ROOT / t["path"]).rglob("*.swift"))]
             for name, t in targets.items() if t["path"].startswith("Tests/")}
    problems = problems_of(targets, files)
    for p in problems:
        print("test targets:", p, file=sys.stderr)
    tests = sorted(n for n, t in targets.items() if t["type"] == "test")
    print(f"test targets: {len(tests) - 1} unit targets, {END_TO_END} and {SUPPORT} checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
