"""Cycle tracking (--cycles NAME): a scenario of tools/cycle_scenarios.py written as the Health
app writes it. Runs after everything else and draws nothing from the random stream, so the rest
of the export is byte-for-byte the same with and without it."""

from __future__ import annotations

try:
    from cycle_scenarios import APPLE_FLOW, APPLE_MUCUS, APPLE_OVULATION, SCENARIOS, flow_days
except ImportError:  # run as `python3 -m tools.generator`
    from tools.cycle_scenarios import APPLE_FLOW, APPLE_MUCUS, APPLE_OVULATION, SCENARIOS, flow_days

C = "HKCategoryTypeIdentifier"


class CyclesMixin:
    def gen_cycles(self):
        sc = SCENARIOS[self.args.cycles]
        if sc["days"] > self.N:
            raise SystemExit(f"--cycles {self.args.cycles} needs --days {sc['days']} or more")
        src = self.phone
        manual = (("HKWasUserEntered", "1"),)

        def day_record(typ, k, value, meta=(), unit=None):
            # A logged day: from its local midnight to the next (the Health app's whole-day entry).
            s, e = self.M[k], self.M[k + 1]
            self.emit(typ, src, k, unit, value, s, e, e + 3600, meta + manual, src_attrs=src.attrs_nodevice(k))

        for k, level, starts in flow_days(sc):
            day_record(C + "MenstrualFlow", k, "HKCategoryValueMenstrualFlow" + APPLE_FLOW[level],
                       (("HKMenstrualCycleStart", "1" if starts else "0"),))
        for k in sc.get("spotting", []):
            day_record(C + "IntermenstrualBleeding", k, "HKCategoryValueNotApplicable")
        for k, result in sc.get("ovulation", {}).items():
            day_record(C + "OvulationTestResult", k, "HKCategoryValueOvulationTestResult" + APPLE_OVULATION[result])
        for k, quality in sc.get("mucus", {}).items():
            day_record(C + "CervicalMucusQuality", k, "HKCategoryValueCervicalMucusQuality" + APPLE_MUCUS[quality])
        for k, degc in sc.get("basal", {}).items():
            s = self.wall(k, 6 * 3600 + 30 * 60)
            self.emit("HKQuantityTypeIdentifierBasalBodyTemperature", src, k, "degC", f"{degc:.2f}", s, s, s + 60,
                      manual, src_attrs=src.attrs_nodevice(k))
        for k in sc.get("sexual", []):
            day_record(C + "SexualActivity", k, "HKCategoryValueNotApplicable")
        for k, notice in sc.get("notices", {}).items():
            # The notice spans the cycles it is about; dated by its day here.
            day_record(C + notice, k, "HKCategoryValueNotApplicable")
