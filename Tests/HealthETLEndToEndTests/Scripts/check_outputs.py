#!/usr/bin/env python3
"""Checks the CSV and Parquet files of a `healthetl import --out OUT_DIR` run against its
SQLite store, reading every file with independent readers:

  parquet/*.parquet  pyarrow and DuckDB (read_parquet): schema (names in order, logical types,
                     gzip), row count, every value;
  csv/*.csv          Python's csv module: header, row count, every cell, number formatting,
                     no text cell a spreadsheet would read as a formula (the writer's guard);
  OUT_DIR            folders 0700, files 0600, no stray files (half-written temporaries).

The expected rows come from the store's tables as documented in docs/TABLES.md (the analytics
tables minus `id`/`recorded_at`, `sleep_sessions` minus `id`, `activity_summaries`, the
`workouts` columns, the `samples` view, `ecg_recordings`, `ecg_samples`), never from the
exporter's own queries.

Usage: check_outputs.py OUT_DIR [--max-report N]
Exit status: 0 all good; 1 mismatches (all listed on stderr); 2 usage or unreadable store;
3 pyarrow/duckdb missing (run `make venv`).

Python is tooling only: this is a test helper, not part of the product.
"""

import argparse
import csv
import datetime as dt
import json
import math
import os
import re
import sqlite3
import stat
import sys
from decimal import Decimal, ROUND_HALF_UP, getcontext

try:
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as error:  # pragma: no cover - depends on the environment
    print(f"check_outputs: {error.name or error} is missing from {sys.executable}: run `make venv` "
          "(creates .venv with pyarrow and duckdb) or set HEALTHETL_PYTHON", file=sys.stderr)
    sys.exit(3)

getcontext().prec = 400     # exact: any double has at most 17 significant digits before rounding

# ---------------------------------------------------------------------------------------------
# What each file should hold (an independent reading of docs/TABLES.md and the store)

DATE, TS, INT, REAL, STR = "date", "timestamp", "int64", "double", "string"

ARROW_TYPES = {DATE: pa.date32(), TS: pa.timestamp("us", tz="UTC"), INT: pa.int64(), REAL: pa.float64(),
               STR: pa.string()}
PARQUET_TYPES = {DATE: ("INT32", "Date"), TS: ("INT64", "Timestamp"), INT: ("INT64", "None"),
                 REAL: ("DOUBLE", "None"), STR: ("BYTE_ARRAY", "String")}
DUCKDB_TYPES = {DATE: "DATE", TS: "TIMESTAMP WITH TIME ZONE", INT: "BIGINT", REAL: "DOUBLE", STR: "VARCHAR"}

DATE_NAMES = {"date", "week_start", "week_end", "start_date", "end_date", "night_date", "local_date", "first_seen", "last_seen",
              "next_start_date", "ovulation_positive_date", "cycle_start"}

WORKOUT_COLUMNS = ["id", "activity_type", "source_name", "device_model", "start_utc", "end_utc", "local_date",
                   "duration_min", "distance_m", "energy_kcal", "avg_heart_rate", "min_heart_rate",
                   "max_heart_rate", "swimming_strokes", "flights_climbed", "duplicate_of"]

SAMPLE_COLUMNS = [("type", STR), ("source_name", STR), ("source_version", STR), ("device_model", STR),
                  ("start_utc", TS), ("end_utc", TS), ("creation_utc", TS), ("local_date", DATE),
                  ("value", REAL), ("unit", STR), ("raw_value", STR), ("raw_unit", STR), ("category_value", STR)]


class Spec:
    def __init__(self, name, table, key, drop=(), only=None, csv_file=True, order=None):
        self.name = name            # file name without extension
        self.table = table          # SQLite table (or view)
        self.key = key              # natural key columns, or None: compare sorted rows
        self.drop = set(drop)       # store columns not in the files
        self.only = only            # explicit file columns (a subset of the table's)
        self.csv_file = csv_file
        self.order = order or key   # rows expected in ascending order of these columns (None: any)
        self.columns = []           # [(name, kind)], filled from the store


SPECS = [
    Spec("samples", "samples", key=None, csv_file=False),
    Spec("daily", "daily_analytics", key=("date",), drop=("id", "recorded_at")),
    Spec("weekly", "weekly_analytics", key=("week_start",), drop=("id", "recorded_at")),
    Spec("monthly", "monthly_analytics", key=("year", "month"), drop=("id", "recorded_at")),
    Spec("yearly", "yearly_analytics", key=("year",), drop=("id", "recorded_at")),
    # Every workout row with the one it copies, if any (issue 44): a view of this checker's own.
    Spec("workouts", "listed_workouts", key=("id",), only=WORKOUT_COLUMNS, order=("start_utc", "id")),
    Spec("sleep", "sleep_sessions", key=("night_date",), drop=("id",)),
    Spec("activity_summaries", "activity_summaries", key=("date",)),
    Spec("ecg_recordings", "ecg_recordings", key=("id",), order=("recorded_utc", "id")),
    Spec("ecg_samples", "ecg_samples", key=("recording_id", "sample_index"), csv_file=False),
    # Issue 31 (docs/vitals-hrv-workouts.md); the store's row ids are not in the files.
    Spec("daily_vitals", "daily_vitals", key=("date",)),
    Spec("blood_pressure", "blood_pressure", key=None, drop=("correlation_id",)),
    Spec("hrv_measurements", "hrv_measurements", key=None, drop=("sample_id",)),
    Spec("workout_details", "workout_details", key=None),
    Spec("reconciliation", "reconciliation", key=("date", "metric")),
    Spec("reconciliation_sources", "reconciliation_sources", key=("date", "metric", "source_name", "device_model")),
    Spec("reconciliation_platforms", "reconciliation_platforms", key=("date", "metric", "platform")),
    Spec("data_quality", "data_quality", key=("date",)),
    Spec("sources", "source_inventory", key=("source_name", "device_model", "type")),
    # Issue 60 (docs/cycles.md).
    Spec("cycles", "cycles", key=("start_date",)),
    Spec("cycle_days", "cycle_days", key=("date",)),
]


def kind_of(name, declared):
    if name in DATE_NAMES:
        return DATE
    if name.endswith("_utc"):
        return TS
    declared = (declared or "").upper()
    if "INT" in declared:
        return INT
    if "REAL" in declared or "FLOA" in declared or "DOUB" in declared:
        return REAL
    return STR


# ---------------------------------------------------------------------------------------------
# Value normalisation: every reader's value becomes None, int, float, str, datetime.date, or
# (for instants) an int of microseconds since 1970-01-01T00:00:00Z.

EPOCH_ORDINAL = dt.date(1970, 1, 1).toordinal()
ISO_TS = re.compile(r"^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CSV_TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$")
CSV_INT = re.compile(r"^-?\d+$")
CSV_DECIMAL = re.compile(r"^-?\d+(?:\.(\d+))?$")


class Bad(Exception):
    pass


class Unreadable:
    """A CSV cell that could not be parsed (reported once, not compared again)."""
    def __repr__(self):
        return "<unreadable>"


UNREADABLE = Unreadable()


def iso_to_us(text):
    m = ISO_TS.match(text)
    if not m:
        raise Bad(f"not an ISO 8601 instant: {text!r}")
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    frac = m.group(7) or ""
    if len(frac) > 6 and int(frac[6:]) != 0:
        raise Bad(f"instant finer than microseconds: {text!r}")
    try:
        days = dt.date(y, mo, d).toordinal() - EPOCH_ORDINAL
    except ValueError:
        raise Bad(f"invalid date in instant {text!r}")
    if h > 23 or mi > 59 or s > 59:
        raise Bad(f"invalid time in instant {text!r}")
    us = (((days * 24 + h) * 60 + mi) * 60 + s) * 1_000_000 + int((frac + "000000")[:6])
    zone = m.group(8)
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        us -= sign * (int(zone[1:3]) * 60 + int(zone[4:6])) * 60 * 1_000_000
    return us


def iso_date(text):
    if not isinstance(text, str) or not ISO_DATE.match(text):
        raise Bad(f"not a YYYY-MM-DD date: {text!r}")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Bad(f"invalid date: {text!r}")


def us_text(us):
    """An instant for messages."""
    if us is None:
        return "NULL"
    days, rest = divmod(us, 86_400_000_000)
    day = dt.date.fromordinal(EPOCH_ORDINAL + days)
    secs, micros = divmod(rest, 1_000_000)
    return f"{day}T{secs // 3600:02}:{secs // 60 % 60:02}:{secs % 60:02}" + (f".{micros:06}" if micros else "") + "Z"


def show(kind, v):
    if v is None:
        return "NULL"
    if kind == TS and isinstance(v, int):
        return f"{us_text(v)} ({v} µs)"
    if isinstance(v, Decimal):
        return f"'{v}'"
    if isinstance(v, dt.date):
        return v.isoformat()
    return repr(v)


def from_sqlite(kind, v):
    """Store value -> canonical; raises Bad when the store's value has the wrong type."""
    if v is None:
        return None
    if kind == DATE:
        return iso_date(v)
    if kind == TS:
        if isinstance(v, str):
            return iso_to_us(v)
        raise Bad(f"instant stored as {type(v).__name__}: {v!r}")
    if kind == INT:
        if isinstance(v, int):
            return v
        if isinstance(v, float) and v.is_integer():
            raise Bad(f"integer column holds REAL {v!r} in the store")
        raise Bad(f"integer column holds {type(v).__name__} {v!r} in the store")
    if kind == REAL:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        raise Bad(f"real column holds {type(v).__name__} {v!r} in the store")
    if isinstance(v, bytes):
        raise Bad(f"text column holds a BLOB in the store: {v!r}")
    return str(v)


def same(kind, a, b):
    if a is None or b is None:
        return a is None and b is None
    if kind == REAL:
        if math.isnan(a) or math.isnan(b):
            return False
        return a == b or math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    if kind == INT:
        return type(a) is int and type(b) is int and a == b
    return type(a) is type(b) and a == b


def sort_key(row):
    return tuple((0, 0) if v is None else (1, v) for v in row)


# ---------------------------------------------------------------------------------------------

class Checker:
    def __init__(self, out_dir, max_report):
        self.out = out_dir
        self.max_report = max_report
        self.problems = []
        self.lines = []

    def fail(self, where, message):
        self.problems.append(f"{where}: {message}")

    def failed_since(self, count):
        return len(self.problems) > count

    # -- store ------------------------------------------------------------------------------

    def open_store(self):
        path = os.path.join(self.out, "health.sqlite")
        if not os.path.isfile(path):
            print(f"check_outputs: {path}: no store", file=sys.stderr)
            sys.exit(2)
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.db.text_factory = str
        self.db.execute("CREATE TEMP VIEW listed_workouts AS SELECT w.*, d.duplicate_of FROM workouts w "
                        "LEFT JOIN workout_details d ON d.workout_id = w.id")
        for spec in SPECS:
            if spec.name == "samples":
                spec.columns = list(SAMPLE_COLUMNS)
                continue
            info = self.db.execute(f'PRAGMA table_info("{spec.table}")').fetchall()
            if not info:
                self.fail("health.sqlite", f"table {spec.table} is missing")
                continue
            declared = {row[1]: row[2] for row in info}
            names = spec.only if spec.only else [row[1] for row in info if row[1] not in spec.drop]
            for n in names:
                if n not in declared:
                    self.fail("health.sqlite", f"{spec.table} has no column {n}")
            spec.columns = [(n, kind_of(n, declared.get(n))) for n in names]

    def store_rows(self, spec):
        """Canonical rows of the store for `spec`, or None when unreadable."""
        where = f"health.sqlite {spec.table}"
        if spec.name == "samples":
            # The view's text instants have second resolution: take the exact microseconds from
            # sample_data (joined by the view's id) and check the view's text agrees with them.
            names = [c for c, _ in spec.columns]
            select = ", ".join(f'v."{n}"' for n in names)
            sql = (f"SELECT {select}, d.start_us, d.end_us, d.created_us FROM samples v "
                   f"JOIN sample_data d ON d.id = v.id")
        else:
            select = ", ".join(f'"{n}"' for n, _ in spec.columns)
            sql = f'SELECT {select} FROM "{spec.table}"'
        try:
            raw = self.db.execute(sql).fetchall()
        except sqlite3.Error as error:
            self.fail(where, f"cannot read: {error}")
            return None
        rows, bad = [], 0
        for r in raw:
            row = []
            for (n, kind), v in zip(spec.columns, r):
                try:
                    if spec.name == "samples" and kind == TS:
                        exact = r[len(spec.columns) + ["start_utc", "end_utc", "creation_utc"].index(n)]
                        if (v is None) != (exact is None):
                            raise Bad(f"view {n}={v!r} but sample_data has {exact!r}")
                        if v is not None:
                            shown = iso_to_us(v)
                            if shown not in (exact // 1_000_000 * 1_000_000, int(exact / 1_000_000) * 1_000_000):
                                raise Bad(f"view {n}={v!r} disagrees with sample_data µs {exact}")
                        row.append(exact)
                    else:
                        row.append(from_sqlite(kind, v))
                except Bad as error:
                    bad += 1
                    if bad <= self.max_report:
                        self.fail(where, f"column {n}: {error}")
                    row.append(None)
            rows.append(tuple(row))
        return rows

    # -- permissions ------------------------------------------------------------------------

    def check_modes(self):
        expected = {"csv": {f"{s.name}.csv" for s in SPECS if s.csv_file},
                    "parquet": {f"{s.name}.parquet" for s in SPECS}}
        for folder, names in expected.items():
            path = os.path.join(self.out, folder)
            if not os.path.isdir(path):
                self.fail(f"{folder}/", "missing folder")
                continue
            present = set(os.listdir(path))
            for extra in sorted(present - names):
                self.fail(f"{folder}/{extra}", "unexpected file (left-over temporary?)")
            for missing in sorted(names - present):
                self.fail(f"{folder}/{missing}", "missing")
        checked = 0
        for root, dirs, files in os.walk(self.out):
            folders = [root] if root == self.out else []
            for p in folders + [os.path.join(root, d) for d in dirs]:
                st = os.lstat(p)
                if stat.S_ISLNK(st.st_mode):
                    self.fail(os.path.relpath(p, self.out), "is a symbolic link")
                elif stat.S_IMODE(st.st_mode) != 0o700:
                    self.fail(os.path.relpath(p, self.out) + "/", f"folder mode {stat.S_IMODE(st.st_mode):04o}, want 0700")
                checked += 1
            for f in files:
                p = os.path.join(root, f)
                st = os.lstat(p)
                rel = os.path.relpath(p, self.out)
                if not stat.S_ISREG(st.st_mode):
                    self.fail(rel, "not a regular file")
                elif stat.S_IMODE(st.st_mode) != 0o600:
                    self.fail(rel, f"file mode {stat.S_IMODE(st.st_mode):04o}, want 0600")
                checked += 1
        self.lines.append(f"modes: {checked} folders and files under {self.out} (folders 0700, files 0600)")

    # -- comparison -------------------------------------------------------------------------

    def compare(self, where, spec, store, got, reader, equal=None):
        """Compares `got` (canonical rows from one reader) with the store's rows."""
        equal = equal or same
        start = len(self.problems)
        names = [n for n, _ in spec.columns]
        kinds = [k for _, k in spec.columns]
        if len(got) != len(store):
            self.fail(where, f"{reader}: {len(got)} rows, store {spec.table} has {len(store)}")
        reported = 0

        def report(message):
            nonlocal reported
            reported += 1
            if reported <= self.max_report:
                self.fail(where, f"{reader}: {message}")

        if spec.key is None:
            a, b = sorted(got, key=sort_key), sorted(store, key=sort_key)
            for i, (x, y) in enumerate(zip(a, b)):
                diffs = [j for j in range(len(kinds)) if not equal(kinds[j], x[j], y[j])]
                if diffs:
                    report(f"sorted row {i}: " + "; ".join(
                        f"{names[j]} file {show(kinds[j], x[j])} != store {show(kinds[j], y[j])}" for j in diffs)
                        + f" (file row {dict(zip(names, x))})")
        else:
            kidx = [names.index(k) for k in spec.key]
            by_key = {}
            for row in store:
                k = tuple(row[i] for i in kidx)
                if k in by_key:
                    self.fail(where, f"store {spec.table} has two rows with key {k}")
                by_key[k] = row
            seen = set()
            oidx = [names.index(c) for c in spec.order]
            previous = None
            for i, row in enumerate(got):
                k = tuple(row[i2] for i2 in kidx)
                if UNREADABLE in k or any(row[j] is UNREADABLE for j in oidx):
                    continue    # the cell is already reported
                label = ", ".join(f"{spec.key[j]}={show(kinds[kidx[j]], k[j])}" for j in range(len(kidx)))
                if k in seen:
                    report(f"row {i + 1}: duplicate key {label}")
                    continue
                seen.add(k)
                o = tuple(row[j] for j in oidx)
                if previous is not None and sort_key(o) < sort_key(previous):
                    report(f"row {i + 1}: {label} comes after a row with greater "
                           f"({', '.join(spec.order)}): rows are not in ascending order")
                previous = o
                want = by_key.get(k)
                if want is None:
                    report(f"row {i + 1}: {label} is not in store {spec.table}")
                    continue
                for j in range(len(kinds)):
                    if not equal(kinds[j], row[j], want[j]):
                        report(f"row {i + 1} ({label}) column {names[j]}: file {show(kinds[j], row[j])} "
                               f"!= store {show(kinds[j], want[j])}")
            for k in by_key:
                if k not in seen:
                    label = ", ".join(f"{spec.key[j]}={show(kinds[kidx[j]], k[j])}" for j in range(len(kidx)))
                    report(f"store row {label} is missing from the file")
        if reported > self.max_report:
            self.fail(where, f"{reader}: … {reported - self.max_report} more value mismatches not shown")
        return not self.failed_since(start)

    # -- Parquet ----------------------------------------------------------------------------

    def check_parquet(self, spec, store):
        rel = f"parquet/{spec.name}.parquet"
        path = os.path.join(self.out, rel)
        if not os.path.isfile(path):
            return None
        start = len(self.problems)
        names = [n for n, _ in spec.columns]

        # pyarrow: schema, physical layout, values.
        try:
            pf = pq.ParquetFile(path)
            table = pf.read()
        except Exception as error:
            self.fail(rel, f"pyarrow cannot read it: {error}")
            return None
        schema = table.schema
        if schema.names != names:
            self.fail(rel, f"pyarrow columns {schema.names} != expected {names}")
            return None
        for (n, kind), field in zip(spec.columns, schema):
            if field.type != ARROW_TYPES[kind]:
                self.fail(rel, f"column {n}: pyarrow type {field.type}, want {ARROW_TYPES[kind]}")
        for i, (n, kind) in enumerate(spec.columns):
            c = pf.schema.column(i)
            want_physical, want_logical = PARQUET_TYPES[kind]
            logical = json.loads(c.logical_type.to_json())
            if c.physical_type != want_physical or logical.get("Type") != want_logical or (
                    kind == TS and (logical.get("isAdjustedToUTC") is not True
                                    or logical.get("timeUnit") != "microseconds")):
                self.fail(rel, f"column {n}: Parquet type {c.physical_type} {c.logical_type.to_json()}, want "
                               f"{want_physical} {want_logical}" + (" (MICROS, UTC)" if kind == TS else ""))
        meta = pf.metadata
        codecs = set()
        for g in range(meta.num_row_groups):
            rg = meta.row_group(g)
            for c in range(rg.num_columns):
                codecs.add(rg.column(c).compression)
        if codecs - {"GZIP"}:
            self.fail(rel, f"compression {sorted(codecs)}, want GZIP")
        if meta.num_rows != table.num_rows:
            self.fail(rel, f"footer says {meta.num_rows} rows, read {table.num_rows}")
        required = [f.name for f in schema if not f.nullable]
        if self.failed_since(start):
            return None

        columns = []
        for (n, kind), col in zip(spec.columns, table.columns):
            if kind == TS:
                col = col.cast(pa.int64())
            columns.append(col.to_pylist())
        arrow_rows = list(zip(*columns))
        self.compare(rel, spec, store, arrow_rows, "pyarrow")

        # DuckDB: its own reader, its own type mapping.
        try:
            con = duckdb.connect()
            literal = "'" + path.replace("'", "''") + "'"
            described = con.execute(f"DESCRIBE SELECT * FROM read_parquet({literal})").fetchall()
            duck_names = [r[0] for r in described]
            duck_types = [r[1] for r in described]
            if duck_names != names:
                self.fail(rel, f"DuckDB columns {duck_names} != expected {names}")
            else:
                for (n, kind), t in zip(spec.columns, duck_types):
                    if t != DUCKDB_TYPES[kind]:
                        self.fail(rel, f"column {n}: DuckDB type {t}, want {DUCKDB_TYPES[kind]}")
                select = ", ".join(f'epoch_us("{n}")' if kind == TS else f'"{n}"' for n, kind in spec.columns)
                duck_rows = con.execute(f"SELECT {select} FROM read_parquet({literal})").fetchall()
                count = con.execute(f"SELECT count(*) FROM read_parquet({literal})").fetchone()[0]
                if count != len(duck_rows):
                    self.fail(rel, f"DuckDB count(*) {count} != rows read {len(duck_rows)}")
                self.compare(rel, spec, store, [tuple(r) for r in duck_rows], "DuckDB")
            con.close()
        except Exception as error:
            self.fail(rel, f"DuckDB cannot read it: {error}")

        if not self.failed_since(start):
            dictionary = [pf.schema.column(i).name for i in range(len(names))
                          if meta.num_row_groups and any("DICTIONARY" in e for e in meta.row_group(0).column(i).encodings)]
            self.lines.append(
                f"{rel}: {table.num_rows} rows x {len(names)} columns, {meta.num_row_groups} row group(s), "
                f"{'/'.join(sorted(codecs)) or 'no chunks'}; pyarrow and DuckDB == store {spec.table}"
                f"{'; dictionary: ' + ', '.join(dictionary) if dictionary else ''}"
                f"{'; required: ' + ', '.join(required) if required else ''}")
        return names

    # -- CSV --------------------------------------------------------------------------------

    def check_csv(self, spec, store, parquet_names):
        rel = f"csv/{spec.name}.csv"
        path = os.path.join(self.out, rel)
        if not os.path.isfile(path):
            return
        start = len(self.problems)
        names = [n for n, _ in spec.columns]
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(b"\xef\xbb\xbf"):
            self.fail(rel, "starts with a UTF-8 byte order mark")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            self.fail(rel, f"not UTF-8: {error}")
            return
        try:
            with open(path, newline="", encoding="utf-8") as f:
                records = list(csv.reader(f, strict=True))
        except csv.Error as error:
            self.fail(rel, f"Python's csv module cannot parse it: {error}")
            return
        if not records:
            self.fail(rel, "empty file (no header)")
            return
        header, body = records[0], records[1:]
        if header != names:
            self.fail(rel, f"header {header} != expected {names}")
            return
        if parquet_names is not None and header != parquet_names:
            self.fail(rel, f"header {header} != parquet columns {parquet_names}")

        places = {}     # column -> set of decimal counts seen
        rows = []
        cell_problems = 0
        for i, record in enumerate(body):
            line = i + 2
            if len(record) != len(names):
                self.fail(rel, f"record {line}: {len(record)} fields, header has {len(names)}")
                continue
            row = []
            for (n, kind), cell in zip(spec.columns, record):
                value = None
                try:
                    if cell == "":
                        value = None
                    elif kind == INT:
                        if not CSV_INT.match(cell):
                            raise Bad(f"integer cell {cell!r}")
                        value = int(cell)
                    elif kind == REAL:
                        m = CSV_DECIMAL.match(cell)
                        if not m:
                            raise Bad(f"decimal cell {cell!r} (want plain digits, no exponent)")
                        places.setdefault(n, set()).add(len(m.group(1) or ""))
                        value = Decimal(cell)
                        if cell.startswith("-") and value == 0:
                            raise Bad(f"negative zero {cell!r}")
                    elif kind == DATE:
                        value = iso_date(cell)
                    elif kind == TS:
                        if not CSV_TS.match(cell):
                            raise Bad(f"timestamp cell {cell!r} (want YYYY-MM-DDTHH:MM:SS[.ffffff]Z)")
                        value = iso_to_us(cell)
                    else:
                        value = csv_text(cell)
                except Bad as error:
                    cell_problems += 1
                    if cell_problems <= self.max_report:
                        self.fail(rel, f"record {line} column {n}: {error}")
                    value = UNREADABLE
                row.append(value)
            rows.append(tuple(row))

        for n, seen in places.items():
            if len(seen) > 1:
                self.fail(rel, f"column {n}: cells print {sorted(seen)} decimals, want one fixed count")

        # Values: a decimal cell against the store's double rounded (exactly, half away from
        # zero) to the cell's printed places; everything else exact; an empty cell is NULL.
        self.compare(rel, spec, store, rows, "csv", equal=csv_equal)

        if not self.failed_since(start):
            summary = ", ".join(f"{n} {next(iter(places[n]))}" for n in names if n in places)
            ending = "CRLF" if "\r\n" in text else "LF"
            self.lines.append(f"{rel}: {len(body)} rows x {len(names)} columns, {ending}; == store {spec.table}"
                              + (f"; decimals: {summary}" if summary else ""))

    def run(self):
        self.open_store()
        self.check_modes()
        for spec in SPECS:
            if not spec.columns:
                continue
            store = self.store_rows(spec)
            if store is None:
                continue
            parquet_names = self.check_parquet(spec, store)
            if spec.csv_file:
                self.check_csv(spec, store, parquet_names)
        for line in self.lines:
            print(line)
        if self.problems:
            print(f"check_outputs: {len(self.problems)} problem(s) in {self.out}:", file=sys.stderr)
            for p in self.problems:
                print("  " + p, file=sys.stderr)
            return 1
        print(f"check_outputs: OK ({self.out})")
        return 0


# The CSV writer's formula guard (Sources/CSV/CSVFormulaGuard.swift): a text cell that a
# spreadsheet would read as a formula is written with "'" in front; a lone signed number or
# time (-5, +01:00) is not. An unguarded formula start is a problem; the mark comes off here.
LONE_CONSTANT = re.compile(r"[+-][0-9]+(?:[.:][0-9]+)*\Z")


def starts_formula(text):
    rest = text.lstrip("'")
    return rest[:1] in ("=", "@", "\t", "\r") or (rest[:1] in ("+", "-") and not LONE_CONSTANT.match(rest))


def csv_text(cell):
    if not starts_formula(cell):
        return cell
    if not cell.startswith("'"):
        raise Bad(f"text cell {cell!r} starts a spreadsheet formula (no ' in front)")
    return cell[1:]


def csv_equal(kind, cell, want):
    """A CSV cell (parsed: Decimal for decimals) against the store's canonical value."""
    if cell is UNREADABLE:
        return True     # already reported
    if kind == REAL and isinstance(cell, Decimal):
        if want is None or math.isnan(want) or math.isinf(want):
            return False
        return Decimal(want).quantize(Decimal(1).scaleb(cell.as_tuple().exponent), rounding=ROUND_HALF_UP) == cell
    if kind == STR and cell is None and want == "":
        return True     # an empty text is an empty cell, like NULL
    return same(kind, cell, want)


def main():
    parser = argparse.ArgumentParser(description="Check healthetl's CSV and Parquet outputs against its store.")
    parser.add_argument("out_dir")
    parser.add_argument("--max-report", type=int, default=20, help="mismatches listed per file and reader")
    args = parser.parse_args()
    if not os.path.isdir(args.out_dir):
        print(f"check_outputs: {args.out_dir}: not a folder", file=sys.stderr)
        return 2
    return Checker(os.path.abspath(args.out_dir), args.max_report).run()


if __name__ == "__main__":
    sys.exit(main())
