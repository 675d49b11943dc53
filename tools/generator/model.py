"""Small value types: sources (name/version/device attributes), the fixed-offset clock, movement
bouts and workouts."""

from __future__ import annotations

import datetime as dt
import time

from .healthkit import esc


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
