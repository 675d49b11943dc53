"""Heart: heart rate, resting and walking heart rate, HRV with its beat-to-beat lists, SpO2,
respiratory rate."""

from __future__ import annotations

from .healthkit import g, HR, HRV, RESP, RHR, SPO2, WHR
from .intervals import covers


class HeartMixin:
    def gen_heart(self):
        """Heart rate from the watch (dense; --scale), HRV with beat lists, resting/walking HR."""
        rng = self.rng
        rnd = self.rnd
        ts = self.ts
        sc = self.scale
        base = max(20.0, 1500.0 / sc)
        wstep = max(5.0, 60.0 / sc)
        lst = self.recs.setdefault(HR, [])
        bouts = [bt for _, bt in self.bouts if bt.watch]
        nights = self.nights
        M = self.M
        n = 0
        bi = 0
        ni = 0
        for s0, e0 in self.W:
            t = s0 + rng.randint(0, int(base))
            d = self.day_of(t)
            _, pre, post, _, _ = self.watch.part(d)
            head = f' <Record type="{HR}" {pre}'
            tail = f'{post} unit="count/min" creationDate="'
            R = rng.random
            append = lst.append
            nb, nn, nM = len(bouts), len(nights), len(M)
            tails = ('">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n',
                     '">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>\n </Record>\n',
                     '">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="2"/>\n </Record>\n')
            while t < e0:
                while d + 1 < nM and t >= M[d + 1]:
                    d += 1
                    _, pre, post, _, _ = self.watch.part(d)
                    head = f' <Record type="{HR}" {pre}'
                    tail = f'{post} unit="count/min" creationDate="'
                while bi < nb and bouts[bi].b <= t:
                    bi += 1
                while ni < nn and nights[ni][1] <= t:
                    ni += 1
                bt = bouts[bi] if bi < nb and bouts[bi].a <= t else None
                if bt is not None:
                    kind = bt.kind
                    if kind == "run":
                        v = int(124 + min(40, (t - bt.a) / 60) + 11 * R())
                    elif kind == "cycle":
                        v = 118 + int(35 * R())
                    elif kind == "swim":
                        v = 108 + int(35 * R())
                    else:
                        v = 92 + int(25 * R())
                    ctx = 2
                    if bt.wk is not None:
                        step = wstep
                        bt.wk.hr.append(v)
                    else:
                        step = base * 0.5
                elif ni < nn and nights[ni][0] <= t:
                    v = 49 + int(13 * R())
                    ctx = 0
                    step = base * 1.5
                else:
                    v = 62 + int(23 * R())
                    ctx = 1
                    step = base
                c = t + 1 + int(400 * R())
                st = ts(t)
                append((c * 4 + 1,
                        f'{head}{0x280000000 | rnd(28):x}{tail}{ts(c)}" startDate="{st}" endDate="{st}" value="{v}{tails[ctx]}'))
                n += 1
                t += max(5, int(step * (0.75 + 0.5 * R())))
        self.stats["heart_rate_records"] = n

        # HRV with beat lists, 2-4 per day during worn time (prefer night)
        special_done = False
        for k in range(self.N):
            times = []
            night = (self.bed[k], self.wake[k])
            for _ in range(rng.randint(2, 3)):
                if rng.random() < 0.5:
                    t = rng.randint(night[0] + 1800, max(night[0] + 1801, night[1] - 1800))
                else:
                    t = rng.randint(self.M[k] + 8 * 3600, self.M[k] + 22 * 3600)
                times.append(t)
            if not special_done and k >= 2:
                # one HRV session whose beat list crosses midnight of the printed (export-offset) clock
                off = self.clock.off
                t = ((self.M[k] + off) // 86400 + 1) * 86400 - off - 20
                if t + 70 <= self.range[1] and covers(self.W, t, t + 70):
                    times.append(t)
                    special_done = True
                    self.stats["hrv_midnight_wrap"] = ts(t)
            for t in times:
                if t + 70 > self.range[1] or t < self.range[0] or not covers(self.W, t, t + 70):
                    continue
                bpm0 = rng.randint(54, 72)
                beats = []
                bt = float(t) + rng.uniform(0.5, 2.0)
                for _ in range(rng.randint(20, 36)):
                    b = bpm0 + rng.randint(-4, 4)
                    beats.append(f'   <InstantaneousBeatsPerMinute bpm="{b}" time="{self.clock.beat_time(bt)}"/>\n')
                    bt += 60.0 / b * rng.choice((1, 1, 2))
                e = int(bt) + 1
                tail = "  <HeartRateVariabilityMetadataList>\n" + "".join(beats) + "  </HeartRateVariabilityMetadataList>\n"
                self.emit(HRV, self.watch, k, "ms", g(rng.uniform(22, 78)), t, e, e + rng.randint(5, 600), (), tail)
            if k not in self.watchless_day:
                s = self.wake[k] + rng.randint(600, 3600)
                e = self.wall(k, 22 * 3600 + rng.randint(0, 3000))
                if e < self.range[1]:
                    self.emit(RHR, self.watch, k, "count/min", str(rng.randint(52, 61)), s, e, e + rng.randint(60, 600))
                    self.emit(WHR, self.watch, k, "count/min", str(rng.randint(96, 112)), s, e, e + rng.randint(60, 600))
            if k not in self.nonwatch_night:
                b0, w0 = self.nights[k]
                for _ in range(rng.randint(3, 6)):
                    t = rng.randint(b0 + 1800, w0 - 600)
                    if self.range[0] <= t:
                        self.emit(SPO2, self.watch, k, "%", g(rng.randint(93, 99) / 100), t, t, t + rng.randint(60, 900))
                for _ in range(rng.randint(4, 7)):
                    t = rng.randint(b0 + 1200, w0 - 600)
                    if self.range[0] <= t:
                        self.emit(RESP, self.watch, k, "count/min", g(rng.choice((13, 13.5, 14, 14.5, 15, 15.5, 16, 17))), t, t + 1800, t + 1900)
