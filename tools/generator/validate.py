"""--validate: an independent re-computation from the written artifact (xml.etree and a slice-based
merge, the Health-app algorithm), compared with the truth."""

from __future__ import annotations

import bisect
import datetime as dt
import io
import math
import os
import re
import sys
import time
import zipfile
from zoneinfo import ZoneInfo

from .healthkit import ASLEEP_TRACK, CUM_FIELDS, DAY_FIELDS, DWR, SLEEP, SV, TO_STD


class _StripVT(io.RawIOBase):
    def __init__(self, f):
        self.f = f

    def readable(self):
        return True

    def readinto(self, b):
        data = self.f.read(len(b))
        data = data.replace(b"\x0b", b"")
        while not data:
            more = self.f.read(len(b))
            if not more:
                return 0
            data = more.replace(b"\x0b", b"")
        b[:len(data)] = data
        return len(data)


def open_artifact(path, layout, xml_name):
    """Returns (opener for the XML bytes, list of gpx texts). Finds the XML by its content."""
    if layout == "xml":
        return (lambda: open(path, "rb")), []
    if layout == "folder":
        root = os.path.join(path, "apple_health_export")
        cand = []
        for n in sorted(os.listdir(root)):
            p = os.path.join(root, n)
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    head = f.read(4096)
                if b"<!DOCTYPE HealthData" in head or b"<HealthData" in head:
                    cand.append(p)
        gpx = []
        rd = os.path.join(root, "workout-routes")
        for n in sorted(os.listdir(rd)):
            with open(os.path.join(rd, n), encoding="utf-8") as f:
                gpx.append(f.read())
        assert len(cand) == 1, cand
        return (lambda: open(cand[0], "rb")), gpx
    zf = zipfile.ZipFile(path)
    cand = []
    gpx = []
    for zi in zf.infolist():
        if zi.is_dir() or zi.filename.startswith("__MACOSX/"):
            continue
        with zf.open(zi) as f:
            head = f.read(4096)
        if b"<!DOCTYPE HealthData" in head or b"<HealthData" in head:
            cand.append(zi.filename)
        if zi.filename.endswith(".gpx"):
            gpx.append(zf.read(zi).decode("utf-8"))
    assert len(cand) == 1, cand
    return (lambda: zf.open(cand[0])), gpx


def slice_merge(samples, M, splitter=None):
    """Health-app style merge. samples: (s, e, prio, value, tag). Time is cut at every sample
    boundary and at every cut in M (midnights, workout bounds); in each slice only the samples of the
    highest priority (lowest number) present count, pro rata by time.
    Returns {index i of the M interval [M[i], M[i+1]) holding the slice: {splitter key: total}}."""
    bounds = sorted(set([x[0] for x in samples] + [x[1] for x in samples] + list(M)))
    events = {}
    for i, x in enumerate(samples):
        events.setdefault(x[0], []).append((1, i))
        events.setdefault(x[1], []).append((0, i))
    active = {}
    out = {}
    for j in range(len(bounds) - 1):
        b0, b1 = bounds[j], bounds[j + 1]
        for kind, i in events.get(b0, []):
            p = samples[i][2]
            if kind == 1:
                active.setdefault(p, set()).add(i)
            else:
                active[p].discard(i)
        live = [p for p, ids in active.items() if ids]
        if not live:
            continue
        p = min(live)
        d = bisect.bisect_right(M, b0) - 1
        for i in active[p]:
            s, e, _, v, tag = samples[i]
            part = v * (b1 - b0) / (e - s)
            key = splitter(b0, b1, tag) if splitter else None
            out.setdefault(d, {}).setdefault(key, 0.0)
            out[d][key] += part
    return out


def validate(args, truth):
    t0 = time.time()
    problems = []
    opener, gpx_texts = open_artifact(args.out, args.layout, args.xml_name)
    raw = opener().read()
    zone = ZoneInfo(args.zone)
    # 1) well-formedness / intended defects
    has_vt = b"\x0b" in raw
    if args.vertical_tabs and not has_vt:
        problems.append("--vertical-tabs: no \\x0b found")
    if not args.vertical_tabs and has_vt:
        problems.append("unexpected \\x0b")
    import xml.etree.ElementTree as ET
    data = raw.replace(b"\x0b", b"") if has_vt else raw
    if has_vt:
        try:
            ET.fromstring(raw)
            problems.append("file with \\x0b parsed?!")
        except ET.ParseError as e:
            print(f"validate: as expected, raw file with \\x0b fails: {e}", file=sys.stderr)
    if args.broken_dtd:
        try:
            ET.fromstring(data)
            problems.append("--broken-dtd: file parsed without error")
        except ET.ParseError as e:
            dtd_end = data[:data.index(b"]>") + 2].count(b"\n") + 1
            line = e.position[0]
            msg = f"validate: broken DTD fails as intended: {e} (DOCTYPE ends at line {dtd_end})"
            print(msg, file=sys.stderr)
            if line > dtd_end:
                problems.append(f"--broken-dtd: error at line {line}, outside the DTD")
        # strip the DOCTYPE and continue with the body
        i = data.index(b"<!DOCTYPE")
        j = data.index(b"]>", i) + 2
        data = data[:i] + data[j:]
    root = ET.fromstring(data)
    # 2) counts
    offs = set(re.findall(rb'(?:Date|date|value)="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ([+-]\d{4})"', data))
    if len(offs) != 1:
        problems.append(f"timestamps carry {len(offs)} different offsets: {offs}")
    recs = [el for el in root if el.tag == "Record"]
    keys = [ET.tostring(el) for el in recs]
    distinct = len(set(keys))
    got = {"distinct_top_level_records": distinct, "records_total_top_level": len(recs),
           "duplicates": len(recs) - distinct, "workouts": sum(1 for el in root if el.tag == "Workout"),
           "activity_summaries": sum(1 for el in root if el.tag == "ActivitySummary")}
    inline = sum(1 for _ in root.iter("Location"))
    gpx_pts = sum(t.count("<trkpt ") for t in gpx_texts)
    got["route_points"] = inline + gpx_pts
    for k, v in got.items():
        if truth[k] != v:
            problems.append(f"{k}: truth {truth[k]} != file {v}")
    # 3) order is not chronological
    starts = [el.get("startDate") for el in recs[:2000]]
    if starts == sorted(starts):
        problems.append("records look chronological")

    # 4) daily values with the slice algorithm
    def parse_t(s):
        return int(dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S %z").timestamp())

    start = dt.date.fromisoformat(args.start)
    M = [int(dt.datetime(*(start + dt.timedelta(days=k)).timetuple()[:3], tzinfo=zone).timestamp()) for k in range(args.days + 1)]

    def prio(el):
        md = {m.get("key"): m.get("value") for m in el.findall("MetadataEntry")}
        if el.get("sourceName") == "Health" or md.get("HKWasUserEntered") == "1":
            return 0
        dev = el.get("device") or ""
        if "model:Watch" in dev:
            return 1
        if "model:iPhone" in dev:
            return 2
        return 3

    uniq = {}
    for el, key in zip(recs, keys):
        uniq.setdefault(key, el)
    by_type = {}
    for el in uniq.values():
        by_type.setdefault(el.get("type"), []).append(el)
    run_iv = sorted((parse_t(w.get("startDate")), parse_t(w.get("endDate"))) for w in root
                    if w.tag == "Workout" and w.get("workoutActivityType") == "HKWorkoutActivityTypeRunning")

    def run_split(b0, b1, tag):
        return "run" if any(s <= b0 and b1 <= e for s, e in run_iv) else "walk"

    M_cut = sorted(set(M + [x for iv in run_iv for x in iv]))
    mine = {d: {f: 0.0 for f in DAY_FIELDS} for d in range(args.days)}
    for typ, field in list(CUM_FIELDS.items()) + [(DWR, None)]:
        smp = []
        for el in by_type.get(typ, []):
            s, e = parse_t(el.get("startDate")), parse_t(el.get("endDate"))
            smp.append((s, e, prio(el), float(el.get("value")) * TO_STD[el.get("unit")], None))
        res = slice_merge(smp, M_cut, run_split if typ == DWR else None)
        # slice_merge is keyed by the index of the slice start in M_cut; map it back to the day
        for idx, vals in res.items():
            d = bisect.bisect_right(M, M_cut[idx]) - 1 if idx >= 0 else -1
            if not 0 <= d < args.days:
                continue
            for key, v in vals.items():
                f = field if typ != DWR else ("running_distance_m" if key == "run" else "walking_distance_m")
                mine[d][f] += v
    # sleep: sessions are the spans of all sleep records (in bed too) with gaps of at most an
    # hour; each is dated by the local day of its end, and of the sessions ending on one day the
    # longest (time covered) is the night, the others naps (docs/sleep-nights.md). The
    # asleep/awake track, merged by priority, counts for the night whose main session holds it.
    spans = sorted((parse_t(el.get("startDate")), parse_t(el.get("endDate"))) for el in by_type.get(SLEEP, []))
    sessions = []  # [start, end, covered seconds]
    for s, e in spans:
        if sessions and s - sessions[-1][1] <= 3600:
            last = sessions[-1]
            last[2] += max(0, e - max(s, last[1]))
            last[1] = max(last[1], e)
        else:
            sessions.append([s, e, e - s])
    main = {}
    for s, e, cov in sessions:
        d = (dt.datetime.fromtimestamp(e - 1, zone).date() - start).days
        if d not in main or (cov, e) > (main[d][2], main[d][1]):
            main[d] = (s, e, cov)
    main_by_start = sorted((s, e, d) for d, (s, e, _) in main.items())
    smp = []
    for el in by_type.get(SLEEP, []):
        v = el.get("value")[len(SV):]
        if v not in ASLEEP_TRACK:
            continue
        s, e = parse_t(el.get("startDate")), parse_t(el.get("endDate"))
        i = bisect.bisect_right(main_by_start, (s, math.inf, math.inf)) - 1
        if i < 0 or not e <= main_by_start[i][1]:
            continue  # a nap's record
        smp.append((s, e, prio(el), (e - s) / 60.0, (v, main_by_start[i][2])))
    res = slice_merge(smp, [], lambda b0, b1, tag: tag)
    for (v, sd), mins in res.get(-1, {}).items():
        if v == "Awake" or not 0 <= sd < args.days:
            continue
        mine[sd]["sleep_total_minutes"] += mins
        if v == "AsleepDeep":
            mine[sd]["sleep_deep_minutes"] += mins
        if v == "AsleepREM":
            mine[sd]["sleep_rem_minutes"] += mins
    worst = 0.0
    for d in range(args.days):
        key = (start + dt.timedelta(days=d)).isoformat()
        for f in DAY_FIELDS:
            a, b = truth["days"][key][f], mine[d][f]
            err = abs(a - b)
            worst = max(worst, err)
            if err > 1e-4 + 1e-9 * abs(a):
                problems.append(f"{key} {f}: truth {a} != recomputed {b:.6f}")
    print(f"validate: {len(recs)} records, {distinct} distinct, max |truth - recomputed| = {worst:.2e}, "
          f"{time.time() - t0:.1f}s", file=sys.stderr)
    return problems
