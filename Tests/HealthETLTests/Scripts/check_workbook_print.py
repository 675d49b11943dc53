#!/usr/bin/env python3
"""Checks that health.xlsx is a workbook a person can print and share (tooling only).

    check_workbook_print.py OUT ZONE WORKDIR [--no-ecg]

openpyxl: every sheet landscape, fit to one page wide, its header row repeated on every page;
numbers with thousands separators; Sleep bedtime and wake in local time (ZONE) and durations
as h:mm; Workouts by name with local start and end; no column empty in every row; the ECG sheet
absent when there are no recordings. LibreOffice: the workbook printed to PDF, its pages
counted. One line per check; non-zero on failure.
"""
import datetime, os, re, sqlite3, subprocess, sys
from zoneinfo import ZoneInfo
import openpyxl

out, zone, work = sys.argv[1:4]
no_ecg = "--no-ecg" in sys.argv
tz = ZoneInfo(zone)


def check(ok, message):
    print(("ok: " if ok else "FAIL: ") + message)
    if not ok:
        sys.exit(1)


def local(iso):
    t = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return t.astimezone(tz).replace(tzinfo=None, second=0, microsecond=0)


path = os.path.join(out, "health.xlsx")
wb = openpyxl.load_workbook(path)
db = sqlite3.connect(os.path.join(out, "health.sqlite"))
if no_ecg:
    check("ECG recordings" not in wb.sheetnames, "no ECG sheet without recordings: %s" % wb.sheetnames)
for ws in wb.worksheets:
    ps = ws.page_setup
    check(ps.orientation == "landscape" and str(ps.fitToWidth) == "1" and str(ps.fitToHeight) == "0"
          and ws.sheet_properties.pageSetUpPr is not None and ws.sheet_properties.pageSetUpPr.fitToPage,
          "%s: landscape, one page wide" % ws.title)
    check(ws.print_title_rows in ("1:1", "$1:$1"), "%s: the header row repeats on every page (%s)" % (ws.title, ws.print_title_rows))
    if ws.max_row > 1:
        empty = [ws.cell(row=1, column=c).value for c in range(1, ws.max_column + 1)
                 if all(ws.cell(row=r, column=c).value is None for r in range(2, ws.max_row + 1))]
        check(empty == [], "%s: no column empty in every row %s" % (ws.title, empty))

daily = wb["Daily"]
header = [c.value for c in daily[1]]
steps = header.index("Steps") + 1
def formats(column):
    return {daily.cell(row=r, column=column).number_format for r in range(2, daily.max_row + 1)
            if daily.cell(row=r, column=column).value is not None}
check(formats(steps) == {"#,##0"}, "Daily: steps with a thousands separator (#,##0): %s" % formats(steps))
energy = header.index("Active energy (kcal)") + 1
check(all(f.startswith("#,##0") for f in formats(energy)), "Daily: energy with a thousands separator: %s" % formats(energy))

sleep = wb["Sleep"]
header = [c.value for c in sleep[1]]
bed, wake, inbed = header.index("Bedtime (local)"), header.index("Wake (local)"), header.index("In bed (h:mm)")
stored = db.execute("SELECT night_date, start_utc, end_utc, in_bed_minutes FROM sleep_sessions ORDER BY night_date").fetchall()
check(len(stored) == sleep.max_row - 1, "Sleep: a row a night (%d)" % len(stored))
for r, (night, start, end, minutes) in enumerate(stored):
    row = sleep[r + 2]
    b, w, d = row[bed].value, row[wake].value, row[inbed].value
    if not (isinstance(b, datetime.datetime) and b.replace(second=0, microsecond=0) == local(start)
            and w.replace(second=0, microsecond=0) == local(end)):
        check(False, "Sleep %s: bedtime %r wake %r, local %s–%s" % (night, b, w, local(start), local(end)))
    got = d.total_seconds() / 60 if isinstance(d, datetime.timedelta) else (d.hour * 60 + d.minute + d.second / 60
                                                                            if isinstance(d, datetime.time) else float(d) * 1440)
    if abs(got - minutes) > 0.01:
        check(False, "Sleep %s: in bed %r, stored %s min" % (night, d, minutes))
check(row[bed].number_format == "yyyy-mm-dd hh:mm" and row[inbed].number_format == "[h]:mm",
      "Sleep: bedtime and wake in local time (%s), durations as h:mm" % zone)

workouts = wb["Workouts"]
header = [c.value for c in workouts[1]]
name, start = header.index("Workout"), header.index("Start (local)")
stored = db.execute("SELECT activity_type, start_utc FROM workouts ORDER BY start_us, id").fetchall()
check(len(stored) == workouts.max_row - 1 and len(stored) > 0, "Workouts: a row a workout (%d)" % len(stored))
for r, (kind, start_utc) in enumerate(stored):
    row = workouts[r + 2]
    shown = row[name].value
    if "HKWorkout" in shown or not shown[0].isupper() or shown.replace(" ", "").lower() != kind.replace("HKWorkoutActivityType", "").lower():
        check(False, "Workouts: %r for %s" % (shown, kind))
    if row[start].value.replace(second=0, microsecond=0) != local(start_utc):
        check(False, "Workouts: start %r, local %s" % (row[start].value, local(start_utc)))
check(True, "Workouts: names a person reads, local start times")

soffice = next((p for p in ("/usr/bin/soffice", "/usr/bin/libreoffice") if os.path.exists(p)), None)
check(soffice is not None, "LibreOffice is installed")
r = subprocess.run([soffice, "--headless", "--convert-to", "pdf", "--outdir", os.path.join(work, "pdf"), path],
                   capture_output=True, text=True, env=dict(os.environ, HOME=work), timeout=300)
pdf = os.path.join(work, "pdf", "health.pdf")
check(r.returncode == 0 and os.path.exists(pdf), "LibreOffice prints health.xlsx to PDF: " + r.stderr[-300:])
pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", open(pdf, "rb").read()))
print("pages: %d" % pages)
check(0 < pages <= len(wb.worksheets) * 2, "the workbook prints on %d pages (%d sheets)" % (pages, len(wb.worksheets)))
print("workbook print checks passed")
