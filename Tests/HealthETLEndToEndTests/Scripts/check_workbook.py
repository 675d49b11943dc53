#!/usr/bin/env python3
"""Checks health.xlsx and the CSV dialects with real readers (tooling only).

    check_workbook.py METRIC_OUT IMPERIAL_OUT SEMICOLON_OUT WORKDIR

METRIC_OUT, IMPERIAL_OUT: the same export imported with units metric and imperial; SEMICOLON_OUT
with csvDialect excel-semicolon. openpyxl reads every sheet: every value equals the store's
(converted for imperial), dates are date cells, the header row is frozen and filtered;
LibreOffice converts the workbook back to CSV without error and with the same values; the
semicolon CSV opened by LibreOffice with a German locale gives numbers; imperial shows miles
where metric shows kilometres, over the same store. One line per check; non-zero on failure.
LibreOffice is the program in HEALTHETL_LIBREOFFICE (WorkbookTests hands over the one
TestSupport's TestTools found, so it is looked for one way).
"""
import csv, datetime, glob, math, os, sqlite3, subprocess, sys
import openpyxl

metric, imperial, semicolon, work = sys.argv[1:5]
MILE = 1609.344
SHEETS = {"Daily": "SELECT date, {}, partial_day, zone, travel_day FROM daily_analytics ORDER BY date",
          "Weekly": "SELECT week_start, week_end, {}, days_with_data FROM weekly_analytics ORDER BY week_start"}


def check(ok, message):
    print(("ok: " if ok else "FAIL: ") + message)
    if not ok:
        sys.exit(1)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) or isinstance(b, str):   # the day's zone
        return a == b
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)


def store_rows(out, sheet):
    db = sqlite3.connect(os.path.join(out, "health.sqlite"))
    metrics = [r[1] for r in db.execute("PRAGMA table_info(daily_analytics)") if r[1] not in ("id", "date", "recorded_at", "partial_day", "zone", "travel_day")]
    rows = db.execute(SHEETS[sheet].format(", ".join(metrics))).fetchall()
    names = [d[0] for d in db.execute(SHEETS[sheet].format(", ".join(metrics)) + " LIMIT 0").description]
    # The workbook leaves out a column empty in every row.
    keep = [i for i in range(len(names)) if any(r[i] is not None for r in rows)]
    return [names[i] for i in keep], [tuple(r[i] for i in keep) for r in rows]


for out, factor, unit in [(metric, 1000.0, "km"), (imperial, MILE, "mi")]:
    path = os.path.join(out, "health.xlsx")
    check(oct(os.stat(path).st_mode & 0o777) == "0o600", path + " is 0600")
    wb = openpyxl.load_workbook(path)
    check(wb.sheetnames == ["Daily", "Weekly", "Monthly", "Yearly", "Sleep", "Workouts", "Activity rings", "ECG recordings",
                            "Vitals", "Blood pressure", "Data quality"],
          "the eleven sheets")
    for name in wb.sheetnames:
        ws = wb[name]
        check(ws.freeze_panes == "A2" and ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:"),
              "%s: header frozen, autofilter %s" % (name, ws.auto_filter.ref))
    for sheet in SHEETS:
        ws = wb[sheet]
        names, rows = store_rows(out, sheet)
        header = [c.value for c in ws[1]]
        check(len(rows) == ws.max_row - 1, "%s: a row per stored period (%d)" % (sheet, len(rows)))
        for col, name in enumerate(names):
            if name.endswith("_m"):
                check(header[col].endswith("(%s)" % unit), "%s: %s is shown in %s: %s" % (sheet, name, unit, header[col]))
        for r, row in enumerate(rows):
            cells = [c.value for c in ws[r + 2]]
            for col, (name, stored) in enumerate(zip(names, row)):
                cell = cells[col]
                if name in ("date", "week_start", "week_end"):
                    if not (isinstance(cell, datetime.datetime) and cell.date().isoformat() == stored):
                        check(False, "%s row %d: %s is the date cell %s, not %r" % (sheet, r + 2, name, stored, cell))
                    continue
                expected = stored / factor if name.endswith("_m") and stored is not None else stored
                if not close(cell, expected):
                    check(False, "%s row %d %s: %r in the sheet, %r in the store" % (sheet, r + 2, name, cell, expected))
        check(True, "%s: every value equals the store's (%s), dates are date cells" % (sheet, unit))

# Every sheet, every value: against the metric run's CSV files (the store's values, each to its
# column's fixed decimals), distances in km in the sheet.
wb = openpyxl.load_workbook(os.path.join(metric, "health.xlsx"))
# (Sleep and Workouts are shaped for people, local times and h:mm: check_workbook_print.py.)
for sheet, name in [("Daily", "daily"), ("Weekly", "weekly"), ("Monthly", "monthly"), ("Yearly", "yearly"),
                    ("Activity rings", "activity_summaries"), ("ECG recordings", "ecg_recordings"),
                    ("Vitals", "daily_vitals"), ("Blood pressure", "blood_pressure")]:
    rows = list(csv.reader(open(os.path.join(metric, "csv", name + ".csv"), newline="")))
    # The workbook leaves out a column empty in every row.
    keep = [i for i in range(len(rows[0])) if any(r[i] != "" for r in rows[1:])]
    rows = [[r[i] for i in keep] for r in rows]
    ws = wb[sheet]
    check(ws.max_row == len(rows), "%s: as many rows as %s.csv (%d)" % (sheet, name, len(rows) - 1))
    header = rows[0]
    for r, row in enumerate(rows[1:]):
        cells = [c.value for c in ws[r + 2]]
        for col, text in enumerate(row):
            cell = cells[col] if col < len(cells) else None
            column = header[col]
            if text == "":
                ok = cell is None
            elif isinstance(cell, datetime.datetime):
                ok = cell.strftime("%Y-%m-%dT%H:%M:%SZ") == text or cell.date().isoformat() == text
            elif isinstance(cell, (int, float)):
                value = cell * 1000 if column.endswith("_m") else cell
                places = len(text.split(".")[1]) if "." in text else 0
                ok = abs(value - float(text)) <= 0.5 * 10 ** -places + 1e-9 * abs(value)
            else:
                ok = str(cell) == text
            if not ok:
                check(False, "%s row %d %s: sheet %r, CSV %r" % (sheet, r + 2, column, cell, text))
    check(True, "%s: every value equals %s.csv (the store's, to its decimals)" % (sheet, name))
# The readable Workouts sheet (issue 31): a row per workout_details row, display names, local
# times, zones in minutes (the store's seconds / 60), distances in km.
ws = wb["Workouts"]
db = sqlite3.connect(os.path.join(metric, "health.sqlite"))
details = db.execute("""SELECT d.activity, replace(d.local_start, 'T', ' '), d.zone1_seconds, d.zone3_seconds, d.distance_m
                        FROM workout_details d JOIN workouts w ON w.id = d.workout_id ORDER BY w.start_us, d.workout_id""").fetchall()
header = [c.value for c in ws[1]]
check(ws.max_row - 1 == len(details) > 0, "Workouts: a row per workout (%d)" % len(details))
col = {name: header.index(name) for name in ("Workout", "Start (local)", "Zone1 (min)", "Zone3 (min)", "Distance (km)")}
for r, (activity, start, z1, z3, distance) in enumerate(details):
    cells = [c.value for c in ws[r + 2]]
    shown_start = cells[col["Start (local)"]]
    check(cells[col["Workout"]] == activity and not activity.startswith("HK")
          and isinstance(shown_start, datetime.datetime) and shown_start.strftime("%Y-%m-%d %H:%M") == start[:16]
          and close(cells[col["Zone1 (min)"]], None if z1 is None else z1 / 60)
          and close(cells[col["Zone3 (min)"]], None if z3 is None else z3 / 60)
          and close(cells[col["Distance (km)"]], None if distance is None else distance / 1000),
          "Workouts row %d: %s at %s (a local date cell), zones in minutes, km" % (r + 2, activity, start))
ecg = wb["ECG recordings"]
check(ecg.max_row == 3 and [c.value for c in ecg[1]][:3] == ["ID", "Recorded UTC", "Local date"]
      and "Sample rate (Hz)" in [c.value for c in ecg[1]] and isinstance(ecg["B2"].value, datetime.datetime),
      "ECG recordings: the export's two recordings, a row each, recorded times as date cells")

# The same store under both settings; the CSV header names its unit and holds the converted value.
def daily_rows(out):
    db = sqlite3.connect(os.path.join(out, "health.sqlite"))
    columns = [r[1] for r in db.execute("PRAGMA table_info(daily_analytics)") if r[1] != "recorded_at"]
    return db.execute("SELECT %s FROM daily_analytics ORDER BY date" % ", ".join(columns)).fetchall()


check(daily_rows(metric) == daily_rows(imperial), "metric and imperial runs have the same store")
mrows = list(csv.DictReader(open(os.path.join(metric, "csv", "daily.csv"), newline="")))
irows = list(csv.DictReader(open(os.path.join(imperial, "csv", "daily.csv"), newline="")))
check("walking_distance_m" in mrows[0] and "walking_distance_mi" in irows[0] and "walking_distance_m" not in irows[0],
      "the CSV headers name their units: walking_distance_m / walking_distance_mi")
check(all(close(round(float(m["walking_distance_m"]) / MILE, 2), float(i["walking_distance_mi"])) for m, i in zip(mrows, irows)
          if m["walking_distance_m"]), "imperial CSV holds miles where metric holds metres")

# LibreOffice converts the workbook back to CSV (its first sheet, Daily) with the same values.
soffice = os.environ.get("HEALTHETL_LIBREOFFICE")
check(soffice is not None and os.access(soffice, os.X_OK),
      "LibreOffice is installed (apt-get install libreoffice-calc-nogui) and named in HEALTHETL_LIBREOFFICE")
env = dict(os.environ, HOME=work)
r = subprocess.run([soffice, "--headless", "--convert-to", "csv", "--outdir", os.path.join(work, "lo"), os.path.join(metric, "health.xlsx")],
                   capture_output=True, text=True, env=env, timeout=180)
converted = os.path.join(work, "lo", "health.csv")
check(r.returncode == 0 and os.path.exists(converted), "LibreOffice converts health.xlsx to CSV: " + r.stderr[-300:])
lo = list(csv.reader(open(converted, newline="", encoding="utf-8")))
names, rows = store_rows(metric, "Daily")
check(len(lo) == len(rows) + 1, "LibreOffice's CSV has a row per day")
for r_i, row in enumerate(rows):
    for col, (name, stored) in enumerate(zip(names, row)):
        text = lo[r_i + 1][col]
        if name in ("date", "zone"):
            ok = text == stored
        elif stored is None:
            ok = text == ""
        else:
            expected = stored / 1000 if name.endswith("_m") else stored
            # LibreOffice writes the value itself, or the value as its format shows it (rounded).
            ok = close(float(text), expected) or abs(float(text) - expected) <= 0.0051 * (10 if not name.endswith("_m") else 1)
        if not ok:
            check(False, "LibreOffice row %d %s: %r, store %r" % (r_i + 2, name, text, stored))
check(True, "LibreOffice reads the same values as the store (as formatted)")

# The excel-semicolon CSV in a German LibreOffice: numbers, not text.
raw = open(os.path.join(semicolon, "csv", "daily.csv"), "rb").read()
check(raw.startswith(b"\xef\xbb\xbf") and b";" in raw.splitlines()[0] and b"," in raw.splitlines()[1],
      "excel-semicolon: a BOM, ';' between cells, decimal commas")
r = subprocess.run([soffice, "--headless", "--infilter=CSV:59,34,76,1,,1031", "--convert-to", "xlsx", "--outdir",
                    os.path.join(work, "de"), os.path.join(semicolon, "csv", "daily.csv")], capture_output=True, text=True,
                   env=env, timeout=180)
check(r.returncode == 0, "LibreOffice (German locale filter) opens the semicolon CSV")
ws = openpyxl.load_workbook(os.path.join(work, "de", "daily.xlsx")).active
header = [c.value for c in ws[1]]
walking = header.index("walking_distance_m")
numbers = [ws.cell(row=r, column=walking + 1).value for r in range(2, ws.max_row + 1)]
check(all(isinstance(v, (int, float)) for v in numbers if v is not None) and any(isinstance(v, float) for v in numbers),
      "a German LibreOffice reads the decimal-comma cells as numbers")
check(close(numbers[0], float(mrows[0]["walking_distance_m"])), "with the same value as the RFC 4180 file (%s)" % numbers[0])
# Instants in the semicolon CSV are local date-times a German LibreOffice reads as date-times,
# equal to the store's UTC instants in the run's zone (Europe/Berlin).
from zoneinfo import ZoneInfo
r = subprocess.run([soffice, "--headless", "--infilter=CSV:59,34,76,1,,1031", "--convert-to", "xlsx", "--outdir",
                    os.path.join(work, "de-sleep"), os.path.join(semicolon, "csv", "sleep.csv")], capture_output=True, text=True,
                   env=env, timeout=180)
check(r.returncode == 0, "LibreOffice (German locale filter) opens the semicolon sleep.csv")
ws = openpyxl.load_workbook(os.path.join(work, "de-sleep", "sleep.xlsx")).active
header = [c.value for c in ws[1]]
check("start_local" in header and "start_utc" not in header, "excel-semicolon names local instants *_local: %s" % header[:3])
stored = sqlite3.connect(os.path.join(semicolon, "health.sqlite")).execute(
    "SELECT start_utc, end_utc FROM sleep_sessions ORDER BY night_date").fetchall()
berlin = ZoneInfo("Europe/Berlin")
for i, (start, end) in enumerate(stored):
    cells = [ws.cell(row=i + 2, column=header.index(n) + 1).value for n in ("start_local", "end_local")]
    for cell, iso in zip(cells, (start, end)):
        expected = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(berlin).replace(tzinfo=None, microsecond=0)
        if not (isinstance(cell, datetime.datetime) and cell == expected):
            check(False, "semicolon sleep.csv row %d: %r, expected the local date-time %s" % (i + 2, cell, expected))
check(len(stored) > 0, "a German LibreOffice reads the semicolon CSV's instants as local date-times (%d nights)" % len(stored))
# Issue 45: years and ids read as names (no thousands separator), headings in words with their
# units, text columns as wide as their content.
for sheet in ("Monthly", "Yearly"):
    ws = wb[sheet]
    year = [c.value for c in ws[1]].index("Year")
    cell = ws.cell(row=2, column=year + 1)
    check(isinstance(cell.value, (int, float)) and cell.value > 2000 and "," not in cell.number_format
          and cell.number_format in ("0", "General"), "%s: the year %s shows without a separator (%s)" % (sheet, cell.value, cell.number_format))
vitals = [c.value for c in wb["Vitals"][1]]
for heading in ("HRV SDNN (ms)", "HRV RMSSD (ms)", "BMI", "Systolic (mmHg)", "Diastolic (mmHg)", "SpO₂ (%)"):
    check(heading in vitals, "Vitals: heading %s (%s)" % (heading, vitals))
check("UTC offset" in [c.value for c in wb["Data quality"][1]], "Data quality: heading UTC offset")
ws = wb["Sleep"]
sources = [c.value for c in ws[1]].index("Sources")
longest = max(len(str(r[sources].value or "")) for r in ws.iter_rows(min_row=2))
width = ws.column_dimensions[openpyxl.utils.get_column_letter(sources + 1)].width
check(width >= longest, "Sleep: the Sources column is as wide as its longest value (%s >= %d)" % (width, longest))
print("workbook checks passed")
