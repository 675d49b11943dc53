#!/usr/bin/env python3
"""Checks that health.xlsx is a workbook a person can print and share (tooling only).

    check_workbook_print.py OUT ZONE WORKDIR [--no-ecg]

openpyxl: every sheet landscape at full size (never shrunk to a page's width), its header row
and key columns (the date; year and month; the workout and its start) repeated on every page,
its name heading each page and "Page n of m" below; headers wrapped, the header row as high as
they need; numbers with thousands separators, years without; Sleep bedtime and wake in local
time (ZONE) and durations as h:mm; Workouts by name with local start and end; no column empty
in every row; the ECG sheet absent when there are no recordings. LibreOffice: the workbook
printed to PDF; pypdf reads each page: it names its sheet and its page, it carries the sheet's
key column headers, a sheet wider than a page is split over pages, and the page count is the sum
of the sheets'. One line per check; non-zero on failure. LibreOffice is the program in
HEALTHETL_LIBREOFFICE (WorkbookPrintTests hands over the one TestSupport's TestTools found).
"""
import datetime, math, os, re, sqlite3, subprocess, sys
from zoneinfo import ZoneInfo
import openpyxl
import pypdf

out, zone, work = sys.argv[1:4]
no_ecg = "--no-ecg" in sys.argv
tz = ZoneInfo(zone)


def check(ok, message):
    print(("ok: " if ok else "FAIL: ") + message)
    if not ok:
        sys.exit(1)


def wrap(text, width):
    """The lines of a header wrapped at a column width, words kept whole."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width - 1:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    return lines + [line]


def local(iso):
    t = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return t.astimezone(tz).replace(tzinfo=None, second=0, microsecond=0)


path = os.path.join(out, "health.xlsx")
wb = openpyxl.load_workbook(path)
db = sqlite3.connect(os.path.join(out, "health.sqlite"))
if no_ecg:
    check("ECG recordings" not in wb.sheetnames, "no ECG sheet without recordings: %s" % wb.sheetnames)
KEYS = {"Monthly": 2, "Workouts": 2}
widths = {}
for ws in wb.worksheets:
    ps = ws.page_setup
    fit = ws.sheet_properties.pageSetUpPr is not None and ws.sheet_properties.pageSetUpPr.fitToPage
    check(ps.orientation == "landscape" and str(ps.scale) == "100" and not fit,
          "%s: landscape at full size, not fitted to a page (scale %s, fit %s)" % (ws.title, ps.scale, fit))
    check(ws.print_title_rows in ("1:1", "$1:$1"), "%s: the header row repeats on every page (%s)" % (ws.title, ws.print_title_rows))
    keys = KEYS.get(ws.title, 1)
    want = "$A:$%s" % "AB"[keys - 1]
    check(ws.print_title_cols in (want, want.replace("$", "")), "%s: the key columns repeat on every page (%s)" % (ws.title, ws.print_title_cols))
    check(ws.oddHeader.center.text == "&A" and ws.oddFooter.center.text == "Page &P of &N",
          "%s: its name above each page, the page number below" % ws.title)
    headers = list(ws[1])
    check(all(c.alignment.wrap_text for c in headers), "%s: headers wrap" % ws.title)
    widths[ws.title] = [ws.column_dimensions[c.column_letter].width for c in headers]
    for c, width in zip(headers, widths[ws.title]):
        longest = max(len(word) for word in str(c.value).split(" "))
        if width < longest + 2:
            check(False, "%s: %r in a column %s wide" % (ws.title, c.value, width))
    lines = max(len(wrap(str(c.value), w)) for c, w in zip(headers, widths[ws.title]))
    check(ws.row_dimensions[1].height >= 15 * lines, "%s: the header row %s pt high for %d lines" % (ws.title, ws.row_dimensions[1].height, lines))
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
for title in ("Monthly", "Yearly"):
    year = wb[title].cell(row=2, column=1)
    check(wb[title].cell(row=1, column=1).value == "Year" and isinstance(year.value, int) and "," not in year.number_format,
          "%s: the year %s without a thousands separator (%s)" % (title, year.value, year.number_format))

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

soffice = os.environ.get("HEALTHETL_LIBREOFFICE")
check(soffice is not None and os.access(soffice, os.X_OK), "LibreOffice is installed and named in HEALTHETL_LIBREOFFICE")
r = subprocess.run([soffice, "--headless", "--convert-to", "pdf", "--outdir", os.path.join(work, "pdf"), path],
                   capture_output=True, text=True, env=dict(os.environ, HOME=work), timeout=300)
pdf = os.path.join(work, "pdf", "health.pdf")
check(r.returncode == 0 and os.path.exists(pdf), "LibreOffice prints health.xlsx to PDF: " + r.stderr[-300:])
pages = [p.extract_text() for p in pypdf.PdfReader(pdf).pages]
print("pages: %d" % len(pages))
per_sheet = {}
for n, text in enumerate(pages, 1):
    lines = text.split("\n")
    sheet = lines[0].strip()
    check(sheet in wb.sheetnames, "page %d is headed by its sheet's name (%r)" % (n, lines[0]))
    check(("Page %d of %d" % (n, len(pages))) in text, "page %d says 'Page %d of %d'" % (n, n, len(pages)))
    keys = [str(c.value) for c in wb[sheet][1][:KEYS.get(sheet, 1)]]
    check(all(k.split(" ")[0] in text for k in keys), "page %d (%s) carries its key columns %s" % (n, sheet, keys))
    per_sheet[sheet] = per_sheet.get(sheet, 0) + 1
check(sorted(per_sheet) == sorted(wb.sheetnames), "every sheet printed: %s" % per_sheet)
# A landscape A4 page holds about 140 characters of column width at 100% (11 pt Calibri); a
# sheet half again as wide is split across pages, never shrunk onto one.
for title, w in widths.items():
    if sum(w) > 210:
        check(per_sheet[title] >= 2, "%s (%d characters wide) is split across %d pages" % (title, sum(w), per_sheet[title]))
print("pages by sheet: %s" % per_sheet)
print("workbook print checks passed")
