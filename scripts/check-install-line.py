#!/usr/bin/env python3
"""Keeps the README's install line in step with what CI installs (issue 30): a fresh machine that
runs the README's `apt-get install` line has every Debian package `.ci/run` installs before
`make test` (the C libraries, pkg-config, python3-venv, LibreOffice, Chromium, a Java runtime
for Spark), and the README names every pip package `make venv` installs (the Makefile's venv
line). Fails, naming the packages, when they differ. Run by `make test` and `make check`."""
import pathlib, re, shlex, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def joined_lines(text):
    """Lines with shell continuations (a trailing backslash) joined."""
    return re.sub(r"\\\n\s*", " ", text).splitlines()


def readme_apt(readme):
    lines = [l for l in joined_lines(readme) if re.search(r"\bapt-get install\b", l)]
    if len(lines) != 1:
        sys.exit(f"install line: README.md must have exactly one `apt-get install` line, has {len(lines)}")
    words = shlex.split(lines[0].split("#", 1)[0])
    after = words[words.index("install") + 1:]
    return {w for w in after if not w.startswith("-")}


def readme_pip(readme):
    # The release's own install lines (`pip install healthetl-….whl`) install the wheel, not tooling.
    lines = [l for l in joined_lines(readme) if re.search(r"\bpip install\b", l) and ".whl" not in l]
    if len(lines) != 1:
        sys.exit(f"install line: README.md must name the venv's packages in exactly one `pip install` line, has {len(lines)}")
    after = lines[0].split("pip install", 1)[1]
    return {w.strip("`.,;)") for w in after.split() if not w.startswith("-")} - {""}


def ci_apt(script):
    """The packages .ci/run installs: its `for pkg in …; do` list and every `need+=(NAME)`."""
    found = set()
    for match in re.finditer(r"for pkg in ([^;]+);", script):
        found |= set(match.group(1).split())
    for match in re.finditer(r"need\+=\(([^)]*)\)", script):
        found |= {w for w in match.group(1).split() if not w.startswith(("\"", "$"))}
    return found


def makefile_pip(makefile):
    lines = [l for l in makefile.splitlines() if re.search(r"/pip install\b", l)]
    if len(lines) != 1:
        sys.exit(f"install line: the Makefile must have exactly one venv `pip install` line, has {len(lines)}")
    return {w for w in lines[0].split("pip install", 1)[1].split() if not w.startswith("-")}


def differ(what, readme, other, where):
    problems = []
    if other - readme:
        problems.append(f"the README's {what} line lacks {' '.join(sorted(other - readme))} ({where} installs it)")
    if readme - other:
        problems.append(f"the README's {what} line names {' '.join(sorted(readme - other))}, which {where} does not install")
    return problems


def main():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    problems = differ("apt-get install", readme_apt(readme), ci_apt((ROOT / ".ci" / "run").read_text(encoding="utf-8")), ".ci/run")
    problems += differ("pip install", readme_pip(readme), makefile_pip((ROOT / "Makefile").read_text(encoding="utf-8")),
                       "the Makefile's venv")
    for p in problems:
        print("install line:", p, file=sys.stderr)
    print(f"install line: README.md against .ci/run and the Makefile, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
