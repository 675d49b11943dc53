"""The ground truth, computed from the in-memory model (not from the XML): the per-day totals after
the Health-app priority merge, which the model is built to make unambiguous."""

from __future__ import annotations

import bisect

from .healthkit import ASLEEP_VALUES, CUM_FIELDS, DAY_FIELDS, DWR, Q
from .intervals import cover_state, interval_union


class TruthMixin:
    def split_days(self, s, e, v):
        """Pro-rata split of value v over [s,e) at local midnights -> [(day, part)] (days in range)."""
        M = self.M
        L = e - s
        i = bisect.bisect_right(M, s) - 1
        out = []
        t = s
        while t < e:
            nxt = M[i + 1] if 0 <= i + 1 < len(M) else e
            if i < 0:
                nxt = M[0]
            pe = min(e, nxt) if nxt > t else e
            if 0 <= i < self.N:
                out.append((i, v * (pe - t) / L if L else v))
            t = pe
            i += 1
        return out

    @staticmethod
    def priority_filter(samples, what):
        """samples: (s, e, level, payload...). Returns samples that count (not covered by higher
        priority). Asserts the by-construction invariant: no partial overlaps across levels and no
        overlaps within a level."""
        out = []
        union, starts = [], []
        for lvl in sorted({x[2] for x in samples}):
            grp = sorted(x for x in samples if x[2] == lvl)
            prev_e = None
            for x in grp:
                s, e = x[0], x[1]
                if not s < e:
                    raise AssertionError(f"{what}: empty or negative sample [{s},{e})")
                if prev_e is not None and s < prev_e:
                    raise AssertionError(f"{what}: overlapping samples within level {lvl} at {s}")
                prev_e = e
                st = cover_state(union, starts, s, e)
                if st == "partial":
                    raise AssertionError(f"{what}: level {lvl} sample [{s},{e}) partially covered")
                if st == "none":
                    out.append(x)
            union = interval_union(union + [(x[0], x[1]) for x in grp])
            starts = [u[0] for u in union]
        return out

    def compute_truth(self):
        N = self.N
        days = [{f: 0.0 for f in DAY_FIELDS} for _ in range(N)]
        # running intervals = running-workout spans (pauses included; nothing moves during a pause)
        run_iv = interval_union([(wk.a, wk.b) for wk in self.workouts if wk.kind == "run"])
        run_starts = [x[0] for x in run_iv]

        def run_overlap(s, e):
            tot = 0
            i = max(0, bisect.bisect_right(run_starts, s) - 1)
            while i < len(run_iv) and run_iv[i][0] < e:
                tot += max(0, min(e, run_iv[i][1]) - max(s, run_iv[i][0]))
                i += 1
            return tot

        counted_stats = {}
        for typ, lst in self.cum.items():
            field = CUM_FIELDS.get(typ)
            if typ == DWR:
                field = "dwr"
            if field is None:
                continue
            counted = self.priority_filter(lst, typ)
            counted_stats[typ] = (len(lst), len(counted))
            for s, e, lvl, v in counted:
                L = e - s
                for d, part in self.split_days(s, e, v):
                    if field == "dwr":
                        ds = max(s, self.M[d])
                        de = min(e, self.M[d + 1])
                        ro = run_overlap(ds, de)
                        days[d]["running_distance_m"] += v * ro / L
                        days[d]["walking_distance_m"] += part - v * ro / L
                    else:
                        days[d][field] += part
        counted = self.priority_filter([x for x in self.sleep], "sleep")
        for s, e, lvl, name in counted:
            if name not in ASLEEP_VALUES:
                continue
            # A night counts on its wake-up day: the planned night k (bed[k] .. wake[k]) holding
            # the sample, which wakes on day k. The manual naps lie outside every planned night
            # and end on the day of a longer night, so they are naps: not in the night's total
            # (docs/sleep-nights.md).
            d = bisect.bisect_right(self.bed, s) - 1
            if not (0 <= d < N and s < self.wake[d]):
                continue
            mins = (e - s) / 60
            days[d]["sleep_total_minutes"] += mins
            if name == "AsleepDeep":
                days[d]["sleep_deep_minutes"] += mins
            elif name == "AsleepREM":
                days[d]["sleep_rem_minutes"] += mins
        self.stats["cumulative_samples_total_vs_counted"] = {k[len(Q):]: v for k, v in counted_stats.items()}
        return {self.date(k).isoformat(): {f: round(days[k][f], 6) for f in DAY_FIELDS} for k in range(N)}
