#!/usr/bin/env python3
"""Checks the module graph the README's Design section draws (issue 21), from
`swift package describe --type json`: the store, the emitters and the general libraries are
targets of their own; the general libraries know nothing of health (no HealthCore, directly or
through another target); HealthQL reads a store without the emitters; stages depend on the core only."""
import json, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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
GENERAL = ("SQLite", "Parquet", "PrivateFiles", "Spreadsheet", "Archive", "CSV")
for target in GENERAL + ("HealthStore", "HealthEmit"):
    if target not in deps:
        problems.append(f"no target {target}")
for general in GENERAL:
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
# A C library has one door each: zlib through Archive, SQLite through the SQLite layer (issue 30).
for clib, door in (("CZlib", "Archive"), ("CSQLite", "SQLite")):
    for target, ds in sorted(deps.items()):
        if clib in ds and target != door:
            problems.append(f"{target} depends on {clib} (only {door} may)")
# The command line's own code stays in its target: the libraries take no terminal.
for target in deps:
    if target != "healthetl" and target.startswith("Health"):
        folder = os.path.join(root, "Sources", target)
        for dirpath, _, files in os.walk(folder):
            for f in files:
                if f.endswith(".swift") and "termios" in open(os.path.join(dirpath, f), encoding="utf-8").read():
                    problems.append(f"{target} uses termios ({f}): a terminal belongs to the command line")
# The SQLite layer is the only door to the C library: everyone else registers functions and
# reads values through `Database` (issue 30).
# ... and no source outside it imports the C module by hand.
for dirpath, _, files in os.walk(os.path.join(root, "Sources")):
    for f in files:
        path = os.path.join(dirpath, f)
        if f.endswith(".swift") and not path.startswith(os.path.join(root, "Sources", "SQLite") + os.sep):
            if re.search(r"^\s*import\s+CSQLite\b", open(path, encoding="utf-8").read(), re.M):
                problems.append(f"{os.path.relpath(path, root)} imports CSQLite")
# The pipeline wires, checkpoints, locks and publishes: it knows no output format; the
# registry above it (HealthOutputs) does (issue 30).
wrong = sorted(d for d in closure("HealthPipeline") if d in ("HealthReport", "HealthWorkbook", "HealthDataset", "HealthOutputs"))
if wrong:
    problems.append(f"HealthPipeline depends on {', '.join(wrong)} (outputs come through the registry)")
if "HealthPipeline" not in deps.get("HealthOutputs", ()):
    problems.append("HealthOutputs (the output registry) is not above HealthPipeline")
# ... nor the analytics algorithm: that is HealthAnalytics's, on the aggregate side.
if "HealthAnalytics" not in deps:
    problems.append("no target HealthAnalytics")
elif "HealthPipeline" in closure("HealthAnalytics") or "HealthEmit" in closure("HealthAnalytics"):
    problems.append("HealthAnalytics depends on the pipeline or the emitters")
for dirpath, _, files in os.walk(os.path.join(root, "Sources", "HealthPipeline")):
    for f in files:
        if f.endswith(".swift") and re.search(r"\b(PriorityMerger|AnalyticsBook|DaySplitter)\b", open(os.path.join(dirpath, f), encoding="utf-8").read()):
            problems.append(f"HealthPipeline/{f} runs the analytics algorithm (it belongs to HealthAnalytics)")
for stage in ("HealthIngest", "HealthNormalize", "HealthDedupe", "HealthAggregate"):
    others = sorted(d for d in deps.get(stage, ()) if d.startswith("Health") and d != "HealthCore")
    if others:
        problems.append(f"stage {stage} depends on {', '.join(others)}")

for p in problems:
    print("module graph:", p, file=sys.stderr)
print(f"module graph: {len(deps)} targets checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
