"""Deterministic synthetic Apple Health export generator, plus a ground-truth JSON.

The command line: parses the arguments, runs the model, writes the artifact and the truth, and
optionally validates them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from .generator import Generator
from .healthkit import TO_STD
from .outputs import write_outputs
from .validate import validate


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--start", default="2024-03-20")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--zone", default="Europe/Berlin")
    ap.add_argument("--layout", choices=("xml", "zip", "folder"), default="xml")
    ap.add_argument("--xml-name", default="export.xml")
    ap.add_argument("--truth")
    ap.add_argument("--broken-dtd", action="store_true")
    ap.add_argument("--vertical-tabs", action="store_true")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--export-date", help="export day (default: the day after the last day)")
    ap.add_argument("--export-time", default="09:41:17",
                    help="local clock time of the ExportDate, HH:MM[:SS] (records are not cut there: with an "
                         "--export-date inside the days, the export day carries a whole day of records)")
    ap.add_argument("--cycles", help="add a cycle-tracking scenario of tools/cycle_scenarios.py (e.g. mixed)")
    ap.add_argument("--validate", action="store_true", help="re-read the artifact and check it against the truth")
    args = ap.parse_args(argv)
    if args.days < 1 or args.scale <= 0:
        ap.error("--days must be >= 1 and --scale > 0")

    t0 = time.time()
    gen = Generator(args)
    gen.generate()
    days = gen.compute_truth()
    sections = gen.assemble()
    t1 = time.time()
    path, xml_size = write_outputs(gen, args, sections)
    t2 = time.time()
    inline, gpx_pts = gen.route_points_inline, gen.route_points_gpx
    truth = {
        "generator": "tools/generate_export.py",
        "params": {"days": args.days, "start": args.start, "seed": args.seed, "scale": args.scale,
                   "layout": args.layout, "xml_name": args.xml_name, "broken_dtd": args.broken_dtd,
                   "vertical_tabs": args.vertical_tabs},
        "zone": args.zone,
        "export_date": gen.ts(gen.export_t),
        "export_offset": gen.clock.suffix,
        "distinct_top_level_records": gen.n_distinct,
        "records_total_top_level": gen.n_distinct + gen.n_duplicates,
        "duplicates": gen.n_duplicates,
        "workouts": len(gen.workout_xml),
        "workouts_by_type": {k: gen.workout_kinds.count(k) for k in ("run", "cycle", "swim")},
        # Workouts counted once (issue 44): a Strava copy of a Watch ride is the same ride.
        "workouts_counted_by_type": {k: gen.workout_kinds.count(k) - gen.workout_copies.count(k) for k in ("run", "cycle", "swim")},
        "workouts_strava": sum(1 for w in gen.workouts if w.strava),
        "route_points": inline + (gpx_pts if args.layout != "xml" else 0),
        "route_points_inline": inline,
        "route_points_gpx": gpx_pts,
        "route_files": sorted(gen.gpx_files) if args.layout != "xml" else [],
        "activity_summaries": len(gen.summaries),
        "source_priority": ["Health (manual, HKWasUserEntered=1)", "Apple Watch (device model:Watch)",
                            "iPhone (device model:iPhone)", "other apps"],
        "unit_factors": TO_STD,
        "notes": ("days: local calendar days in zone; cumulative types merged across sources by priority, "
                  "exact duplicates removed, samples split pro rata at local midnight; walking/running split by "
                  "running-workout spans; sleep: a night counts on its wake-up day, shorter sessions ending the same "
                  "day are naps, not in sleep_total (docs/sleep-nights.md); sleep_total = Core+Deep+REM+Unspecified."),
        "days": days,
    }
    if args.truth:
        os.makedirs(os.path.dirname(os.path.abspath(args.truth)), exist_ok=True)
        with open(args.truth, "w", encoding="utf-8") as f:
            json.dump(truth, f, indent=1, ensure_ascii=False)
            f.write("\n")
    mb = xml_size / 1e6
    info = {"xml": path, "xml_bytes": xml_size, "records": truth["records_total_top_level"],
            "model_s": round(t1 - t0, 2), "write_s": round(t2 - t1, 2), "total_s": round(t2 - t0, 2),
            "MB_per_s": round(mb / (t2 - t0), 1), **gen.stats}
    print(json.dumps(info, ensure_ascii=False), file=sys.stderr)
    if args.validate:
        problems = validate(args, truth)
        if problems:
            for p in problems[:40]:
                print("VALIDATION FAILED:", p, file=sys.stderr)
            return 1
        print("validate: OK", file=sys.stderr)
    return 0
