#!/usr/bin/env python3
"""Reads one import's cycles back through real readers (test tooling only; docs/cycles.md).

    check_cycles.py OUT EXPECTED.json HEALTHETL [--mcp]

EXPECTED.json: the rows tools/cycle_scenarios.py expects. Checks parquet/cycles.parquet with
pyarrow, the workbook's Cycles sheet with openpyxl and, with --mcp, the MCP server through the
official Python SDK (list_metrics names the cycle tables; the query tool returns the cycles).
Prints "OK" or one problem a line, and exits 1 on a problem.
"""
import asyncio
import datetime as dt
import json
import sys

import openpyxl
import pyarrow.parquet as pq

out, expected_path, binary = sys.argv[1:4]
with open(expected_path, encoding="utf-8") as f:
    expected = json.load(f)
problems = []


def plain(v):
    if isinstance(v, dt.datetime):
        return v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    return v


# Parquet: every expected column, row by row, in start order.
rows = pq.read_table(f"{out}/parquet/cycles.parquet").to_pylist()
if len(rows) != len(expected):
    problems.append(f"parquet: {len(rows)} cycles, expected {len(expected)}")
for got, want in zip(rows, expected):
    for k, v in want.items():
        if plain(got.get(k)) != v:
            problems.append(f"parquet {want['start_date']} {k}: {plain(got.get(k))!r}, expected {v!r}")
days = pq.read_table(f"{out}/parquet/cycle_days.parquet").to_pylist()
if not any(d["in_period"] == 1 for d in days):
    problems.append("parquet: no period day in cycle_days")

# The workbook: the Cycles sheet, columns found by their headers ("Start date", "Period days" …).
book = openpyxl.load_workbook(f"{out}/health.xlsx", read_only=True)
if "Cycles" not in book.sheetnames:
    problems.append(f"workbook: no Cycles sheet in {book.sheetnames}")
else:
    sheet = list(book["Cycles"].iter_rows(values_only=True))
    header = [str(h).lower() for h in sheet[0]]
    for name in ("start_date", "period_days", "cycle_length_days", "complete", "spotting_days"):
        title = name.replace("_", " ")
        if title not in header:
            problems.append(f"workbook: no column {title!r} in {header}")
            continue
        i = header.index(title)
        got = [plain(r[i]) for r in sheet[1:]]
        want = [w[name] for w in expected]
        if got != want:
            problems.append(f"workbook {title}: {got}, expected {want}")


async def mcp():
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    params = StdioServerParameters(command=binary, args=["mcp", "--out", out])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.call_tool("list_metrics", {})
            tables = {t["name"]: t["rows"] for t in json.loads(listed.content[0].text)["tables"]}
            if tables.get("cycles") != len(expected) or not tables.get("cycle_days"):
                problems.append(f"mcp list_metrics: cycles {tables.get('cycles')}, cycle_days {tables.get('cycle_days')}")
            answer = await session.call_tool("query", {"query": "SELECT date, period_days, cycle_length FROM cycles ORDER BY date"})
            got = json.loads(answer.content[0].text)
            want = [{"date": w["start_date"], "period_days": w["period_days"], "cycle_length": w["cycle_length_days"]}
                    for w in expected]
            if got != want:
                problems.append(f"mcp query: {got}, expected {want}")

if "--mcp" in sys.argv:
    asyncio.run(mcp())

print("\n".join(problems) if problems else "OK")
sys.exit(1 if problems else 0)
