#!/usr/bin/env python3
"""Test tooling: recomputes the reconciliation from the export itself (docs/data-quality.md),
independently of healthetl, and compares it with the store.

    check_reconciliation.py EXPORT.xml STORE.sqlite ZONE

Every distinct record (exact copies counted once) of the six summed types, by the local day of
its start in ZONE, its source name and device model, in canonical units; compared with
reconciliation_sources (each source's total and sample count) and reconciliation
(all_sources_sum, the metric rows present, and duplicates_dropped: the exact copies left out, by
the day and metric of the record they copy). The `workouts` metric (a workout stored twice) is
not a sum of samples: RealPeopleTests checks it. Prints one line per problem; exit 1 if any.
"""
import re
import sqlite3
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from datetime import datetime
from zoneinfo import ZoneInfo

export, store, zone = sys.argv[1], sys.argv[2], ZoneInfo(sys.argv[3])
METRICS = {"HKQuantityTypeIdentifierStepCount": "steps",
           "HKQuantityTypeIdentifierDistanceWalkingRunning": "walking_running_distance_m",
           "HKQuantityTypeIdentifierActiveEnergyBurned": "active_energy_kcal",
           "HKQuantityTypeIdentifierFlightsClimbed": "stairs_climbed",
           "HKQuantityTypeIdentifierAppleExerciseTime": "exercise_minutes",
           "HKQuantityTypeIdentifierAppleStandTime": "stand_minutes"}
FACTOR = {"count": 1, "m": 1, "km": 1000, "mi": 1609.344, "ft": 0.3048, "kcal": 1, "Cal": 1, "kJ": 1 / 4.184, "min": 1,
          "s": 1 / 60, "hr": 60}
ADDRESS = re.compile(r"<<HKDevice: 0x[0-9A-Fa-f]+>, ?")
MODEL = re.compile(r"model:([^,>]*)")

seen = set()
totals = defaultdict(float)
counts = defaultdict(int)
copies = defaultdict(int)
for _, el in ET.iterparse(export):
    if el.tag != "Record":
        continue
    a = el.attrib
    metric = METRICS.get(a.get("type"))
    if metric is not None and a.get("value") is not None:
        device = ADDRESS.sub("", a.get("device", ""))
        meta = tuple(sorted((m.get("key"), m.get("value")) for m in el.findall("MetadataEntry")))
        identity = (a["type"], a.get("sourceName"), a.get("sourceVersion"), device, a.get("unit"), a["value"],
                    a.get("creationDate"), a.get("startDate"), a.get("endDate"), meta)
        day = datetime.strptime(a["startDate"], "%Y-%m-%d %H:%M:%S %z").astimezone(zone).date().isoformat()
        if identity in seen:
            copies[(day, metric)] += 1
        else:
            seen.add(identity)
            model = MODEL.search(device)
            key = (day, metric, a.get("sourceName"), model.group(1).strip() if model else None)
            totals[key] += float(a["value"]) * FACTOR[a.get("unit", "count")]
            counts[key] += 1
    el.clear()

db = sqlite3.connect(store)
problems = []
stored = {(d, m, s, dm): (t, n) for d, m, s, dm, t, n in db.execute(
    "SELECT date, metric, source_name, device_model, total, samples FROM reconciliation_sources WHERE metric != 'workouts'")}
for key in sorted(set(stored) | set(totals), key=str):
    if key not in stored:
        problems.append("missing in reconciliation_sources: %r (%.6f)" % (key, totals[key]))
    elif key not in totals:
        problems.append("not in the export: %r" % (key,))
    elif abs(stored[key][0] - totals[key]) > 1e-6 * max(1, abs(totals[key])) or stored[key][1] != counts[key]:
        problems.append("%r: store %r, export %.6f over %d records" % (key, stored[key], totals[key], counts[key]))
by_day = defaultdict(float)
for (d, m, _, _), t in totals.items():
    by_day[(d, m)] += t
for d, m, total in db.execute("SELECT date, metric, all_sources_sum FROM reconciliation WHERE metric != 'workouts'"):
    if abs(total - by_day.get((d, m), 0)) > 1e-6 * max(1, abs(total)):
        problems.append("all_sources_sum %s %s: store %r, export %r" % (d, m, total, by_day.get((d, m))))
for d, m, dropped in db.execute("SELECT date, metric, duplicates_dropped FROM reconciliation WHERE metric != 'workouts'"):
    if dropped != copies.get((d, m), 0):
        problems.append("duplicates_dropped %s %s: store %r, export %r" % (d, m, dropped, copies.get((d, m), 0)))
missing = set(by_day) - {(d, m) for d, m in db.execute("SELECT date, metric FROM reconciliation")}
problems += ["no reconciliation row for %r" % (k,) for k in sorted(missing)]
for p in problems[:40]:
    print(p)
print("%d source-days compared, %d exact copies, %d problems" % (len(totals), sum(copies.values()), len(problems)))
sys.exit(1 if problems else 0)
