#!/usr/bin/env python3
"""Checks that the library product `HealthETL` exposes what docs/LIBRARY.md lists (issue 47):
every top-level `public` type and function of its modules (HealthPipeline, HealthStore,
HealthPeople, HealthQL) against the fenced block after `<!-- public-api -->` in LIBRARY.md, one
`Module: Name Name …` line per module. A type made public without being listed, or listed and
no longer public, fails: the engine is `package` (the package's own targets see it, the
library's users do not). The self-test plants an unlisted public type first.
"""
import pathlib, re, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["HealthPipeline", "HealthStore", "HealthPeople", "HealthQL"]
DECLARATION = re.compile(r"^public (?:final |indirect )?(?:class|struct|enum|protocol|typealias|actor) (\w+)|^public func (\w+)", re.M)
MARKER = "<!-- public-api -->"


def public_names(texts):
    names = set()
    for text in texts:
        for m in DECLARATION.finditer(text):
            names.add(m.group(1) or m.group(2) + "()")
    return names


def listed(doc):
    lines = doc.split(MARKER, 1)[1].split("```", 2)[1].splitlines() if MARKER in doc else []
    table = {}
    for line in lines:
        if ":" in line:
            module, names = line.split(":", 1)
            table[module.strip()] = set(names.split())
    return table


def problems(found, expected):
    out = []
    for module in MODULES:
        for name in sorted(found.get(module, set()) - expected.get(module, set())):
            out.append(f"{module}: {name} is public but not in docs/LIBRARY.md (make it package, or document it)")
        for name in sorted(expected.get(module, set()) - found.get(module, set())):
            out.append(f"{module}: {name} is in docs/LIBRARY.md but not public")
    return out


def self_test():
    found = {"HealthStore": public_names(["public final class HealthStore {}\npackage struct Sink {}\npublic struct Planted {}\n"])}
    return problems(found, {"HealthStore": {"HealthStore"}}) == [
        "HealthStore: Planted is public but not in docs/LIBRARY.md (make it package, or document it)"]


def main():
    if not self_test():
        print("public API: the check's self-test failed", file=sys.stderr)
        return 1
    found = {m: public_names(p.read_text(encoding="utf-8") for p in sorted((ROOT / "Sources" / m).rglob("*.swift"))) for m in MODULES}
    found_problems = problems(found, listed((ROOT / "docs" / "LIBRARY.md").read_text(encoding="utf-8")))
    for p in found_problems:
        print("public API:", p, file=sys.stderr)
    print(f"public API: {sum(len(v) for v in found.values())} public names of {len(MODULES)} modules against docs/LIBRARY.md, "
          f"{len(found_problems)} problems")
    return 1 if found_problems else 0


if __name__ == "__main__":
    sys.exit(main())
