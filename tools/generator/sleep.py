"""Sleep: the nights' in-bed and asleep stages from the watch and other apps, and manual naps."""

from __future__ import annotations

from .healthkit import LEVEL_MANUAL, LEVEL_OTHER, LEVEL_WATCH, SLEEP, SV


class SleepMixin:
    def gen_sleep(self):
        rng = self.rng
        for k in range(self.N):
            bed, wake = self.bed[k], self.wake[k]
            kk = max(0, k)
            ph_attrs = self.phone.attrs(kk, self.rnd)
            self.emit(SLEEP, self.phone, kk, None, SV + "InBed", bed, wake + rng.randint(0, 300),
                      wake + rng.randint(300, 900), src_attrs=ph_attrs)
            if k not in self.nonwatch_night:
                onset = bed + rng.randint(5 * 60, 25 * 60)
                final = wake - rng.randint(0, 6 * 60)
                t, cyc = onset, 0
                stages = []
                while t < final:
                    seq = [("AsleepCore", rng.uniform(10, 25)),
                           ("AsleepDeep", rng.uniform(25, 45) if cyc < 2 else rng.uniform(5, 20)),
                           ("AsleepCore", rng.uniform(10, 30)),
                           ("AsleepREM", rng.uniform(8, 18) + cyc * 6)]
                    if rng.random() < 0.35:
                        seq.append(("Awake", rng.uniform(1, 5)))
                    for name, mins in seq:
                        e = min(t + max(60, int(mins * 60) + rng.randint(-30, 30)), final)
                        if e > t:
                            stages.append((t, e, name))
                        t = e
                        if t >= final:
                            break
                    cyc += 1
                if wake > final:
                    stages.append((final, wake, "Awake"))
                meta = (("HKTimeZone", self.args.zone),)
                for s, e, name in stages:
                    self.sleep.append((s, e, LEVEL_WATCH, name))
                    self.emit(SLEEP, self.watch, k, None, SV + name, s, e, wake + rng.randint(60, 900), meta)
                if rng.random() < 0.3:  # AutoSleep copy, fully inside the watch session -> shadowed
                    s, e = onset + 120, final - 180
                    c = wake + rng.randint(1800, 7200)
                    self.sleep.append((s, e, LEVEL_OTHER, "AsleepUnspecified"))
                    self.emit(SLEEP, self.autosleep, k, None, SV + "AsleepUnspecified", s, e, c)
                    self.emit(SLEEP, self.autosleep, k, None, SV + "InBed", bed - 60, wake + 60, c)
            else:  # older style night (no watch): Sleep Cycle writes InBed + AsleepUnspecified blocks
                onset = bed + rng.randint(10 * 60, 30 * 60)
                end = wake - rng.randint(0, 10 * 60)
                cuts = []
                lo = onset + 3600
                for _ in range(rng.randint(1, 2)):
                    if end - 3600 - lo < 600:
                        break
                    cuts.append(rng.randint(lo, end - 3600))
                    lo = cuts[-1] + 3600
                nb = len(cuts) + 1
                edges = [onset] + cuts + [end]
                c = wake + rng.randint(60, 600)
                self.emit(SLEEP, self.sleepcycle, k, None, SV + "InBed", bed, wake, c)
                for i in range(nb):
                    s = edges[i] + (rng.randint(3 * 60, 15 * 60) if i else 0)
                    e = edges[i + 1]
                    self.sleep.append((s, e, LEVEL_OTHER, "AsleepUnspecified"))
                    self.emit(SLEEP, self.sleepcycle, k, None, SV + "AsleepUnspecified", s, e, c)
        # manual naps on both sides of 18:00 and one afternoon nap: each ends on the wake-up day of a
        # longer night, so each is a nap of that night (docs/sleep-nights.md)
        naps = [(9, 17 * 3600 + 40 * 60, 45), (15, 18 * 3600 + 20 * 60, 35), (12, 14 * 3600 + 10 * 60, 40)]
        for k, st, mins in naps:
            if k >= self.N:
                continue
            s = self.wall(k, st + rng.randint(0, 120))
            e = s + mins * 60
            self.sleep.append((s, e, LEVEL_MANUAL, "AsleepUnspecified"))
            self.emit(SLEEP, self.health, k, None, SV + "AsleepUnspecified", s, e, e + rng.randint(600, 5400),
                      (("HKWasUserEntered", "1"),))
