#!/usr/bin/env python3
"""Checks OUT/fhir/ against FHIR R4 and the store (tooling only).

    check_fhir.py OUT

Every line of every NDJSON file parses with fhir.resources' R4B models as its resource type;
since those models do not enforce code bindings, the script also checks the manifest's counts,
unique ids, that every reference resolves inside the files, status `final`, the LOINC, UCUM,
HealthKit and observation-category systems, and that the values equal the store's (daily
totals, heart-rate days, sparse vitals sample by sample, blood pressure, workouts). The
clinical records' Bundles (`extension.clinicalRecords`: the R4 one is also an output and
parses above) hold as many resources as counted, each the one stored for its file. One line
per check; non-zero on the first failure.
"""
import importlib, json, os, sqlite3, sys

out = sys.argv[1]
folder = os.path.join(out, "fhir")
LOINC, UCUM = "http://loinc.org", "http://unitsofmeasure.org"
HK = "http://developer.apple.com/documentation/healthkit"
CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"


def check(ok, message):
    print(("ok: " if ok else "FAIL: ") + message)
    if not ok:
        sys.exit(1)


manifest = json.load(open(os.path.join(folder, "manifest.json")))
check(manifest["requiresAccessToken"] is False and manifest["error"] == [], "manifest: Bulk Data form")
resources = {}
for entry in manifest["output"]:
    lines = open(os.path.join(folder, entry["url"]), encoding="utf-8").read().splitlines()
    check(len(lines) == entry["count"], "%s: %d lines, as the manifest counts" % (entry["url"], len(lines)))
    model = getattr(importlib.import_module("fhir.resources.R4B." + entry["type"].lower()), entry["type"])
    for line in lines:
        parsed = model.model_validate_json(line)   # raises on anything R4B does not allow
        resource = json.loads(line)
        if resource["resourceType"] != entry["type"]:
            check(False, "%s holds %s only: %s" % (entry["url"], entry["type"], line[:200]))
        resources.setdefault(entry["type"], []).append(resource)
    check(True, "%s: every line parses as an R4B %s" % (entry["url"], entry["type"]))

ids = {(t, r["id"]) for t, rs in resources.items() for r in rs}
check(len(ids) == sum(len(rs) for rs in resources.values()), "ids are unique")
check(len(resources["Patient"]) == 1, "one Patient")
patient = resources["Patient"][0]


def refs(value):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "reference":
                yield v
            else:
                yield from refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from refs(v)


# The clinical records are the providers' own resources: their references point into the
# providers' systems, not into these files.
dangling = [ref for t, rs in resources.items() if t != "Bundle" for r in rs for ref in refs(r)
            if tuple(ref.split("/", 1)) not in ids]
check(not dangling, "every reference resolves inside the files (%s)" % dangling[:3])


def quantities(o):
    yield o.get("valueQuantity")
    for c in o.get("component", []):
        yield c.get("valueQuantity")


observations = resources.get("Observation", [])
for o in observations:
    if o["status"] != "final" or o["subject"]["reference"] != "Patient/" + patient["id"]:
        check(False, "%s: final, about the patient" % o["id"])
    if [c["system"] for c in o["category"][0]["coding"]] != [CATEGORY]:
        check(False, "%s: an observation-category" % o["id"])
    systems = {c["system"] for c in o["code"]["coding"]}
    if HK not in systems or not systems <= {LOINC, HK}:
        check(False, "%s: LOINC and HealthKit codings only, HealthKit always: %s" % (o["id"], systems))
    for q in quantities(o):
        if q is not None and (q.get("system") != UCUM or not q.get("code")):
            check(False, "%s: a UCUM quantity: %s" % (o["id"], q))
check(True, "%d observations: final, categorized, LOINC/HealthKit codes, UCUM quantities" % len(observations))


def by_code(code):
    return [o for o in observations if any(c["code"] == code for c in o["code"]["coding"])]


db = sqlite3.connect(os.path.join(out, "health.sqlite"))
close = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
# Daily totals: one Observation per day and metric, over the local day, the store's value.
steps = {o["effectivePeriod"]["start"][:10]: o["valueQuantity"]["value"] for o in by_code("55423-8")}
stored = dict(db.execute("SELECT date, steps FROM daily_analytics WHERE steps IS NOT NULL"))
check(steps.keys() == stored.keys() and all(close(steps[d], stored[d]) for d in stored),
      "steps: an Observation per day with the store's daily steps (%d days)" % len(stored))
for code, column in [("41981-2", "active_energy_kcal"), ("93832-4", "sleep_total_minutes")]:
    mine = {o["effectivePeriod"]["start"][:10]: o["valueQuantity"]["value"] for o in by_code(code)
            if "effectivePeriod" in o and o["code"]["coding"][0]["code"] == code and "component" not in o}
    theirs = dict(db.execute("SELECT date, %s FROM daily_analytics WHERE %s IS NOT NULL" % (column, column)))
    check(mine.keys() == theirs.keys() and all(close(mine[d], theirs[d]) for d in theirs), "%s: the store's daily values" % column)
heart = by_code("8867-4")
days = {o["effectivePeriod"]["start"][:10]: [c["valueQuantity"]["value"] for c in o["component"]] for o in heart if o["id"].count("heart-rate")}
theirs = {d: [a, b, c] for d, a, b, c in db.execute(
    "SELECT date, minimum, average, maximum FROM daily_metrics WHERE type = 'HKQuantityTypeIdentifierHeartRate' AND minimum IS NOT NULL")}
check(days.keys() == theirs.keys() and all(all(map(close, days[d], theirs[d])) for d in theirs),
      "heart rate: each day's minimum, mean and maximum (%d days)" % len(theirs))
# Sparse vitals, sample by sample.
for code, kind, factor in [("29463-7", "BodyMass", 1), ("59408-5", "OxygenSaturation", 100), ("80404-7", "HeartRateVariabilitySDNN", 1),
                           ("40443-4", "RestingHeartRate", 1)]:
    mine = sorted(o["valueQuantity"]["value"] for o in by_code(code))
    theirs = sorted(v * factor for (v,) in db.execute(
        "SELECT s.value FROM sample_data s JOIN types t ON t.id = s.type_id WHERE t.identifier = ? AND s.value IS NOT NULL",
        ("HKQuantityTypeIdentifier" + kind,)))
    check(len(mine) == len(theirs) and all(map(close, mine, theirs)), "%s: every sample, the store's value (%d)" % (kind, len(theirs)))
panels = by_code("85354-9")
count = db.execute("SELECT count(*) FROM correlations WHERE type = 'HKCorrelationTypeIdentifierBloodPressure'").fetchone()[0]
check(len(panels) == count and all([c["code"]["coding"][0]["code"] for c in p["component"]] == ["8480-6", "8462-4"] for p in panels),
      "blood pressure: a panel per reading, systolic and diastolic components (%d)" % count)
stored = dict(db.execute("SELECT path, resource FROM clinical_resources"))
bundled = {}
for entry in manifest.get("extension", {}).get("clinicalRecords", []):
    lines = open(os.path.join(folder, entry["url"]), encoding="utf-8").read().splitlines()
    bundle = json.loads(lines[0]) if len(lines) == 1 else {}
    check(bundle.get("resourceType") == "Bundle" and bundle.get("type") == "collection" and len(bundle["entry"]) == entry["count"],
          "%s: one collection Bundle of the %d %s resources counted" % (entry["url"], entry["count"], entry["release"]))
    for e in bundle["entry"]:
        bundled.setdefault(json.dumps(e["resource"], sort_keys=True), []).append(entry["release"])
    if entry["release"] == "R4":
        check(any(o["url"] == entry["url"] and o["type"] == "Bundle" for o in manifest["output"]), "the R4 Bundle is an output")
    else:
        check(all(o["url"] != entry["url"] for o in manifest["output"]), "%s is not an R4 output" % entry["url"])
check(sorted(bundled) == sorted(json.dumps(json.loads(r), sort_keys=True) for r in stored.values())
      and all(len(v) == 1 for v in bundled.values()),
      "clinical records: each of the %d stored resources in exactly one Bundle" % len(stored))
named = {"manifest.json"} | {o["url"] for o in manifest["output"]} | {e["url"] for e in manifest.get("extension", {}).get("clinicalRecords", [])}
check(set(os.listdir(folder)) == named, "every file is in the manifest")
workouts = by_code("73985-4")
count = db.execute("SELECT count(*) FROM workouts WHERE start_us IS NOT NULL AND end_us IS NOT NULL").fetchone()[0]
check(len(workouts) == count, "workouts: one Observation each (%d)" % count)
print("fhir checks passed")
