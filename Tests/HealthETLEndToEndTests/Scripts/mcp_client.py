#!/usr/bin/env python3
"""Talks to `healthetl mcp` as an AI assistant's client would (test tooling only).

    mcp_client.py HEALTHETL OUT_DIR [--year]

Uses the official `mcp` Python SDK (ClientSession over stdio) for the handshake, tools/list,
tools/call, resources and the tool failures, and raw JSON-RPC lines for the inputs an SDK never
sends (a line that is not JSON, an unknown method, params of the wrong shape). Prints one JSON
object with what each step returned; the XCTest compares it with `healthetl query --format json`.
Exits 3 when the `mcp` module is missing, so the test can skip with a clear message.
With --year (a store of a generated year): the bounds of the largest answers, timed; a time
limit of a millisecond; a request larger than the server reads.
"""
import asyncio
import hashlib
import json
import subprocess
import sys
import time

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ImportError as error:  # the test venv has it; a bare python3 may not
    print(f"the mcp Python SDK is not installed ({error})", file=sys.stderr)
    sys.exit(3)

QUERY = "SELECT day, sum(value) FROM steps GROUP BY day"


def texts(result):
    return [c.text for c in result.content if getattr(c, "type", "") == "text"]


def field(result, name, default=None):
    return getattr(result, name, default)


async def sdk_session(binary, out, report):
    params = StdioServerParameters(command=binary, args=["mcp", "--out", out])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["initialize"] = {
                "protocolVersion": init.protocol_version,
                "serverName": init.server_info.name,
                "tools": init.capabilities.tools is not None,
                "resources": init.capabilities.resources is not None,
            }
            tools = await session.list_tools()
            report["tools"] = {t.name: sorted((t.input_schema or {}).get("properties", {}).keys()) for t in tools.tools}

            rows = await session.call_tool("query", {"query": QUERY})
            report["query"] = {"isError": field(rows, "is_error"), "texts": texts(rows)}
            relative = await session.call_tool("query", {"query": "SELECT count(*) FROM daily WHERE date IN LAST 7 DAYS"})
            report["relative"] = {"isError": field(relative, "is_error"), "texts": texts(relative)}
            # Each workout once (issue 44): a ride stored by the Watch and by Strava counts one.
            workouts = await session.call_tool("query", {"query": "SELECT type, count(*) AS n FROM workouts GROUP BY type ORDER BY type"})
            report["workouts"] = {"isError": field(workouts, "is_error"), "texts": texts(workouts)}
            # Issue 45: bounded answers. Every heart-rate sample (thousands of rows): at most 500 rows
            # and 64 KiB, with a note of how many more; a query with a long literal is not echoed whole.
            everything = await session.call_tool("query", {"query": "SELECT * FROM heart_rate"})
            report["unbounded"] = {"isError": field(everything, "is_error"), "texts": texts(everything),
                                   "bytes": sum(len(t.encode()) for t in texts(everything))}
            literal = "x" * 200_000
            long_query = await session.call_tool("query", {"query": "SELECT nosuchfield FROM steps WHERE source = '" + literal + "'"})
            report["long_query"] = {"isError": field(long_query, "is_error"),
                                    "bytes": sum(len(t.encode()) for t in texts(long_query)), "texts": [t[:300] for t in texts(long_query)]}
            averages = await session.call_tool("query", {"query": "SELECT avg(value) AS mean FROM heart_rate"})
            report["rounded"] = {"isError": field(averages, "is_error"), "texts": texts(averages)}
            metrics = await session.call_tool("list_metrics", {})
            report["list_metrics"] = {"isError": field(metrics, "is_error"), "texts": texts(metrics)}
            person = await session.call_tool("describe_person", {})
            report["describe_person"] = {"isError": field(person, "is_error"), "texts": texts(person)}
            summary = await session.call_tool("daily_summary", {"from": "2024-03-05", "to": "2024-03-11"})
            report["daily_summary"] = {"isError": field(summary, "is_error"), "texts": texts(summary)}

            resources = await session.list_resources()
            report["resources"] = sorted(str(r.uri) for r in resources.resources)
            schema = await session.read_resource("healthql://schema")
            report["schema"] = [getattr(c, "text", "") for c in schema.contents]

            # Tool failures: isError results, and the session goes on.
            failures = {}
            for name, args in [("query", {"query": "DELETE FROM steps"}),
                               ("query", {"query": "SELECT * FROM stepz"}),
                               ("query", {"query": "SELECT * FROM resting_hr"}),
                               ("query", {"query": "SELECT 1 FROM steps; DROP TABLE daily_analytics"}),
                               ("describe_person", {"person": "nobody"}),
                               ("daily_summary", {"from": "2024-02-30", "to": "2024-03-01"})]:
                result = await session.call_tool(name, args)
                failures[f"{name} {json.dumps(args)}"] = {"isError": field(result, "is_error"), "texts": texts(result)}
            report["tool_failures"] = failures

            # Protocol errors the SDK raises: an unknown tool, arguments the schema refuses.
            protocol = {}
            for name, args in [("no_such_tool", {}), ("query", {"sql": "SELECT 1"}), ("query", {"query": 42})]:
                try:
                    await session.call_tool(name, args)
                    protocol[name + json.dumps(args)] = None
                except Exception as error:  # the SDK's MCPError carries the JSON-RPC error
                    inner = getattr(error, "error", None)
                    protocol[name + json.dumps(args)] = {"code": getattr(inner, "code", None), "message": str(error)}
            report["protocol_errors"] = protocol
            await session.send_ping()
            report["ping_after_errors"] = True


async def slow_query(binary, out, report):
    """A server with a tiny time limit: a query that runs longer is stopped and reported, and the next one is answered."""
    params = StdioServerParameters(command=binary, args=["mcp", "--out", out, "--time-limit", "0.000001"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("query", {"query": "SELECT source, p50(value), p99(value) FROM heart_rate GROUP BY source"})
            report["time_limit"] = {"isError": field(result, "is_error"), "texts": texts(result)}
            await session.send_ping()
            report["ping_after_time_limit"] = True


def raw_lines(binary, out, report):
    """Lines no SDK sends: each answered with its JSON-RPC error, and the server reads on."""
    lines = [
        "this is not json",
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"no/such/method"}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}',
        '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"not an object"}',
        '{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"healthql://nothing"}}',
        '[{"jsonrpc":"2.0","id":6,"method":"ping"}]',
        '{"jsonrpc":"2.0","id":7,"method":"ping"}',
    ]
    run = subprocess.run([binary, "mcp", "--out", out], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    report["raw"] = {"exit": run.returncode, "answers": [json.loads(line) for line in run.stdout.splitlines() if line.strip()]}


async def year(binary, out, report):
    """A year of data: every row of the largest types is asked for; each answer stays bounded."""
    params = StdioServerParameters(command=binary, args=["mcp", "--out", out, "--time-limit", "30"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for name in ("active_energy", "heart_rate", "steps"):
                started = time.monotonic()
                result = await session.call_tool("query", {"query": f"SELECT * FROM {name}"})
                report[name] = {"isError": field(result, "is_error"), "texts": texts(result),
                                "seconds": time.monotonic() - started}
    params = StdioServerParameters(command=binary, args=["mcp", "--out", out, "--time-limit", "0.001"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            started = time.monotonic()
            result = await session.call_tool("query", {"query": "SELECT * FROM heart_rate"})
            report["time_limit"] = {"isError": field(result, "is_error"), "texts": texts(result),
                                    "seconds": time.monotonic() - started}
            await session.send_ping()
            report["ping_after_time_limit"] = True
    # A 9 MiB line, then a ping: the first answered with an error (memory bounded), the second answered.
    started = time.monotonic()
    run = subprocess.run([binary, "mcp", "--out", out], input=b"x" * (9 << 20) + b"\n" + b'{"jsonrpc":"2.0","id":7,"method":"ping"}\n',
                         capture_output=True, timeout=60)
    report["huge_line"] = {"answers": [json.loads(line) for line in run.stdout.splitlines() if line.strip()],
                           "seconds": time.monotonic() - started}


def main():
    binary, out = sys.argv[1:3]
    if "--year" in sys.argv:
        report = {}
        asyncio.run(year(binary, out, report))
        print(json.dumps(report))
        return
    store = f"{out}/health.sqlite"
    before = hashlib.sha256(open(store, "rb").read()).hexdigest()
    report = {}
    asyncio.run(sdk_session(binary, out, report))
    asyncio.run(slow_query(binary, out, report))
    raw_lines(binary, out, report)
    report["store_unchanged"] = hashlib.sha256(open(store, "rb").read()).hexdigest() == before
    print(json.dumps(report))


if __name__ == "__main__":
    main()
