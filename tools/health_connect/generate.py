#!/usr/bin/env python3
"""Write a Health Connect database (or its export zip) for tests and benchmarks.

Test tooling only: the product never runs Python. Standard library only.

The database is always built by running schema.sql (next to this file), which reproduces the
schema Android's Health Connect module creates at database version 14 (see its header and
docs/HEALTH_CONNECT.md). Nothing here creates or alters a table: if a column name in a scenario
does not exist in that schema, the run fails instead of inventing it.

Usage
-----
    generate.py SCENARIO.json OUT
    generate.py --synthetic --days N [--seed S] [--start 2024-01-01] OUT
    either of them with --cycles NAME: a cycle scenario of tools/cycle_scenarios.py from --start

OUT ending in ".zip" writes what Settings > Health Connect > Export writes: a zip holding one
entry, health_connect_export.db. Any other OUT is the bare SQLite file.

Scenario format (JSON)
----------------------
    {
      "apps":    [{"package": "com.example.phone", "name": "Phone"}, ...],
      "devices": [{"manufacturer": "Google", "model": "Pixel 8", "type": 2}, ...],
      "priority": {"ACTIVITY": ["com.example.watch", "com.example.phone"], "5": [...]},
      "records": [
        {"table": "steps_record_table", "app": "com.example.phone", "device": 0,
         "uuid": "00112233445566778899aabbccddeeff",          # optional, 32 hex digits
         "last_modified": "2025-03-02T08:00:00Z",             # optional, ISO or epoch ms
         "start": "2025-03-01T23:30:00+01:00", "end": "2025-03-02T00:30:00+01:00",
         "count": 600,
         "children": {"<child table>": [{...}, ...]}}
      ]
    }

* apps become application_info_table rows (row_id 1, 2, ... in list order); devices become
  device_info_table rows, "type" is Device.DEVICE_TYPE_* (0 unknown, 1 watch, 2 phone, 3 scale,
  4 ring, 5 head mounted, 6 fitness band, 7 chest strap, 8 smart display). "device" in a record
  is an index into that list (optional: no device -> device_info_id NULL).
* priority keys are HealthDataCategory names (ACTIVITY, BODY_MEASUREMENTS, CYCLE_TRACKING,
  NUTRITION, SLEEP, VITALS, WELLNESS) or their integers (1..7); values list packages, highest
  priority first. Stored as Health Connect stores it: app row ids joined by ",".
* Interval tables take "start" and "end", instant tables take "time": ISO 8601 with an explicit
  offset ("Z" or "+01:00"). They fill start_time/end_time (epoch ms UTC), start_zone_offset/
  end_zone_offset (seconds), or time/zone_offset, and local_date (epoch day of the local start),
  as Health Connect does. An epoch-ms integer is accepted with "start_zone_offset" etc. given
  explicitly. The generated local_date_time* columns are computed by SQLite itself.
* Every other key is a column of that table, value as stored (calories not kcal, grams not kg,
  integers for enums; see docs/HEALTH_CONNECT.md). "recording_method", "client_record_id" and
  "client_record_version" may be given like any column.
* children: rows of the record's child tables (heart_rate_record_series_table, sleep_stages_table,
  exercise_segments_table, exercise_laps_table, exercise_route_table, speed_record_table, ...).
  parent_key is filled in. "time" fills the child's single epoch column (epoch_millis or
  timestamp_millis); "start"/"end" fill its *_start_time/*_end_time columns. ISO strings or ms.
* Missing uuid: a deterministic one (MD5 of table, position and package: UUID version 3).
  Missing last_modified: the record's end (or time) plus one minute.
* dedupe_hash is computed the way StorageUtils.getDedupeByteBuffer does (app id, device id and
  times as big-endian longs; NULL when client_record_id is set and for hydration/nutrition), so
  the file keeps Health Connect's UNIQUE constraint honest: one app and device cannot have two
  records with the same times in a table.
* application_info_table.record_types_used and activity_date_table are filled as Health Connect
  fills them on insert, so a reader can rely on them as it could on a real export.
"""

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import sqlite3
import struct
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "schema.sql")
EXPORT_ENTRY = "health_connect_export.db"

CATEGORIES = {"UNKNOWN": 0, "ACTIVITY": 1, "BODY_MEASUREMENTS": 2, "CYCLE_TRACKING": 3,
              "NUTRITION": 4, "SLEEP": 5, "VITALS": 6, "WELLNESS": 7}

# RecordTypeIdentifier values, for record_types_used and activity_date_table.
RECORD_TYPE_IDS = {
    "steps_record_table": 1, "active_calories_burned_record_table": 2, "hydration_record_table": 3,
    "elevation_gained_record_table": 4, "floors_climbed_record_table": 5,
    "wheelchair_pushes_record_table": 6, "distance_record_table": 7, "nutrition_record_table": 8,
    "total_calories_burned_record_table": 9, "menstruation_period_record_table": 10,
    "heart_rate_record_table": 11, "CyclingPedalingCadenceRecordTable": 12, "PowerRecordTable": 13,
    "SpeedRecordTable": 14, "StepsCadenceRecordTable": 15, "basal_metabolic_rate_record_table": 16,
    "body_fat_record_table": 17, "vo2_max_record_table": 18, "cervical_mucus_record_table": 19,
    "basal_body_temperature_record_table": 20, "menstruation_flow_record_table": 21,
    "oxygen_saturation_record_table": 22, "blood_pressure_record_table": 23,
    "height_record_table": 24, "blood_glucose_record_table": 25, "weight_record_table": 26,
    "lean_body_mass_record_table": 27, "sexual_activity_record_table": 28,
    "body_temperature_record_table": 29, "ovulation_test_record_table": 30,
    "respiratory_rate_record_table": 31, "bone_mass_record_table": 32,
    "resting_heart_rate_record_table": 33, "body_water_mass_record_table": 34,
    "heart_rate_variability_rmssd_record_table": 35, "intermenstrual_bleeding_record_table": 36,
    "exercise_session_record_table": 37, "sleep_session_record_table": 38,
    "skin_temperature_record_table": 39, "planned_exercise_session_record_table": 40,
    "mindfulness_session_record_table": 41,
}
# StorageUtils.getDedupeByteBuffer exempts these interval types from deduplication.
NO_DEDUPE = {"hydration_record_table", "nutrition_record_table"}
DAY_MS = 86_400_000


def parse_time(value, what):
    """ISO 8601 with offset -> (epoch ms, offset seconds); an int is epoch ms with no offset."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value), None
    if not isinstance(value, str):
        raise ValueError(f"{what}: expected an ISO 8601 string or epoch ms, got {value!r}")
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    moment = dt.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        # Health Connect always stores an offset; guessing one would hide mistakes in tests.
        raise ValueError(f"{what}: {value!r} has no UTC offset")
    offset = int(moment.utcoffset().total_seconds())
    millis = (moment - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) // dt.timedelta(milliseconds=1)
    return millis, offset


def epoch_day(millis, offset_seconds):
    """Days since 1970-01-01 of the local date, as LocalDate.ofInstant(...).toEpochDay()."""
    return (millis + offset_seconds * 1000) // DAY_MS


class Database:
    """A fresh database made from schema.sql, plus the bookkeeping Health Connect does on insert."""

    def __init__(self, path):
        self.uuid_salt = ""
        self.path = path
        self.con = sqlite3.connect(path)
        with open(SCHEMA, encoding="utf-8") as f:
            self.con.executescript(f.read())
        # Android's SQLiteDatabase writes the locale row when it creates android_metadata.
        self.con.execute("INSERT INTO android_metadata (locale) VALUES ('en_US')")
        self.columns = {}    # table -> {column: declared type} (stored columns only)
        self.generated = {}  # table -> set of generated column names
        self.parent_of = {}  # child table -> (child column, parent table)
        for (table,) in self.con.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            cols, gen = {}, set()
            for _cid, name, ctype, _nn, _dflt, _pk, hidden in self.con.execute(
                    f"PRAGMA table_xinfo('{table}')"):
                if hidden in (2, 3):
                    gen.add(name)
                else:
                    cols[name] = ctype
            self.columns[table], self.generated[table] = cols, gen
            for fk in self.con.execute(f"PRAGMA foreign_key_list('{table}')"):
                # (id, seq, table, from, to, on_update, on_delete, match)
                if fk[3] in ("parent_key", "block_parent_id", "step_parent_id", "goal_parent_id"):
                    self.parent_of[table] = (fk[3], fk[2])
        self.children_of = {}
        for child, (_col, parent) in self.parent_of.items():
            self.children_of.setdefault(parent, []).append(child)
        self.next_row = {}        # table -> next row_id to hand out
        self.pending = {}         # table -> (columns tuple, [rows]) waiting for executemany
        self.app_ids = {}         # package -> row_id
        self.app_types = {}       # app row_id -> set of record type ids
        self.activity_days = set()
        self.counts = {}

    # -- owners ---------------------------------------------------------------------------
    def add_app(self, package, name):
        row_id = len(self.app_ids) + 1
        self.con.execute("INSERT INTO application_info_table (row_id, package_name, app_name) "
                         "VALUES (?, ?, ?)", (row_id, package, name))
        self.app_ids[package] = row_id
        self.app_types[row_id] = set()
        return row_id

    def add_device(self, manufacturer, model, device_type):
        cur = self.con.execute("INSERT INTO device_info_table (manufacturer, model, device_type) "
                               "VALUES (?, ?, ?)", (manufacturer, model, device_type))
        return cur.lastrowid

    def set_priority(self, category, packages):
        if isinstance(category, str) and not category.lstrip("-").isdigit():
            if category.upper() not in CATEGORIES:
                raise ValueError(f"unknown data category {category!r}")
            category = CATEGORIES[category.upper()]
        ids = [str(self.app_ids[p]) for p in packages]
        self.con.execute("INSERT INTO health_data_category_priority_table "
                         "(health_data_category, app_id_priority_order) VALUES (?, ?)",
                         (int(category), ",".join(ids)))

    # -- records --------------------------------------------------------------------------
    def _row_id(self, table):
        row_id = self.next_row.get(table, 1)
        self.next_row[table] = row_id + 1
        return row_id

    def _queue(self, table, row):
        known = self.columns.get(table)
        if known is None:
            raise ValueError(f"no table {table!r} in schema.sql")
        for name in row:
            if name not in known:
                hint = " (generated by SQLite)" if name in self.generated[table] else ""
                raise ValueError(f"{table} has no stored column {name!r}{hint}")
        key = tuple(sorted(row))
        cols, rows = self.pending.get(table, (key, []))
        if cols != key:
            self._flush_table(table)
            cols, rows = key, []
        rows.append(tuple(row[c] for c in key))
        self.pending[table] = (cols, rows)
        if len(rows) >= 20000:
            self._flush_table(table)
        self.counts[table] = self.counts.get(table, 0) + 1

    def _flush_table(self, table):
        cols, rows = self.pending.pop(table, ((), []))
        if rows:
            marks = ", ".join("?" for _ in cols)
            self.con.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", rows)

    def add_record(self, table, app, device, fields, children=None, uuid=None, seq=None):
        """fields: column -> value, with "start"/"end"/"time" as ISO strings or (ms, offset)."""
        cols = self.columns.get(table)
        if cols is None or "uuid" not in cols:
            raise ValueError(f"{table!r} is not a record table of schema.sql")
        if app not in self.app_ids:
            raise ValueError(f"{table}: app {app!r} is not in apps")
        app_id = self.app_ids[app]
        row = {}
        fields = dict(fields)
        interval = "start_time" in cols
        for key in (("start", "end") if interval else ("time",)):
            if key not in fields:
                raise ValueError(f"{table}: needs {key!r}")
            millis, offset = self._moment(fields.pop(key), f"{table}.{key}")
            col = f"{key}_time" if interval else "time"
            off_col = f"{key}_zone_offset" if interval else "zone_offset"
            given = fields.pop(off_col, None)
            offset = given if offset is None else offset
            if offset is None:
                raise ValueError(f"{table}.{key}: epoch ms needs {off_col}")
            row[col], row[off_col] = millis, offset
        start_ms, start_off = (row["start_time"], row["start_zone_offset"]) if interval \
            else (row["time"], row["zone_offset"])
        end_ms = row["end_time"] if interval else row["time"]
        row["local_date"] = epoch_day(start_ms, start_off)
        last_modified = fields.pop("last_modified", None)
        if last_modified is None:
            row["last_modified_time"] = end_ms + 60_000
        else:
            row["last_modified_time"] = self._moment(last_modified, f"{table}.last_modified")[0]
        row_id = self._row_id(table)
        row["row_id"] = row_id
        row["uuid"] = bytes.fromhex(uuid) if uuid else self._uuid(table, app, f"{self.uuid_salt}{seq if seq is not None else row_id}")
        row["app_info_id"] = app_id
        row["device_info_id"] = device
        row.setdefault("recording_method", fields.pop("recording_method", 0))
        row.update(fields)
        row["dedupe_hash"] = self._dedupe_hash(table, row, interval)
        self._queue(table, row)
        type_id = RECORD_TYPE_IDS.get(table)
        if type_id is not None:
            self.app_types[app_id].add(type_id)
            self.activity_days.add((row["local_date"], type_id))
        for child, rows in (children or {}).items():
            self._add_children(table, row_id, child, rows)
        return row_id

    def _add_children(self, parent_table, parent_row, child, rows):
        link = self.parent_of.get(child)
        if link is None or link[1] != parent_table:
            raise ValueError(f"{child!r} is not a child table of {parent_table}")
        cols = self.columns[child]
        time_cols = [c for c in cols if c in ("epoch_millis", "timestamp_millis")]
        for given in rows:
            row = {link[0]: parent_row}
            for key, value in given.items():
                if key == "time":
                    col = time_cols[0] if time_cols else None
                elif key in ("start", "end"):
                    col = next((c for c in cols if c.endswith(f"_{key}_time")), None)
                else:
                    col = key
                if col is None:
                    raise ValueError(f"{child}: no column for {key!r}")
                if col != key or (isinstance(value, str) and (col.endswith("_time") or col.endswith("_millis"))):
                    value = self._moment(value, f"{child}.{key}")[0]
                row[col] = value
            self._queue(child, row)

    @staticmethod
    def _moment(value, what):
        if isinstance(value, tuple):
            return value
        return parse_time(value, what)

    @staticmethod
    def _uuid(table, app, seq):
        digest = bytearray(hashlib.md5(f"{table}|{app}|{seq}".encode()).digest())
        digest[6] = (digest[6] & 0x0F) | 0x30  # version 3, as UUID.nameUUIDFromBytes
        digest[8] = (digest[8] & 0x3F) | 0x80  # IETF variant
        return bytes(digest)

    @staticmethod
    def _dedupe_hash(table, row, interval):
        if row.get("client_record_id"):
            return None
        app, dev = row["app_info_id"], row["device_info_id"] or 0
        if interval:
            if table in NO_DEDUPE:
                return None
            return struct.pack(">qqqq", app, dev, row["start_time"], row["end_time"])
        return struct.pack(">qqq", app, dev, row["time"])

    def finish(self):
        for table in list(self.pending):
            self._flush_table(table)
        for app_id, types in self.app_types.items():
            if types:
                self.con.execute("UPDATE application_info_table SET record_types_used = ? "
                                 "WHERE row_id = ?", (",".join(map(str, sorted(types))), app_id))
        self.con.executemany("INSERT INTO activity_date_table (epoch_days, record_type_id) "
                             "VALUES (?, ?)", sorted(self.activity_days))
        self.con.commit()
        problems = self.con.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise ValueError(f"foreign key problems: {problems[:5]}")
        self.con.close()


# -- scenario mode ----------------------------------------------------------------------------
def build_scenario(db, scenario):
    for app in scenario.get("apps", []):
        db.add_app(app["package"], app.get("name", app["package"]))
    device_ids = [db.add_device(d.get("manufacturer"), d.get("model"), d.get("type", 0))
                  for d in scenario.get("devices", [])]
    for category, packages in scenario.get("priority", {}).items():
        db.set_priority(category, packages)
    for n, rec in enumerate(scenario.get("records", [])):
        rec = dict(rec)
        table, app = rec.pop("table"), rec.pop("app")
        device = rec.pop("device", None)
        children = rec.pop("children", None)
        uuid = rec.pop("uuid", None)
        db.add_record(table, app, None if device is None else device_ids[device], rec,
                      children, uuid, seq=n)


# -- cycle tracking (--cycles NAME) -----------------------------------------------------------
CYCLES = "com.example.cycles"


def add_cycles(db, name, start):
    """A scenario of tools/cycle_scenarios.py as a cycle-tracking app writes it to Health
    Connect: a flow record at noon of each logged day, a MenstruationPeriodRecord (local midnight
    to the midnight after its last day) for the periods marked hc_period, spotting, tests, mucus,
    basal temperature and sexual activity. Apple's deviation notices have no Health Connect type."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from cycle_scenarios import HC_FLOW, HC_MUCUS, HC_OVULATION, SCENARIOS, flow_days
    sc = SCENARIOS[name]
    db.add_app(CYCLES, "Cycles")
    db.set_priority("CYCLE_TRACKING", [CYCLES])

    def at(k, minutes):
        day = start + dt.timedelta(days=k)
        off = home_offset(day)
        midnight = dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc)
        return int(midnight.timestamp() * 1000) - off * 1000 + int(minutes * 60_000), off

    for k, level, _ in flow_days(sc):
        db.add_record("menstruation_flow_record_table", CYCLES, None, {"time": at(k, 12 * 60), "flow": HC_FLOW[level]})
    for p in sc["periods"]:
        if p.get("hc_period"):
            db.add_record("menstruation_period_record_table", CYCLES, None,
                          {"start": at(p["first"], 0), "end": at(p["first"] + len(p["flow"]), 0)})
    for k in sc.get("spotting", []):
        db.add_record("intermenstrual_bleeding_record_table", CYCLES, None, {"time": at(k, 12 * 60)})
    for k, result in sc.get("ovulation", {}).items():
        db.add_record("ovulation_test_record_table", CYCLES, None, {"time": at(k, 8 * 60), "result": HC_OVULATION[result]})
    for k, quality in sc.get("mucus", {}).items():
        db.add_record("cervical_mucus_record_table", CYCLES, None, {"time": at(k, 8 * 60 + 5), "appearance": HC_MUCUS[quality]})
    for k, degc in sc.get("basal", {}).items():
        db.add_record("basal_body_temperature_record_table", CYCLES, None, {"time": at(k, 6 * 60 + 30), "temperature": degc})
    for k in sc.get("sexual", []):
        db.add_record("sexual_activity_record_table", CYCLES, None, {"time": at(k, 22 * 60)})


# -- synthetic mode ---------------------------------------------------------------------------
PHONE, WATCH, SCALE = "com.google.android.apps.fitness", "com.example.watchcompanion", "com.example.scale"


def home_offset(day):
    """Central European time: +01:00, +02:00 from the last Sunday of March to that of October."""
    def last_sunday(month):
        d = dt.date(day.year, month, 31)
        return d - dt.timedelta(days=(d.weekday() + 1) % 7)
    return 7200 if last_sunday(3) <= day < last_sunday(10) else 3600


def build_synthetic(db, days, seed, start):
    rnd = random.Random(seed)
    # Health Connect's uuids are random: two people's exports never share one. The seed is part
    # of every name-based uuid, so that two synthetic people (two seeds) do not either.
    db.uuid_salt = f"seed{seed}|"
    db.add_app(PHONE, "Fit")
    db.add_app(WATCH, "Watch Companion")
    db.add_app(SCALE, "Smart Scale")
    phone = db.add_device("Google", "Pixel 8", 2)
    watch = db.add_device("Google", "Pixel Watch 2", 1)
    scale = db.add_device("Withings", "Body+", 3)
    # The watch wins where both record (the usual choice); the scale app only writes weight.
    db.set_priority("ACTIVITY", [WATCH, PHONE])
    db.set_priority("SLEEP", [WATCH])
    db.set_priority("BODY_MEASUREMENTS", [SCALE])
    db.set_priority("VITALS", [WATCH])

    # Trips: every ~7 weeks a few days at another offset (New York, then Tokyo, alternately).
    travel = {}
    d = 20 + rnd.randint(0, 20)
    trip = 0
    while d < days:
        length = rnd.randint(3, 7)
        offset = -5 * 3600 if trip % 2 == 0 else 9 * 3600
        for k in range(length):
            travel[d + k] = offset
        trip += 1
        d += length + 40 + rnd.randint(0, 20)

    # Flying east makes local clocks jump ahead, so "07:00 tomorrow" can be an instant already
    # lived today. One app never writes two records over the same real time (and Health Connect's
    # dedupe_hash would refuse equal ones), so anything starting before the app's last end in
    # that table is dropped.
    last_end = {}

    def rec(table, app, device, fields, children=None):
        begin = (fields.get("start") or fields["time"])[0]
        finish = (fields.get("end") or fields["time"])[0]
        if begin < last_end.get((table, app), -1) or (begin == finish and begin == last_end.get((table, app))):
            return
        last_end[(table, app)] = finish
        db.add_record(table, app, device, fields, children)

    def at(day, offset, minutes):
        """(epoch ms, offset) of local wall time `minutes` after local midnight of `day`."""
        midnight = dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc)
        utc_ms = int(midnight.timestamp() * 1000) - offset * 1000 + int(minutes * 60_000)
        return utc_ms, offset

    for n in range(days):
        day = start + dt.timedelta(days=n)
        off = travel.get(n, home_offset(day))
        wake = 7 * 60 + rnd.randint(-40, 40)
        bed = 23 * 60 + rnd.randint(-45, 30)
        workout = None
        if day.weekday() in (0, 2, 5) and rnd.random() < 0.85:
            begin = (18 if day.weekday() != 5 else 10) * 60 + rnd.randint(0, 40)
            workout = (begin, begin + rnd.randint(30, 60))

        # Steps, distance and active calories: the phone every 5 minutes, the watch every 3,
        # on their own grids, so they overlap without lining up.
        for app, device, step_min, jitter in ((PHONE, phone, 5, 1), (WATCH, watch, 3, 0)):
            t = wake + rnd.randint(0, step_min)
            while t + step_min <= bed:
                walking = workout and workout[0] <= t < workout[1]
                if walking or rnd.random() < 0.2:
                    cadence = 150 if walking else rnd.choice((10, 20, 40, 60, 100))
                    count = max(1, int(rnd.gauss(cadence, cadence * 0.2) * step_min))
                    if app == PHONE:
                        count = int(count * rnd.uniform(0.85, 1.0))  # phones miss steps
                    s, e = at(day, off, t), at(day, off, t + step_min)
                    rec("steps_record_table", app, device, {"start": s, "end": e, "count": count,
                                  "recording_method": 2})
                    rec("distance_record_table", app, device, {"start": s, "end": e,
                                  "distance": round(count * (1.05 if walking else 0.72), 2), "recording_method": 2})
                    rec("active_calories_burned_record_table", app, device, {"start": s, "end": e,
                                  "energy": round(count * (62.0 if walking else 38.0), 1), "recording_method": 2})
                t += step_min + rnd.randint(0, jitter)
            if rnd.random() < 0.5:
                floors_at = wake + rnd.randint(60, 600)
                rec("floors_climbed_record_table", app, device, {
                    "start": at(day, off, floors_at), "end": at(day, off, floors_at + 2),
                    "floors": float(rnd.randint(1, 4)), "recording_method": 2})

        # Heart rate from the watch: one series record per hour, a sample every ~4 minutes,
        # every ~5-10 s during the workout.
        for hour in range(24):
            samples = []
            t = hour * 60.0 + rnd.uniform(0, 2)
            while t < (hour + 1) * 60:
                in_workout = workout and workout[0] <= t < workout[1]
                asleep = t < wake or t >= bed
                base = 150 if in_workout else (55 if asleep else 72)
                samples.append({"time": at(day, off, t), "beats_per_minute": int(rnd.gauss(base, 6))})
                t += rnd.uniform(5, 10) / 60 if in_workout else rnd.uniform(3, 5)
            rec("heart_rate_record_table", WATCH, watch, {
                "start": at(day, off, hour * 60), "end": at(day, off, hour * 60 + 60), "recording_method": 2},
                {"heart_rate_record_series_table": samples})
        rec("resting_heart_rate_record_table", WATCH, watch, {
            "time": at(day, off, wake + 5), "beats_per_minute": int(rnd.gauss(56, 3)), "recording_method": 2})

        # Sleep: from tonight's bedtime to tomorrow's wake-up, 90-minute cycles of
        # light / deep / light / REM, a short awake spell some nights.
        night_end = 24 * 60 + 7 * 60 + rnd.randint(-40, 40)
        stages, t = [], float(bed)
        while t < night_end:
            for stage, length in ((4, 35), (5, 25), (4, 15), (6, 15)):
                e = min(t + length * rnd.uniform(0.7, 1.3), night_end)
                stages.append({"start": at(day, off, t), "end": at(day, off, e), "stage_type": stage})
                t = e
                if t >= night_end:
                    break
            if t < night_end and rnd.random() < 0.3:
                e = min(t + rnd.uniform(3, 15), night_end)
                stages.append({"start": at(day, off, t), "end": at(day, off, e), "stage_type": 1})
                t = e
        rec("sleep_session_record_table", WATCH, watch, {
            "start": at(day, off, bed), "end": at(day, off, night_end), "recording_method": 2},
            {"sleep_stages_table": stages})

        # A run with a GPS point every 5 s and a pause in the middle.
        if workout:
            b, e = workout
            lat, lon = 48.137 + rnd.uniform(-0.02, 0.02), 11.575 + rnd.uniform(-0.02, 0.02)
            route, t = [], float(b)
            while t < e:
                lat += rnd.uniform(-1, 1) * 2e-5
                lon += rnd.uniform(0.5, 1.5) * 3e-5
                route.append({"time": at(day, off, t), "latitude": round(lat, 6), "longitude": round(lon, 6),
                              "horizontal_accuracy": 4.0, "vertical_accuracy": 6.0,
                              "altitude": round(520 + rnd.uniform(-3, 3), 1)})
                t += 5 / 60
            mid = (b + e) / 2
            segments = [
                {"start": at(day, off, b), "end": at(day, off, mid - 1), "segment_type": 0, "repetitions_count": 0},
                {"start": at(day, off, mid - 1), "end": at(day, off, mid + 1), "segment_type": 67, "repetitions_count": 0},
                {"start": at(day, off, mid + 1), "end": at(day, off, e), "segment_type": 0, "repetitions_count": 0}]
            rec("exercise_session_record_table", WATCH, watch, {
                "start": at(day, off, b), "end": at(day, off, e), "exercise_type": 33,
                "title": "Evening run" if b >= 12 * 60 else "Morning run", "has_route": 1,
                "recording_method": 1},
                {"exercise_route_table": route, "exercise_segments_table": segments})

        if day.weekday() == 6:
            rec("weight_record_table", SCALE, scale, {
                "time": at(day, off, wake + 10), "weight": round(rnd.gauss(74_500, 600), 0),
                "recording_method": 3})


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("scenario", nargs="?", help="scenario JSON (omit with --synthetic)")
    p.add_argument("out", help="output .db, or .zip for an export-style zip")
    p.add_argument("--synthetic", action="store_true", help="generate a realistic person")
    p.add_argument("--days", type=int, default=365)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start", default="2024-01-01")
    p.add_argument("--cycles", help="add a cycle-tracking scenario of tools/cycle_scenarios.py from --start (e.g. mixed)")
    a = p.parse_args(argv)
    if a.synthetic == (a.scenario is not None):
        p.error("give either SCENARIO.json or --synthetic")

    zipped = a.out.endswith(".zip")
    db_path = a.out
    if zipped:
        tmp = tempfile.mkdtemp(prefix="hcgen")
        db_path = os.path.join(tmp, EXPORT_ENTRY)
    elif os.path.exists(db_path):
        os.remove(db_path)

    db = Database(db_path)
    if a.synthetic:
        build_synthetic(db, a.days, a.seed, dt.date.fromisoformat(a.start))
    else:
        with open(a.scenario, encoding="utf-8") as f:
            build_scenario(db, json.load(f))
    if a.cycles:
        add_cycles(db, a.cycles, dt.date.fromisoformat(a.start))
    counts = dict(db.counts)
    db.finish()

    if zipped:
        with zipfile.ZipFile(a.out, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(db_path, EXPORT_ENTRY)
        os.remove(db_path)
        os.rmdir(os.path.dirname(db_path))
    if a.synthetic:
        for table in sorted(counts):
            print(f"{table:40s} {counts[table]:>9d}")
        print(f"{'total rows':40s} {sum(counts.values()):>9d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
