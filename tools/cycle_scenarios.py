#!/usr/bin/env python3
"""Menstrual-cycle scenarios for the generators (test tooling only; docs/cycles.md).

One scenario lists, in days from the export's first day, each period's flow days (a level, or
None for a day inside the period that was not logged), spotting days, ovulation tests, cervical
mucus, basal temperatures and Apple's deviation notices. Both generators write it:
tools/generate_export.py --cycles NAME (Apple: MenstrualFlow records with HKMenstrualCycleStart)
and tools/health_connect/generate.py --cycles NAME (Health Connect: flow records, and for the
periods marked `hc_period` a MenstruationPeriodRecord).

`expect` prints the `cycles` rows a correct reader makes of it, counted from the listed days
alone (never from the Swift code): a period is its listed days from the first to the last, a
cycle runs to the next listed period's first day, the first period marked `partial` was already
going on when the data begin.

    cycle_scenarios.py expect NAME --platform apple|health-connect --start 2025-01-06
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys

# Days from the first day of data. `flow`: the levels of the period's days in order, None a
# day not logged inside the period (it stays a period day).
SCENARIOS = {
    "mixed": {
        "days": 150,
        "periods": [
            # Already going on on the export's first day: its start is not known.
            {"first": 0, "flow": ["medium", "light", "light"], "partial": True},
            # Regular (28 days to the next), one day inside not logged.
            {"first": 24, "flow": ["heavy", "heavy", "medium", None, "light"]},
            # Irregular: 31 days to the next; Health Connect records it as a period too.
            {"first": 52, "flow": ["medium", "medium", "light", "unspecified"], "hc_period": True},
            # Then a skipped month: 56 days to the next.
            {"first": 83, "flow": ["medium", "medium", "medium", "medium"]},
            # The last, open cycle.
            {"first": 139, "flow": ["heavy", "medium", "light"]},
        ],
        "spotting": [40, 64, 65],
        "ovulation": {35: "negative", 36: "negative", 37: "positive", 66: "high", 67: "positive"},
        "mucus": {36: "egg white", 65: "creamy"},
        "basal": {30: 36.40, 31: 36.45, 38: 36.80},
        "sexual": [38],
        # Apple only (iOS 16+): a notice the Health app writes.
        "notices": {120: "InfrequentMenstrualCycles"},
    },
}

APPLE_FLOW = {"light": "Light", "medium": "Medium", "heavy": "Heavy", "unspecified": "Unspecified"}
HC_FLOW = {"unspecified": 0, "light": 1, "medium": 2, "heavy": 3}
APPLE_OVULATION = {"positive": "LuteinizingHormoneSurge", "high": "EstrogenSurge", "negative": "Negative",
                   "indeterminate": "Indeterminate"}
HC_OVULATION = {"indeterminate": 0, "positive": 1, "high": 2, "negative": 3}
APPLE_MUCUS = {"dry": "Dry", "sticky": "Sticky", "creamy": "Creamy", "watery": "Watery", "egg white": "EggWhite"}
HC_MUCUS = {"dry": 1, "sticky": 2, "creamy": 3, "watery": 4, "egg white": 5}


def flow_days(scenario):
    """(offset, level, first day of its period) for every logged flow day."""
    for p in scenario["periods"]:
        for i, level in enumerate(p["flow"]):
            if level is not None:
                yield p["first"] + i, level, i == 0 and not p.get("partial")


def expect(scenario, platform, start):
    """The `cycles` rows, from the listed periods (see the module's docstring)."""
    rows = []
    periods = scenario["periods"]
    ovulation = scenario.get("ovulation", {})
    for n, p in enumerate(periods):
        first = p["first"]
        nxt = periods[n + 1]["first"] if n + 1 < len(periods) else None
        end = nxt if nxt is not None else scenario["days"]
        inside = lambda d: first <= d < end  # noqa: E731
        levels = [lv for lv in p["flow"] if lv is not None]
        partial = bool(p.get("partial"))
        if platform == "apple":
            start_from = "before the data" if partial else "HKMenstrualCycleStart"
        else:
            start_from = "Health Connect period" if p.get("hc_period") else "rule"
        positive = sorted(d for d, r in ovulation.items() if r == "positive" and inside(d))
        rows.append({
            "start_date": (start + dt.timedelta(days=first)).isoformat(),
            "next_start_date": None if nxt is None else (start + dt.timedelta(days=nxt)).isoformat(),
            "complete": 0 if partial else 1,
            "period_days": None if partial else len(p["flow"]),
            "cycle_length_days": None if partial or nxt is None else nxt - first,
            "start_from": start_from,
            "flow_light_days": levels.count("light"), "flow_medium_days": levels.count("medium"),
            "flow_heavy_days": levels.count("heavy"), "flow_unspecified_days": levels.count("unspecified"),
            "spotting_days": sum(1 for d in scenario.get("spotting", []) if inside(d)),
            "ovulation_positive_date": (start + dt.timedelta(days=positive[0])).isoformat() if positive else None,
            "ovulation_tests": sum(1 for d in ovulation if inside(d)),
        })
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("expect", help="print the expected cycles rows as JSON")
    e.add_argument("name", choices=sorted(SCENARIOS))
    e.add_argument("--platform", choices=("apple", "health-connect"), required=True)
    e.add_argument("--start", required=True, help="the export's first day, YYYY-MM-DD")
    args = ap.parse_args(argv)
    json.dump(expect(SCENARIOS[args.name], args.platform, dt.date.fromisoformat(args.start)), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
