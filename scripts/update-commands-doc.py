#!/usr/bin/env python3
"""Rewrites the generated blocks of docs/commands.md from the binary's own help, so the
document and `healthetl help CMD` cannot drift (CommandHelpTests checks they agree).

    swift build && python3 scripts/update-commands-doc.py [path/to/healthetl]

A block is the fenced text between `<!-- help: ARGS -->` and `<!-- /help -->`; ARGS are
the arguments after `healthetl` (`--help`, `help import` …)."""
import pathlib, re, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build/debug/healthetl")
doc = root / "docs/commands.md"

def block(match):
    args = match.group(1).split()
    text = subprocess.run([binary] + args, check=True, capture_output=True, text=True).stdout.rstrip("\n")
    return f"<!-- help: {match.group(1)} -->\n```\n{text}\n```\n<!-- /help -->"

text = doc.read_text()
updated = re.sub(r"<!-- help: (.*?) -->\n.*?<!-- /help -->", block, text, flags=re.S)
doc.write_text(updated)
print("docs/commands.md:", "updated" if updated != text else "already up to date")
