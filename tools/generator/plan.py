"""The person's plan of the days: which days have a run, a ride, a swim, no watch; bedtimes and
wake-ups; the movement bouts of every day."""

from __future__ import annotations

from .intervals import covers, interval_subtract, interval_union
from .model import Bout


class PlanMixin:
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
