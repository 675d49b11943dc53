#!/usr/bin/env python3
"""Checks the module graph the README's Design section draws (issue 21), from
`swift package describe --type json`: the store, the emitters and the general libraries are
targets of their own; the general libraries know nothing of health (no HealthCore, directly or
through another target); HealthQL reads a store without the emitters; stages depend on the core only."""
import json, subprocess, sys

described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"],
                                      check=True, capture_output=True, text=True).stdout)
deps = {t["name"]: set(t.get("target_dependencies", [])) for t in described["targets"]}

def closure(name):
    seen, todo = set(), [name]
    while todo:
        for d in deps.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d); todo.append(d)
    return seen

problems = []
for target in ("SQLite", "Parquet", "PrivateFiles", "HealthStore", "HealthEmit"):
    if target not in deps:
        problems.append(f"no target {target}")
for general in ("SQLite", "Parquet", "PrivateFiles", "Spreadsheet"):
    health = sorted(d for d in closure(general) if d.startswith("Health"))
    if health:
        problems.append(f"{general} depends on {', '.join(health)}")
if "HealthEmit" in closure("HealthQL"):
    problems.append("HealthQL depends on HealthEmit")
if "HealthStore" not in deps.get("HealthQL", ()):
    problems.append("HealthQL does not read the store through HealthStore")
# A feature reads the store; it is no appendix to the emitters or the pipeline.
for feature in ("HealthReport", "HealthWorkbook"):
    wrong = sorted(d for d in closure(feature) if d in ("HealthEmit", "HealthPipeline"))
    if wrong:
        problems.append(f"feature {feature} depends on {', '.join(wrong)}")
# The SQLite layer is the only door to the C library: everyone else registers functions and
# reads values through `Database` (issue 30).
for target, ds in sorted(deps.items()):
    if "CSQLite" in ds and target != "SQLite":
        problems.append(f"{target} depends on CSQLite (only SQLite may)")
for stage in ("HealthIngest", "HealthNormalize", "HealthDedupe", "HealthAggregate"):
    others = sorted(d for d in deps.get(stage, ()) if d.startswith("Health") and d != "HealthCore")
    if others:
        problems.append(f"stage {stage} depends on {', '.join(others)}")

for p in problems:
    print("module graph:", p, file=sys.stderr)
print(f"module graph: {len(deps)} targets checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
