"""The Generator: one synthetic person over N days. It holds the sources, the clock and the
collected records; each concern adds its methods through a mixin (plan, activity, sleep, heart,
discrete, workouts, summaries, truth, XML writing). The order of `generate` fixes the order in
which the one random stream is drawn, so it must not change (the outputs are byte-for-byte
reproducible)."""

from __future__ import annotations

import bisect
import datetime as dt
import random
from zoneinfo import ZoneInfo

from .activity import ActivityMixin
from .cycles import CyclesMixin
from .discrete import DiscreteMixin
from .healthkit import LEVEL_MANUAL, LEVEL_OTHER, LEVEL_PHONE, LEVEL_WATCH, TO_STD, g
from .heart import HeartMixin
from .model import Clock, Source
from .plan import PlanMixin
from .sleep import SleepMixin
from .summaries import SummariesMixin
from .truth import TruthMixin
from .workouts import WorkoutsMixin
from .xmlwriter import XMLWriterMixin


class Generator(PlanMixin, ActivityMixin, SleepMixin, HeartMixin, DiscreteMixin, WorkoutsMixin, SummariesMixin,
                TruthMixin, XMLWriterMixin, CyclesMixin):
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
        self.workout_copies = []  # kind of each Workout element that copies another (Strava's of a Watch ride)
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
        if getattr(self.args, "cycles", None):
            self.gen_cycles()
