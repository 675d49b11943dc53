#!/usr/bin/env python3
"""Test tooling: reshapes a generated export (docs/days-and-averages.md fixtures).

    reshape_export.py IN OUT [--cut "YYYY-MM-DD HH:MM:SS +zzzz"] [--exercise-weekday N] [--copies N]

--cut: the export as the phone would have written it at CUT, a morning export: ExportDate is
CUT, and every top-level element that started or was created at or after CUT is left out (so
the export's own day holds only its first hours); activity summaries of CUT's day and later
are left out too.
--exercise-weekday N (0 = Monday): exercise minutes only on that weekday (of --zone), as when
the Watch recorded a workout on that day and no exercise on the others: the other days' AppleExerciseTime
records are removed and their activity summaries say 0 minutes of exercise.
--copies N: exact duplicates, as real exports hold them: every Nth Record gets an exact copy,
every (3N)th a second one, placed far from it (at the end of the file); a copy of a copy's record
kept whole (metadata and beats included).
"""
import copy
import argparse
import xml.etree.ElementTree as ET
from datetime import datetime
from zoneinfo import ZoneInfo

FMT = "%Y-%m-%d %H:%M:%S %z"
EXERCISE = "HKQuantityTypeIdentifierAppleExerciseTime"

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("output")
ap.add_argument("--cut")
ap.add_argument("--exercise-weekday", type=int)
ap.add_argument("--zone", default="Europe/Berlin", help="the zone whose local days --exercise-weekday means")
ap.add_argument("--copies", type=int)
args = ap.parse_args()

tree = ET.parse(args.input)
root = tree.getroot()


def instant(text):
    return datetime.strptime(text, FMT) if text else None


if args.cut:
    cut = instant(args.cut)
    root.find("ExportDate").set("value", args.cut)
    for el in list(root):
        start, created = instant(el.get("startDate")), instant(el.get("creationDate"))
        if (start and start >= cut) or (created and created >= cut):
            root.remove(el)
        elif el.tag == "ActivitySummary" and el.get("dateComponents", "") >= cut.strftime("%Y-%m-%d"):
            root.remove(el)

def local_weekday(text):
    # Every instant of an export carries one offset, the export's: the weekday is the zone's.
    return instant(text).astimezone(ZoneInfo(args.zone)).weekday()


if args.exercise_weekday is not None:
    for el in list(root):
        if el.tag == "Record" and el.get("type") == EXERCISE and local_weekday(el.get("startDate")) != args.exercise_weekday:
            root.remove(el)
        elif el.tag == "ActivitySummary":
            day = datetime.strptime(el.get("dateComponents"), "%Y-%m-%d")
            if day.weekday() != args.exercise_weekday:
                el.set("appleExerciseTime", "0")

if args.copies:
    records = [el for el in root if el.tag == "Record"]
    for i, el in enumerate(records):
        for _ in range((i % args.copies == 0) + (i % (3 * args.copies) == 0)):
            root.append(copy.deepcopy(el))

tree.write(args.output, encoding="UTF-8", xml_declaration=True)
