#!/usr/bin/env python3
"""make bench: HealthETL against the libxml2 parse floor and healthkit-to-sqlite (tooling only).

For each export size (generated deterministically by tools/generate_export.py, cached under
.build/bench/exports keyed on the generator arguments and the generator's own hash) it runs, on the
same file: the parse floor (healthetl-xmlfloor: SAX2, counts elements), `healthetl import --full`
with every output, the same import from the export zipped as the iPhone does it, the nightly
re-run on the unchanged export, and healthkit-to-sqlite (PyPI, in .build/bench/venv). Wall time, CPU seconds (user + system) and peak RSS come from /usr/bin/time -v (or wait4's rusage if it is
missing); per phase of an import, the same three from its --json summary (getrusage inside the process).
The binaries timed are linked statically, as the release ships them (scripts/link-static.sh over
swift build's objects); --shared times swift build's own, linked to the shared libraries.
Health Connect (issue 58): synthetic databases of one and four years (tools/health_connect/generate.py
--synthetic, cached the same way, keyed on its arguments and the hashes of generate.py and schema.sql),
each against its floor, sqlite3's own scan of every column HealthConnectReader reads (HC_READ), then
`healthetl import` of the database and of its zip, and the nightly re-runs (--hc-sizes '' skips them).
Writes .build/bench/results.md and .build/bench/results.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "tools" / "generate_export.py"
GENERATOR_PACKAGE = ROOT / "tools" / "generator"

# name: label, generator arguments, rounds of floor/import/nightly, rounds of the peer. 1 year
# --scale 10 ≈ 218 MB; 4 years --scale 13 ≈ 1 GB. Best-of-N on both sides of every ratio: run to
# run this shared machine varies by ±30%, and the small export is cheap to repeat. Both end in
# the past: a record created after now never moves its anchor (it could be a wrong clock), so an
# export running into the future would be read again by every nightly run.
SIZES = {
    "1y": ("1 year", ["--days", "365", "--scale", "10"], 5, 2),
    "4y": ("4 years", ["--days", "1461", "--scale", "13", "--start", "2021-01-01"], 3, 1),
}
PEER_PACKAGE = "healthkit-to-sqlite"

# Targets of issue 35 (issue 6's were 50%, 300 MB and 1.3×).
TARGET_IMPORT_FLOOR_RATIO = 0.8     # import MB/s ≥ 80% of the floor's
TARGET_PEAK_RSS_MB = 150.0          # full import and nightly, both sizes
TARGET_NIGHTLY_FLOOR_RATIO = 0.25   # nightly seconds ≤ 0.25 × floor seconds
TARGET_PEER_RATIO = 10.0            # peer seconds ≥ 10 × import seconds
TARGET_FLAT_RSS_RATIO = 1.10        # the 4-year import's peak RSS ≤ 1.10 × the 1-year one's

# Health Connect (issue 58): synthetic exports of tools/health_connect/generate.py, a database
# each (the .db the export's zip holds), cached under .build/bench/exports keyed on the arguments
# and the hashes of generate.py and schema.sql. Both end in the past, as the Apple ones do.
HC_GENERATOR = ROOT / "tools" / "health_connect" / "generate.py"
HC_SCHEMA = ROOT / "tools" / "health_connect" / "schema.sql"
HC_SIZES = {
    "1y": ("1 year", ["--days", "365", "--seed", "1", "--start", "2025-01-01"], 5),
    "4y": ("4 years", ["--days", "1461", "--seed", "1", "--start", "2021-01-01"], 3),
}
# The floor for this input: sqlite3's own scan of the columns HealthConnectReader reads (its
# SELECTs of Sources/HealthConnectIngest/HealthConnectReader.swift), every row of every record
# table and child table that holds any, each value summed (total()), so every value is decoded.
# The reader reads the child rows per parent through the parent_key index; the floor scans them.
HC_COMMON = ["row_id", "last_modified_time", "app_info_id", "device_info_id", "recording_method"]
HC_INTERVAL = HC_COMMON + ["start_time", "start_zone_offset", "end_time", "end_zone_offset"]
HC_INSTANT = HC_COMMON + ["time", "zone_offset"]
HC_READ = {
    "steps_record_table": HC_INTERVAL + ["count"],
    "distance_record_table": HC_INTERVAL + ["distance"],
    "active_calories_burned_record_table": HC_INTERVAL + ["energy"],
    "floors_climbed_record_table": HC_INTERVAL + ["floors"],
    "heart_rate_record_table": HC_INTERVAL,
    "heart_rate_record_series_table": ["parent_key", "epoch_millis", "beats_per_minute"],
    "resting_heart_rate_record_table": HC_INSTANT + ["beats_per_minute"],
    "sleep_session_record_table": HC_INTERVAL,
    "sleep_stages_table": ["parent_key", "stage_start_time", "stage_end_time", "stage_type"],
    "exercise_session_record_table": HC_INTERVAL + ["exercise_type"],
    "exercise_segments_table": ["parent_key", "segment_start_time", "segment_end_time", "segment_type"],
    "exercise_laps_table": ["parent_key", "lap_start_time", "lap_end_time"],
    "exercise_route_table": ["parent_key", "timestamp_millis", "latitude", "longitude", "altitude",
                             "horizontal_accuracy", "vertical_accuracy"],
    "weight_record_table": HC_INSTANT + ["weight"],
}


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def generator_hash() -> str:
    """The generator is the entry point and its package: a change to any of them is a new export."""
    files = [GENERATOR] + sorted(GENERATOR_PACKAGE.glob("*.py"))
    return hashlib.sha256("".join(f"{f.name}:{sha256_file(f)}\n" for f in files).encode()).hexdigest()


def cached_input(cache: Path, stem: str, key: str, suffix: str) -> tuple[Path, Path, dict | None]:
    """The cache's file `stem-key.suffix` and its metadata file, and the metadata when both are
    there; otherwise None, after the stem's files of other keys (stale generators) are removed."""
    data, meta_path = cache / f"{stem}-{key}{suffix}", cache / f"{stem}-{key}.json"
    if data.exists() and meta_path.exists():
        return data, meta_path, json.loads(meta_path.read_text())
    cache.mkdir(parents=True, exist_ok=True)
    for stale in cache.glob(f"{stem}-*"):
        stale.unlink()
    return data, meta_path, None


def export_for(size: str, cache: Path) -> tuple[Path, dict]:
    """The cached export for one size (generated if missing) and its metadata."""
    label, gen_args = SIZES[size][:2]
    key = hashlib.sha256(json.dumps({"args": gen_args, "generator": generator_hash()}).encode()).hexdigest()[:16]
    xml, meta_path, meta = cached_input(cache, f"export-{size}", key, ".xml")
    if meta is not None:
        return xml, meta
    tmp = cache / f".tmp-{size}-{key}.xml"
    log(f"generating {label} export: tools/generate_export.py {' '.join(gen_args)}")
    t0 = time.monotonic()
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp), *gen_args], check=True)
    # One count of <Record elements (top level and inside correlations), for records/s.
    records = int(subprocess.run(["grep", "-c", "<Record ", str(tmp)], capture_output=True, text=True,
                                 check=True).stdout.strip() or 0)
    meta = {"size": size, "label": label, "generator_args": gen_args, "key": key,
            "bytes": tmp.stat().st_size, "records": records,
            "generated_seconds": round(time.monotonic() - t0, 1)}
    tmp.rename(xml)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    log(f"  {xml.name}: {meta['bytes'] / 1e6:.0f} MB, {records} <Record> elements")
    return xml, meta


def zip_for(xml: Path) -> Path:
    """The same export as the iPhone hands it over: export.zip with apple_health_export/export.xml
    (deflate, zlib's default level), cached beside the XML."""
    path = xml.with_suffix(".zip")
    if path.exists():
        return path
    tmp = path.with_name(".tmp-" + path.name)
    log(f"zipping {xml.name}")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.write(xml, "apple_health_export/export.xml")
    tmp.rename(path)
    return path


def output(cmd: list[str], cwd: Path | None = None) -> str:
    """stdout of a helper command, or "" if it is missing or fails."""
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def machine_info(swift_cmd: str) -> dict:
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    libxml = output(["pkg-config", "--modversion", "libxml-2.0"])
    swift = output([swift_cmd, "--version"]).splitlines()
    return {"cores": os.cpu_count(), "cpu": cpu, "kernel": platform.release(), "libxml2": libxml,
            "swift": swift[0] if swift else "", "python": platform.python_version(),
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}


GNU_TIME = Path(os.environ.get("BENCH_GNU_TIME", "/usr/bin/time"))   # a missing path forces the fallback


def measure(cmd: list[str], cwd: Path | None = None) -> dict:
    """Runs cmd; wall seconds (monotonic, around the process), CPU seconds (user + system), peak RSS (MB), its stdout."""
    if GNU_TIME.exists():
        report = Path(os.environ.get("TMPDIR", "/tmp")) / f"healthetl-bench-time-{os.getpid()}.txt"
        t0 = time.monotonic()
        proc = subprocess.run([str(GNU_TIME), "-v", "-o", str(report), *cmd], cwd=cwd, capture_output=True, text=True)
        seconds = time.monotonic() - t0
        text = report.read_text() if report.exists() else ""
        report.unlink(missing_ok=True)
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
        rss_kb = int(match.group(1)) if match else 0
        cpu = sum(float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text))
        rss_source = "/usr/bin/time -v"
    else:
        # wait4 gives this child's own rusage (RUSAGE_CHILDREN would mix in earlier stages).
        # Output goes to temporary files so that we, not Popen, reap the child. Caveat: the
        # child's maxrss can include this Python process from before exec (~20 MB), which only
        # matters for the floor.
        import tempfile
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            t0 = time.monotonic()
            popen = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, text=True)
            _, status, usage = os.wait4(popen.pid, 0)
            seconds = time.monotonic() - t0
            popen.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            proc = subprocess.CompletedProcess(cmd, popen.returncode, out.read(), err.read())
        rss_kb = usage.ru_maxrss
        cpu = usage.ru_utime + usage.ru_stime
        rss_source = "wait4 rusage"
    if proc.returncode != 0:
        log(f"FAILED ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
        raise SystemExit(1)
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": rss_kb / 1024, "stdout": proc.stdout,
            "rss_source": rss_source}


def nightly_rounds(bins, export, out, nightly_runs, reread_runs):
    """The nightly run over the very file the import read (recognized: nothing read), then over
    the same records in the file saved again (another modification time: read, every record
    known), each appended to its list."""
    for runs_of_kind, kind in ((nightly_runs, "unchanged file"), (reread_runs, "re-saved file")):
        if runs_of_kind is reread_runs:
            os.utime(export)
        warm(export)
        r = measure([str(bins / "healthetl"), "import", str(export), "--out", str(out), "--json", "--quiet",
                     "--pipeline", str(ROOT / "pipelines" / "nightly.json")], cwd=ROOT)
        r["json"] = last_json(r["stdout"])
        runs_of_kind.append(r)
        log(f"    nightly, {kind}: {r['seconds']:.2f} s ({r['json'].get('mode')})")


def last_json(stdout: str) -> dict:
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    return {}


def build(swift: str, scratch: str) -> Path:
    log(f"building release (scratch path {scratch})")
    for product in ("healthetl", "healthetl-xmlfloor"):
        subprocess.run([swift, "build", "-c", "release", "--scratch-path", scratch, "--product", product],
                       cwd=ROOT, check=True)
    bin_path = subprocess.run([swift, "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"],
                              cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    return Path(bin_path)


def link_static(built: Path, bench_dir: Path) -> Path:
    """The binaries the release ships: `built`'s objects linked again as scripts/dist.sh links them
    (scripts/link-static.sh: the Swift runtime, Foundation, libxml2, SQLite and zlib from their
    static archives). Their resident pages of code are fewer than with the shared libraries
    `swift build` links, which is part of the peak RSS (issue 62)."""
    out = bench_dir / "static"
    for product, module in (("healthetl", "healthetl"), ("healthetl-xmlfloor", "xmlfloor")):
        log(f"linking {product} statically (scripts/link-static.sh)")
        subprocess.run([str(ROOT / "scripts" / "link-static.sh"), str(built), product, module, str(out / product)],
                       cwd=ROOT, check=True)
    return out


def peer_venv(bench_dir: Path) -> Path:
    venv = bench_dir / "venv"
    exe = venv / "bin" / "healthkit-to-sqlite"
    if exe.exists() and not runs(exe):
        # A venv's scripts name its interpreter by absolute path: one copied or moved from
        # elsewhere does not run. Build it again.
        log(f"{venv} does not run here; recreating it")
        shutil.rmtree(venv)
    if not exe.exists():
        log(f"installing {PEER_PACKAGE} into {venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", PEER_PACKAGE], check=True)
    return exe


def runs(exe: Path) -> bool:
    try:
        return subprocess.run([str(exe), "--help"], capture_output=True).returncode == 0
    except OSError:
        return False


def peer_version(exe: Path) -> str:
    pip = exe.parent / "pip"
    out = subprocess.run([str(pip), "show", PEER_PACKAGE], capture_output=True, text=True).stdout
    m = re.search(r"^Version: (.+)$", out, re.M)
    return m.group(1).strip() if m else "?"


def peer_rows(db: Path) -> int:
    """Rows the peer wrote (all tables), to show it did the whole job."""
    import sqlite3
    con = sqlite3.connect(db)
    try:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return sum(con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)
    finally:
        con.close()


def warm(path: Path) -> None:
    """Reads the file once, so every stage sees it in the page cache. Done before every timed
    run: this machine's kernel reclaims idle page cache (DAMON), and a stage that found part of
    the file evicted lost up to a second to the disk."""
    with open(path, "rb") as f:
        while f.read(8 << 20):
            pass


def default_outputs() -> str:
    """The outputs `pipelines/default.json` turns on, as the results name the import."""
    outputs = json.loads((ROOT / "pipelines" / "default.json").read_text()).get("outputs", [])
    names = {"sqlite": "SQLite", "csv": "CSV", "parquet": "Parquet", "report": "report", "xlsx": "workbook"}
    return "+".join(names.get(o, o) for o in outputs)


def stage_row(name: str, runs: list[dict], mb: float, records: int) -> dict:
    best = min(runs, key=lambda r: r["seconds"])
    s = best["seconds"]
    return {"stage": name, "seconds": round(s, 3), "all_seconds": [round(r["seconds"], 3) for r in runs],
            "cpu_seconds": round(best["cpu_seconds"], 3),
            "mb_per_s": round(mb / s, 1), "records_per_s": round(records / s),
            "peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs), 1), "json": best.get("json", {})}


def run_size(size: str, args, bins: Path, peer: Path | None, bench_dir: Path) -> dict:
    xml, meta = export_for(size, bench_dir / "exports")
    mb = meta["bytes"] / 1e6
    records = meta["records"]
    label = meta["label"]
    log(f"{label}: {xml.name} ({mb:.0f} MB, {records} records)")
    warm(xml)
    out = bench_dir / f"out-{size}"
    archive = zip_for(xml)
    floor_runs, full_runs, nightly_runs, reread_runs, zip_runs, fhir_runs = [], [], [], [], [], []
    rounds, peer_rounds = args.runs or SIZES[size][2], SIZES[size][3]
    for round_no in range(rounds):
        log(f"  round {round_no + 1}/{rounds}: floor")
        warm(xml)
        r = measure([str(bins / "healthetl-xmlfloor"), str(xml)])
        r["json"] = last_json(r["stdout"])
        floor_runs.append(r)
        log(f"  round {round_no + 1}/{rounds}: import --full ({r['seconds']:.2f} s floor)")
        shutil.rmtree(out, ignore_errors=True)
        warm(xml)
        r = measure([str(bins / "healthetl"), "import", str(xml), "--out", str(out), "--full", "--json", "--quiet",
                     "--pipeline", str(ROOT / "pipelines" / "default.json")], cwd=ROOT)
        r["json"] = last_json(r["stdout"])
        full_runs.append(r)
        log(f"  round {round_no + 1}/{rounds}: import --full from export.zip ({r['seconds']:.2f} s full)")
        zip_out = bench_dir / f"out-{size}-zip"
        shutil.rmtree(zip_out, ignore_errors=True)
        r = measure([str(bins / "healthetl"), "import", str(archive), "--out", str(zip_out), "--full", "--json",
                     "--quiet", "--pipeline", str(ROOT / "pipelines" / "default.json")], cwd=ROOT)
        r["json"] = last_json(r["stdout"])
        zip_runs.append(r)
        shutil.rmtree(zip_out, ignore_errors=True)
        log(f"  round {round_no + 1}/{rounds}: nightly re-run ({r['seconds']:.2f} s from zip)")
        # First the very file the import read (recognized, nothing read); then the same records in
        # the file saved again (another modification time): read, every record skipped by its
        # anchor, the path of a fresh export that brings little new.
        nightly_rounds(bins, xml, out, nightly_runs, reread_runs)
        # The opt-in FHIR output on its own (issue 49): written whole from the store.
        shutil.rmtree(out / "fhir", ignore_errors=True)
        r = measure([str(bins / "healthetl"), "export-fhir", "--out", str(out)], cwd=ROOT)
        r["json"] = {}
        fhir_runs.append(r)
        log(f"    export-fhir: {r['seconds']:.2f} s, {r['peak_rss_mb']:.0f} MB peak")
    rows = [stage_row("parse floor (healthetl-xmlfloor)", floor_runs, mb, records),
            stage_row(f"healthetl import --full ({default_outputs()})", full_runs, mb, records),
            stage_row("nightly re-run, unchanged export (recognized: nothing read)", nightly_runs, mb, records),
            stage_row(f"same import from export.zip ({archive.stat().st_size / 1e6:.0f} MB; MB/s of the XML)",
                      zip_runs, mb, records),
            stage_row("nightly re-run, same records in a re-saved file (read; anchors skip all)", reread_runs, mb, records),
            stage_row("healthetl export-fhir (the opt-in fhir output, from the store)", fhir_runs, mb, records)]
    if peer is not None:
        db = bench_dir / f"peer-{size}.db"
        peer_runs = []
        for round_no in range(peer_rounds):
            db.unlink(missing_ok=True)
            log(f"  {PEER_PACKAGE} --xml ({round_no + 1}/{peer_rounds})")
            warm(xml)
            peer_runs.append(measure([str(peer), "--xml", "--silent", str(xml), str(db)]))
            log(f"    {PEER_PACKAGE} {peer_runs[-1]['seconds']:.1f} s")
        rows.append(stage_row(f"{PEER_PACKAGE} --xml", peer_runs, mb, records))
        rows[-1]["json"] = {"db_rows": peer_rows(db), "db_mb": round(db.stat().st_size / 1e6, 1)}
        db.unlink(missing_ok=True)
    floor, full, nightly = rows[0], rows[1], rows[2]
    ratios = {"import_over_floor_throughput": round(full["mb_per_s"] / floor["mb_per_s"], 3),
              "nightly_over_floor_time": round(nightly["seconds"] / floor["seconds"], 3),
              "reread_over_floor_time": round(rows[4]["seconds"] / floor["seconds"], 3)}
    if peer is not None:
        ratios["peer_over_import_time"] = round(rows[-1]["seconds"] / full["seconds"], 2)
    targets = [
        {"target": f"import throughput ≥ {TARGET_IMPORT_FLOOR_RATIO:.0%} of floor",
         "value": f"{ratios['import_over_floor_throughput'] * 100:.0f}%",
         "pass": ratios["import_over_floor_throughput"] >= TARGET_IMPORT_FLOOR_RATIO},
        {"target": f"peak RSS ≤ {TARGET_PEAK_RSS_MB:.0f} MB (import, nightly)",
         "value": f"{max(full['peak_rss_mb'], nightly['peak_rss_mb']):.0f} MB",
         "pass": max(full["peak_rss_mb"], nightly["peak_rss_mb"]) <= TARGET_PEAK_RSS_MB},
        {"target": f"nightly time ≤ {TARGET_NIGHTLY_FLOOR_RATIO}× floor time (unchanged export; re-saved export)",
         "value": f"{ratios['nightly_over_floor_time']:.2f}×; {ratios['reread_over_floor_time']:.2f}×",
         "pass": max(ratios["nightly_over_floor_time"], ratios["reread_over_floor_time"]) <= TARGET_NIGHTLY_FLOOR_RATIO},
    ]
    if peer is not None:
        targets.append({"target": f"≥ 10× faster than {PEER_PACKAGE}",
                        "value": f"{ratios['peer_over_import_time']:.1f}×",
                        "pass": ratios["peer_over_import_time"] >= TARGET_PEER_RATIO})
    return {"size": size, "label": label, "export": str(xml.relative_to(ROOT)) if xml.is_relative_to(ROOT) else str(xml),
            "generator_args": meta["generator_args"], "bytes": meta["bytes"], "records": records,
            "stages": rows, "import_phase_seconds": full["json"].get("phase_seconds", {}),
            "nightly_phase_seconds": nightly["json"].get("phase_seconds", {}),
            "import_phases": phase_figures(full["json"]), "reread_phases": phase_figures(rows[4]["json"]),
            "import_summary": {k: full["json"].get(k) for k in ("records_read", "samples", "duplicates", "elements",
                                                                 "workouts", "route_points", "correlations")},
            "nightly_summary": {k: nightly["json"].get(k) for k in ("mode", "skipped_by_anchor", "new_samples",
                                                                     "touched_days")},
            "floor_elements": floor["json"].get("elements"),
            "ratios": ratios, "targets": targets, "rounds": rounds, "peer_rounds": peer_rounds if peer else 0}


def phase_figures(summary: dict) -> dict:
    """Per phase of a run: wall seconds, CPU seconds (every thread) and the process's peak RSS
    at the phase's end (a high-water mark: the first phase that shows the run's peak reached it)."""
    wall = summary.get("phase_seconds", {})
    cpu = summary.get("phase_cpu_seconds", {})
    rss = summary.get("phase_peak_rss_mb", {})
    order = ["load", "dedupe_index", "merge_analytics", "analytics", "analytics_and_samples", "outputs"]
    keys = sorted(wall, key=lambda k: (order.index(k) if k in order else len(order), k))   # in run order
    return {k: {"seconds": round(wall[k], 3), "cpu_seconds": round(cpu[k], 3) if k in cpu else None,
                "peak_rss_mb": round(rss[k], 1) if k in rss else None} for k in keys}


def phase_table(title: str, phases: dict) -> list[str]:
    if not phases:
        return []
    cell = lambda v, f: "" if v is None else format(v, f)
    return ["", f"{title}:", "", "| phase | wall s | CPU s | peak RSS MB at its end |", "|---|---:|---:|---:|"] + [
        f"| {k} | {p['seconds']:.2f} | {cell(p['cpu_seconds'], '.2f')} | {cell(p['peak_rss_mb'], '.0f')} |"
        for k, p in phases.items()]


def hc_tables(db: Path) -> dict[str, int]:
    """Rows of every record table and child table of a Health Connect database that holds any
    (a record table has a uuid; a child table a parent_key)."""
    import sqlite3
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        counts = {}
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            columns = {r[1] for r in con.execute(f'PRAGMA table_info("{name}")')}
            if "uuid" in columns or "parent_key" in columns:
                rows = con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
                if rows:
                    counts[name] = rows
        return counts
    finally:
        con.close()


def hc_export_for(size: str, cache: Path) -> tuple[Path, dict]:
    """The cached Health Connect database for one size (generated if missing) and its metadata."""
    label, gen_args = HC_SIZES[size][:2]
    tools = "".join(f"{f.name}:{sha256_file(f)}\n" for f in (HC_GENERATOR, HC_SCHEMA))
    key = hashlib.sha256(json.dumps({"args": gen_args, "tools": tools}).encode()).hexdigest()[:16]
    db, meta_path, meta = cached_input(cache, f"hc-{size}", key, ".db")
    if meta is not None:
        return db, meta
    tmp = cache / f".tmp-hc-{size}-{key}.db"
    tmp.unlink(missing_ok=True)
    log(f"generating Health Connect {label}: tools/health_connect/generate.py --synthetic {' '.join(gen_args)}")
    t0 = time.monotonic()
    subprocess.run([sys.executable, str(HC_GENERATOR), "--synthetic", *gen_args, str(tmp)], check=True,
                   capture_output=True)
    tables = hc_tables(tmp)
    unknown = sorted(set(tables) - set(HC_READ))
    if unknown:   # the floor would leave out rows the reader reads
        raise SystemExit(f"bench: HC_READ does not name {', '.join(unknown)}: add the columns the reader reads")
    meta = {"size": size, "label": label, "generator_args": gen_args, "key": key, "bytes": tmp.stat().st_size,
            "tables": tables, "records": sum(tables.values()),
            "parent_rows": sum(n for t, n in tables.items() if "parent_key" not in HC_READ[t]),
            "generated_seconds": round(time.monotonic() - t0, 1)}
    tmp.rename(db)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    log(f"  {db.name}: {meta['bytes'] / 1e6:.0f} MB, {meta['records']} rows ({meta['parent_rows']} records and "
        f"{meta['records'] - meta['parent_rows']} child rows) in {meta['generated_seconds']} s")
    return db, meta


def hc_zip_for(db: Path) -> Path:
    """The same database as the phone's export: health_connect_export.zip holding
    health_connect_export.db (deflate), cached beside it."""
    path = db.with_suffix(".zip")
    if path.exists():
        return path
    tmp = path.with_name(".tmp-" + path.name)
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.write(db, "health_connect_export.db")
    tmp.rename(path)
    return path


def hc_floor_sql(tables: dict[str, int]) -> str:
    """One SELECT per table: count(*) and total() of every column the reader reads."""
    return "\n".join(f'SELECT \'{t}\', count(*), ' + ", ".join(f'total("{c}")' for c in HC_READ[t]) + f' FROM "{t}";'
                     for t in sorted(tables))


def run_hc_size(size: str, args, bins: Path, bench_dir: Path) -> dict:
    db, meta = hc_export_for(size, bench_dir / "exports")
    mb, records, label = meta["bytes"] / 1e6, meta["records"], meta["label"]
    log(f"Health Connect {label}: {db.name} ({mb:.0f} MB, {records} rows)")
    archive = hc_zip_for(db)
    sqlite3_cli = shutil.which("sqlite3")
    if sqlite3_cli is None:
        raise SystemExit("bench: the Health Connect floor needs the sqlite3 command (apt-get install sqlite3)")
    floor_sql = hc_floor_sql(meta["tables"])
    out = bench_dir / f"out-hc-{size}"
    zip_out = bench_dir / f"out-hc-{size}-zip"
    floor_runs, full_runs, zip_runs, nightly_runs, reread_runs = [], [], [], [], []
    rounds = args.runs or HC_SIZES[size][2]
    pipeline = str(ROOT / "pipelines" / "default.json")
    for round_no in range(rounds):
        log(f"  round {round_no + 1}/{rounds}: sqlite3 floor")
        warm(db)
        r = measure([sqlite3_cli, "-readonly", "-batch", str(db), floor_sql])
        scanned = sum(int(line.split("|")[1]) for line in r["stdout"].splitlines() if line.count("|") >= 1)
        if scanned != records:
            raise SystemExit(f"bench: the sqlite3 floor read {scanned} rows, the tables hold {records}")
        r["json"] = {}
        floor_runs.append(r)
        log(f"  round {round_no + 1}/{rounds}: import --full ({r['seconds']:.2f} s floor)")
        shutil.rmtree(out, ignore_errors=True)
        warm(db)
        r = measure([str(bins / "healthetl"), "import", str(db), "--out", str(out), "--full", "--json", "--quiet",
                     "--pipeline", pipeline], cwd=ROOT)
        r["json"] = last_json(r["stdout"])
        if r["json"].get("platform") != "health-connect" or r["json"].get("elements") != meta["parent_rows"]:
            raise SystemExit(f"bench: the import read {r['json'].get('elements')} records "
                             f"(platform {r['json'].get('platform')}), the database holds {meta['parent_rows']}")
        full_runs.append(r)
        log(f"  round {round_no + 1}/{rounds}: import --full from the zip ({r['seconds']:.2f} s, "
            f"{r['peak_rss_mb']:.0f} MB)")
        shutil.rmtree(zip_out, ignore_errors=True)
        warm(archive)
        r = measure([str(bins / "healthetl"), "import", str(archive), "--out", str(zip_out), "--full", "--json",
                     "--quiet", "--pipeline", pipeline], cwd=ROOT)
        r["json"] = last_json(r["stdout"])
        zip_runs.append(r)
        shutil.rmtree(zip_out, ignore_errors=True)
        # The nightly run over the very file (recognized: nothing read), then over the same
        # database saved again (read, every record skipped by its anchor).
        nightly_rounds(bins, db, out, nightly_runs, reread_runs)
    rows = [stage_row("floor: sqlite3 scan of every column the reader reads", floor_runs, mb, records),
            stage_row(f"healthetl import --full ({default_outputs()})", full_runs, mb, records),
            stage_row(f"same import from the export's zip ({archive.stat().st_size / 1e6:.0f} MB; MB/s of the database)",
                      zip_runs, mb, records),
            stage_row("nightly re-run, unchanged export (recognized: nothing read)", nightly_runs, mb, records),
            stage_row("nightly re-run, same records in a re-saved file (read; anchors skip all)", reread_runs, mb, records)]
    floor, full = rows[0], rows[1]
    ratios = {"import_over_floor_throughput": round(full["mb_per_s"] / floor["mb_per_s"], 3),
              "import_over_floor_cpu": round(full["cpu_seconds"] / max(floor["cpu_seconds"], 1e-3), 2),
              "reread_over_floor_time": round(rows[4]["seconds"] / floor["seconds"], 3)}
    targets = [{"target": f"peak RSS ≤ {TARGET_PEAK_RSS_MB:.0f} MB (import, nightly)",
                "value": f"{max(full['peak_rss_mb'], rows[4]['peak_rss_mb']):.0f} MB",
                "pass": max(full["peak_rss_mb"], rows[4]["peak_rss_mb"]) <= TARGET_PEAK_RSS_MB}]
    return {"size": size, "label": label, "export": str(db.relative_to(ROOT)) if db.is_relative_to(ROOT) else str(db),
            "generator_args": meta["generator_args"], "bytes": meta["bytes"], "records": records,
            "parent_rows": meta["parent_rows"], "tables": meta["tables"], "stages": rows,
            "import_phases": phase_figures(full["json"]), "reread_phases": phase_figures(rows[4]["json"]),
            "import_summary": {k: full["json"].get(k) for k in ("records_read", "samples", "duplicates", "elements",
                                                                 "workouts", "route_points", "platform")},
            "ratios": ratios, "targets": targets, "rounds": rounds}


def add_hc_flatness_target(sizes: list) -> None:
    """Flat memory for Health Connect too: the 4-year import's peak within 10% of the 1-year one's."""
    by_size = {r["size"]: r for r in sizes}
    if "1y" not in by_size or "4y" not in by_size:
        return
    year, four = (by_size[s]["stages"][1]["peak_rss_mb"] for s in ("1y", "4y"))
    ratio = four / year
    by_size["4y"]["ratios"]["import_peak_rss_over_1y"] = round(ratio, 3)
    by_size["4y"]["targets"].append({"target": f"peak RSS flat: ≤ {TARGET_FLAT_RSS_RATIO:.2f}× the 1-year import's",
                                     "value": f"{ratio:.3f}× ({four:.0f} / {year:.0f} MB)",
                                     "pass": ratio <= TARGET_FLAT_RSS_RATIO})


def hc_markdown(sizes: list) -> list[str]:
    lines = []
    for r in sizes:
        lines += [f"## Health Connect, {r['label']}: {r['bytes'] / 1e6:.0f} MB database, {r['records']:,} rows "
                  f"({r['parent_rows']:,} records and {r['records'] - r['parent_rows']:,} child rows; "
                  f"`tools/health_connect/generate.py --synthetic {' '.join(r['generator_args'])}`)", "",
                  f"Rounds: {r['rounds']}. Records/s: rows of the record tables and their child tables per second; "
                  f"MB/s: of the database. The floor: `sqlite3 -readonly` summing every column the reader reads "
                  f"of every row (bench/bench.py, HC_READ).", "",
                  "| stage | seconds | CPU s | MB/s | records/s | peak RSS MB |", "|---|---:|---:|---:|---:|---:|"]
        for s in r["stages"]:
            runs = "" if len(s["all_seconds"]) < 2 else " (" + ", ".join(f"{x:.2f}" for x in s["all_seconds"]) + ")"
            lines.append(f"| {s['stage']} | {s['seconds']:.2f}{runs} | {s['cpu_seconds']:.2f} | {s['mb_per_s']:.0f} "
                         f"| {s['records_per_s']:,} | {s['peak_rss_mb']:.0f} |")
        lines += phase_table("Import phases (the best run's)", r.get("import_phases", {}))
        ra = r["ratios"]
        lines += ["", f"Ratios: import/floor throughput {ra['import_over_floor_throughput']:.3f} "
                      f"(CPU {ra['import_over_floor_cpu']:.1f}× the floor's), re-saved nightly/floor time "
                      f"{ra['reread_over_floor_time']:.2f}", "", "| target | measured | result |", "|---|---:|---|"]
        for t in r["targets"]:
            lines.append(f"| {t['target']} | {t['value']} | {'PASS' if t['pass'] else 'FAIL'} |")
        lines.append("")
    return lines


def cohort_bench(bins: Path, bench_dir: Path) -> dict | None:
    """8 exports (60 days each, different seeds and zones) through the Spark cohort job in local
    mode with 2 workers, against importing them one after another with healthetl. Needs the
    project's venv with pyspark (make venv) and Java; skipped (said so) without them."""
    python = ROOT / ".venv" / "bin" / "python"
    if not python.exists() or subprocess.run([str(python), "-c", "import pyspark"], capture_output=True).returncode != 0 \
            or shutil.which("java") is None:
        log("cohort: skipped (needs make venv with pyspark, and Java)")
        return None
    # Spark left alone binds its driver to the machine's address: the bench stays on loopback.
    os.environ["SPARK_LOCAL_IP"], os.environ["SPARK_LOCAL_HOSTNAME"] = "127.0.0.1", "localhost"
    exports = bench_dir / "cohort-exports"
    zones = ["Europe/Berlin", "America/New_York", "Asia/Seoul", "Australia/Sydney"]
    if not (exports / "p8.xml").exists():
        exports.mkdir(parents=True, exist_ok=True)
        for i in range(1, 9):
            subprocess.run([sys.executable, str(GENERATOR), "--out", str(exports / f"p{i}.xml"), "--days", "60", "--scale", "3",
                            "--seed", str(i), "--zone", zones[i % 4]], check=True, capture_output=True)
    healthetl = bins / "healthetl"
    for folder in ("cohort-seq", "cohort-spark"):
        shutil.rmtree(bench_dir / folder, ignore_errors=True)
    for f in sorted(exports.iterdir()):
        warm(f)
    t0 = time.monotonic()
    for f in sorted(exports.iterdir()):
        subprocess.run([str(healthetl), "import", str(f), "--out", str(bench_dir / "cohort-seq"), "--person", f.stem, "--quiet"],
                       check=True)
    sequential = time.monotonic() - t0
    spark = measure([str(python), str(ROOT / "spark" / "cohort_job.py"), "--exports", str(exports), "--out",
                     str(bench_dir / "cohort-spark"), "--healthetl", str(healthetl), "--master", "local[2]"])
    n = len(list(exports.iterdir()))
    return {"exports": n, "sequential_seconds": sequential, "spark_seconds": spark["seconds"],
            "sequential_per_minute": n / sequential * 60, "spark_per_minute": n / spark["seconds"] * 60}


def add_flatness_target(sizes: list) -> None:
    """Issue 35's flat memory, when both sizes ran: the 4-year import's peak RSS within 10% of
    the 1-year import's (a target of the 4-year size)."""
    by_size = {r["size"]: r for r in sizes}
    if "1y" not in by_size or "4y" not in by_size:
        return
    for index, what, key in ((1, "import", "import_peak_rss_over_1y"), (5, "export-fhir", "fhir_peak_rss_over_1y")):
        year, four = (by_size[s]["stages"][index]["peak_rss_mb"] for s in ("1y", "4y"))
        ratio = four / year
        by_size["4y"]["ratios"][key] = round(ratio, 3)
        by_size["4y"]["targets"].append({
            "target": f"peak RSS flat: ≤ {TARGET_FLAT_RSS_RATIO:.2f}× the 1-year {what}'s",
            "value": f"{ratio:.3f}× ({four:.0f} / {year:.0f} MB)", "pass": ratio <= TARGET_FLAT_RSS_RATIO})


def markdown(results: dict) -> str:
    m = results["machine"]
    lines = [f"# HealthETL bench — {results['date']}, commit {results['commit']}", "",
             f"Machine: {m['cores']} cores ({m['cpu']}), kernel {m['kernel']}, libxml2 {m['libxml2']}, {m['swift']}; "
             f"load average at start {m['load_average_at_start']}. Shared machine: timings vary (±30%). "
             f"Every stage: the best of its rounds (below; peak RSS: the highest), each run after one read "
             f"of the export. Peak RSS from {results['rss_source']}. Binaries linked: {results.get('linking', '?')}.", ""]
    for r in results["sizes"]:
        lines += [f"## {r['label']}: {r['bytes'] / 1e6:.0f} MB, {r['records']:,} records "
                  f"(`tools/generate_export.py {' '.join(r['generator_args'])}`)", "",
                  f"Rounds: {r['rounds']} of floor, import and nightly; {r['peer_rounds']} of the peer.", "",
                  "| stage | seconds | CPU s | MB/s | records/s | peak RSS MB |", "|---|---:|---:|---:|---:|---:|"]
        for s in r["stages"]:
            runs = "" if len(s["all_seconds"]) < 2 else " (" + ", ".join(f"{x:.2f}" for x in s["all_seconds"]) + ")"
            cpu = f"{s['cpu_seconds']:.2f}" if s.get("cpu_seconds") is not None else ""
            lines.append(f"| {s['stage']} | {s['seconds']:.2f}{runs} | {cpu} | {s['mb_per_s']:.0f} | {s['records_per_s']:,} "
                         f"| {s['peak_rss_mb']:.0f} |")
        lines += phase_table("Import phases (the best run's)", r.get("import_phases", {}))
        peer_row = next((s for s in r["stages"] if s["stage"].startswith(PEER_PACKAGE)), None)
        if peer_row and peer_row["json"]:
            lines += [f"{results['peer']} wrote {peer_row['json']['db_rows']:,} rows "
                      f"({peer_row['json']['db_mb']:.0f} MB database); healthetl: "
                      f"{r['import_summary'].get('samples') or 0:,} samples."]
        lines += phase_table("Nightly phases, re-saved file (the best run's)", r.get("reread_phases", {}))
        ra = r["ratios"]
        lines += ["", f"Ratios: import/floor throughput {ra['import_over_floor_throughput']:.2f}, "
                      f"nightly/floor time {ra['nightly_over_floor_time']:.2f} (re-saved file "
                      f"{ra['reread_over_floor_time']:.2f})"
                  + (f", peer/import time {ra['peer_over_import_time']:.1f}" if "peer_over_import_time" in ra else ""),
                  "", "| target | measured | result |", "|---|---:|---|"]
        for t in r["targets"]:
            lines.append(f"| {t['target']} | {t['value']} | {'PASS' if t['pass'] else 'FAIL'} |")
        lines.append("")
    lines += hc_markdown(results.get("health_connect", []))
    c = results.get("cohort")
    if c:
        lines += ["## Cohort: 8 exports (60 days each) through the Spark job", "",
                  f"Spark local mode, 2 workers (the whole job: JVM start, status, cohort tables): "
                  f"{c['spark_seconds']:.1f} s, {c['spark_per_minute']:.1f} exports/min; one after another with "
                  f"`healthetl import --person`: {c['sequential_seconds']:.1f} s, {c['sequential_per_minute']:.1f} exports/min.", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--swift", default="swift")
    ap.add_argument("--scratch-path", default=str(ROOT / ".build"), help="swift build --scratch-path")
    ap.add_argument("--sizes", default="1y,4y", help="comma-separated: " + ",".join(SIZES))
    ap.add_argument("--runs", type=int, default=None,
                    help="rounds of floor/import/nightly (default: 5 at 1y, 3 at 4y); the best time counts")
    ap.add_argument("--no-peer", action="store_true", help=f"skip {PEER_PACKAGE}")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--shared", action="store_true",
                    help="time swift build's binaries, linked to the shared libraries (default: linked "
                         "statically, as the release ships them)")
    ap.add_argument("--no-cohort", action="store_true", help="skip the Spark cohort line")
    ap.add_argument("--hc-sizes", default="1y,4y",
                    help="Health Connect exports, comma-separated: " + ",".join(HC_SIZES) + " ('' for none)")
    args = ap.parse_args()
    bench_dir = ROOT / ".build" / "bench"
    bench_dir.mkdir(parents=True, exist_ok=True)
    sizes = [s for s in args.sizes.split(",") if s]
    for s in sizes:
        if s not in SIZES:
            ap.error(f"unknown size {s}")
    hc_sizes = [s for s in args.hc_sizes.split(",") if s]
    for s in hc_sizes:
        if s not in HC_SIZES:
            ap.error(f"unknown Health Connect size {s}")
    for s in sizes:   # generate (or find cached) before anything is timed
        export_for(s, bench_dir / "exports")
    for s in hc_sizes:
        hc_export_for(s, bench_dir / "exports")
    bins = Path(args.scratch_path) / "release" if args.no_build else build(args.swift, args.scratch_path)
    linking = "shared libraries (swift build)" if args.shared else "static, as released (scripts/link-static.sh)"
    if not args.shared:
        bins = link_static(bins, bench_dir)
    peer = None if args.no_peer else peer_venv(bench_dir)
    commit = output(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT) or "?"
    results = {"date": dt.date.today().isoformat(), "commit": commit, "machine": machine_info(args.swift), "runs": args.runs,
               "linking": linking, "rss_source": "/usr/bin/time -v" if GNU_TIME.exists() else "wait4 rusage",
               "peer": f"{PEER_PACKAGE} {peer_version(peer)}" if peer else None, "sizes": []}
    for s in sizes:
        results["sizes"].append(run_size(s, args, bins, peer, bench_dir))
    add_flatness_target(results["sizes"])
    results["health_connect"] = [run_hc_size(s, args, bins, bench_dir) for s in hc_sizes]
    add_hc_flatness_target(results["health_connect"])
    if not args.no_cohort:
        results["cohort"] = cohort_bench(bins, bench_dir)
    md = markdown(results)
    (bench_dir / "results.md").write_text(md)
    (bench_dir / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    print(md)
    print(f"→ {bench_dir / 'results.md'}, {bench_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
