#!/usr/bin/env python3
"""Daily totals the way Health Connect computes them: the tests' oracle for the Swift reader.

Test tooling only (the product never runs Python). Standard library only.

    aggregate.py DB [--json]

DB is a Health Connect database or an export zip holding health_connect_export.db.

What it re-implements (AOSP HealthFitness, files under service/java/com/android/server/
healthconnect/, read at commit c0d64b5a3b88, see docs/HEALTH_CONNECT.md):

* fitness/aggregation/AggregateRecordRequest.java: a daily aggregation over a
  LocalTimeRangeFilter with Period.ofDays(1). Group borders are local midnights written as
  epoch ms of that wall-clock time read as UTC. Records are compared with them through their
  generated local columns: local start = start_time + 1000 * start_zone_offset, local end =
  end_time + 1000 * end_zone_offset. So every record sits in its own offsets (a record written
  in New York counts on New York's day), and start and end may use different offsets.
* storage/datatypehelpers/aggregation/PriorityRecordsAggregator.java: a sweep over all group
  borders, record starts and record ends, sorted by time, then by kind (border < start < end),
  then by record order (below). On each piece between two consecutive points, the open record
  that ranks highest contributes; apps that are not in the category's priority list never enter
  (priority Integer.MIN_VALUE); records whose (local) start is after their end never enter.
  A piece that starts on a border and ends on an end at the same instant is skipped.
* Record order (AggregationRecordData.compareTo): priority (first app in the list = highest),
  then last_modified_time (later wins), then start, then end, then the record's whole value.
  Records equal on all five are one element of Java's TreeSet: counted once (mirrored here).
* ValueColumnAggregationData: a piece counts value * overlap / duration; a zero-length record
  counts its whole value on the piece from its own start to an end at the same instant.
* SessionDurationAggregationData: a piece counts its overlap with the session minus the
  overlap with the excluded child intervals: sleep stages AWAKE (1), AWAKE_OUT_OF_BED (3),
  AWAKE_IN_BED (7) (SleepSessionRecord.StagesType.DURATION_EXCLUDE_TYPES); exercise segments
  REST (66) and PAUSE (67) (ExerciseSegmentType.DURATION_EXCLUDE_TYPES). In local mode the
  excluded intervals are shifted by the session's START offset (both their start and end).
* Long and Duration results are truncated with Java's longValue(): steps become an integer;
  durations become whole milliseconds (reported here in minutes). Distance, energy and floors
  stay doubles. Energy is stored in calories; active_kcal = calories / 1000.

Categories (HealthDataCategory): steps, distance, active calories, floors and exercise sessions
are ACTIVITY (1); sleep sessions are SLEEP (5).

Output: {"YYYY-MM-DD": {"steps": int|null, "distance_m": float|null, "active_kcal": ...,
"floors": ..., "sleep_minutes": ..., "exercise_minutes": ..., "shares": {"steps": {"pkg": v}, ...}}}
null means Health Connect returns no result for that day (no counting record was open);
0 means it returns zero. Shares are each app's contribution before truncation, in the same
unit as the metric.
"""

import argparse
import bisect
import json
import os
import sqlite3
import sys
import tempfile
import zipfile

DAY_MS = 86_400_000
GROUP_BORDER, INTERVAL_START, INTERVAL_END = 0, 1, 2
ACTIVITY, SLEEP = 1, 5

# metric -> (table, value column or None for session duration, category, exclusion)
METRICS = {
    "steps": ("steps_record_table", "count", ACTIVITY, None),
    "distance_m": ("distance_record_table", "distance", ACTIVITY, None),
    "active_kcal": ("active_calories_burned_record_table", "energy", ACTIVITY, None),
    "floors": ("floors_climbed_record_table", "floors", ACTIVITY, None),
    "sleep_minutes": ("sleep_session_record_table", None, SLEEP,
                      ("sleep_stages_table", "stage_start_time", "stage_end_time", "stage_type", (1, 3, 7))),
    "exercise_minutes": ("exercise_session_record_table", None, ACTIVITY,
                         ("exercise_segments_table", "segment_start_time", "segment_end_time",
                          "segment_type", (66, 67))),
}


class Rec:
    """One record as the aggregator sees it (AggregationRecordData)."""
    __slots__ = ("start", "end", "priority", "lmt", "app", "value", "ex_starts", "ex_ends", "key")

    def result_on(self, a_time, a_type, b_time, b_type):
        if self.value is not None:  # ValueColumnAggregationData.getResultOnInterval
            duration = self.end - self.start
            overlap = min(self.end, b_time) - max(self.start, a_time)
            if duration == 0 and a_type == INTERVAL_START and b_type == INTERVAL_END:
                return self.value
            if duration < 0 or overlap <= 0:
                return 0.0
            return self.value * overlap / duration
        # SessionDurationAggregationData.getResultOnInterval
        return overlap_ms(self.start, a_time, self.end, b_time) - self.excluded(a_time, b_time)

    def excluded(self, a, b):
        """calculateDurationToExclude: the same index window over separately sorted lists."""
        starts, ends = self.ex_starts, self.ex_ends
        if not starts:
            return 0
        lo = bisect.bisect_left(starts, a)
        if not (lo < len(starts) and starts[lo] == a):
            lo = max(lo - 1, 0)
        hi = bisect.bisect_left(ends, b)
        if not (hi < len(ends) and ends[hi] == b):
            hi = hi + 1  # Java: -(binarySearch) = insertion point + 1
        return sum(overlap_ms(starts[i], a, ends[i], b) for i in range(lo, min(hi + 1, len(starts))))


def overlap_ms(s1, s2, e1, e2):
    return max(min(e1, e2) - max(s1, s2), 0)


def open_db(path):
    if zipfile.is_zipfile(path):
        tmp = tempfile.mkdtemp(prefix="hcagg")
        with zipfile.ZipFile(path) as z:
            z.extract("health_connect_export.db", tmp)
        path = os.path.join(tmp, "health_connect_export.db")
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    return con


def priorities(con):
    """category -> {app row id: priority}: the first app gets len(list), the last gets 1."""
    out = {}
    for category, order in con.execute(
            "SELECT health_data_category, app_id_priority_order FROM health_data_category_priority_table"):
        ids = [int(x) for x in order.split(",") if x.strip()] if order else []
        out[category] = {app: len(ids) - i for i, app in enumerate(ids)}
    return out


def load(con, table, value_col, prio, exclusion):
    if not con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone():
        return []
    value_sql = value_col if value_col else "NULL"
    rows = con.execute(
        f"SELECT row_id, start_time + 1000 * start_zone_offset, end_time + 1000 * end_zone_offset, "
        f"start_zone_offset, app_info_id, last_modified_time, {value_sql} FROM {table}").fetchall()
    excl = {}
    if exclusion:
        child, s_col, e_col, t_col, types = exclusion
        marks = ",".join(str(t) for t in types)
        for parent, s, e in con.execute(
                f"SELECT parent_key, {s_col}, {e_col} FROM {child} WHERE {t_col} IN ({marks})"):
            excl.setdefault(parent, []).append((s, e))
    recs = {}
    for row_id, start, end, start_off, app, lmt, value in rows:
        if app not in prio or start is None or end is None:
            continue  # not in the priority list: Integer.MIN_VALUE, never added
        if start > end:
            continue  # local start after local end: skipped by readNewDataAndMaybeAddToBuffer
        r = Rec()
        r.start, r.end, r.priority, r.lmt, r.app = start, end, prio[app], lmt or 0, app
        if value_col:
            r.value = float(value or 0)
            r.ex_starts = r.ex_ends = None
        else:
            r.value = None
            shift = 1000 * start_off  # calculateLocalTime uses the session's start offset
            pairs = excl.get(row_id, [])
            r.ex_starts = sorted(s + shift for s, _ in pairs)
            r.ex_ends = sorted(e + shift for _, e in pairs)
        whole = r.result_on(r.start, INTERVAL_START, r.end, INTERVAL_END)
        r.key = (r.priority, r.lmt, r.start, r.end, whole)
        recs.setdefault(r.key, r)  # TreeSet: equal elements collapse into one
    return list(recs.values())


def sweep(recs, first_day, last_day):
    """PriorityRecordsAggregator.calculateAggregation over one border per local midnight."""
    borders = [d * DAY_MS for d in range(first_day, last_day + 2)]
    points = [(b, GROUP_BORDER, (), None) for b in borders]
    for r in recs:
        points.append((r.start, INTERVAL_START, r.key, r))
        points.append((r.end, INTERVAL_END, r.key, r))
    points.sort(key=lambda p: (p[0], p[1], p[2]))
    groups = len(borders) - 1
    group, open_recs = -1, {}
    totals, shares = {}, {}
    for i in range(len(points) - 1):
        t, kind, key, rec = points[i]
        nt, nkind = points[i + 1][0], points[i + 1][1]
        if kind == GROUP_BORDER:
            group += 1
        elif kind == INTERVAL_START:
            open_recs[key] = rec
        else:
            open_recs.pop(key, None)
        if not open_recs or group < 0 or group >= groups:
            continue
        if t == nt and kind == GROUP_BORDER and nkind == INTERVAL_END:
            continue
        best = open_recs[max(open_recs)]
        amount = best.result_on(t, kind, nt, nkind)
        totals[group] = totals.get(group, 0.0) + amount
        per_app = shares.setdefault(group, {})
        per_app[best.app] = per_app.get(best.app, 0.0) + amount
    return {first_day + g: (v, shares[g]) for g, v in totals.items()}


def iso_day(epoch_day):
    import datetime as dt
    return (dt.date(1970, 1, 1) + dt.timedelta(days=epoch_day)).isoformat()


def aggregate(path):
    con = open_db(path)
    prio = priorities(con)
    names = dict(con.execute("SELECT row_id, package_name FROM application_info_table"))
    per_metric = {}
    for metric, (table, value_col, category, exclusion) in METRICS.items():
        recs = load(con, table, value_col, prio.get(category, {}), exclusion)
        if not recs:
            per_metric[metric] = {}
            continue
        first = min(r.start for r in recs) // DAY_MS
        last = max(r.end for r in recs) // DAY_MS
        per_metric[metric] = sweep(recs, first, last)
    con.close()

    def finish(metric, value):
        if metric == "steps":
            return int(value)  # Java longValue(): truncation toward zero
        if metric == "active_kcal":
            return value / 1000.0
        if metric in ("sleep_minutes", "exercise_minutes"):
            return int(value) / 60000.0  # Duration of whole ms, in minutes
        return value

    def share_unit(metric, value):
        if metric == "active_kcal":
            return value / 1000.0
        if metric in ("sleep_minutes", "exercise_minutes"):
            return value / 60000.0
        return value

    days = sorted({d for m in per_metric.values() for d in m})
    out = {}
    for d in days:
        entry = {}
        shares = {}
        for metric in METRICS:
            got = per_metric[metric].get(d)
            entry[metric] = None if got is None else finish(metric, got[0])
            if got is not None:
                shares[metric] = {names.get(a, str(a)): share_unit(metric, v) for a, v in sorted(got[1].items())}
        entry["shares"] = shares
        out[iso_day(d)] = entry
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("db")
    p.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    a = p.parse_args(argv)
    result = aggregate(a.db)
    if a.json:
        json.dump(result, sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    fmt = "{:10s} {:>7s} {:>10s} {:>9s} {:>6s} {:>7s} {:>8s}  shares (steps)"
    print(fmt.format("day", "steps", "dist_m", "act_kcal", "floors", "sleep", "exercise"))
    show = lambda v, f: "-" if v is None else format(v, f)
    for day, e in result.items():
        steps_share = ", ".join(f"{k}={v:.1f}" for k, v in e["shares"].get("steps", {}).items())
        print(f"{day:10s} {show(e['steps'], 'd'):>7s} {show(e['distance_m'], '.1f'):>10s} "
              f"{show(e['active_kcal'], '.1f'):>9s} {show(e['floors'], '.1f'):>6s} "
              f"{show(e['sleep_minutes'], '.1f'):>7s} {show(e['exercise_minutes'], '.1f'):>8s}  {steps_share}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
