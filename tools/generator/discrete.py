"""Discrete measurements: body, glucose, blood-pressure and food correlations, symptoms, VO2max."""

from __future__ import annotations

from .healthkit import BMI, D_CARB, D_FAT, D_KCAL, D_PROT, DIA, esc, g, GLU, GLUCOSE_MMOL, HEADACHE, HEIGHT, MASS, SYS, TEMP, VO2, VO2_UNIT


class DiscreteMixin:
    def gen_discrete(self):
        """Body measurements, glucose, BP/Food correlations, symptoms, VO2max; other top-level."""
        rng = self.rng
        health = self.health
        UE = (("HKWasUserEntered", "1"),)
        for k in range(self.N):
            if k == 0:
                t = self.wall(k, 20 * 3600 + 5 * 60)
                self.emit(HEIGHT, health, k, "cm", "172", t, t, t + 40, UE)
            if k % 7 == 0:
                t = self.wake[k] + rng.randint(300, 1500)
                self.emit(MASS, health, k, "lb", g(round(rng.uniform(150.5, 153.5), 1)), t, t, t + rng.randint(30, 900), UE)
            if k % 2 == 1:
                t = self.wake[k] + rng.randint(200, 1200)
                kg = round(rng.uniform(68.3, 69.6), 2)
                src = self.zepp_vt if self.vt("zepp", k > 6) else self.zepp
                self.emit(MASS, src, k, "kg", g(kg), t, t, t + rng.randint(3600, 20000))
                self.emit(BMI, self.zepp, k, "count", g(round(kg / 1.72 ** 2, 4)), t, t, t + rng.randint(3600, 20000))
            if k % 10 == 3:
                t = self.wake[k] + rng.randint(600, 2400)
                self.emit(TEMP, health, k, "degF", g(round(rng.uniform(97.6, 99.4), 1)), t, t, t + 120, UE)
            if k % 5 == 0:
                t = self.wake[k] + rng.randint(600, 1800)
                self.emit(GLU, health, k, GLUCOSE_MMOL, g(round(rng.uniform(4.6, 5.6), 2)), t, t, t + 600,
                          UE + (("HKBloodGlucoseMealTime", "1"),))
                t = self.wall(k, 13 * 3600 + 40 * 60 + rng.randint(0, 1800))
                self.emit(GLU, health, k, GLUCOSE_MMOL, g(round(rng.uniform(5.8, 7.6), 2)), t, t, t + 900,
                          UE + (("HKBloodGlucoseMealTime", "2"),))
            if k % 5 == 2:
                t = self.wall(k, 7 * 3600 + 50 * 60 + rng.randint(0, 1800))
                self.emit(GLU, self.onetouch, k, "mg/dL", str(rng.randint(84, 104)), t, t, t + rng.randint(60, 7200))
            if k == 6:
                s = self.wall(k, 15 * 3600 + 10 * 60)
                self.emit(HEADACHE, health, k, None, "HKCategoryValueSeverityModerate", s, s + 2 * 3600, s + 2 * 3600 + 300, UE)
            if k % 6 == 1:
                self.blood_pressure(k, health if k % 12 == 1 else self.omron)
            if k % 4 == 2:
                self.food(k)
        for wk in self.workouts:
            if wk.kind == "run" and wk.src is self.watch:
                t = wk.b + rng.randint(60, 900)
                if t < self.range[1]:
                    self.emit(VO2, self.watch, wk.day, VO2_UNIT, g(round(rng.uniform(41, 46), 2)), t, t, t + 2,
                              (("HKVO2MaxTestType", "2"),))

    def blood_pressure(self, k, src):
        rng, ts = self.rng, self.ts
        t = self.wall(k, 7 * 3600 + 20 * 60 + rng.randint(0, 3600))
        c = t + rng.randint(30, 3 * 3600)
        manual = src is self.health
        meta = (("HKWasUserEntered", "1"),) if manual else (("HKMetadataKeyDeviceSerialNumber", "20140700123"),)
        sa = src.attrs(k, self.rnd)
        recs = []
        for typ, v in ((SYS, rng.randint(112, 134)), (DIA, rng.randint(70, 86))):
            top = self.record(typ, src, k, "mmHg", str(v), t, t, c, meta, "", " ", sa)
            child = self.record(typ, src, k, "mmHg", str(v), t, t, c, meta, "", "  ", sa)
            self.add(typ, c * 4 + src.level, top)
            recs.append(child)
        me = "".join(f'  <MetadataEntry key="{a}" value="{b}"/>\n' for a, b in meta)
        x = (f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" {sa} creationDate="{ts(c)}" '
             f'startDate="{ts(t)}" endDate="{ts(t)}">\n{me}{"".join(recs)} </Correlation>\n')
        self.correlations.append((t, x))

    FOODS = ["Spaghetti Bolognese", "Caesar Salad", "Lentil & Couscous Salad", "Müsli mit Joghurt",
             "Chicken Tikka Masala", "Bagel, Lox And Avocado", "Brezel \"XXL\"", "Pizza Margherita"]

    def food(self, k):
        rng, ts = self.rng, self.ts
        src = self.mfp
        t = self.wall(k, 12 * 3600 + 30 * 60)
        c = self.wall(k, 21 * 3600 + rng.randint(0, 3000))
        name = rng.choice(self.FOODS)
        if self.vt("food", " " in name):
            name = name.replace(" ", "\x0b", 1)
        fe = esc(name)
        meta = (("HKFoodType", fe), ("Meal", "Lunch"))
        sa = src.attrs_nodevice(k)
        kcal = rng.randint(380, 820)
        recs = []
        for typ, unit, v in ((D_KCAL, "kcal", kcal), (D_PROT, "g", round(kcal * rng.uniform(0.03, 0.06), 1)),
                             (D_CARB, "g", round(kcal * rng.uniform(0.09, 0.14), 1)), (D_FAT, "g", round(kcal * rng.uniform(0.02, 0.05), 1))):
            self.add(typ, c * 4 + src.level, self.record(typ, src, k, unit, g(v), t, t, c, meta, "", " ", sa))
            recs.append(self.record(typ, src, k, unit, g(v), t, t, c, meta, "", "  ", sa))
        me = "".join(f'  <MetadataEntry key="{a}" value="{b}"/>\n' for a, b in (("HKWasUserEntered", "1"),) + meta)
        x = (f' <Correlation type="HKCorrelationTypeIdentifierFood" {sa} creationDate="{ts(c)}" '
             f'startDate="{ts(t)}" endDate="{ts(t)}">\n{me}{"".join(recs)} </Correlation>\n')
        self.correlations.append((t, x))
