#!/usr/bin/env python3
"""Test tooling: makes two consecutive exports from one generated export FULL.

    split_export.py FULL CUT OLD_OUT NEW_OUT

NEW_OUT ("export N+1") is FULL, except that one old Record (started in the first days) is
re-dated as a backfill: its creationDate becomes the export date, as when a sample from an
old device sync or a manual entry for last month reaches Health today.
OLD_OUT ("export N") is what the phone held at CUT (`YYYY-MM-DD HH:MM:SS +zzzz`): every
top-level element created before CUT, without the backfilled record; activity summaries up
to the day before CUT.
"""
import sys
import xml.etree.ElementTree as ET
from datetime import datetime

full, cut_text, old_out, new_out = sys.argv[1:5]
fmt = "%Y-%m-%d %H:%M:%S %z"
cut = datetime.strptime(cut_text, fmt)
tree = ET.parse(full)
root = tree.getroot()
export_date = root.find("ExportDate").get("value")

backfill = next(r for r in root.findall("Record")
                if r.get("type") == "HKQuantityTypeIdentifierStepCount" and r.get("creationDate"))
backfill.set("creationDate", export_date)
tree.write(new_out, encoding="UTF-8", xml_declaration=True)

for el in list(root):
    created = el.get("creationDate")
    if el is backfill or (created and datetime.strptime(created, fmt) >= cut):
        root.remove(el)
    elif el.tag == "ActivitySummary" and el.get("dateComponents", "") >= cut.strftime("%Y-%m-%d"):
        root.remove(el)
tree.write(old_out, encoding="UTF-8", xml_declaration=True)
