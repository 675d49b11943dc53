#!/usr/bin/env python3
"""Checks the module graph (issue 21, issue 30), from `swift package describe --type json`
(the targets and their direct dependencies as SwiftPM reads Package.swift):

1. The drawing in docs/ARCHITECTURE.md is the graph: every target of Package.swift appears on
   the left of exactly one arrow, with exactly its direct target dependencies on the right,
   and nothing else is drawn. A drawing in Package.swift's own comments, if any, is checked
   the same way. So a target added, removed or rewired without its drawing fails here.
2. Every `import` of a package target is a declared direct dependency of the importing target
   (the import lines of each target's Swift files against Package.swift).
3. SQL is written in SQLite, HealthStore and HealthQL only (issue 47): a string literal that
   starts like an SQL statement anywhere else fails, but HealthQL handed to the engine.
4. The rules: the store, the emitters and the general libraries are targets of their own; the
   general libraries know nothing of health (no Health* target, directly or through another);
   HealthQL reads a store without the emitters; a feature (report, workbook) is no appendix to
   the emitters or the pipeline; stages depend on the core (and general libraries) only.

The drawing's syntax (one fenced block after the line `<!-- module-graph -->`):

    TARGET[, TARGET...] ─→ DEP[, DEP...]     (a comment: from the first "(" on)
    TARGET ─→ —                              (no target dependencies)

A dependency list that ends with "," goes on on the next line; any other line without an arrow
(an indented comment, a blank line) is ignored. `->` may stand for `─→`.
"""
import json, pathlib, re, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DRAWING = ROOT / "docs" / "ARCHITECTURE.md"
MARKER = "<!-- module-graph -->"
ARROW = re.compile(r"\s*(?:─→|->)\s*")


def parse_drawing(lines, where):
    """{target: set of dependencies} from drawn lines, and problems (a target drawn twice, a
    line that cannot be read)."""
    graph, problems = {}, []
    pending = None  # (targets, deps so far) while a dependency list ends with ","
    for number, raw in lines:
        text = raw.split("(", 1)[0].rstrip()
        if pending is not None:
            targets, deps = pending
            deps += [d.strip() for d in text.split(",") if d.strip()]
            if text.endswith(","):
                continue
            pending = None
            add(graph, targets, deps, f"{where}:{number}", problems)
            continue
        if not ARROW.search(text):
            continue
        left, right = ARROW.split(text, maxsplit=1)
        targets = [t.strip() for t in left.split(",") if t.strip()]
        if not targets or not all(re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in targets):
            problems.append(f"{where}:{number}: cannot read the targets in '{raw.strip()}'")
            continue
        deps = [] if right.strip() in ("—", "-", "") else [d.strip() for d in right.split(",") if d.strip()]
        if right.endswith(","):
            pending = (targets, deps)
            continue
        add(graph, targets, deps, f"{where}:{number}", problems)
    if pending is not None:
        problems.append(f"{where}: the drawing ends inside a dependency list")
    return graph, problems


def add(graph, targets, deps, place, problems):
    for name in deps:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
            problems.append(f"{place}: cannot read the dependency '{name}'")
    for target in targets:
        if target in graph:
            problems.append(f"{place}: {target} is drawn twice")
        graph[target] = set(deps)


def drawing_in_architecture():
    if not DRAWING.is_file():
        return None, [f"{DRAWING.relative_to(ROOT)} is missing"]
    lines = DRAWING.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index(MARKER)
    except ValueError:
        return None, [f"{DRAWING.relative_to(ROOT)} has no '{MARKER}' line before its graph"]
    fence = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("```")), None)
    end = next((i for i in range(fence + 1, len(lines)) if lines[i].startswith("```")), None) if fence is not None else None
    if end is None:
        return None, [f"{DRAWING.relative_to(ROOT)}: no fenced block after '{MARKER}'"]
    return parse_drawing([(i + 1, lines[i]) for i in range(fence + 1, end)], DRAWING.relative_to(ROOT))


def drawing_in_manifest():
    """The arrows drawn in Package.swift's comments (none is fine: it points at the docs)."""
    lines = (ROOT / "Package.swift").read_text(encoding="utf-8").splitlines()
    drawn = [(i + 1, line.split("//", 1)[1]) for i, line in enumerate(lines)
             if "//" in line and ARROW.search(line.split("//", 1)[1].split("(", 1)[0])]
    return parse_drawing(drawn, "Package.swift") if drawn else (None, [])


def compare(drawn, deps, where):
    problems = []
    for target in sorted(deps.keys() - drawn.keys()):
        problems.append(f"{where} does not draw target {target} (─→ {', '.join(sorted(deps[target])) or '—'})")
    for target in sorted(drawn.keys() - deps.keys()):
        problems.append(f"{where} draws {target}, which Package.swift has no target of")
    for target in sorted(drawn.keys() & deps.keys()):
        missing, extra = deps[target] - drawn[target], drawn[target] - deps[target]
        if missing:
            problems.append(f"{where}: {target} also depends on {', '.join(sorted(missing))} in Package.swift")
        if extra:
            problems.append(f"{where}: {target} does not depend on {', '.join(sorted(extra))} in Package.swift")
    return problems


def closure(deps, name):
    seen, todo = set(), [name]
    while todo:
        for d in deps.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d); todo.append(d)
    return seen


GENERAL = ("SQLite", "Parquet", "PrivateFiles", "Spreadsheet", "Archive", "CSV")


def sources(target):
    """(name, text) of every Swift file of a target under Sources/."""
    for path in sorted((ROOT / "Sources" / target).rglob("*.swift")):
        yield path, path.read_text(encoding="utf-8")


def rules(deps):
    problems = []
    for target in GENERAL + ("HealthStore", "HealthEmit"):
        if target not in deps:
            problems.append(f"no target {target}")
    for general in GENERAL:
        health = sorted(d for d in closure(deps, general) if d.startswith("Health"))
        if health:
            problems.append(f"{general} depends on {', '.join(health)}")
    if "HealthEmit" in closure(deps, "HealthQL"):
        problems.append("HealthQL depends on HealthEmit")
    if "HealthStore" not in deps.get("HealthQL", ()):
        problems.append("HealthQL does not read the store through HealthStore")
    # A feature reads the store; it is no appendix to the emitters or the pipeline.
    for feature in ("HealthReport", "HealthWorkbook"):
        wrong = sorted(d for d in closure(deps, feature) if d in ("HealthEmit", "HealthPipeline"))
        if wrong:
            problems.append(f"feature {feature} depends on {', '.join(wrong)}")
    # A C library has one door each: zlib through Archive, SQLite through the SQLite layer
    # (issue 30): functions are registered through `Database`, no module imports the C module.
    for clib, door in (("CZlib", "Archive"), ("CSQLite", "SQLite")):
        for target, ds in sorted(deps.items()):
            if clib in ds and target != door:
                problems.append(f"{target} depends on {clib} (only {door} may)")
    for target in deps:
        if target == "SQLite" or not (ROOT / "Sources" / target).is_dir():
            continue
        for path, text in sources(target):
            if re.search(r"^\s*import\s+CSQLite\b", text, re.M):
                problems.append(f"{path.relative_to(ROOT)} imports CSQLite")
            # The command line's own code stays in its target: the libraries take no terminal.
            if target != "healthetl" and target.startswith("Health") and "termios" in text:
                problems.append(f"{target} uses termios ({path.name}): a terminal belongs to the command line")
    # The pipeline wires, checkpoints, locks and publishes: it knows no output format (the
    # registry above it, HealthOutputs, does) and runs no analytics algorithm (HealthAnalytics).
    wrong = sorted(d for d in closure(deps, "HealthPipeline")
                   if d in ("HealthReport", "HealthWorkbook", "HealthDataset", "HealthOutputs"))
    if wrong:
        problems.append(f"HealthPipeline depends on {', '.join(wrong)} (outputs come through the registry)")
    if "HealthPipeline" not in deps.get("HealthOutputs", ()):
        problems.append("HealthOutputs (the output registry) is not above HealthPipeline")
    if "HealthAnalytics" not in deps:
        problems.append("no target HealthAnalytics")
    elif {"HealthPipeline", "HealthEmit"} & closure(deps, "HealthAnalytics"):
        problems.append("HealthAnalytics depends on the pipeline or the emitters")
    for path, text in sources("HealthPipeline"):
        if re.search(r"\b(PriorityMerger|AnalyticsBook|DaySplitter)\b", text):
            problems.append(f"{path.relative_to(ROOT)} runs the analytics algorithm (it belongs to HealthAnalytics)")
    for stage in ("HealthIngest", "HealthNormalize", "HealthDedupe", "HealthAggregate"):
        others = sorted(d for d in deps.get(stage, ()) if d.startswith("Health") and d != "HealthCore")
        if others:
            problems.append(f"stage {stage} depends on {', '.join(others)}")
    return problems


IMPORT = re.compile(r"^[ \t]*(?:@\w+(?:\([^)\n]*\))?[ \t]+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


def undeclared_imports(deps, files):
    """Every `import M` of a package target M that the importing target does not declare:
    SwiftPM lets such an import build when M is built anyway for another target, so a clean
    build of the target alone fails (issue 45.7, 47.1). `files`: (target, path, text)."""
    problems = []
    for target, path, text in files:
        for module in sorted(set(IMPORT.findall(text))):
            if module in deps and module != target and module not in deps.get(target, ()):
                problems.append(f"{path} imports {module}, which Package.swift does not declare for {target}")
    return problems


# Issue 47: the store owns its tables. SQL is written in SQLite (the library), HealthStore (the
# store) and HealthQL (which compiles queries to SQL) only; HealthQL text, which reads like SQL,
# is fine where it is handed to the HealthQL engine (`engine.run(…)`, the MCP tools' `query(…)`)
# or shown as an example (`healthetl query "…"`). Test targets, their support target (Tests/TestSupport) and fuzz targets are not checked.
# HealthConnectIngest queries an input, Health Connect's own database, never the store.
SQL_OWNERS = {"SQLite", "HealthStore", "HealthQL", "HealthConnectIngest"}
SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|PRAGMA|WITH|ALTER|REPLACE|BEGIN|COMMIT|"
                       r"ROLLBACK|SAVEPOINT|VACUUM|ATTACH|DETACH|ANALYZE)\s")
LITERAL = re.compile(r'"""(.*?)"""|"((?:[^"\\\n]|\\.)*)"', re.S)
HEALTHQL_USE = re.compile(r"(engine\.run\(|\bquery\(|healthetl query)")


def sql_outside_the_store(files, checked):
    """Every string literal that starts like an SQL statement in a target that is not one of
    SQL_OWNERS (`checked`: the targets to look at). `files`: (target, path, text)."""
    problems = []
    for target, path, text in files:
        if target in SQL_OWNERS or target not in checked:
            continue
        for m in LITERAL.finditer(text):
            body = m.group(1) if m.group(1) is not None else m.group(2)
            if not SQL_START.match(body):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            line_end = text.find("\n", m.start())
            line = text[line_start:line_end if line_end >= 0 else len(text)]
            if HEALTHQL_USE.search(line):
                continue
            number = text.count("\n", 0, m.start()) + 1
            problems.append(f"{path}:{number}: SQL in {target} (the store's tables are HealthStore's: "
                            f"ask it, do not query them): {body.strip().splitlines()[0][:60]}")
    return problems


def target_files(described):
    for t in described["targets"]:
        for path in sorted((ROOT / t["path"]).rglob("*.swift")):
            yield t["name"], path.relative_to(ROOT), path.read_text(encoding="utf-8")


def self_test():
    """The import check finds a planted undeclared import (and accepts declared ones, `@testable`
    and attributes included): run by make check and make test before the real check."""
    deps = {"A": {"B"}, "B": set(), "C": set()}
    files = [("A", "a.swift", "import Foundation\n@testable import B\n"),
             ("A", "b.swift", "@preconcurrency import C\n"),
             ("B", "c.swift", "// import C in a comment is not an import\nlet x = 1\n"),
             ("C", "d.swift", "public import struct B.Thing\n"),
             # an attribute's line is not swallowed with the import after it
             ("B", "e.swift", "@testable import C\nimport Foundation\n")]
    found = undeclared_imports(deps, files)
    expected = ["b.swift imports C, which Package.swift does not declare for A",
                "d.swift imports B, which Package.swift does not declare for C",
                "e.swift imports C, which Package.swift does not declare for B"]
    if found != expected:
        print("module graph: the import check's self-test failed:", found, file=sys.stderr)
        return 1
    # The SQL check finds planted SQL in the pipeline (one line and multi-line), and lets the
    # store's own SQL and HealthQL handed to the engine pass.
    planted = [("HealthPipeline", "p.swift", 'let n = try db.scalar("SELECT count(*) FROM daily_analytics")\n'
                                             'try db.execute("""\n    DELETE FROM anchors\n    """)\n'
                                             'let phrase = "Select a person"\n'),
               ("HealthStore", "s.swift", 'try db.execute("DELETE FROM anchors")\n'),
               ("HealthMCP", "m.swift", 'let r = try engine.run("SELECT count(*) FROM daily")\n'),
               ("HealthMCP", "n.swift", 'let bad = try database.rows("SELECT * FROM sample_data")\n')]
    found = [p.split(": SQL in")[0] for p in sql_outside_the_store(planted, {"HealthPipeline", "HealthStore", "HealthMCP"})]
    if found != ["p.swift:1", "p.swift:2", "n.swift:1"]:
        print("module graph: the SQL check's self-test failed:", found, file=sys.stderr)
        return 1
    return 0


def describe():
    """The package as SwiftPM reads Package.swift (also scripts/check-test-targets.py's input)."""
    return json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT,
                                     check=True, capture_output=True, text=True).stdout)


def main():
    if self_test():
        return 1
    described = describe()
    deps = {t["name"]: set(t.get("target_dependencies") or []) for t in described["targets"]}
    problems = rules(deps)
    problems += undeclared_imports(deps, target_files(described))
    sources_checked = {t["name"] for t in described["targets"] if t.get("type") not in ("test",)
                       and not t["name"].startswith("fuzz-") and not t["path"].startswith("Tests/")}
    problems += sql_outside_the_store(target_files(described), sources_checked)
    drawn, found = drawing_in_architecture()
    problems += found
    if drawn is not None:
        problems += compare(drawn, deps, str(DRAWING.relative_to(ROOT)))
    header, found = drawing_in_manifest()
    problems += found
    if header is not None:
        problems += compare(header, deps, "Package.swift's header")
    for p in problems:
        print("module graph:", p, file=sys.stderr)
    print(f"module graph: {len(deps)} targets checked against {DRAWING.relative_to(ROOT)}"
          f"{' and Package.swift' if header is not None else ''}, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
