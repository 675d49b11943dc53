#!/usr/bin/env python3
"""Checks that the docs name what is there (issue 57): every docs/*.md and README.md, for

1. Paths: a backticked path into the tree (`Sources/…`, `Tests/…`, `scripts/…`, `fuzz/…`,
   `pipelines/…`, `tools/…`, `spark/…`, `bench/…`, `packaging/…`, `sample-data/…`, `docs/…`,
   `.ci/…`; its first word, so `scripts/compare-outputs.sh OLD NEW` is the script) is a file or
   folder of the tree, a glob (`fuzz/*.dict`) matches one; a backticked `Name.swift` is a file
   somewhere; a relative link (`[…](LIBRARY.md#…)`) is a file, and its `#anchor` a heading there.
   A path that is not there but whose file is elsewhere says where (a test moved to another
   target). Placeholders (`Tests/<Module>Tests`, `dist/healthetl-….tar.gz`) are not paths.
2. Names: a backticked UpperCamelCase name (`OutputRegistry`, `ECGReaderTests`; two capitals
   and a small letter at least: single words such as `Record`, `Watch` or `Makefile` are too
   often not code), a dotted one (`RunSummary.outputsUnchanged`, `Database.add(function:)`,
   each part) or a call (`OutputFolder(path:)`) is declared in Sources/, Tests/ or fuzz/
   (struct, class, enum, protocol, actor, typealias, extension, func, case, let, var), or is a
   target or product of Package.swift, an element of Apple's export (the DTD of
   sample-data/export.xml), the tail of a HealthKit identifier the code or the sample names
   (`AsleepCore`), or in ALLOWED below. Names starting with `HK` are HealthKit's own and not
   checked.
3. Declarations: a type declared in a ```swift block (`package protocol Output: Sendable {`)
   is declared in Sources/ with that kind and, when the doc writes one, that access level
   (the doc once said `public protocol Output` of a `package` one), and each `var`/`let`/`func`
   the block lists is declared in the type's own file.

Fails naming each reference that is not there. The self-test plants one fault of each kind
(and references that must pass) before the real tree is checked.

    scripts/check-docs.py          the check (make check, make test)
"""
import fnmatch, pathlib, re, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PREFIXES = ("Sources/", "Tests/", "scripts/", "fuzz/", "pipelines/", "tools/", "spark/", "bench/",
            "packaging/", "sample-data/", "docs/", ".ci/")
# Names and paths the docs use that are not ours, each for its reason.
ALLOWED = {
    "CancellationError",   # Swift's: the error a cancelled library run reports (LIBRARY.md)
    "Process",             # Foundation's, which TESTING.md says no unit target starts
    "NaN",                 # IEEE 754's not-a-number, as the values' text spells it
    "VmHWM", "RssAnon",    # fields of Linux's /proc/PID/status that PERFORMANCE.md samples
    "tools/list", "tools/call",   # MCP's method names (JSON-RPC), which look like paths
}
TICKED = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
DECLARED = re.compile(r"\b(?:struct|class|enum|protocol|actor|typealias|extension|func|case|let|var|associatedtype)\s+"
                      r"`?([A-Za-z_][A-Za-z0-9_]*)")
TYPE_DECLARATION = re.compile(r"^\s*(?:@\w+\s+)*(?:(public|package|internal|fileprivate|private)\s+)?(?:final\s+|indirect\s+)*"
                              r"(protocol|struct|class|enum|actor)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
MEMBER = re.compile(r"^\s*(?:(?:public|package|internal|static|mutating|nonisolated)\s+)*(?:var|let|func)\s+([A-Za-z_][A-Za-z0-9_]*)")
DOTTED = re.compile(r"([A-Z][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\([^()]*\))?")
FILE_ENDINGS = {"swift", "md", "xml", "zip", "ndjson", "json", "csv", "py", "sh", "txt", "html", "png", "parquet", "sqlite"}


def camel(name):
    return (re.fullmatch(r"[A-Z][A-Za-z0-9]+", name) is not None and re.search(r"[a-z]", name) is not None
            and len(re.findall(r"[A-Z]", name)) >= 2)


def prose_lines(text):
    """(line number, line) of the text outside fenced code blocks, and the fenced swift blocks
    as (first line number, lines)."""
    prose, blocks, fence = [], [], None
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            if fence is None:
                fence = (line.strip()[3:].strip(), number + 1, [])
            else:
                if fence[0] == "swift":
                    blocks.append((fence[1], fence[2]))
                fence = None
            continue
        if fence is None:
            prose.append((number, line))
        else:
            fence[2].append(line)
    return prose, blocks


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text):
    found = {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}
    return found | set(re.findall(r"<a (?:id|name)=\"([^\"]+)\"", text))


class Tree:
    """What the docs may name: `files` (paths relative to the root), their folders, the names
    `known`, and Swift's type declarations `types`: name → [(kind, access, file text)]."""

    def __init__(self, files, known, types, docs_text):
        self.files = set(files)
        self.folders = {str(pathlib.PurePosixPath(f).parents[i]) for f in self.files
                        for i in range(len(pathlib.PurePosixPath(f).parents) - 1)}
        self.known, self.types, self.docs_text = known, types, docs_text
        self.by_name = {}
        for f in sorted(self.files):
            self.by_name.setdefault(f.rsplit("/", 1)[-1], []).append(f)


def path_problem(token, tree):
    path = token.split()[0].rstrip(".,:;")
    if path in ALLOWED or any(c in path for c in "<>…{}") or "..." in path:
        return None
    if any(c in path for c in "*?["):
        return None if any(fnmatch.fnmatch(f, path) for f in tree.files | tree.folders) else f"`{path}` matches nothing in the tree"
    bare = path.rstrip("/")
    if bare in tree.files or bare in tree.folders:
        return None
    elsewhere = tree.by_name.get(bare.rsplit("/", 1)[-1], [])
    return f"`{path}` is not in the tree" + (f" ({bare.rsplit('/', 1)[-1]} is at {', '.join(elsewhere)})" if elsewhere else "")


def name_problem(token, tree):
    if token in ALLOWED or token.startswith("HK"):
        return None
    if camel(token):
        return None if token in tree.known else f"`{token}` is declared nowhere (Sources/, Tests/, fuzz/, Package.swift)"
    m = DOTTED.fullmatch(token)
    if not m or not (m.group(2) or m.group(3)):
        return None   # a single capitalised word
    parts = [m.group(1)] + [p for p in m.group(2).split(".") if p]
    if parts[-1] in FILE_ENDINGS:
        if parts[-1] == "swift" and token not in tree.by_name:
            return f"`{token}` is no file of the tree"
        return None   # a file name: an output's (`Bundle.DSTU2.ndjson`) or Apple's (`Export.xml`)
    missing = [p for p in parts if p not in tree.known and p not in ALLOWED]
    return f"`{token}`: {', '.join(missing)} declared nowhere" if missing else None


def declaration_problems(start, lines, tree, where):
    problems, block = [], "\n".join(lines)
    for m in TYPE_DECLARATION.finditer(block):
        access, kind, name = m.group(1), m.group(2), m.group(3)
        number = start + block.count("\n", 0, m.start(3))
        declared = [d for d in tree.types.get(name, []) if d[0] == kind]
        if not declared:
            problems.append(f"{where}:{number}: `{kind} {name}` is declared nowhere in Sources/")
            continue
        if access and all(d[1] != access for d in declared):
            problems.append(f"{where}:{number}: `{access} {kind} {name}`, but Sources/ declares it "
                            f"{' or '.join(sorted({d[1] for d in declared}))}")
        for offset, line in enumerate(lines):
            member = MEMBER.match(line)
            if member and not any(re.search(rf"\b(?:var|let|func)\s+{member.group(1)}\b", d[2]) for d in declared):
                problems.append(f"{where}:{start + offset}: `{member.group(1)}` is no member of {name} in its file")
    return problems


def relative_to_root(where, target):
    """A link's target in the doc `where`, as a path from the root (`..` resolved)."""
    parts = []
    for part in (pathlib.PurePosixPath(where).parent / target).parts:
        if part == "..":
            parts = parts[:-1]
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def problems_of(docs, tree):
    """`docs`: {relative path: text}. Every reference that is not there, as `path:line: what`."""
    problems = []
    for where, text in sorted(docs.items()):
        prose, blocks = prose_lines(text)
        for number, line in prose:
            for m in TICKED.finditer(line):
                token = m.group(1).strip()
                found = path_problem(token, tree) if token.startswith(PREFIXES) else name_problem(token, tree)
                if found:
                    problems.append(f"{where}:{number}: {found}")
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"[a-z]+:", target):
                    continue   # http:, https:, mailto:
                file, _, anchor = target.partition("#")
                resolved = relative_to_root(where, file) if file else where
                if resolved not in tree.files and resolved not in tree.folders:
                    problems.append(f"{where}:{number}: the link to {target} names no file of the tree")
                elif anchor and resolved in tree.docs_text and anchor not in anchors(tree.docs_text[resolved]):
                    problems.append(f"{where}:{number}: the link to {target}: {resolved} has no heading #{anchor}")
        for start, lines in blocks:
            problems += declaration_problems(start, lines, tree, where)
    return problems


def self_test():
    """Planted faults of each kind are found, and sound references pass."""
    output = "package protocol Output: Sendable {\n    var name: String { get }\n    func stage() throws\n}\n"
    tree = Tree(files=["Sources/HealthStore/Output.swift", "Tests/E2ETests/DSLSurfaceTests.swift", "fuzz/xml.dict",
                       "docs/A.md", "docs/B.md", "Package.swift"],
                known={"Output", "OutputRegistry", "standard", "ECGReaderTests", "HealthData"},
                types={"Output": [("protocol", "package", output)]},
                docs_text={"docs/B.md": "# The public surface\n"})
    docs = {"docs/A.md": "\n".join([
        "`Sources/HealthStore/Output.swift`, `fuzz/*.dict`, `Tests/<Module>Tests`, `tools/list`, `Output.swift`",
        "`Tests/UnitTests/DSLSurfaceTests.swift` and `scripts/gone.py ARG`",
        "`OutputRegistry.standard`, `ECGReaderTests`, `HealthData`, `HKQuantityTypeIdentifierStepCount`, `NaN`, `Watch`",
        "`ECGTests` and `OutputRegistry.missing(for:)` and `Gone.swift`, `Gone(path:)`, `Output(name:)`",
        "[B](B.md#the-public-surface), [C](C.md), [B](B.md#no-such-heading), [web](https://example.org/x)",
        "```swift",
        "public protocol Output: Sendable {",
        "    var name: String { get }",
        "    var gone: Int { get }",
        "}",
        "struct Planted {}",
        "```",
        "```sh",
        "`scripts/in-a-shell-block.sh`",
        "```"])}
    found = problems_of(docs, tree)
    expected = [
        "docs/A.md:2: `Tests/UnitTests/DSLSurfaceTests.swift` is not in the tree (DSLSurfaceTests.swift is at Tests/E2ETests/DSLSurfaceTests.swift)",
        "docs/A.md:2: `scripts/gone.py` is not in the tree",
        "docs/A.md:4: `ECGTests` is declared nowhere (Sources/, Tests/, fuzz/, Package.swift)",
        "docs/A.md:4: `OutputRegistry.missing(for:)`: missing declared nowhere",
        "docs/A.md:4: `Gone.swift` is no file of the tree",
        "docs/A.md:4: `Gone(path:)`: Gone declared nowhere",
        "docs/A.md:5: the link to C.md names no file of the tree",
        "docs/A.md:5: the link to B.md#no-such-heading: docs/B.md has no heading #no-such-heading",
        "docs/A.md:7: `public protocol Output`, but Sources/ declares it package",
        "docs/A.md:9: `gone` is no member of Output in its file",
        "docs/A.md:11: `struct Planted` is declared nowhere in Sources/",
    ]
    if found != expected:
        print("docs: the self-test failed; found:", *found, sep="\n  ", file=sys.stderr)
        return 1
    return 0


def tracked_files():
    """The tree's files: git's tracked ones and the untracked ones it does not ignore."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True)
    if listed.returncode == 0:
        return [f for f in listed.stdout.splitlines() if (ROOT / f).exists()]
    skip = {".git", ".build", ".venv", "dist"}
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def real_tree(files):
    swift = [f for f in files if f.endswith(".swift") and f.startswith(("Sources/", "Tests/", "fuzz/"))]
    known, types = set(), {}
    texts = {f: (ROOT / f).read_text(encoding="utf-8", errors="replace") for f in swift}
    for f, text in texts.items():
        known.update(DECLARED.findall(text))
        if f.startswith("Sources/"):
            for m in TYPE_DECLARATION.finditer(text):
                types.setdefault(m.group(3), []).append((m.group(2), m.group(1) or "internal", text))
    known.update(re.findall(r'name:\s*"([A-Za-z0-9_-]+)"', (ROOT / "Package.swift").read_text(encoding="utf-8")))
    sample = (ROOT / "sample-data" / "export.xml").read_text(encoding="utf-8", errors="replace")
    known.update(re.findall(r"<!ELEMENT\s+(\w+)", sample))
    healthkit = set(re.findall(r"\bHK[A-Za-z0-9]+", "\n".join(texts.values()) + sample))
    tails = {h[i:] for h in healthkit for i in range(2, len(h)) if h[i].isupper()}
    docs_text = {f: (ROOT / f).read_text(encoding="utf-8") for f in files if f.endswith(".md")}
    return Tree(files, known | tails, types, docs_text)


def main():
    if self_test():
        return 1
    files = tracked_files()
    docs = {f: (ROOT / f).read_text(encoding="utf-8") for f in files
            if f == "README.md" or (f.startswith("docs/") and f.endswith(".md") and f.count("/") == 1)}
    found = problems_of(docs, real_tree(files))
    for p in found:
        print("docs:", p, file=sys.stderr)
    print(f"docs: {len(docs)} documents checked against the tree and the code, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
