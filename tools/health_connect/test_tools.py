#!/usr/bin/env python3
"""Self-test of generate.py and aggregate.py against totals counted by hand.

    python3 tools/health_connect/test_tools.py

Two apps write overlapping steps across midnight (zone +01:00); the watch has priority over the
phone, a third app is absent from the priority list. Every expected number below is worked out
in the comments, from the rules in aggregate.py's docstring, not by running the code.
"""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
WATCH, PHONE, OTHER = "com.example.watch", "com.example.phone", "com.example.other"


def steps(app, start, end, count, **extra):
    rec = {"table": "steps_record_table", "app": app, "device": 0 if app == PHONE else 1,
           "start": start, "end": end, "count": count}
    rec.update(extra)
    return rec


SCENARIO = {
    "apps": [{"package": PHONE, "name": "Phone"}, {"package": WATCH, "name": "Watch"},
             {"package": OTHER, "name": "Other"}],
    "devices": [{"manufacturer": "Google", "model": "Pixel 8", "type": 2},
                {"manufacturer": "Google", "model": "Pixel Watch 2", "type": 1}],
    "priority": {"ACTIVITY": [WATCH, PHONE], "5": [WATCH]},
    "records": [
        # Watch 23:30-00:30, 600 steps: 300 before midnight, 300 after (it outranks the phone).
        steps(WATCH, "2025-03-01T23:30:00+01:00", "2025-03-02T00:30:00+01:00", 600),
        # Phone 23:00-01:00, 1200 steps = 10/min: counts only where the watch is silent,
        # 23:00-23:30 -> 300 on 03-01 and 00:30-01:00 -> 300 on 03-02.
        steps(PHONE, "2025-03-01T23:00:00+01:00", "2025-03-02T01:00:00+01:00", 1200),
        # Not in the priority list: never counts.
        steps(OTHER, "2025-03-01T22:00:00+01:00", "2025-03-02T02:00:00+01:00", 5000),
        # Same app, same span: the later last_modified_time wins the whole span -> 50, not 100.
        steps(PHONE, "2025-03-02T10:00:00+01:00", "2025-03-02T10:10:00+01:00", 100,
              last_modified="2025-03-02T10:20:00+01:00"),
        steps(PHONE, "2025-03-02T10:00:00+01:00", "2025-03-02T10:10:00+01:00", 50,
              last_modified="2025-03-02T10:30:00+01:00", client_record_id="edit-2"),
        # Watch 12:00-12:03, 10 steps, hides the phone's 12:01-12:02 -> 10.
        steps(WATCH, "2025-03-02T12:00:00+01:00", "2025-03-02T12:03:00+01:00", 10),
        steps(PHONE, "2025-03-02T12:01:00+01:00", "2025-03-02T12:02:00+01:00", 40),
        # Watch 23:59-00:02, 10 steps: 10/3 = 3.33 on 03-02, 6.67 on 03-03 (truncated to 6).
        steps(WATCH, "2025-03-02T23:59:00+01:00", "2025-03-03T00:02:00+01:00", 10),
        # Starts 10:00 at +01:00 (09:00Z), ends 04:30 at -05:00 (09:30Z): local start after local
        # end, so Health Connect skips it.
        steps(WATCH, "2025-03-03T10:00:00+01:00", "2025-03-03T04:30:00-05:00", 1000),
        # Sleep 23:00-07:00 with an awake stage 01:00-01:30: 60 min on 03-01, 7 h - 30 min on 03-02.
        {"table": "sleep_session_record_table", "app": WATCH, "device": 1,
         "start": "2025-03-01T23:00:00+01:00", "end": "2025-03-02T07:00:00+01:00",
         "children": {"sleep_stages_table": [
             {"start": "2025-03-01T23:00:00+01:00", "end": "2025-03-02T01:00:00+01:00", "stage_type": 4},
             {"start": "2025-03-02T01:00:00+01:00", "end": "2025-03-02T01:30:00+01:00", "stage_type": 1},
             {"start": "2025-03-02T01:30:00+01:00", "end": "2025-03-02T07:00:00+01:00", "stage_type": 5}]}},
        # Heart rate from the watch, to exercise the series child path.
        {"table": "heart_rate_record_table", "app": WATCH, "device": 1,
         "start": "2025-03-02T08:00:00+01:00", "end": "2025-03-02T08:01:00+01:00",
         "children": {"heart_rate_record_series_table": [
             {"time": "2025-03-02T08:00:05+01:00", "beats_per_minute": 61},
             {"time": "2025-03-02T08:00:35+01:00", "beats_per_minute": 64}]}},
    ],
}

EXPECTED_STEPS = {"2025-03-01": 300 + 300,                      # phone 300 + watch 300
                  # watch 300 + phone 300 + 50 + 10 + 3.33 = 663.33, truncated
                  "2025-03-02": 663,
                  "2025-03-03": 6}
EXPECTED_SLEEP = {"2025-03-01": 60.0, "2025-03-02": 390.0}


class ToolsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hctest")
        scenario = os.path.join(cls.tmp, "scenario.json")
        with open(scenario, "w") as f:
            json.dump(SCENARIO, f)
        cls.db = os.path.join(cls.tmp, "hc.db")
        cls.zip = os.path.join(cls.tmp, "health_connect_export.zip")
        for out in (cls.db, cls.zip):
            subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), scenario, out], check=True)

    def aggregate(self, path):
        out = subprocess.run([sys.executable, os.path.join(HERE, "aggregate.py"), path, "--json"],
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    def test_steps_by_hand(self):
        got = self.aggregate(self.db)
        self.assertEqual({d: got[d]["steps"] for d in EXPECTED_STEPS}, EXPECTED_STEPS)
        shares = got["2025-03-01"]["shares"]["steps"]
        self.assertAlmostEqual(shares[PHONE], 300.0)
        self.assertAlmostEqual(shares[WATCH], 300.0)
        self.assertNotIn(OTHER, shares)
        self.assertAlmostEqual(got["2025-03-02"]["shares"]["steps"][WATCH], 310 + 10 / 3)

    def test_sleep_leaves_out_awake(self):
        got = self.aggregate(self.db)
        self.assertEqual({d: got[d]["sleep_minutes"] for d in EXPECTED_SLEEP}, EXPECTED_SLEEP)

    def test_zip_is_an_export(self):
        with zipfile.ZipFile(self.zip) as z:
            self.assertEqual(z.namelist(), ["health_connect_export.db"])
        self.assertEqual(self.aggregate(self.zip), self.aggregate(self.db))

    def test_database_matches_schema(self):
        con = sqlite3.connect(self.db)
        self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], 14)
        row = con.execute("SELECT start_time, start_zone_offset, local_date, local_date_time_start_time, "
                          "length(uuid), length(dedupe_hash) FROM steps_record_table WHERE row_id = 1").fetchone()
        # 2025-03-01T23:30+01:00 = 22:30Z; local day 2025-03-01 = epoch day 20148.
        self.assertEqual(row, (1740868200000, 3600, 20148, 1740868200000 + 3600_000, 16, 32))
        self.assertEqual(con.execute("SELECT app_id_priority_order FROM health_data_category_priority_table "
                                     "WHERE health_data_category = 1").fetchone()[0], "2,1")
        self.assertEqual(con.execute("SELECT count(*) FROM heart_rate_record_series_table").fetchone()[0], 2)
        self.assertEqual(con.execute("PRAGMA foreign_key_check").fetchall(), [])


if __name__ == "__main__":
    unittest.main()
