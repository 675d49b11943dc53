#!/usr/bin/env python3
"""Deterministic synthetic Apple Health export generator, plus a ground-truth JSON.

Tooling for HealthETL tests and benchmarks (Python 3.11, standard library only).
See sample-data/README.md for what the output contains and why.

    python3 sample-data/generate_export.py --out PATH [--days N] [--start YYYY-MM-DD]
        [--seed S] [--zone Europe/Berlin] [--layout xml|zip|folder] [--xml-name export.xml]
        [--truth PATH] [--broken-dtd] [--vertical-tabs] [--scale K] [--export-date YYYY-MM-DD]
        [--export-time HH:MM[:SS]]
        [--validate]

Design notes
* Every instant is an integer Unix time (seconds).  Every timestamp in the XML is printed with ONE
  fixed offset: the zone's UTC offset at the export instant (like real exports).
* The ground truth is computed from the in-memory sample model, not from the XML.  The model is
  built so that the Health-app merge is unambiguous: for every cumulative type, a sample of a
  lower-priority source is either fully covered by the union of higher-priority samples (it then
  contributes nothing) or disjoint from them (it then counts fully).  The generator asserts this.
* --validate re-reads the written artifact with xml.etree, recomputes the same numbers with an
  independent slice-based merge (the Health-app algorithm) and compares them with the truth.
"""

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import io
import json
import math
import os
import random
import re
import sys
import time
import zipfile
from zoneinfo import ZoneInfo

# ----------------------------------------------------------------------------------------------
# Header: the HealthKit Export Version 14 DTD, verbatim from a real iOS 17/18 export
# (the sample export of the open-source grll/apple-health-mcp project).
# ----------------------------------------------------------------------------------------------
DTD_V14 = """<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutActivity ((MetadataEntry)*)>
<!ATTLIST WorkoutActivity
  uuid                 CDATA #REQUIRED
  startDate            CDATA #REQUIRED
  endDate              CDATA #IMPLIED
  duration             CDATA #IMPLIED
  durationUnit         CDATA #IMPLIED
>
<!ELEMENT WorkoutEvent ((MetadataEntry)*)>
<!ATTLIST WorkoutEvent
  type                 CDATA #REQUIRED
  date                 CDATA #REQUIRED
  duration             CDATA #IMPLIED
  durationUnit         CDATA #IMPLIED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                 CDATA #REQUIRED
  startDate            CDATA #REQUIRED
  endDate              CDATA #REQUIRED
  average              CDATA #IMPLIED
  minimum              CDATA #IMPLIED
  maximum              CDATA #IMPLIED
  sum                  CDATA #IMPLIED
  unit                 CDATA #IMPLIED
>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
<!ATTLIST WorkoutRoute
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleMoveTime            CDATA #IMPLIED
  appleMoveTimeGoal        CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
<!ELEMENT ClinicalRecord EMPTY>
<!ATTLIST ClinicalRecord
  type              CDATA #REQUIRED
  identifier        CDATA #REQUIRED
  sourceName        CDATA #REQUIRED
  sourceURL         CDATA #REQUIRED
  fhirVersion       CDATA #REQUIRED
  receivedDate      CDATA #REQUIRED
  resourceFilePath  CDATA #REQUIRED
>
<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
<!ATTLIST Audiogram
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT SensitivityPoint EMPTY>
<!ATTLIST SensitivityPoint
  frequencyValue   CDATA #REQUIRED
  frequencyUnit    CDATA #REQUIRED
  leftEarValue     CDATA #IMPLIED
  leftEarUnit      CDATA #IMPLIED
  leftEarMasked      CDATA #IMPLIED
  leftEarClampingRangeLowerBound   CDATA #IMPLIED
  leftEarClampingRangeUpperBound   CDATA #IMPLIED
  rightEarValue    CDATA #IMPLIED
  rightEarUnit     CDATA #IMPLIED
  rightEarMasked      CDATA #IMPLIED
  rightEarClampingRangeLowerBound  CDATA #IMPLIED
  rightEarClampingRangeUpperBound  CDATA #IMPLIED
>
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
<!ATTLIST VisionPrescription
  type             CDATA #REQUIRED
  dateIssued       CDATA #REQUIRED
  expirationDate   CDATA #IMPLIED
  brand            CDATA #IMPLIED
>
<!ELEMENT RightEye EMPTY>
<!ATTLIST RightEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  cylinderUnit     CDATA #IMPLIED
  axis             CDATA #IMPLIED
  axisUnit         CDATA #IMPLIED
  add              CDATA #IMPLIED
  addUnit          CDATA #IMPLIED
  vertex           CDATA #IMPLIED
  vertexUnit       CDATA #IMPLIED
  prismAmount      CDATA #IMPLIED
  prismAmountUnit  CDATA #IMPLIED
  prismAngle       CDATA #IMPLIED
  prismAngleUnit   CDATA #IMPLIED
  farPD            CDATA #IMPLIED
  farPDUnit        CDATA #IMPLIED
  nearPD           CDATA #IMPLIED
  nearPDUnit       CDATA #IMPLIED
  baseCurve        CDATA #IMPLIED
  baseCurveUnit    CDATA #IMPLIED
  diameter         CDATA #IMPLIED
  diameterUnit     CDATA #IMPLIED
>
<!ELEMENT LeftEye EMPTY>
<!ATTLIST LeftEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
  cylinder         CDATA #IMPLIED
  cylinderUnit     CDATA #IMPLIED
  axis             CDATA #IMPLIED
  axisUnit         CDATA #IMPLIED
  add              CDATA #IMPLIED
  addUnit          CDATA #IMPLIED
  vertex           CDATA #IMPLIED
  vertexUnit       CDATA #IMPLIED
  prismAmount      CDATA #IMPLIED
  prismAmountUnit  CDATA #IMPLIED
  prismAngle       CDATA #IMPLIED
  prismAngleUnit   CDATA #IMPLIED
  farPD            CDATA #IMPLIED
  farPDUnit        CDATA #IMPLIED
  nearPD           CDATA #IMPLIED
  nearPDUnit       CDATA #IMPLIED
  baseCurve        CDATA #IMPLIED
  baseCurveUnit    CDATA #IMPLIED
  diameter         CDATA #IMPLIED
  diameterUnit     CDATA #IMPLIED
>
<!ELEMENT Attachment EMPTY>
<!ATTLIST Attachment
  identifier       CDATA #IMPLIED
>
]>"""

XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>\n'


def broken_dtd() -> str:
    """iOS 16 (HealthKit Export Version 12) defect: the VisionPrescription ATTLIST is never closed."""
    d = DTD_V14.replace("<!-- HealthKit Export Version: 14 -->", "<!-- HealthKit Export Version: 12 -->")
    good = "  brand            CDATA #IMPLIED\n>\n"
    assert d.count(good) == 1
    return d.replace(good, "  brand            CDATA #IMPLIED\n")


# ----------------------------------------------------------------------------------------------
# Types, units
# ----------------------------------------------------------------------------------------------
Q = "HKQuantityTypeIdentifier"
C = "HKCategoryTypeIdentifier"
STEPS, DWR, DCYC, DSWIM = Q + "StepCount", Q + "DistanceWalkingRunning", Q + "DistanceCycling", Q + "DistanceSwimming"
STROKES, AEB, BEB, FLIGHTS = Q + "SwimmingStrokeCount", Q + "ActiveEnergyBurned", Q + "BasalEnergyBurned", Q + "FlightsClimbed"
EXER, STAND, HR, HRV = Q + "AppleExerciseTime", Q + "AppleStandTime", Q + "HeartRate", Q + "HeartRateVariabilitySDNN"
RHR, WHR, VO2, SPO2, RESP = Q + "RestingHeartRate", Q + "WalkingHeartRateAverage", Q + "VO2Max", Q + "OxygenSaturation", Q + "RespiratoryRate"
MASS, BMI, HEIGHT, TEMP, GLU = Q + "BodyMass", Q + "BodyMassIndex", Q + "Height", Q + "BodyTemperature", Q + "BloodGlucose"
SYS, DIA = Q + "BloodPressureSystolic", Q + "BloodPressureDiastolic"
D_KCAL, D_PROT, D_CARB, D_FAT = Q + "DietaryEnergyConsumed", Q + "DietaryProtein", Q + "DietaryCarbohydrates", Q + "DietaryFatTotal"
SLEEP, STANDH, HEADACHE = C + "SleepAnalysis", C + "AppleStandHour", C + "Headache"
SV = "HKCategoryValueSleepAnalysis"
ASLEEP_VALUES = ("AsleepCore", "AsleepDeep", "AsleepREM", "AsleepUnspecified")
ASLEEP_TRACK = ASLEEP_VALUES + ("Awake",)

GLUCOSE_MMOL = "mmol&lt;180.1558800000541&gt;/L"  # escaped form of mmol<180.1558800000541>/L
VO2_UNIT = "mL/min\u00b7kg"

# unit -> factor to the truth's standard unit (count, m, kcal, min)
TO_STD = {"count": 1.0, "m": 1.0, "km": 1000.0, "mi": 1609.344, "yd": 0.9144, "ft": 0.3048,
          "kcal": 1.0, "Cal": 1.0, "kJ": 1.0 / 4.184, "min": 1.0}

# cumulative type -> truth field (DistanceWalkingRunning is split into walking/running)
CUM_FIELDS = {STEPS: "steps", DCYC: "cycling_distance_m", AEB: "active_energy_kcal",
              BEB: "resting_energy_kcal", FLIGHTS: "stairs_climbed", EXER: "exercise_minutes",
              STAND: "stand_minutes"}
DAY_FIELDS = ["steps", "walking_distance_m", "running_distance_m", "cycling_distance_m",
              "active_energy_kcal", "resting_energy_kcal", "stairs_climbed", "exercise_minutes",
              "stand_minutes", "sleep_total_minutes", "sleep_deep_minutes", "sleep_rem_minutes"]

LEVEL_MANUAL, LEVEL_WATCH, LEVEL_PHONE, LEVEL_OTHER = 0, 1, 2, 3


def esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def g(v: float) -> str:
    """HealthKit prints values with %g (6 significant digits, exponent form when needed)."""
    return "%g" % v


def interval_union(ivs):
    out = []
    for s, e in sorted(ivs):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def interval_subtract(base, holes):
    """base, holes: lists of (s,e); returns base minus union(holes), sorted."""
    holes = interval_union(holes)
    out = []
    for s, e in base:
        cur = s
        for hs, he in holes:
            if he <= cur or hs >= e:
                continue
            if hs > cur:
                out.append((cur, hs))
            cur = max(cur, he)
            if cur >= e:
                break
        if cur < e:
            out.append((cur, e))
    return out


def covers(union, s, e) -> bool:
    """union: sorted disjoint (s,e) list. True if [s,e) lies in one interval of union."""
    i = bisect.bisect_right(union, (s, float("inf"))) - 1
    return i >= 0 and union[i][0] <= s and union[i][1] >= e


def cover_state(union, starts, s, e) -> str:
    i = bisect.bisect_right(starts, s) - 1
    if i >= 0 and union[i][1] >= e:
        return "full"
    if i >= 0 and union[i][1] > s:
        return "partial"
    if i + 1 < len(union) and union[i + 1][0] < e:
        return "partial"
    return "none"


class Source:
    """A sourceName/sourceVersion/device attribute generator. The device description embeds a
    per-object memory address that changes from record to record, like real exports."""

    def __init__(self, name, level, versions, dev=None):
        self.name = name
        self.level = level
        self.parts = []
        sn = esc(name)
        for d0, ver in versions:
            head = f'sourceName="{sn}" sourceVersion="{ver}"'
            if dev:
                dname, manu, model, hw = dev
                pre = head + ' device="&lt;&lt;HKDevice: 0x'
                post = f'&gt;, name:{dname}, manufacturer:{manu}, model:{model}, hardware:{hw}, software:{ver}&gt;"'
            else:
                pre, post = head, None
            self.parts.append((d0, pre, post, ver, head))

    def part(self, d):
        p = self.parts[0]
        for q in self.parts:
            if d >= q[0]:
                p = q
        return p

    def version(self, d):
        return self.part(d)[3]

    def attrs(self, d, rnd):
        _, pre, post, _, _ = self.part(d)
        if post is None:
            return pre
        return f"{pre}{0x280000000 | rnd(28):x}{post}"

    def attrs_nodevice(self, d):
        return self.part(d)[4]


class Clock:
    """Fast 'yyyy-MM-dd HH:mm:ss +hhmm' formatting with one fixed offset."""

    class _Days(dict):
        def __missing__(self, k):
            v = dt.date.fromordinal(719163 + k).isoformat() + " "
            self[k] = v
            return v

    def __init__(self, off):
        self.off = off
        sign = "+" if off >= 0 else "-"
        a = abs(off) // 60
        self.suffix = f"{sign}{a // 60:02d}{a % 60:02d}"
        suf = " " + self.suffix
        self.hms = [f"{h:02d}:{m:02d}:{s:02d}{suf}" for h in range(24) for m in range(60) for s in range(60)]
        self.days = Clock._Days()

    def make_ts(self):
        off, days, hms = self.off, self.days, self.hms

        def ts(t, off=off, days=days, hms=hms):
            u = t + off
            return days[u // 86400] + hms[u % 86400]
        return ts

    def beat_time(self, t: float) -> str:
        """en_US localized time of day (12 h, AM/PM) with centiseconds, in the export offset."""
        cs = int(round((t + self.off) * 100)) % (86400 * 100)
        s, c = divmod(cs, 100)
        h, rem = divmod(s, 3600)
        m, sec = divmod(rem, 60)
        h12 = h % 12 or 12
        return f"{h12}:{m:02d}:{sec:02d}.{c:02d} {'AM' if h < 12 else 'PM'}"


def utc_z(t: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Bout:
    __slots__ = ("a", "b", "kind", "brisk", "wk", "watch", "phone", "other", "manual", "tag")

    def __init__(self, a, b, kind, brisk=False, tag=""):
        self.a, self.b, self.kind, self.brisk, self.tag = a, b, kind, brisk, tag
        self.wk = None
        self.watch = self.phone = self.other = self.manual = False


class Workout:
    def __init__(self, kind, day, src, style):
        self.kind, self.day, self.src, self.style = kind, day, src, style
        self.bouts = []
        self.steps = 0.0
        self.dist_m = 0.0
        self.kcal = 0.0
        self.hr = []
        self.laps = []          # swim laps (s, e, strokes, style)
        self.route = None       # list of points
        self.route_file = None
        self.strava = False     # a Strava copy exists

    @property
    def a(self):
        return self.bouts[0].a

    @property
    def b(self):
        return self.bouts[-1].b


# ----------------------------------------------------------------------------------------------
# Generator
# ----------------------------------------------------------------------------------------------
class Generator:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.rnd = self.rng.getrandbits
        self.zone = ZoneInfo(args.zone)
        self.N = args.days
        self.start = dt.date.fromisoformat(args.start)
        self.scale = args.scale
        self.M = [self.wall(k, 0) for k in range(self.N + 1)]  # local midnights, day k = [M[k], M[k+1])
        self.range = (self.M[0], self.M[self.N])
        clock = dt.time.fromisoformat(args.export_time)
        export_s = clock.hour * 3600 + clock.minute * 60 + clock.second
        if args.export_date:
            ed = dt.date.fromisoformat(args.export_date)
            self.export_t = self.wall((ed - self.start).days, export_s)
        else:
            self.export_t = self.wall(self.N, export_s)
        off = dt.datetime.fromtimestamp(self.export_t, self.zone).utcoffset()
        self.clock = Clock(int(off.total_seconds()))
        self.ts = self.clock.make_ts()

        v_sw = max(1, self.N * 2 // 5)
        self.watch = Source("Alex\u2019s Apple Watch", LEVEL_WATCH, [(0, "10.3.1"), (v_sw, "10.4")],
                            ("Apple Watch", "Apple Inc.", "Watch", "Watch6,1"))
        self.phone = Source("Alex\u2019s iPhone", LEVEL_PHONE, [(0, "17.3.1"), (v_sw + 1, "17.4")],
                            ("iPhone", "Apple Inc.", "iPhone", "iPhone14,2"))
        self.health = Source("Health", LEVEL_MANUAL, [(0, "17.3.1"), (v_sw + 1, "17.4")])
        self.garmin = Source("Garmin Connect", LEVEL_OTHER, [(0, "5.1.1")])
        self.garmin_vt = Source("Garmin Connect\x0b", LEVEL_OTHER, [(0, "5.1.1")])
        self.strava = Source("Strava", LEVEL_OTHER, [(0, "354.0.1")])
        self.zepp = Source("Zepp Life", LEVEL_OTHER, [(0, "202403011629")])
        self.zepp_vt = Source("Zepp\x0bLife", LEVEL_OTHER, [(0, "202403011629")])
        self.autosleep = Source("AutoSleep", LEVEL_OTHER, [(0, "7.2.1")])
        self.sleepcycle = Source("Sleep Cycle", LEVEL_OTHER, [(0, "6.24.9")])
        self.mfp = Source("MyFitnessPal", LEVEL_OTHER, [(0, "24.10.0")])
        self.onetouch = Source("OneTouch Reveal", LEVEL_OTHER, [(0, "6.4.0")])
        self.omron = Source("OMRON connect", LEVEL_OTHER, [(0, "7.10.0")])

        self.recs = {}            # type -> list of (sortkey, xml string) top-level Records
        self.cum = {}             # type -> list of (s, e, level, std_value)
        self.sleep = []           # (s, e, level, value-suffix) asleep/awake track
        self.n_records = 0
        self.correlations = []    # (key, xml)
        self.workouts = []
        self.workout_xml = []     # (key, xml)
        self.workout_kinds = []   # kind of each Workout element (run/cycle/swim)
        self.summaries = []
        self.misc = []
        self.gpx_files = {}       # name -> text
        self.clinical_files = {}  # name -> text
        self.route_points_inline = 0
        self.route_points_gpx = 0
        self.vt_left = {"garmin": 2, "zepp": 1, "food": 1, "workout": 1} if args.vertical_tabs else {}
        self.stats = {}

    # --- time helpers -------------------------------------------------------------------------
    def wall(self, k, secs):
        """Instant of wall-clock time `secs` after local midnight of day k (k may be <0 or >=N)."""
        kd, s = divmod(int(secs), 86400)
        d = self.start + dt.timedelta(days=k + kd)
        return int(dt.datetime(d.year, d.month, d.day, s // 3600, s % 3600 // 60, s % 60,
                               tzinfo=self.zone).timestamp())

    def day_of(self, t):
        return bisect.bisect_right(self.M, t) - 1

    def date(self, k):
        return self.start + dt.timedelta(days=k)

    # --- record helpers -----------------------------------------------------------------------
    def add(self, typ, key, xml):
        lst = self.recs.get(typ)
        if lst is None:
            lst = self.recs[typ] = []
        lst.append((key, xml))

    def record(self, typ, src, d, unit, value, s, e, c, meta=(), tail="", indent=" ", src_attrs=None):
        a = src_attrs if src_attrs is not None else src.attrs(d, self.rnd)
        u = f' unit="{unit}"' if unit is not None else ""
        ts = self.ts
        x = (f'{indent}<Record type="{typ}" {a}{u} creationDate="{ts(c)}" startDate="{ts(s)}" '
             f'endDate="{ts(e)}" value="{value}"')
        if meta or tail:
            mi = indent + " "
            inner = "".join(f'{mi}<MetadataEntry key="{k}" value="{v}"/>\n' for k, v in meta)
            return x + ">\n" + inner + tail + indent + "</Record>\n"
        return x + "/>\n"

    def emit(self, typ, src, d, unit, value, s, e, c, meta=(), tail="", src_attrs=None):
        self.add(typ, c * 4 + src.level, self.record(typ, src, d, unit, value, s, e, c, meta, tail, " ", src_attrs))

    def emit_cum(self, typ, src, d, unit, v, s, e, c, meta=(), src_attrs=None):
        assert self.range[0] <= s < e <= self.range[1], (typ, s, e)
        vs = g(v)
        lst = self.cum.get(typ)
        if lst is None:
            lst = self.cum[typ] = []
        lst.append((s, e, src.level, float(vs) * TO_STD[unit]))
        self.emit(typ, src, d, unit, vs, s, e, c, meta, "", src_attrs)
        return float(vs) * TO_STD[unit]

    def vt(self, where, p=1.0):
        """Consume one vertical-tab injection (per place) if --vertical-tabs is on. No rng use,
        so the output is otherwise identical with and without the flag."""
        if self.vt_left.get(where, 0) > 0 and p:
            self.vt_left[where] -= 1
            return True
        return False

    def uuid(self):
        r = self.rnd(128)
        h = f"{r:032X}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89AB'[r & 3]}{h[17:20]}-{h[20:]}"

    def units_for_day(self, d):
        dist = "km" if (d // 10) % 2 == 0 else "mi"
        energy = "kJ" if (d // 7) % 3 == 1 else "kcal"
        return dist, energy

    # ------------------------------------------------------------------------------------------
    def plan(self):
        rng, N = self.rng, self.N
        self.nonwatch_night = {k for k in range(N) if k % 5 == 3}
        self.watchless_day = {k for k in range(N) if k % 11 == 7}
        self.midnight_walk = {k for k in range(N - 1) if k % 8 == 5 and k not in self.watchless_day}
        self.run_days = {k for k in range(N) if k % 3 == 1 and k not in self.watchless_day}
        self.cycle_days = {k for k in range(N) if k % 7 == 4}
        if self.watchless_day and not (self.cycle_days & self.watchless_day):
            self.cycle_days.add(sorted(self.watchless_day)[min(1, len(self.watchless_day) - 1)])
        self.swim_days = {k for k in range(N) if k % 7 == 5 and k not in self.watchless_day
                          and k not in self.run_days and k not in self.cycle_days}
        self.manual_quiet_day = 4 if N > 4 else None
        self.manual_cover_day = 11 if N > 11 else None

        self.bed, self.wake = [], []
        for k in range(N + 1):
            forced_late = (k - 1) in self.midnight_walk
            if forced_late or rng.random() < 0.15:
                bed = self.wall(k, rng.randint(35 * 60 if forced_late else 5 * 60, 55 * 60))
            else:
                bed = self.wall(k - 1, rng.randint(22 * 3600 + 10 * 60, 23 * 3600 + 50 * 60))
            weekend = self.date(k).weekday() >= 5
            w = rng.randint(7 * 3600 + 20 * 60, 8 * 3600 + 50 * 60) if weekend else rng.randint(6 * 3600 + 10 * 60, 7 * 3600 + 30 * 60)
            self.bed.append(bed)
            self.wake.append(self.wall(k, w))

        notworn = []
        self.charge = {}
        for k in range(N):
            if k in self.nonwatch_night:
                notworn.append((self.bed[k], self.wake[k]))
            if k in self.watchless_day:
                notworn.append((self.wake[k], self.bed[k + 1]))
            elif k not in self.nonwatch_night:
                cs = self.wake[k] + rng.randint(5 * 60, 15 * 60)
                ce = cs + rng.randint(30 * 60, 50 * 60)
                self.charge[k] = (cs, ce)
                notworn.append((cs, ce))
        R0, RN = self.range
        self.W = interval_subtract([(R0, RN)], notworn)
        self.nights = [(self.bed[k], self.wake[k]) for k in range(N + 1)]
        self.AW = interval_subtract(self.W, self.nights)
        self.notworn = interval_union(notworn)

    def make_bouts(self):
        rng, N = self.rng, self.N
        self.bouts = []
        RN = self.range[1]
        W = self.W
        for k in range(N):
            A = self.wake[k] + 600
            B = min(self.bed[k + 1], RN) - 600
            weekend = self.date(k).weekday() >= 5
            cands = []
            m = 60
            watchless = k in self.watchless_day
            if k == self.manual_quiet_day and k in self.charge:
                cs, ce = self.charge[k]
                if ce - cs >= 20 * m:
                    cands.append(("manual", cs + 4 * m, ce - 4 * m, False, "manual-quiet"))
            if k in self.run_days:
                st = self.wall(k, 9 * 3600 + 30 * m + rng.randint(0, 40 * m)) if weekend else \
                    self.wall(k, 18 * 3600 + 45 * m + rng.randint(0, 30 * m))
                cands.append(("run", st, st + rng.randint(25 * m, 50 * m), True, "run"))
            if k in self.cycle_days:
                st = self.wall(k, 16 * 3600 + 30 * m + rng.randint(0, 60 * m))
                cands.append(("cycle", st, st + rng.randint(35 * m, 80 * m), True, "cycle"))
            if k in self.swim_days:
                st = self.wall(k, 19 * 3600 + 30 * m + rng.randint(0, 30 * m))
                cands.append(("swim", st, st + rng.randint(30 * m, 45 * m), True, "swim"))
            if k in self.midnight_walk:
                st = self.wall(k, 23 * 3600 + 44 * m + rng.randint(0, 6 * m))
                cands.append(("walk", st, st + rng.randint(18 * m, 26 * m), True, "midnight-walk"))
            if not weekend:
                st = self.wall(k, 8 * 3600 + rng.randint(-15 * m, 20 * m))
                cands.append(("walk", st, st + rng.randint(15 * m, 25 * m), rng.random() < 0.5, "commute-am"))
                st = self.wall(k, 17 * 3600 + 30 * m + rng.randint(-20 * m, 30 * m))
                cands.append(("walk", st, st + rng.randint(15 * m, 25 * m), rng.random() < 0.5, "commute-pm"))
            elif rng.random() < 0.7:
                st = self.wall(k, 10 * 3600 + rng.randint(0, 60 * m))
                cands.append(("walk", st, st + rng.randint(45 * m, 90 * m), True, "long-walk"))
            if rng.random() < 0.7:
                st = self.wall(k, 12 * 3600 + 15 * m + rng.randint(0, 40 * m))
                cands.append(("walk", st, st + rng.randint(10 * m, 30 * m), False, "lunch"))
            for _ in range(rng.randint(4, 10)):
                if B - A < 600:
                    break
                st = rng.randint(A, B - 60)
                cands.append(("walk", st, st + rng.randint(60, 480), False, "short"))

            accepted = []
            for kind, a, b, brisk, tag in cands:
                lo = A if tag != "manual-quiet" else self.wake[k]
                if a < lo or b > B:
                    continue
                if any(a < y + 120 and b > x - 120 for x, y in accepted):
                    continue
                in_w = covers(W, a, b)
                # never straddle a worn / not-worn boundary: either fully captured or not at all
                if not in_w and any(a < y and b > x for x, y in W):
                    continue
                if kind in ("run", "swim") and not in_w:
                    continue
                if kind == "cycle" and not in_w and not watchless:
                    continue
                if tag == "manual-quiet" and in_w:
                    continue
                accepted.append((a, b))
                bt = Bout(a, b, kind, brisk, tag)
                bt.watch = in_w and kind != "manual"
                if kind == "walk":
                    bt.phone = rng.random() < 0.8
                    bt.other = watchless
                elif kind == "run":
                    bt.phone = rng.random() < 0.3
                elif kind == "manual":
                    bt.manual = True
                self.bouts.append((k, bt))
        self.bouts.sort(key=lambda kb: kb[1].a)
        # manual entry fully covering a watch-captured bout (manual > watch > phone)
        if self.manual_cover_day is not None:
            for k, bt in self.bouts:
                if k == self.manual_cover_day and bt.kind == "walk" and bt.watch and bt.b - bt.a >= 600:
                    bt.manual = True
                    break

    # ------------------------------------------------------------------------------------------
    def chunks(self, a, b, lo, hi):
        R = self.rng.random
        out = []
        t = a
        lo = max(1, int(lo))
        hi = max(lo, int(hi))
        span = hi - lo + 1
        while t < b:
            e = t + lo + int(R() * span)
            if e > b or b - e < lo // 2:
                e = b
            out.append((t, e))
            t = e
        return out

    def gen_workouts_and_bouts(self):
        """Samples for every movement bout (steps, distance, active energy, exercise) + Workouts."""
        rng = self.rng
        sc = self.scale
        wlo, whi = max(10, 120 / sc), max(20, 600 / sc)
        run_i = 0
        # paused runs: split the bout in two around a pause
        new_bouts = []
        for k, bt in self.bouts:
            if bt.kind in ("run", "cycle", "swim"):
                if bt.kind == "cycle" and not bt.watch:
                    wk = Workout("cycle", k, self.strava, "old")
                    wk.strava = True
                    bt.wk = wk
                    wk.bouts.append(bt)
                    self.workouts.append(wk)
                    new_bouts.append((k, bt))
                    continue
                if bt.kind == "run":
                    style = "old" if run_i % 3 == 1 else "new"
                    run_i += 1
                elif bt.kind == "swim":
                    style = "old" if sum(1 for w in self.workouts if w.kind == "swim") % 3 == 1 else "new"
                else:
                    style = "new"
                wk = Workout(bt.kind, k, self.watch, style)
                if bt.kind == "run" and (style == "new" or rng.random() < 0.5) and bt.b - bt.a > 20 * 60:
                    p = bt.a + int((bt.b - bt.a) * rng.uniform(0.4, 0.6))
                    r = p + rng.randint(60, 180)
                    b2 = Bout(r, bt.b, "run", True, "run")
                    bt.b = p
                    for x in (bt, b2):
                        x.watch, x.phone, x.wk = True, bt.phone, wk
                        wk.bouts.append(x)
                        new_bouts.append((k, x))
                else:
                    bt.wk = wk
                    wk.bouts.append(bt)
                    new_bouts.append((k, bt))
                if bt.kind == "cycle":  # Strava also records the first Watch ride and about half of the others
                    wk.strava = rng.random() < 0.5 or not any(w.kind == "cycle" and w.src is self.watch for w in self.workouts)
                self.workouts.append(wk)
            else:
                new_bouts.append((k, bt))
        self.bouts = sorted(new_bouts, key=lambda kb: kb[1].a)

        watch, phone, garmin, health, strava = self.watch, self.phone, self.garmin, self.health, self.strava
        emit_cum = self.emit_cum
        micro_every = 5
        n_walk_watch = 0
        for k, bt in self.bouts:
            du, eu = self.units_for_day(k)
            a, b = bt.a, bt.b
            wk = bt.wk
            if bt.kind in ("walk", "run"):
                run = bt.kind == "run"
                cad, stride, rate = (165, 1.08, 11.5) if run else (106, 0.74, 4.6)
                if bt.watch:
                    n_walk_watch += 1
                    ch = self.chunks(a, b, wlo, whi)
                    micro = (not run) and n_walk_watch % micro_every == 0 and ch[-1][1] - ch[-1][0] > 2
                    R = rng.random
                    for i, (s, e) in enumerate(ch):
                        dur = e - s
                        st = max(1, round(cad * dur / 60 * (0.92 + 0.16 * R())))
                        dist = st * stride * (0.96 + 0.08 * R())
                        c = e + 2 + int(R() * 238)
                        v = emit_cum(STEPS, watch, k, "count", st, s, e, c)
                        if wk:
                            wk.steps += v
                        if micro and i == len(ch) - 1:
                            dv = emit_cum(DWR, watch, k, du, dist / TO_STD[du], s, e - 1, c)
                            tiny = rng.uniform(0.06, 0.15)
                            dv += emit_cum(DWR, watch, k, "mi" if du == "mi" else "km", tiny / 1609.344 if du == "mi" else tiny / 1000, e - 1, e, c)
                        else:
                            dv = emit_cum(DWR, watch, k, du, dist / TO_STD[du], s, e, c)
                        ev = emit_cum(AEB, watch, k, eu, rate * dur / 60 * (0.9 + 0.2 * R()) / TO_STD[eu], s, e, c)
                        if wk:
                            wk.dist_m += dv
                            wk.kcal += ev
                if bt.phone:
                    for s, e in self.chunks(a, b, 120, 600):
                        dur = e - s
                        st = max(1, round(cad * dur / 60 * rng.uniform(0.85, 1.1)))
                        c = e + rng.randint(1, 30)
                        emit_cum(STEPS, phone, k, "count", st, s, e, c)
                        emit_cum(DWR, phone, k, "m", st * stride * rng.uniform(0.9, 1.1), s, e, c)
                        emit_cum(AEB, phone, k, "Cal", rate * dur / 60 * rng.uniform(0.8, 1.1), s, e, c)
                if bt.other:
                    for s, e in self.chunks(a, b, 300, 900):
                        dur = e - s
                        st = max(1, round(cad * dur / 60 * rng.uniform(0.9, 1.05)))
                        c = e + rng.randint(600, 3600)
                        sa = self.garmin_vt.attrs(k, self.rnd) if self.vt("garmin") else None
                        emit_cum(STEPS, garmin, k, "count", st, s, e, c, src_attrs=sa)
                        emit_cum(DWR, garmin, k, "km", st * stride / 1000 * rng.uniform(0.95, 1.05), s, e, c)
                        emit_cum(AEB, garmin, k, "kcal", rate * dur / 60 * rng.uniform(0.9, 1.1), s, e, c)
                if bt.manual:
                    dur = b - a
                    st = int(round(cad * dur / 60 * rng.uniform(0.9, 1.1), -1))
                    c = b + rng.randint(3600, 4 * 3600)
                    meta = (("HKWasUserEntered", "1"),)
                    emit_cum(STEPS, health, k, "count", st, a, b, c, meta)
                    emit_cum(DWR, health, k, "mi", round(st * stride / 1609.344, 2), a, b, c, meta)
            elif bt.kind == "manual":
                dur = b - a
                st = int(round(106 * dur / 60 * rng.uniform(0.9, 1.1), -1))
                c = b + rng.randint(3600, 4 * 3600)
                meta = (("HKWasUserEntered", "1"),)
                emit_cum(STEPS, health, k, "count", st, a, b, c, meta)
                emit_cum(DWR, health, k, "mi", round(st * 0.74 / 1609.344, 2), a, b, c, meta)
            elif bt.kind == "cycle":
                if bt.watch:
                    R = rng.random
                    for s, e in self.chunks(a, b, wlo, whi):
                        dur = e - s
                        c = e + 2 + int(R() * 238)
                        wk.dist_m += emit_cum(DCYC, watch, k, du, 6.4 * dur * (0.85 + 0.3 * R()) / TO_STD[du], s, e, c)
                        wk.kcal += emit_cum(AEB, watch, k, eu, 9.0 * dur / 60 * (0.9 + 0.2 * R()) / TO_STD[eu], s, e, c)
                if wk.strava:
                    c = b + rng.randint(300, 3600)
                    dist = 6.3 * (b - a) * rng.uniform(0.95, 1.05)
                    wk.strava_dist = emit_cum(DCYC, strava, k, "km", dist / 1000, a, b, c)
                    wk.strava_kcal = emit_cum(AEB, strava, k, "kJ", 8.5 * (b - a) / 60 * 4.184, a, b, c)
                    if not bt.watch:
                        wk.dist_m, wk.kcal = wk.strava_dist, wk.strava_kcal
            elif bt.kind == "swim":
                t = a + rng.randint(30, 90)
                lap_i = 0
                while True:
                    ld = rng.randint(36, 52)
                    if t + ld > b - 30:
                        break
                    strokes = rng.randint(15, 22)
                    c = t + ld + rng.randint(2, 120)
                    wk.dist_m += emit_cum(DSWIM, watch, k, "m", 25, t, t + ld, c)
                    emit_cum(STROKES, watch, k, "count", strokes, t, t + ld, c)
                    wk.laps.append((t, t + ld, strokes))
                    lap_i += 1
                    t += ld + (rng.randint(15, 60) if lap_i % 4 == 0 else rng.randint(0, 5))
                for s, e in self.chunks(a, b, wlo, whi):
                    dur = e - s
                    wk.kcal += emit_cum(AEB, watch, k, eu, 8.8 * dur / 60 * rng.uniform(0.9, 1.1) / TO_STD[eu], s, e, e + rng.randint(2, 240))
            # exercise minutes (watch): 1-min samples on the minute grid
            if bt.watch and (bt.brisk or bt.kind in ("run", "cycle", "swim")):
                m0 = -(-(a + self.clock.off) // 60) * 60 - self.clock.off
                while m0 + 60 <= b:
                    emit_cum(EXER, watch, k, "min", 1, m0, m0 + 60, m0 + 60 + rng.randint(1, 90))
                    m0 += 60
        # idle active energy (watch), awake & worn, split at watch-captured bouts
        holes = [(bt.a, bt.b) for _, bt in self.bouts if bt.watch]
        idle = interval_subtract(self.AW, holes)
        for s0, e0 in idle:
            for s, e in self.chunks(s0, e0, 1800, 5400):
                k = self.day_of(s)
                eu = self.units_for_day(k)[1]
                emit_cum(AEB, watch, k, eu, rng.uniform(0.15, 0.9) * (e - s) / 60 / TO_STD[eu], s, e, e + rng.randint(2, 400))
        # basal energy (watch) across all worn time, garmin on watchless awake windows
        for s0, e0 in self.W:
            for s, e in self.chunks(s0, e0, 2700, 5400):
                k = self.day_of(s)
                eu = self.units_for_day(k)[1]
                emit_cum(BEB, watch, k, eu, rng.uniform(1.0, 1.2) * (e - s) / 60 / TO_STD[eu], s, e, e + rng.randint(2, 400))
        for k in sorted(self.watchless_day):
            for s, e in self.chunks(self.wake[k], min(self.bed[k + 1], self.range[1]), 1800, 3600):
                emit_cum(BEB, garmin, k, "kcal", rng.uniform(1.0, 1.15) * (e - s) / 60, s, e, e + rng.randint(600, 3600))

    def gen_flights_stand(self):
        rng = self.rng
        W, AW = self.W, self.AW
        for k in range(self.N):
            A = self.wake[k] + 900
            B = min(self.bed[k + 1], self.range[1]) - 900
            if B - A < 3600:
                continue
            taken = []
            for _ in range(rng.randint(2, 8)):
                s = rng.randint(A, B - 120)
                e = s + rng.randint(12, 60)
                if any(s < y + 60 and e > x - 60 for x, y in taken):
                    continue
                in_w = covers(W, s, e)
                if not in_w and any(s < y and e > x for x, y in W):
                    continue
                taken.append((s, e))
                fl = rng.randint(1, 3)
                if in_w:
                    emit_v = max(1, fl + rng.choice((0, 0, 0, 1, -1)))
                    self.emit_cum(FLIGHTS, self.watch, k, "count", emit_v, s, e, e + rng.randint(2, 300))
                if rng.random() < 0.85:
                    self.emit_cum(FLIGHTS, self.phone, k, "count", fl, s, e, e + rng.randint(1, 30))
                elif k in self.watchless_day and rng.random() < 0.7:
                    self.emit_cum(FLIGHTS, self.garmin, k, "count", fl, s, e, e + rng.randint(600, 3600))
            # stand hours + stand minutes
            for h in range(7, 23):
                t0 = self.wall(k, h * 3600)
                t1 = self.wall(k, (h + 1) * 3600)
                if not covers(AW, t0, t1):
                    continue
                stood = rng.random() < 0.78
                self.emit(STANDH, self.watch, k, None,
                          "HKCategoryValueAppleStandHourStood" if stood else "HKCategoryValueAppleStandHourIdle",
                          t0, t1, t1 + rng.randint(5, 600))
                self.stand_hours[k] += 1 if stood else 0
                if stood:
                    t = t0 + rng.randint(0, 1200)
                    for _ in range(rng.randint(1, 2)):
                        d = rng.randint(60, 300)
                        if t + d > t1:
                            break
                        self.emit_cum(STAND, self.watch, k, "min", max(1, d // 60 - rng.randint(0, 1)), t, t + d, t + d + rng.randint(2, 300))
                        t += d + rng.randint(300, 1500)
        # a stand sample crossing local midnight on midnight-walk days
        for k, bt in self.bouts:
            if bt.tag == "midnight-walk" and bt.watch:
                mid = self.M[k + 1]
                if covers(AW, mid - 100, mid + 140):
                    self.emit_cum(STAND, self.watch, k, "min", 3, mid - 100, mid + 140, mid + 400)

    # ------------------------------------------------------------------------------------------
    def gen_sleep(self):
        rng = self.rng
        for k in range(self.N):
            bed, wake = self.bed[k], self.wake[k]
            kk = max(0, k)
            ph_attrs = self.phone.attrs(kk, self.rnd)
            self.emit(SLEEP, self.phone, kk, None, SV + "InBed", bed, wake + rng.randint(0, 300),
                      wake + rng.randint(300, 900), src_attrs=ph_attrs)
            if k not in self.nonwatch_night:
                onset = bed + rng.randint(5 * 60, 25 * 60)
                final = wake - rng.randint(0, 6 * 60)
                t, cyc = onset, 0
                stages = []
                while t < final:
                    seq = [("AsleepCore", rng.uniform(10, 25)),
                           ("AsleepDeep", rng.uniform(25, 45) if cyc < 2 else rng.uniform(5, 20)),
                           ("AsleepCore", rng.uniform(10, 30)),
                           ("AsleepREM", rng.uniform(8, 18) + cyc * 6)]
                    if rng.random() < 0.35:
                        seq.append(("Awake", rng.uniform(1, 5)))
                    for name, mins in seq:
                        e = min(t + max(60, int(mins * 60) + rng.randint(-30, 30)), final)
                        if e > t:
                            stages.append((t, e, name))
                        t = e
                        if t >= final:
                            break
                    cyc += 1
                if wake > final:
                    stages.append((final, wake, "Awake"))
                meta = (("HKTimeZone", self.args.zone),)
                for s, e, name in stages:
                    self.sleep.append((s, e, LEVEL_WATCH, name))
                    self.emit(SLEEP, self.watch, k, None, SV + name, s, e, wake + rng.randint(60, 900), meta)
                if rng.random() < 0.3:  # AutoSleep copy, fully inside the watch session -> shadowed
                    s, e = onset + 120, final - 180
                    c = wake + rng.randint(1800, 7200)
                    self.sleep.append((s, e, LEVEL_OTHER, "AsleepUnspecified"))
                    self.emit(SLEEP, self.autosleep, k, None, SV + "AsleepUnspecified", s, e, c)
                    self.emit(SLEEP, self.autosleep, k, None, SV + "InBed", bed - 60, wake + 60, c)
            else:  # older style night (no watch): Sleep Cycle writes InBed + AsleepUnspecified blocks
                onset = bed + rng.randint(10 * 60, 30 * 60)
                end = wake - rng.randint(0, 10 * 60)
                cuts = []
                lo = onset + 3600
                for _ in range(rng.randint(1, 2)):
                    if end - 3600 - lo < 600:
                        break
                    cuts.append(rng.randint(lo, end - 3600))
                    lo = cuts[-1] + 3600
                nb = len(cuts) + 1
                edges = [onset] + cuts + [end]
                c = wake + rng.randint(60, 600)
                self.emit(SLEEP, self.sleepcycle, k, None, SV + "InBed", bed, wake, c)
                for i in range(nb):
                    s = edges[i] + (rng.randint(3 * 60, 15 * 60) if i else 0)
                    e = edges[i + 1]
                    self.sleep.append((s, e, LEVEL_OTHER, "AsleepUnspecified"))
                    self.emit(SLEEP, self.sleepcycle, k, None, SV + "AsleepUnspecified", s, e, c)
        # manual naps on both sides of 18:00 and one afternoon nap: each ends on the wake-up day of a
        # longer night, so each is a nap of that night (docs/sleep-nights.md)
        naps = [(9, 17 * 3600 + 40 * 60, 45), (15, 18 * 3600 + 20 * 60, 35), (12, 14 * 3600 + 10 * 60, 40)]
        for k, st, mins in naps:
            if k >= self.N:
                continue
            s = self.wall(k, st + rng.randint(0, 120))
            e = s + mins * 60
            self.sleep.append((s, e, LEVEL_MANUAL, "AsleepUnspecified"))
            self.emit(SLEEP, self.health, k, None, SV + "AsleepUnspecified", s, e, e + rng.randint(600, 5400),
                      (("HKWasUserEntered", "1"),))

    # ------------------------------------------------------------------------------------------
    def gen_heart(self):
        """Heart rate from the watch (dense; --scale), HRV with beat lists, resting/walking HR."""
        rng = self.rng
        rnd = self.rnd
        ts = self.ts
        sc = self.scale
        base = max(20.0, 1500.0 / sc)
        wstep = max(5.0, 60.0 / sc)
        lst = self.recs.setdefault(HR, [])
        bouts = [bt for _, bt in self.bouts if bt.watch]
        nights = self.nights
        M = self.M
        n = 0
        bi = 0
        ni = 0
        for s0, e0 in self.W:
            t = s0 + rng.randint(0, int(base))
            d = self.day_of(t)
            _, pre, post, _, _ = self.watch.part(d)
            head = f' <Record type="{HR}" {pre}'
            tail = f'{post} unit="count/min" creationDate="'
            R = rng.random
            append = lst.append
            nb, nn, nM = len(bouts), len(nights), len(M)
            tails = ('">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n',
                     '">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>\n </Record>\n',
                     '">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="2"/>\n </Record>\n')
            while t < e0:
                while d + 1 < nM and t >= M[d + 1]:
                    d += 1
                    _, pre, post, _, _ = self.watch.part(d)
                    head = f' <Record type="{HR}" {pre}'
                    tail = f'{post} unit="count/min" creationDate="'
                while bi < nb and bouts[bi].b <= t:
                    bi += 1
                while ni < nn and nights[ni][1] <= t:
                    ni += 1
                bt = bouts[bi] if bi < nb and bouts[bi].a <= t else None
                if bt is not None:
                    kind = bt.kind
                    if kind == "run":
                        v = int(124 + min(40, (t - bt.a) / 60) + 11 * R())
                    elif kind == "cycle":
                        v = 118 + int(35 * R())
                    elif kind == "swim":
                        v = 108 + int(35 * R())
                    else:
                        v = 92 + int(25 * R())
                    ctx = 2
                    if bt.wk is not None:
                        step = wstep
                        bt.wk.hr.append(v)
                    else:
                        step = base * 0.5
                elif ni < nn and nights[ni][0] <= t:
                    v = 49 + int(13 * R())
                    ctx = 0
                    step = base * 1.5
                else:
                    v = 62 + int(23 * R())
                    ctx = 1
                    step = base
                c = t + 1 + int(400 * R())
                st = ts(t)
                append((c * 4 + 1,
                        f'{head}{0x280000000 | rnd(28):x}{tail}{ts(c)}" startDate="{st}" endDate="{st}" value="{v}{tails[ctx]}'))
                n += 1
                t += max(5, int(step * (0.75 + 0.5 * R())))
        self.stats["heart_rate_records"] = n

        # HRV with beat lists, 2-4 per day during worn time (prefer night)
        special_done = False
        for k in range(self.N):
            times = []
            night = (self.bed[k], self.wake[k])
            for _ in range(rng.randint(2, 3)):
                if rng.random() < 0.5:
                    t = rng.randint(night[0] + 1800, max(night[0] + 1801, night[1] - 1800))
                else:
                    t = rng.randint(self.M[k] + 8 * 3600, self.M[k] + 22 * 3600)
                times.append(t)
            if not special_done and k >= 2:
                # one HRV session whose beat list crosses midnight of the printed (export-offset) clock
                off = self.clock.off
                t = ((self.M[k] + off) // 86400 + 1) * 86400 - off - 20
                if t + 70 <= self.range[1] and covers(self.W, t, t + 70):
                    times.append(t)
                    special_done = True
                    self.stats["hrv_midnight_wrap"] = ts(t)
            for t in times:
                if t + 70 > self.range[1] or t < self.range[0] or not covers(self.W, t, t + 70):
                    continue
                bpm0 = rng.randint(54, 72)
                beats = []
                bt = float(t) + rng.uniform(0.5, 2.0)
                for _ in range(rng.randint(20, 36)):
                    b = bpm0 + rng.randint(-4, 4)
                    beats.append(f'   <InstantaneousBeatsPerMinute bpm="{b}" time="{self.clock.beat_time(bt)}"/>\n')
                    bt += 60.0 / b * rng.choice((1, 1, 2))
                e = int(bt) + 1
                tail = "  <HeartRateVariabilityMetadataList>\n" + "".join(beats) + "  </HeartRateVariabilityMetadataList>\n"
                self.emit(HRV, self.watch, k, "ms", g(rng.uniform(22, 78)), t, e, e + rng.randint(5, 600), (), tail)
            if k not in self.watchless_day:
                s = self.wake[k] + rng.randint(600, 3600)
                e = self.wall(k, 22 * 3600 + rng.randint(0, 3000))
                if e < self.range[1]:
                    self.emit(RHR, self.watch, k, "count/min", str(rng.randint(52, 61)), s, e, e + rng.randint(60, 600))
                    self.emit(WHR, self.watch, k, "count/min", str(rng.randint(96, 112)), s, e, e + rng.randint(60, 600))
            if k not in self.nonwatch_night:
                b0, w0 = self.nights[k]
                for _ in range(rng.randint(3, 6)):
                    t = rng.randint(b0 + 1800, w0 - 600)
                    if self.range[0] <= t:
                        self.emit(SPO2, self.watch, k, "%", g(rng.randint(93, 99) / 100), t, t, t + rng.randint(60, 900))
                for _ in range(rng.randint(4, 7)):
                    t = rng.randint(b0 + 1200, w0 - 600)
                    if self.range[0] <= t:
                        self.emit(RESP, self.watch, k, "count/min", g(rng.choice((13, 13.5, 14, 14.5, 15, 15.5, 16, 17))), t, t + 1800, t + 1900)

    # ------------------------------------------------------------------------------------------
    def gen_discrete(self):
        """Body measurements, glucose, BP/Food correlations, symptoms, VO2max; other top-level."""
        rng = self.rng
        health = self.health
        UE = (("HKWasUserEntered", "1"),)
        for k in range(self.N):
            if k == 0:
                t = self.wall(k, 20 * 3600 + 5 * 60)
                self.emit(HEIGHT, health, k, "cm", "172", t, t, t + 40, UE)
            if k % 7 == 0:
                t = self.wake[k] + rng.randint(300, 1500)
                self.emit(MASS, health, k, "lb", g(round(rng.uniform(150.5, 153.5), 1)), t, t, t + rng.randint(30, 900), UE)
            if k % 2 == 1:
                t = self.wake[k] + rng.randint(200, 1200)
                kg = round(rng.uniform(68.3, 69.6), 2)
                src = self.zepp_vt if self.vt("zepp", k > 6) else self.zepp
                self.emit(MASS, src, k, "kg", g(kg), t, t, t + rng.randint(3600, 20000))
                self.emit(BMI, self.zepp, k, "count", g(round(kg / 1.72 ** 2, 4)), t, t, t + rng.randint(3600, 20000))
            if k % 10 == 3:
                t = self.wake[k] + rng.randint(600, 2400)
                self.emit(TEMP, health, k, "degF", g(round(rng.uniform(97.6, 99.4), 1)), t, t, t + 120, UE)
            if k % 5 == 0:
                t = self.wake[k] + rng.randint(600, 1800)
                self.emit(GLU, health, k, GLUCOSE_MMOL, g(round(rng.uniform(4.6, 5.6), 2)), t, t, t + 600,
                          UE + (("HKBloodGlucoseMealTime", "1"),))
                t = self.wall(k, 13 * 3600 + 40 * 60 + rng.randint(0, 1800))
                self.emit(GLU, health, k, GLUCOSE_MMOL, g(round(rng.uniform(5.8, 7.6), 2)), t, t, t + 900,
                          UE + (("HKBloodGlucoseMealTime", "2"),))
            if k % 5 == 2:
                t = self.wall(k, 7 * 3600 + 50 * 60 + rng.randint(0, 1800))
                self.emit(GLU, self.onetouch, k, "mg/dL", str(rng.randint(84, 104)), t, t, t + rng.randint(60, 7200))
            if k == 6:
                s = self.wall(k, 15 * 3600 + 10 * 60)
                self.emit(HEADACHE, health, k, None, "HKCategoryValueSeverityModerate", s, s + 2 * 3600, s + 2 * 3600 + 300, UE)
            if k % 6 == 1:
                self.blood_pressure(k, health if k % 12 == 1 else self.omron)
            if k % 4 == 2:
                self.food(k)
        for wk in self.workouts:
            if wk.kind == "run" and wk.src is self.watch:
                t = wk.b + rng.randint(60, 900)
                if t < self.range[1]:
                    self.emit(VO2, self.watch, wk.day, VO2_UNIT, g(round(rng.uniform(41, 46), 2)), t, t, t + 2,
                              (("HKVO2MaxTestType", "2"),))

    def blood_pressure(self, k, src):
        rng, ts = self.rng, self.ts
        t = self.wall(k, 7 * 3600 + 20 * 60 + rng.randint(0, 3600))
        c = t + rng.randint(30, 3 * 3600)
        manual = src is self.health
        meta = (("HKWasUserEntered", "1"),) if manual else (("HKMetadataKeyDeviceSerialNumber", "20140700123"),)
        sa = src.attrs(k, self.rnd)
        recs = []
        for typ, v in ((SYS, rng.randint(112, 134)), (DIA, rng.randint(70, 86))):
            top = self.record(typ, src, k, "mmHg", str(v), t, t, c, meta, "", " ", sa)
            child = self.record(typ, src, k, "mmHg", str(v), t, t, c, meta, "", "  ", sa)
            self.add(typ, c * 4 + src.level, top)
            recs.append(child)
        me = "".join(f'  <MetadataEntry key="{a}" value="{b}"/>\n' for a, b in meta)
        x = (f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" {sa} creationDate="{ts(c)}" '
             f'startDate="{ts(t)}" endDate="{ts(t)}">\n{me}{"".join(recs)} </Correlation>\n')
        self.correlations.append((t, x))

    FOODS = ["Spaghetti Bolognese", "Caesar Salad", "Lentil & Couscous Salad", "Müsli mit Joghurt",
             "Chicken Tikka Masala", "Bagel, Lox And Avocado", "Brezel \"XXL\"", "Pizza Margherita"]

    def food(self, k):
        rng, ts = self.rng, self.ts
        src = self.mfp
        t = self.wall(k, 12 * 3600 + 30 * 60)
        c = self.wall(k, 21 * 3600 + rng.randint(0, 3000))
        name = rng.choice(self.FOODS)
        if self.vt("food", " " in name):
            name = name.replace(" ", "\x0b", 1)
        fe = esc(name)
        meta = (("HKFoodType", fe), ("Meal", "Lunch"))
        sa = src.attrs_nodevice(k)
        kcal = rng.randint(380, 820)
        recs = []
        for typ, unit, v in ((D_KCAL, "kcal", kcal), (D_PROT, "g", round(kcal * rng.uniform(0.03, 0.06), 1)),
                             (D_CARB, "g", round(kcal * rng.uniform(0.09, 0.14), 1)), (D_FAT, "g", round(kcal * rng.uniform(0.02, 0.05), 1))):
            self.add(typ, c * 4 + src.level, self.record(typ, src, k, unit, g(v), t, t, c, meta, "", " ", sa))
            recs.append(self.record(typ, src, k, unit, g(v), t, t, c, meta, "", "  ", sa))
        me = "".join(f'  <MetadataEntry key="{a}" value="{b}"/>\n' for a, b in (("HKWasUserEntered", "1"),) + meta)
        x = (f' <Correlation type="HKCorrelationTypeIdentifierFood" {sa} creationDate="{ts(c)}" '
             f'startDate="{ts(t)}" endDate="{ts(t)}">\n{me}{"".join(recs)} </Correlation>\n')
        self.correlations.append((t, x))

    # ------------------------------------------------------------------------------------------
    def make_route(self, wk):
        """GPS track, 1 point per second while moving. Uses its own RNG so that GPX files are
        generated lazily (only for zip/folder layouts) without changing anything else."""
        rng = random.Random(f"{self.args.seed}/route/{wk.idx}")
        lat = 52.5163 + rng.uniform(-0.03, 0.03)
        lon = 13.3777 + rng.uniform(-0.05, 0.05)
        ele = rng.uniform(34, 48)
        course = rng.uniform(0, 360)
        base_v = {"run": 2.9, "cycle": 6.4}[wk.kind]
        pts = []
        for bt in wk.bouts:
            for t in range(bt.a, bt.b + 1):
                v = max(0.5, base_v * rng.uniform(0.85, 1.15))
                course = (course + rng.uniform(-8, 8)) % 360
                r = math.radians(course)
                lat += v * math.cos(r) / 111320.0
                lon += v * math.sin(r) / (111320.0 * math.cos(math.radians(lat)))
                ele += rng.uniform(-0.25, 0.25)
                pts.append((t, lat, lon, ele, v, course, rng.uniform(1.1, 4.5), rng.uniform(0.7, 3.2)))
        return pts

    def route_name(self, t_end):
        d = dt.datetime.fromtimestamp(t_end, self.zone)
        h12 = d.hour % 12 or 12
        return f"{d.date().isoformat()}_{h12}.{d.minute:02d}{'am' if d.hour < 12 else 'pm'}", \
            f"{d.date().isoformat()} {h12}:{d.minute:02d}{'am' if d.hour < 12 else 'pm'}"

    def gpx_text(self, pts, title):
        lines = ['<?xml version="1.0" encoding="UTF-8"?>\n',
                 '<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 '
                 'http://www.topografix.com/GPX/1/1/gpx.xsd">\n',
                 f"  <metadata>\n    <time>{utc_z(self.export_t)}</time>\n  </metadata>\n",
                 f"  <trk>\n    <name>Route {title}</name>\n    <trkseg>\n"]
        for t, lat, lon, ele, v, course, ha, va in pts:
            lines.append(f'      <trkpt lon="{lon:.6f}" lat="{lat:.6f}"><ele>{ele:.6f}</ele><time>{utc_z(t)}</time>'
                         f'<extensions><speed>{v:.6f}</speed><course>{course:.6f}</course><hAcc>{ha:.6f}</hAcc>'
                         f'<vAcc>{va:.6f}</vAcc></extensions></trkpt>\n')
        lines.append("    </trkseg>\n  </trk>\n</gpx>\n")
        return "".join(lines)

    def build_workouts(self):
        rng, ts = self.rng, self.ts
        ACT = {"run": "HKWorkoutActivityTypeRunning", "cycle": "HKWorkoutActivityTypeCycling",
               "swim": "HKWorkoutActivityTypeSwimming"}
        for idx, wk in enumerate(self.workouts):
            wk.idx = idx
            k = wk.day
            a, b = wk.a, wk.b
            moving = sum(bt.b - bt.a for bt in wk.bouts)
            pauses = [(wk.bouts[i].b, wk.bouts[i + 1].a) for i in range(len(wk.bouts) - 1)]
            c = b + rng.randint(10, 90)
            du = self.units_for_day(k)[0]
            if wk.strava:
                # Strava's own copy of the ride (old style, totals as attributes). For a Watch ride it
                # overlaps the Watch workout; its samples are covered by the Watch's and count 0.
                brand = "Strava\x0b" if self.vt("workout") else "Strava"
                x = (f' <Workout workoutActivityType="{ACT[wk.kind]}" duration="{moving / 60!r}" durationUnit="min" '
                     f'totalDistance="{g(wk.strava_dist / 1000)}" totalDistanceUnit="km" totalEnergyBurned="{g(wk.strava_kcal)}" '
                     f'totalEnergyBurnedUnit="kcal" {self.strava.attrs_nodevice(k)} creationDate="{ts(c + 1800)}" '
                     f'startDate="{ts(a)}" endDate="{ts(b)}">\n'
                     f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                     f'  <MetadataEntry key="HKExternalUUID" value="{self.rnd(40)}"/>\n'
                     f'  <MetadataEntry key="HKWorkoutBrandName" value="{brand}"/>\n </Workout>\n')
                self.workout_xml.append((a, x))
                self.workout_kinds.append("cycle")
            if wk.src is self.strava:
                continue
            sa = self.watch.attrs(k, self.rnd)
            hr = wk.hr or [120]
            base_kcal = 1.1 * moving / 60
            route_xml = ""
            if wk.kind in ("run", "cycle"):
                if wk.style == "old":
                    pts = self.make_route(wk)
                    step = 10
                    locs = []
                    for i in range(0, len(pts), step):
                        t, lat, lon, ele, v, course, ha, va = pts[i]
                        locs.append(f'   <Location date="{ts(t)}" latitude="{g(lat)}" longitude="{g(lon)}" altitude="{g(ele)}" '
                                    f'horizontalAccuracy="{g(ha)}" verticalAccuracy="{g(va)}" course="{g(course)}" speed="{g(v)}"/>\n')
                    self.route_points_inline += len(locs)
                    route_xml = (f'  <WorkoutRoute {self.watch.attrs_nodevice(k)} creationDate="{ts(c)}" startDate="{ts(a)}" '
                                 f'endDate="{ts(b)}">\n{"".join(locs)}  </WorkoutRoute>\n')
                else:
                    fname, title = self.route_name(wk.b)
                    name = f"route_{fname}.gpx"
                    i = 2
                    while name in self.gpx_files:
                        name = f"route_{fname}_{i}.gpx"
                        i += 1
                    self.gpx_files[name] = (wk, title)
                    self.route_points_gpx += sum(bt.b + 1 - bt.a for bt in wk.bouts)
                    wk.route_file = name
                    route_xml = (f'  <WorkoutRoute {self.watch.attrs_nodevice(k)} creationDate="{ts(c + 5)}" startDate="{ts(a)}" endDate="{ts(b)}">\n'
                                 f'   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>\n'
                                 f'   <MetadataEntry key="HKMetadataKeySyncIdentifier" value="{self.uuid()}"/>\n'
                                 f'   <FileReference path="/workout-routes/{name}"/>\n  </WorkoutRoute>\n')
            if wk.style == "old":
                if wk.kind == "swim":
                    dist_attr = f'totalDistance="{g(wk.dist_m / 0.9144)}" totalDistanceUnit="yd"'
                else:
                    dist_attr = f'totalDistance="{g(wk.dist_m / TO_STD[du])}" totalDistanceUnit="{du}"'
                ev = "".join(f'  <WorkoutEvent type="HKWorkoutEventTypePause" date="{ts(p)}"/>\n'
                             f'  <WorkoutEvent type="HKWorkoutEventTypeResume" date="{ts(r)}"/>\n' for p, r in pauses)
                meta = '  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                if wk.kind == "swim":
                    meta = ('  <MetadataEntry key="HKIndoorWorkout" value="1"/>\n  <MetadataEntry key="HKLapLength" value="25 m"/>\n'
                            '  <MetadataEntry key="HKSwimmingLocationType" value="1"/>\n')
                    ev += "".join(f'  <WorkoutEvent type="HKWorkoutEventTypeLap" date="{ts(s)}" duration="{(e - s) / 60!r}" durationUnit="min"/>\n'
                                  for s, e, _ in wk.laps)
                x = (f' <Workout workoutActivityType="{ACT[wk.kind]}" duration="{moving / 60!r}" durationUnit="min" {dist_attr} '
                     f'totalEnergyBurned="{g(wk.kcal)}" totalEnergyBurnedUnit="kcal" {sa} creationDate="{ts(c)}" '
                     f'startDate="{ts(a)}" endDate="{ts(b)}">\n{meta}{ev}{route_xml} </Workout>\n')
                self.workout_xml.append((a, x))
                self.workout_kinds.append(wk.kind)
                continue
            # iOS 16+ style
            events = []
            if wk.kind in ("run", "cycle"):
                seg = 1000.0
                speed = wk.dist_m / max(1, moving)
                tt, done = a, 0.0
                while speed > 0 and done + seg <= wk.dist_m:
                    dur = seg / speed
                    events.append(("HKWorkoutEventTypeSegment", tt, dur, ()))
                    tt = int(tt + dur)
                    done += seg
            else:
                for i, (s, e, strokes) in enumerate(wk.laps):
                    swolf = (e - s) + strokes
                    events.append(("HKWorkoutEventTypeLap", s, e - s, (("HKSwimmingStrokeStyle", "2"), ("HKSWOLFScore", repr(float(swolf))))))
                    if i % 4 == 0:
                        end = wk.laps[min(i + 3, len(wk.laps) - 1)][1]
                        events.append(("HKWorkoutEventTypeSegment", s, end - s, (("HKSWOLFScore", repr(swolf + rng.random())),)))
            for p, r in pauses:
                events.append(("HKWorkoutEventTypePause", p, None, ()))
                events.append(("HKWorkoutEventTypeResume", r, None, ()))
            events.sort(key=lambda e: e[1])

            def ev_xml(ind):
                out = []
                for typ, t, dur, meta in events:
                    d = f' duration="{dur / 60!r}" durationUnit="min"' if dur is not None else ""
                    if meta:
                        out.append(f'{ind}<WorkoutEvent type="{typ}" date="{ts(t)}"{d}>\n' +
                                   "".join(f'{ind} <MetadataEntry key="{mk}" value="{mv}"/>\n' for mk, mv in meta) +
                                   f'{ind}</WorkoutEvent>\n')
                    else:
                        out.append(f'{ind}<WorkoutEvent type="{typ}" date="{ts(t)}"{d}/>\n')
                return "".join(out)

            def stat(ind, typ, unit, s=None, avg=None, mn=None, mx=None):
                span = f'startDate="{ts(a)}" endDate="{ts(b)}"'
                if s is not None:
                    return f'{ind}<WorkoutStatistics type="{Q}{typ}" {span} sum="{g(s)}" unit="{unit}"/>\n'
                return f'{ind}<WorkoutStatistics type="{Q}{typ}" {span} average="{g(avg)}" minimum="{g(mn)}" maximum="{g(mx)}" unit="{unit}"/>\n'

            def stats(ind):
                out = [stat(ind, "ActiveEnergyBurned", "kcal", s=wk.kcal), stat(ind, "BasalEnergyBurned", "kcal", s=base_kcal),
                       stat(ind, "HeartRate", "count/min", avg=sum(hr) / len(hr), mn=min(hr), mx=max(hr))]
                if wk.kind == "run":
                    sp = wk.dist_m / max(1, moving) * 3.6
                    out += [stat(ind, "DistanceWalkingRunning", "km", s=wk.dist_m / 1000), stat(ind, "StepCount", "count", s=wk.steps),
                            stat(ind, "RunningSpeed", "km/hr", avg=sp, mn=sp * 0.62, mx=sp * 1.27),
                            stat(ind, "RunningPower", "W", avg=rng.uniform(200, 240), mn=rng.randint(60, 110), mx=rng.randint(300, 360))]
                elif wk.kind == "cycle":
                    sp = wk.dist_m / max(1, moving) * 3.6
                    out += [stat(ind, "DistanceCycling", "km", s=wk.dist_m / 1000),
                            stat(ind, "CyclingSpeed", "km/hr", avg=sp, mn=sp * 0.3, mx=sp * 1.6)]
                else:
                    out += [stat(ind, "DistanceSwimming", "m", s=wk.dist_m),
                            stat(ind, "SwimmingStrokeCount", "count", s=sum(x[2] for x in wk.laps))]
                return "".join(out)

            meta = [("HKIndoorWorkout", "1" if wk.kind == "swim" else "0"), ("HKTimeZone", self.args.zone)]
            if wk.kind == "swim":
                meta += [("HKLapLength", "25 m"), ("HKSwimmingLocationType", "1")]
            else:
                meta += [("HKWeatherTemperature", f"{g(round(rng.uniform(41, 62), 1))} degF"),
                         ("HKWeatherHumidity", f"{rng.randint(45, 90) * 100} %"),
                         ("HKElevationAscended", f"{rng.randint(900, 9000)} cm")]
            meta.append(("HKAverageMETs", f"{g(round(rng.uniform(7, 11), 4))} kcal/hr\u00b7kg"))
            meta_xml = "".join(f'  <MetadataEntry key="{mk}" value="{mv}"/>\n' for mk, mv in meta)
            act = (f'  <WorkoutActivity uuid="{self.uuid()}" startDate="{ts(a)}" endDate="{ts(b)}" duration="{moving / 60!r}" durationUnit="min">\n'
                   f'{ev_xml("   ")}{stats("   ")}  </WorkoutActivity>\n')
            meta_first = (len(self.workout_xml) % 2 == 0)
            x = (f' <Workout workoutActivityType="{ACT[wk.kind]}" duration="{moving / 60!r}" durationUnit="min" {sa} '
                 f'creationDate="{ts(c)}" startDate="{ts(a)}" endDate="{ts(b)}">\n'
                 f'{meta_xml if meta_first else ""}{ev_xml("  ")}{act}{stats("  ")}{route_xml}{"" if meta_first else meta_xml} </Workout>\n')
            self.workout_xml.append((a, x))
            self.workout_kinds.append(wk.kind)

    # ------------------------------------------------------------------------------------------
    def gen_summaries_misc(self):
        ts = self.ts
        watch_active = [0.0] * self.N
        watch_exer = [0.0] * self.N
        for typ, acc in ((AEB, watch_active), (EXER, watch_exer)):
            for s, e, lvl, v in self.cum.get(typ, []):
                if lvl == LEVEL_WATCH:
                    for d, part in self.split_days(s, e, v):
                        acc[d] += part
        for k in range(self.N):
            self.summaries.append(
                f' <ActivitySummary dateComponents="{self.date(k).isoformat()}" activeEnergyBurned="{g(watch_active[k])}" '
                f'activeEnergyBurnedGoal="520" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" '
                f'appleExerciseTime="{int(watch_exer[k])}" appleExerciseTimeGoal="30" appleStandHours="{self.stand_hours[k]}" '
                f'appleStandHoursGoal="12"/>\n')
        # ClinicalRecord (+ FHIR JSON for zip/folder layouts)
        rid = f"{self.rnd(48):012x}"
        t = self.wall(min(2, self.N - 1), 10 * 3600)
        fname = f"Observation-{rid}.json"
        self.misc.append(
            f' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="{rid}" sourceName="Stadtklinik Berlin" '
            f'sourceURL="https://fhir.stadtklinik-berlin.example/api/FHIR/R4/Observation/{rid}" fhirVersion="4.0.1" '
            f'receivedDate="{ts(t)}" resourceFilePath="/clinical-records/{fname}"/>\n')
        self.clinical_files[fname] = json.dumps({
            "resourceType": "Observation", "id": rid, "status": "final",
            "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"}]}],
            "code": {"coding": [{"system": "http://loinc.org", "code": "4548-4", "display": "Hemoglobin A1c/Hemoglobin.total in Blood"}],
                     "text": "HbA1c"},
            "effectiveDateTime": dt.datetime.fromtimestamp(t - 86400 * 3, self.zone).isoformat(),
            "valueQuantity": {"value": 5.3, "unit": "%", "system": "http://unitsofmeasure.org", "code": "%"}}, indent=2)
        # Audiogram
        t = self.wall(min(5, self.N - 1), 11 * 3600 + 12 * 60)
        pts = "".join(
            f'  <SensitivityPoint frequencyValue="{f}" frequencyUnit="Hz" leftEarValue="{l}" leftEarUnit="dBHL" leftEarMasked="0" '
            f'rightEarValue="{r}" rightEarUnit="dBHL" rightEarMasked="0"/>\n'
            for f, l, r in ((125, 10, 15), (250, 10, 10), (500, 5, 10), (1000, 10, 5), (2000, 15, 10), (4000, 20, 25), (8000, 30, 35)))
        self.misc.append(f' <Audiogram type="HKDataTypeIdentifierAudiogram" {self.health.attrs_nodevice(0).replace("Health", "Mimi Hearing Test", 1)} '
                         f'creationDate="{ts(t + 420)}" startDate="{ts(t)}" endDate="{ts(t + 400)}">\n{pts} </Audiogram>\n')
        # VisionPrescription
        t = self.wall(-60, 10 * 3600)
        eye = ('sphere="{s}" sphereUnit="D" cylinder="{c}" cylinderUnit="D" axis="{a}" axisUnit="deg" '
               'add="0.75" addUnit="D" vertex="12" vertexUnit="mm" farPD="31.5" farPDUnit="mm"')
        self.misc.append(f' <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="{ts(t)}" expirationDate="{ts(t + 2 * 365 * 86400)}">\n'
                         f'  <RightEye {eye.format(s="-1.25", c="-0.5", a="95")}/>\n'
                         f'  <LeftEye {eye.format(s="-1.5", c="-0.25", a="80")}/>\n'
                         f'  <MetadataEntry key="HKMetadataKeySyncIdentifier" value="{self.uuid()}"/>\n </VisionPrescription>\n')

    # ------------------------------------------------------------------------------------------
    def split_days(self, s, e, v):
        """Pro-rata split of value v over [s,e) at local midnights -> [(day, part)] (days in range)."""
        M = self.M
        L = e - s
        i = bisect.bisect_right(M, s) - 1
        out = []
        t = s
        while t < e:
            nxt = M[i + 1] if 0 <= i + 1 < len(M) else e
            if i < 0:
                nxt = M[0]
            pe = min(e, nxt) if nxt > t else e
            if 0 <= i < self.N:
                out.append((i, v * (pe - t) / L if L else v))
            t = pe
            i += 1
        return out

    @staticmethod
    def priority_filter(samples, what):
        """samples: (s, e, level, payload...). Returns samples that count (not covered by higher
        priority). Asserts the by-construction invariant: no partial overlaps across levels and no
        overlaps within a level."""
        out = []
        union, starts = [], []
        for lvl in sorted({x[2] for x in samples}):
            grp = sorted(x for x in samples if x[2] == lvl)
            prev_e = None
            for x in grp:
                s, e = x[0], x[1]
                if not s < e:
                    raise AssertionError(f"{what}: empty or negative sample [{s},{e})")
                if prev_e is not None and s < prev_e:
                    raise AssertionError(f"{what}: overlapping samples within level {lvl} at {s}")
                prev_e = e
                st = cover_state(union, starts, s, e)
                if st == "partial":
                    raise AssertionError(f"{what}: level {lvl} sample [{s},{e}) partially covered")
                if st == "none":
                    out.append(x)
            union = interval_union(union + [(x[0], x[1]) for x in grp])
            starts = [u[0] for u in union]
        return out

    def compute_truth(self):
        N = self.N
        days = [{f: 0.0 for f in DAY_FIELDS} for _ in range(N)]
        # running intervals = running-workout spans (pauses included; nothing moves during a pause)
        run_iv = interval_union([(wk.a, wk.b) for wk in self.workouts if wk.kind == "run"])
        run_starts = [x[0] for x in run_iv]

        def run_overlap(s, e):
            tot = 0
            i = max(0, bisect.bisect_right(run_starts, s) - 1)
            while i < len(run_iv) and run_iv[i][0] < e:
                tot += max(0, min(e, run_iv[i][1]) - max(s, run_iv[i][0]))
                i += 1
            return tot

        counted_stats = {}
        for typ, lst in self.cum.items():
            field = CUM_FIELDS.get(typ)
            if typ == DWR:
                field = "dwr"
            if field is None:
                continue
            counted = self.priority_filter(lst, typ)
            counted_stats[typ] = (len(lst), len(counted))
            for s, e, lvl, v in counted:
                L = e - s
                for d, part in self.split_days(s, e, v):
                    if field == "dwr":
                        ds = max(s, self.M[d])
                        de = min(e, self.M[d + 1])
                        ro = run_overlap(ds, de)
                        days[d]["running_distance_m"] += v * ro / L
                        days[d]["walking_distance_m"] += part - v * ro / L
                    else:
                        days[d][field] += part
        counted = self.priority_filter([x for x in self.sleep], "sleep")
        for s, e, lvl, name in counted:
            if name not in ASLEEP_VALUES:
                continue
            # A night counts on its wake-up day: the planned night k (bed[k] .. wake[k]) holding
            # the sample, which wakes on day k. The manual naps lie outside every planned night
            # and end on the day of a longer night, so they are naps: not in the night's total
            # (docs/sleep-nights.md).
            d = bisect.bisect_right(self.bed, s) - 1
            if not (0 <= d < N and s < self.wake[d]):
                continue
            mins = (e - s) / 60
            days[d]["sleep_total_minutes"] += mins
            if name == "AsleepDeep":
                days[d]["sleep_deep_minutes"] += mins
            elif name == "AsleepREM":
                days[d]["sleep_rem_minutes"] += mins
        self.stats["cumulative_samples_total_vs_counted"] = {k[len(Q):]: v for k, v in counted_stats.items()}
        return {self.date(k).isoformat(): {f: round(days[k][f], 6) for f in DAY_FIELDS} for k in range(N)}

    # ------------------------------------------------------------------------------------------
    def generate(self):
        self.stand_hours = [0] * self.N
        self.plan()
        self.make_bouts()
        self.gen_workouts_and_bouts()
        self.gen_flights_stand()
        self.gen_sleep()
        self.gen_heart()
        self.gen_discrete()
        self.build_workouts()
        self.gen_summaries_misc()

    def assemble(self):
        """Batches per type, shuffled; duplicates; returns list of sections (lists of strings)."""
        rng = self.rng
        qb, cb, hb = [], [], []
        for typ in sorted(self.recs):
            lst = self.recs[typ]
            lst.sort(key=lambda x: x[0])
            xs = [x for _, x in lst]
            nb = max(1, min(len(xs) // 25, rng.randint(2, 5) + len(xs) // 3000))
            cuts = sorted(rng.sample(range(1, len(xs)), nb - 1)) if nb > 1 else []
            edges = [0] + cuts + [len(xs)]
            batches = [(typ, xs[edges[i]:edges[i + 1]]) for i in range(nb)]
            (hb if typ == HRV else cb if typ.startswith(C) else qb).extend(batches)
        rng.shuffle(qb)
        rng.shuffle(cb)
        rng.shuffle(hb)
        self.n_distinct = sum(len(x) for _, x in qb + cb + hb)
        # exact duplicates: 2-4 copies in total, adjacent or far apart
        dup_types = {STEPS, DWR, AEB, HR, SLEEP, MASS, FLIGHTS, HRV, GLU, BEB, EXER}
        groups = [qb, cb, hb]
        eligible = [(gi, bi) for gi, grp in enumerate(groups) for bi, (typ, xs) in enumerate(grp) if typ in dup_types and xs]
        weights = [len(groups[gi][bi][1]) for gi, bi in eligible]
        n_dup_recs = max(12, int(self.n_distinct * 0.004))
        chosen = set()
        adj = {}      # (gi, bi, idx) -> extra adjacent copies
        far = {}      # (gi, bi) -> list of (pos, xml)
        n_extra = 0
        hrv_forced = bool(hb)
        tries = 0
        while len(chosen) < n_dup_recs and tries < n_dup_recs * 20 and eligible:
            tries += 1
            if hrv_forced:
                gi, bi = 2, 0
                hrv_forced = False
            else:
                gi, bi = rng.choices(eligible, weights)[0]
            xs = groups[gi][bi][1]
            idx = rng.randrange(len(xs))
            if (gi, bi, idx) in chosen:
                continue
            chosen.add((gi, bi, idx))
            copies = rng.choices((1, 2, 3), (0.6, 0.3, 0.1))[0]
            for _ in range(copies):
                n_extra += 1
                if rng.random() < 0.55:
                    adj[(gi, bi, idx)] = adj.get((gi, bi, idx), 0) + 1
                else:
                    typ = groups[gi][bi][0]
                    same = [j for j, (t2, _) in enumerate(groups[gi]) if t2 == typ and j != bi]
                    tb = rng.choice(same) if same else bi
                    far.setdefault((gi, tb), []).append((rng.randrange(len(groups[gi][tb][1]) + 1), xs[idx]))
        self.n_duplicates = n_extra
        out = []
        for gi, grp in enumerate(groups):
            sect = []
            for bi, (typ, xs) in enumerate(grp):
                ins = sorted(far.get((gi, bi), []), key=lambda p: p[0])
                j = 0
                res = []
                for i, x in enumerate(xs):
                    while j < len(ins) and ins[j][0] == i:
                        res.append(ins[j][1])
                        j += 1
                    res.append(x)
                    n = adj.get((gi, bi, i))
                    if n:
                        res.extend([x] * n)
                while j < len(ins):
                    res.append(ins[j][1])
                    j += 1
                sect.append("".join(res))
            out.append(sect)
        qs, cs, hs = out
        self.correlations.sort()
        self.workout_xml.sort(key=lambda x: x[0])
        return [qs, cs, [x for _, x in self.correlations], [x for _, x in self.workout_xml], self.summaries,
                self.misc, hs]

    def header(self):
        me = ('<Me HKCharacteristicTypeIdentifierDateOfBirth="1988-06-14" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
              'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeAPositive" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII" '
              'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>')
        dtd = broken_dtd() if self.args.broken_dtd else DTD_V14
        return (XML_DECL + dtd + "\n" + '<HealthData locale="en_US">\n'
                f' <ExportDate value="{self.ts(self.export_t)}"/>\n {me}\n')

    def write_xml(self, f, sections):
        f.write(self.header())
        for sect in sections:
            for chunk in sect:
                f.write(chunk)
        f.write("</HealthData>\n")

    def cda_text(self):
        ts = self.ts
        rows = []
        for typ, unit in ((MASS, "lb"), (HR, "count/min")):
            for _, x in self.recs.get(typ, [])[:3]:
                m = re.search(r'startDate="([^"]+)" endDate="([^"]+)" value="([^"]+)"', x)
                if not m:
                    continue
                d = m.group(1).replace("-", "").replace(":", "").replace(" ", "")
                rows.append(f'   <entry typeCode="DRIV">\n    <organizer classCode="CLUSTER" moodCode="EVN">\n'
                            f'     <component>\n      <observation classCode="OBS" moodCode="EVN">\n'
                            f'       <text><type>{typ}</type><unit>{esc(unit)}</unit></text>\n'
                            f'       <effectiveTime><low value="{d}"/><high value="{d}"/></effectiveTime>\n'
                            f'       <value xsi:type="PQ" value="{m.group(3)}" unit="{esc(unit)}"/>\n'
                            f'      </observation>\n     </component>\n    </organizer>\n   </entry>\n')
        eff = ts(self.export_t).replace("-", "").replace(":", "").replace(" ", "")
        return ('<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>\n'
                '<ClinicalDocument xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:hl7-org:v3" '
                'xmlns:cda="urn:hl7-org:v3" xmlns:sdtc="urn:l7-org:sdtc" xmlns:fhir="http://hl7.org/fhir/v3">\n'
                ' <realmCode code="US"/>\n <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>\n'
                ' <id extension="Health Export CDA" root="1.1.1.1.1.1.1.1.1"/>\n <title>Health Data Export</title>\n'
                f' <effectiveTime value="{eff}"/>\n <recordTarget>\n  <patientRole>\n   <patient>\n    <name use="CL">Alex</name>\n'
                '    <birthTime value="19880614"/>\n   </patient>\n  </patientRole>\n </recordTarget>\n'
                ' <component>\n  <section>\n   <title>Vital Signs</title>\n' + "".join(rows) +
                '  </section>\n </component>\n</ClinicalDocument>\n')


APPLEDOUBLE = (b"\x00\x05\x16\x07\x00\x02\x00\x00" + b"Mac OS X        " + b"\x00\x02"
               + b"\x00\x00\x00\x09\x00\x00\x00\x32\x00\x00\x0e\xb0"
               + b"\x00\x00\x00\x02\x00\x00\x0e\xe2\x00\x00\x01\x1e"
               + b"\x00" * 2 + b"ATTR" + b"\x00" * 28 + b"com.apple.quarantine\x00" + b"0083;65f1a2b3;Mail;\x00")


# ----------------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------------
def write_outputs(gen, args, sections):
    out = args.out
    tree = "apple_health_export/"
    zdt = dt.datetime.fromtimestamp(gen.export_t, gen.zone).timetuple()[:6]
    if args.layout == "xml":
        d = os.path.dirname(os.path.abspath(out))
        os.makedirs(d, exist_ok=True)
        with open(out, "w", encoding="utf-8", newline="\n", buffering=4 << 20) as f:
            gen.write_xml(f, sections)
        return out, os.path.getsize(out)
    other = []  # (relpath, bytes)
    other.append(("export_cda.xml", gen.cda_text().encode("utf-8")))
    for name, (wk, title) in gen.gpx_files.items():
        other.append((f"workout-routes/{name}", gen.gpx_text(gen.make_route(wk), title).encode("utf-8")))
    for name, text in gen.clinical_files.items():
        other.append((f"clinical-records/{name}", text.encode("utf-8")))
    if args.layout == "folder":
        root = os.path.join(out, "apple_health_export")
        os.makedirs(os.path.join(root, "workout-routes"), exist_ok=True)
        os.makedirs(os.path.join(root, "clinical-records"), exist_ok=True)
        xp = os.path.join(root, args.xml_name)
        with open(xp, "w", encoding="utf-8", newline="\n", buffering=4 << 20) as f:
            gen.write_xml(f, sections)
        for rel, data in other:
            with open(os.path.join(root, rel), "wb") as f:
                f.write(data)
        return xp, os.path.getsize(xp)
    # zip
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        def zi(name, dirent=False):
            z = zipfile.ZipInfo(name, date_time=zdt)
            z.compress_type = zipfile.ZIP_STORED if dirent else zipfile.ZIP_DEFLATED
            z.external_attr = (0o40755 << 16) | 0x10 if dirent else 0o644 << 16
            return z
        zf.writestr(zi(tree, True), b"")
        with zf.open(zi(tree + args.xml_name), "w", force_zip64=True) as raw:
            f = io.TextIOWrapper(io.BufferedWriter(raw, 4 << 20), encoding="utf-8", newline="\n")
            gen.write_xml(f, sections)
            f.flush()
            f.detach().flush()
        xml_size = zf.getinfo(tree + args.xml_name).file_size
        zf.writestr(zi(tree + "export_cda.xml"), other[0][1])
        zf.writestr(zi(tree + "workout-routes/", True), b"")
        for rel, data in other[1:]:
            if rel.startswith("clinical-records/") and not any(n.filename == tree + "clinical-records/" for n in zf.infolist()):
                zf.writestr(zi(tree + "clinical-records/", True), b"")
            zf.writestr(zi(tree + rel), data)
        zf.writestr(zi("__MACOSX/" + tree + "._" + args.xml_name), APPLEDOUBLE)
    return out, xml_size


# ----------------------------------------------------------------------------------------------
# Validation: independent re-computation from the written artifact (slice-based merge)
# ----------------------------------------------------------------------------------------------
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


# ----------------------------------------------------------------------------------------------
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
        "generator": "sample-data/generate_export.py",
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


if __name__ == "__main__":
    sys.exit(main())
