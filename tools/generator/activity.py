"""Activity: workouts and their movement bouts (steps, distance, energy from watch, phone and other
apps), then flights climbed and stand time."""

from __future__ import annotations

from .healthkit import AEB, BEB, DCYC, DSWIM, DWR, EXER, FLIGHTS, STAND, STANDH, STEPS, STROKES, TO_STD
from .intervals import covers, interval_subtract
from .model import Bout, Workout


class ActivityMixin:
    def chunks(self, a, b, lo, hi):
        R = self.rng.random
        out = []
        t = a
        lo = max(1, int(lo))
        hi = max(lo, int(hi))
        span = hi - lo + 1
        while t < b:
            e = t + lo + int(R() * span)
            if e > b or b - e < lo // 2:
                e = b
            out.append((t, e))
            t = e
        return out

    def gen_workouts_and_bouts(self):
        """Samples for every movement bout (steps, distance, active energy, exercise) + Workouts."""
        rng = self.rng
        sc = self.scale
        wlo, whi = max(10, 120 / sc), max(20, 600 / sc)
        run_i = 0
        # paused runs: split the bout in two around a pause
        new_bouts = []
        for k, bt in self.bouts:
            if bt.kind in ("run", "cycle", "swim"):
                if bt.kind == "cycle" and not bt.watch:
                    wk = Workout("cycle", k, self.strava, "old")
                    wk.strava = True
                    bt.wk = wk
                    wk.bouts.append(bt)
                    self.workouts.append(wk)
                    new_bouts.append((k, bt))
                    continue
                if bt.kind == "run":
                    style = "old" if run_i % 3 == 1 else "new"
                    run_i += 1
                elif bt.kind == "swim":
                    style = "old" if sum(1 for w in self.workouts if w.kind == "swim") % 3 == 1 else "new"
                else:
                    style = "new"
                wk = Workout(bt.kind, k, self.watch, style)
                if bt.kind == "run" and (style == "new" or rng.random() < 0.5) and bt.b - bt.a > 20 * 60:
                    p = bt.a + int((bt.b - bt.a) * rng.uniform(0.4, 0.6))
                    r = p + rng.randint(60, 180)
                    b2 = Bout(r, bt.b, "run", True, "run")
                    bt.b = p
                    for x in (bt, b2):
                        x.watch, x.phone, x.wk = True, bt.phone, wk
                        wk.bouts.append(x)
                        new_bouts.append((k, x))
                else:
                    bt.wk = wk
                    wk.bouts.append(bt)
                    new_bouts.append((k, bt))
                if bt.kind == "cycle":  # Strava also records the first Watch ride and about half of the others
                    wk.strava = rng.random() < 0.5 or not any(w.kind == "cycle" and w.src is self.watch for w in self.workouts)
                self.workouts.append(wk)
            else:
                new_bouts.append((k, bt))
        self.bouts = sorted(new_bouts, key=lambda kb: kb[1].a)

        watch, phone, garmin, health, strava = self.watch, self.phone, self.garmin, self.health, self.strava
        emit_cum = self.emit_cum
        micro_every = 5
        n_walk_watch = 0
        for k, bt in self.bouts:
            du, eu = self.units_for_day(k)
            a, b = bt.a, bt.b
            wk = bt.wk
            if bt.kind in ("walk", "run"):
                run = bt.kind == "run"
                cad, stride, rate = (165, 1.08, 11.5) if run else (106, 0.74, 4.6)
                if bt.watch:
                    n_walk_watch += 1
                    ch = self.chunks(a, b, wlo, whi)
                    micro = (not run) and n_walk_watch % micro_every == 0 and ch[-1][1] - ch[-1][0] > 2
                    R = rng.random
                    for i, (s, e) in enumerate(ch):
                        dur = e - s
                        st = max(1, round(cad * dur / 60 * (0.92 + 0.16 * R())))
                        dist = st * stride * (0.96 + 0.08 * R())
                        c = e + 2 + int(R() * 238)
                        v = emit_cum(STEPS, watch, k, "count", st, s, e, c)
                        if wk:
                            wk.steps += v
                        if micro and i == len(ch) - 1:
                            dv = emit_cum(DWR, watch, k, du, dist / TO_STD[du], s, e - 1, c)
                            tiny = rng.uniform(0.06, 0.15)
                            dv += emit_cum(DWR, watch, k, "mi" if du == "mi" else "km", tiny / 1609.344 if du == "mi" else tiny / 1000, e - 1, e, c)
                        else:
                            dv = emit_cum(DWR, watch, k, du, dist / TO_STD[du], s, e, c)
                        ev = emit_cum(AEB, watch, k, eu, rate * dur / 60 * (0.9 + 0.2 * R()) / TO_STD[eu], s, e, c)
                        if wk:
                            wk.dist_m += dv
                            wk.kcal += ev
                if bt.phone:
                    for s, e in self.chunks(a, b, 120, 600):
                        dur = e - s
                        st = max(1, round(cad * dur / 60 * rng.uniform(0.85, 1.1)))
                        c = e + rng.randint(1, 30)
                        emit_cum(STEPS, phone, k, "count", st, s, e, c)
                        emit_cum(DWR, phone, k, "m", st * stride * rng.uniform(0.9, 1.1), s, e, c)
                        emit_cum(AEB, phone, k, "Cal", rate * dur / 60 * rng.uniform(0.8, 1.1), s, e, c)
                if bt.other:
                    for s, e in self.chunks(a, b, 300, 900):
                        dur = e - s
                        st = max(1, round(cad * dur / 60 * rng.uniform(0.9, 1.05)))
                        c = e + rng.randint(600, 3600)
                        sa = self.garmin_vt.attrs(k, self.rnd) if self.vt("garmin") else None
                        emit_cum(STEPS, garmin, k, "count", st, s, e, c, src_attrs=sa)
                        emit_cum(DWR, garmin, k, "km", st * stride / 1000 * rng.uniform(0.95, 1.05), s, e, c)
                        emit_cum(AEB, garmin, k, "kcal", rate * dur / 60 * rng.uniform(0.9, 1.1), s, e, c)
                if bt.manual:
                    dur = b - a
                    st = int(round(cad * dur / 60 * rng.uniform(0.9, 1.1), -1))
                    c = b + rng.randint(3600, 4 * 3600)
                    meta = (("HKWasUserEntered", "1"),)
                    emit_cum(STEPS, health, k, "count", st, a, b, c, meta)
                    emit_cum(DWR, health, k, "mi", round(st * stride / 1609.344, 2), a, b, c, meta)
            elif bt.kind == "manual":
                dur = b - a
                st = int(round(106 * dur / 60 * rng.uniform(0.9, 1.1), -1))
                c = b + rng.randint(3600, 4 * 3600)
                meta = (("HKWasUserEntered", "1"),)
                emit_cum(STEPS, health, k, "count", st, a, b, c, meta)
                emit_cum(DWR, health, k, "mi", round(st * 0.74 / 1609.344, 2), a, b, c, meta)
            elif bt.kind == "cycle":
                if bt.watch:
                    R = rng.random
                    for s, e in self.chunks(a, b, wlo, whi):
                        dur = e - s
                        c = e + 2 + int(R() * 238)
                        wk.dist_m += emit_cum(DCYC, watch, k, du, 6.4 * dur * (0.85 + 0.3 * R()) / TO_STD[du], s, e, c)
                        wk.kcal += emit_cum(AEB, watch, k, eu, 9.0 * dur / 60 * (0.9 + 0.2 * R()) / TO_STD[eu], s, e, c)
                if wk.strava:
                    c = b + rng.randint(300, 3600)
                    dist = 6.3 * (b - a) * rng.uniform(0.95, 1.05)
                    wk.strava_dist = emit_cum(DCYC, strava, k, "km", dist / 1000, a, b, c)
                    wk.strava_kcal = emit_cum(AEB, strava, k, "kJ", 8.5 * (b - a) / 60 * 4.184, a, b, c)
                    if not bt.watch:
                        wk.dist_m, wk.kcal = wk.strava_dist, wk.strava_kcal
            elif bt.kind == "swim":
                t = a + rng.randint(30, 90)
                lap_i = 0
                while True:
                    ld = rng.randint(36, 52)
                    if t + ld > b - 30:
                        break
                    strokes = rng.randint(15, 22)
                    c = t + ld + rng.randint(2, 120)
                    wk.dist_m += emit_cum(DSWIM, watch, k, "m", 25, t, t + ld, c)
                    emit_cum(STROKES, watch, k, "count", strokes, t, t + ld, c)
                    wk.laps.append((t, t + ld, strokes))
                    lap_i += 1
                    t += ld + (rng.randint(15, 60) if lap_i % 4 == 0 else rng.randint(0, 5))
                for s, e in self.chunks(a, b, wlo, whi):
                    dur = e - s
                    wk.kcal += emit_cum(AEB, watch, k, eu, 8.8 * dur / 60 * rng.uniform(0.9, 1.1) / TO_STD[eu], s, e, e + rng.randint(2, 240))
            # exercise minutes (watch): 1-min samples on the minute grid
            if bt.watch and (bt.brisk or bt.kind in ("run", "cycle", "swim")):
                m0 = -(-(a + self.clock.off) // 60) * 60 - self.clock.off
                while m0 + 60 <= b:
                    emit_cum(EXER, watch, k, "min", 1, m0, m0 + 60, m0 + 60 + rng.randint(1, 90))
                    m0 += 60
        # idle active energy (watch), awake & worn, split at watch-captured bouts
        holes = [(bt.a, bt.b) for _, bt in self.bouts if bt.watch]
        idle = interval_subtract(self.AW, holes)
        for s0, e0 in idle:
            for s, e in self.chunks(s0, e0, 1800, 5400):
                k = self.day_of(s)
                eu = self.units_for_day(k)[1]
                emit_cum(AEB, watch, k, eu, rng.uniform(0.15, 0.9) * (e - s) / 60 / TO_STD[eu], s, e, e + rng.randint(2, 400))
        # basal energy (watch) across all worn time, garmin on watchless awake windows
        for s0, e0 in self.W:
            for s, e in self.chunks(s0, e0, 2700, 5400):
                k = self.day_of(s)
                eu = self.units_for_day(k)[1]
                emit_cum(BEB, watch, k, eu, rng.uniform(1.0, 1.2) * (e - s) / 60 / TO_STD[eu], s, e, e + rng.randint(2, 400))
        for k in sorted(self.watchless_day):
            for s, e in self.chunks(self.wake[k], min(self.bed[k + 1], self.range[1]), 1800, 3600):
                emit_cum(BEB, garmin, k, "kcal", rng.uniform(1.0, 1.15) * (e - s) / 60, s, e, e + rng.randint(600, 3600))

    def gen_flights_stand(self):
        rng = self.rng
        W, AW = self.W, self.AW
        for k in range(self.N):
            A = self.wake[k] + 900
            B = min(self.bed[k + 1], self.range[1]) - 900
            if B - A < 3600:
                continue
            taken = []
            for _ in range(rng.randint(2, 8)):
                s = rng.randint(A, B - 120)
                e = s + rng.randint(12, 60)
                if any(s < y + 60 and e > x - 60 for x, y in taken):
                    continue
                in_w = covers(W, s, e)
                if not in_w and any(s < y and e > x for x, y in W):
                    continue
                taken.append((s, e))
                fl = rng.randint(1, 3)
                if in_w:
                    emit_v = max(1, fl + rng.choice((0, 0, 0, 1, -1)))
                    self.emit_cum(FLIGHTS, self.watch, k, "count", emit_v, s, e, e + rng.randint(2, 300))
                if rng.random() < 0.85:
                    self.emit_cum(FLIGHTS, self.phone, k, "count", fl, s, e, e + rng.randint(1, 30))
                elif k in self.watchless_day and rng.random() < 0.7:
                    self.emit_cum(FLIGHTS, self.garmin, k, "count", fl, s, e, e + rng.randint(600, 3600))
            # stand hours + stand minutes
            for h in range(7, 23):
                t0 = self.wall(k, h * 3600)
                t1 = self.wall(k, (h + 1) * 3600)
                if not covers(AW, t0, t1):
                    continue
                stood = rng.random() < 0.78
                self.emit(STANDH, self.watch, k, None,
                          "HKCategoryValueAppleStandHourStood" if stood else "HKCategoryValueAppleStandHourIdle",
                          t0, t1, t1 + rng.randint(5, 600))
                self.stand_hours[k] += 1 if stood else 0
                if stood:
                    t = t0 + rng.randint(0, 1200)
                    for _ in range(rng.randint(1, 2)):
                        d = rng.randint(60, 300)
                        if t + d > t1:
                            break
                        self.emit_cum(STAND, self.watch, k, "min", max(1, d // 60 - rng.randint(0, 1)), t, t + d, t + d + rng.randint(2, 300))
                        t += d + rng.randint(300, 1500)
        # a stand sample crossing local midnight on midnight-walk days
        for k, bt in self.bouts:
            if bt.tag == "midnight-walk" and bt.watch:
                mid = self.M[k + 1]
                if covers(AW, mid - 100, mid + 140):
                    self.emit_cum(STAND, self.watch, k, "min", 3, mid - 100, mid + 140, mid + 400)
