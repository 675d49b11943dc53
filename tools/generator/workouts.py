"""Workout elements: events, statistics, routes (inline or GPX files) and their Strava copies."""

from __future__ import annotations

import datetime as dt
import math
import random

from .healthkit import g, Q, TO_STD
from .model import utc_z


class WorkoutsMixin:
    def make_route(self, wk):
        """GPS track, 1 point per second while moving. Uses its own RNG so that GPX files are
        generated lazily (only for zip/folder layouts) without changing anything else."""
        rng = random.Random(f"{self.args.seed}/route/{wk.idx}")
        lat = 52.5163 + rng.uniform(-0.03, 0.03)
        lon = 13.3777 + rng.uniform(-0.05, 0.05)
        ele = rng.uniform(34, 48)
        course = rng.uniform(0, 360)
        base_v = {"run": 2.9, "cycle": 6.4}[wk.kind]
        pts = []
        for bt in wk.bouts:
            for t in range(bt.a, bt.b + 1):
                v = max(0.5, base_v * rng.uniform(0.85, 1.15))
                course = (course + rng.uniform(-8, 8)) % 360
                r = math.radians(course)
                lat += v * math.cos(r) / 111320.0
                lon += v * math.sin(r) / (111320.0 * math.cos(math.radians(lat)))
                ele += rng.uniform(-0.25, 0.25)
                pts.append((t, lat, lon, ele, v, course, rng.uniform(1.1, 4.5), rng.uniform(0.7, 3.2)))
        return pts

    def route_name(self, t_end):
        d = dt.datetime.fromtimestamp(t_end, self.zone)
        h12 = d.hour % 12 or 12
        return f"{d.date().isoformat()}_{h12}.{d.minute:02d}{'am' if d.hour < 12 else 'pm'}", \
            f"{d.date().isoformat()} {h12}:{d.minute:02d}{'am' if d.hour < 12 else 'pm'}"

    def gpx_text(self, pts, title):
        lines = ['<?xml version="1.0" encoding="UTF-8"?>\n',
                 '<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 '
                 'http://www.topografix.com/GPX/1/1/gpx.xsd">\n',
                 f"  <metadata>\n    <time>{utc_z(self.export_t)}</time>\n  </metadata>\n",
                 f"  <trk>\n    <name>Route {title}</name>\n    <trkseg>\n"]
        for t, lat, lon, ele, v, course, ha, va in pts:
            lines.append(f'      <trkpt lon="{lon:.6f}" lat="{lat:.6f}"><ele>{ele:.6f}</ele><time>{utc_z(t)}</time>'
                         f'<extensions><speed>{v:.6f}</speed><course>{course:.6f}</course><hAcc>{ha:.6f}</hAcc>'
                         f'<vAcc>{va:.6f}</vAcc></extensions></trkpt>\n')
        lines.append("    </trkseg>\n  </trk>\n</gpx>\n")
        return "".join(lines)

    def build_workouts(self):
        rng, ts = self.rng, self.ts
        ACT = {"run": "HKWorkoutActivityTypeRunning", "cycle": "HKWorkoutActivityTypeCycling",
               "swim": "HKWorkoutActivityTypeSwimming"}
        for idx, wk in enumerate(self.workouts):
            wk.idx = idx
            k = wk.day
            a, b = wk.a, wk.b
            moving = sum(bt.b - bt.a for bt in wk.bouts)
            pauses = [(wk.bouts[i].b, wk.bouts[i + 1].a) for i in range(len(wk.bouts) - 1)]
            c = b + rng.randint(10, 90)
            du = self.units_for_day(k)[0]
            if wk.strava:
                # Strava's own copy of the ride (old style, totals as attributes). For a Watch ride it
                # overlaps the Watch workout; its samples are covered by the Watch's and count 0.
                brand = "Strava\x0b" if self.vt("workout") else "Strava"
                x = (f' <Workout workoutActivityType="{ACT[wk.kind]}" duration="{moving / 60!r}" durationUnit="min" '
                     f'totalDistance="{g(wk.strava_dist / 1000)}" totalDistanceUnit="km" totalEnergyBurned="{g(wk.strava_kcal)}" '
                     f'totalEnergyBurnedUnit="kcal" {self.strava.attrs_nodevice(k)} creationDate="{ts(c + 1800)}" '
                     f'startDate="{ts(a)}" endDate="{ts(b)}">\n'
                     f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                     f'  <MetadataEntry key="HKExternalUUID" value="{self.rnd(40)}"/>\n'
                     f'  <MetadataEntry key="HKWorkoutBrandName" value="{brand}"/>\n </Workout>\n')
                self.workout_xml.append((a, x))
                self.workout_kinds.append("cycle")
                if wk.src is not self.strava:
                    self.workout_copies.append("cycle")   # the same ride as the Watch's: counted once
            if wk.src is self.strava:
                continue
            sa = self.watch.attrs(k, self.rnd)
            hr = wk.hr or [120]
            base_kcal = 1.1 * moving / 60
            route_xml = ""
            if wk.kind in ("run", "cycle"):
                if wk.style == "old":
                    pts = self.make_route(wk)
                    step = 10
                    locs = []
                    for i in range(0, len(pts), step):
                        t, lat, lon, ele, v, course, ha, va = pts[i]
                        locs.append(f'   <Location date="{ts(t)}" latitude="{g(lat)}" longitude="{g(lon)}" altitude="{g(ele)}" '
                                    f'horizontalAccuracy="{g(ha)}" verticalAccuracy="{g(va)}" course="{g(course)}" speed="{g(v)}"/>\n')
                    self.route_points_inline += len(locs)
                    route_xml = (f'  <WorkoutRoute {self.watch.attrs_nodevice(k)} creationDate="{ts(c)}" startDate="{ts(a)}" '
                                 f'endDate="{ts(b)}">\n{"".join(locs)}  </WorkoutRoute>\n')
                else:
                    fname, title = self.route_name(wk.b)
                    name = f"route_{fname}.gpx"
                    i = 2
                    while name in self.gpx_files:
                        name = f"route_{fname}_{i}.gpx"
                        i += 1
                    self.gpx_files[name] = (wk, title)
                    self.route_points_gpx += sum(bt.b + 1 - bt.a for bt in wk.bouts)
                    wk.route_file = name
                    route_xml = (f'  <WorkoutRoute {self.watch.attrs_nodevice(k)} creationDate="{ts(c + 5)}" startDate="{ts(a)}" endDate="{ts(b)}">\n'
                                 f'   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>\n'
                                 f'   <MetadataEntry key="HKMetadataKeySyncIdentifier" value="{self.uuid()}"/>\n'
                                 f'   <FileReference path="/workout-routes/{name}"/>\n  </WorkoutRoute>\n')
            if wk.style == "old":
                if wk.kind == "swim":
                    dist_attr = f'totalDistance="{g(wk.dist_m / 0.9144)}" totalDistanceUnit="yd"'
                else:
                    dist_attr = f'totalDistance="{g(wk.dist_m / TO_STD[du])}" totalDistanceUnit="{du}"'
                ev = "".join(f'  <WorkoutEvent type="HKWorkoutEventTypePause" date="{ts(p)}"/>\n'
                             f'  <WorkoutEvent type="HKWorkoutEventTypeResume" date="{ts(r)}"/>\n' for p, r in pauses)
                meta = '  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                if wk.kind == "swim":
                    meta = ('  <MetadataEntry key="HKIndoorWorkout" value="1"/>\n  <MetadataEntry key="HKLapLength" value="25 m"/>\n'
                            '  <MetadataEntry key="HKSwimmingLocationType" value="1"/>\n')
                    ev += "".join(f'  <WorkoutEvent type="HKWorkoutEventTypeLap" date="{ts(s)}" duration="{(e - s) / 60!r}" durationUnit="min"/>\n'
                                  for s, e, _ in wk.laps)
                x = (f' <Workout workoutActivityType="{ACT[wk.kind]}" duration="{moving / 60!r}" durationUnit="min" {dist_attr} '
                     f'totalEnergyBurned="{g(wk.kcal)}" totalEnergyBurnedUnit="kcal" {sa} creationDate="{ts(c)}" '
                     f'startDate="{ts(a)}" endDate="{ts(b)}">\n{meta}{ev}{route_xml} </Workout>\n')
                self.workout_xml.append((a, x))
                self.workout_kinds.append(wk.kind)
                continue
            # iOS 16+ style
            events = []
            if wk.kind in ("run", "cycle"):
                seg = 1000.0
                speed = wk.dist_m / max(1, moving)
                tt, done = a, 0.0
                while speed > 0 and done + seg <= wk.dist_m:
                    dur = seg / speed
                    events.append(("HKWorkoutEventTypeSegment", tt, dur, ()))
                    tt = int(tt + dur)
                    done += seg
            else:
                for i, (s, e, strokes) in enumerate(wk.laps):
                    swolf = (e - s) + strokes
                    events.append(("HKWorkoutEventTypeLap", s, e - s, (("HKSwimmingStrokeStyle", "2"), ("HKSWOLFScore", repr(float(swolf))))))
                    if i % 4 == 0:
                        end = wk.laps[min(i + 3, len(wk.laps) - 1)][1]
                        events.append(("HKWorkoutEventTypeSegment", s, end - s, (("HKSWOLFScore", repr(swolf + rng.random())),)))
            for p, r in pauses:
                events.append(("HKWorkoutEventTypePause", p, None, ()))
                events.append(("HKWorkoutEventTypeResume", r, None, ()))
            events.sort(key=lambda e: e[1])

            def ev_xml(ind):
                out = []
                for typ, t, dur, meta in events:
                    d = f' duration="{dur / 60!r}" durationUnit="min"' if dur is not None else ""
                    if meta:
                        out.append(f'{ind}<WorkoutEvent type="{typ}" date="{ts(t)}"{d}>\n' +
                                   "".join(f'{ind} <MetadataEntry key="{mk}" value="{mv}"/>\n' for mk, mv in meta) +
                                   f'{ind}</WorkoutEvent>\n')
                    else:
                        out.append(f'{ind}<WorkoutEvent type="{typ}" date="{ts(t)}"{d}/>\n')
                return "".join(out)

            def stat(ind, typ, unit, s=None, avg=None, mn=None, mx=None):
                span = f'startDate="{ts(a)}" endDate="{ts(b)}"'
                if s is not None:
                    return f'{ind}<WorkoutStatistics type="{Q}{typ}" {span} sum="{g(s)}" unit="{unit}"/>\n'
                return f'{ind}<WorkoutStatistics type="{Q}{typ}" {span} average="{g(avg)}" minimum="{g(mn)}" maximum="{g(mx)}" unit="{unit}"/>\n'

            def stats(ind):
                out = [stat(ind, "ActiveEnergyBurned", "kcal", s=wk.kcal), stat(ind, "BasalEnergyBurned", "kcal", s=base_kcal),
                       stat(ind, "HeartRate", "count/min", avg=sum(hr) / len(hr), mn=min(hr), mx=max(hr))]
                if wk.kind == "run":
                    sp = wk.dist_m / max(1, moving) * 3.6
                    out += [stat(ind, "DistanceWalkingRunning", "km", s=wk.dist_m / 1000), stat(ind, "StepCount", "count", s=wk.steps),
                            stat(ind, "RunningSpeed", "km/hr", avg=sp, mn=sp * 0.62, mx=sp * 1.27),
                            stat(ind, "RunningPower", "W", avg=rng.uniform(200, 240), mn=rng.randint(60, 110), mx=rng.randint(300, 360))]
                elif wk.kind == "cycle":
                    sp = wk.dist_m / max(1, moving) * 3.6
                    out += [stat(ind, "DistanceCycling", "km", s=wk.dist_m / 1000),
                            stat(ind, "CyclingSpeed", "km/hr", avg=sp, mn=sp * 0.3, mx=sp * 1.6)]
                else:
                    out += [stat(ind, "DistanceSwimming", "m", s=wk.dist_m),
                            stat(ind, "SwimmingStrokeCount", "count", s=sum(x[2] for x in wk.laps))]
                return "".join(out)

            meta = [("HKIndoorWorkout", "1" if wk.kind == "swim" else "0"), ("HKTimeZone", self.args.zone)]
            if wk.kind == "swim":
                meta += [("HKLapLength", "25 m"), ("HKSwimmingLocationType", "1")]
            else:
                meta += [("HKWeatherTemperature", f"{g(round(rng.uniform(41, 62), 1))} degF"),
                         ("HKWeatherHumidity", f"{rng.randint(45, 90) * 100} %"),
                         ("HKElevationAscended", f"{rng.randint(900, 9000)} cm")]
            meta.append(("HKAverageMETs", f"{g(round(rng.uniform(7, 11), 4))} kcal/hr\u00b7kg"))
            meta_xml = "".join(f'  <MetadataEntry key="{mk}" value="{mv}"/>\n' for mk, mv in meta)
            act = (f'  <WorkoutActivity uuid="{self.uuid()}" startDate="{ts(a)}" endDate="{ts(b)}" duration="{moving / 60!r}" durationUnit="min">\n'
                   f'{ev_xml("   ")}{stats("   ")}  </WorkoutActivity>\n')
            meta_first = (len(self.workout_xml) % 2 == 0)
            x = (f' <Workout workoutActivityType="{ACT[wk.kind]}" duration="{moving / 60!r}" durationUnit="min" {sa} '
                 f'creationDate="{ts(c)}" startDate="{ts(a)}" endDate="{ts(b)}">\n'
                 f'{meta_xml if meta_first else ""}{ev_xml("  ")}{act}{stats("  ")}{route_xml}{"" if meta_first else meta_xml} </Workout>\n')
            self.workout_xml.append((a, x))
            self.workout_kinds.append(wk.kind)
