import Foundation
import XCTest
import TestSupport

/// Issue 56: zips that cost the import the square of their files, inflated a thousand times
/// past the zip-bomb check, or ran it out of file descriptors.
final class HostileInputsRoundThreeTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    /// Runs `script` (Python) with the zip to write and the sample export as its arguments.
    private func makeZip(_ zip: String, _ script: String, _ extra: [String] = []) throws {
        let made = try runProcess("/usr/bin/env", ["python3", "-c", script, zip, Self.sample] + extra, timeout: 300)
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    // MARK: item 3, lookups

    /// Every clinical file, ECG and route was found by a scan of the zip's entries, and a route
    /// not at its place by a `hasSuffix` over all of them: 100,000 clinical files took 114 s,
    /// 5,000 missing routes among 5,000 other entries 98 s. 40,000 clinical files and 5,000
    /// routes (a fifth missing, two fifths only in another folder, half of those three times
    /// over, litter first) took minutes; by index, seconds. The entry found is the scan's: the
    /// exact name, else the first that is not Finder litter.
    func testClinicalFilesAndRoutesOfABigZipAreFoundByIndex() throws {
        let dir = try temporaryFolder(self)
        let zip = dir.appendingPathComponent("export.zip").path
        try makeZip(zip, """
            import sys, zipfile, datetime
            out, sample, clinical, routes = sys.argv[1], sys.argv[2], 40000, 5000
            t0 = datetime.datetime(2015, 1, 1, 6, 0, 0)
            day = lambda d: d.strftime('%Y-%m-%d %H:%M:%S +0000')
            def workout(i):
                s = t0 + datetime.timedelta(hours=6 * i); e = s + datetime.timedelta(minutes=30)
                return (f'<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" '
                        f'sourceName="W" creationDate="{day(e)}" startDate="{day(s)}" endDate="{day(e)}"><WorkoutRoute '
                        f'sourceName="W" startDate="{day(s)}" endDate="{day(e)}"><FileReference path="/workout-routes/route_{i}.gpx"/>'
                        '</WorkoutRoute></Workout>')
            def gpx(i, lat):
                t = (t0 + datetime.timedelta(hours=6 * i, minutes=5)).strftime('%Y-%m-%dT%H:%M:%SZ')
                return f'<gpx version="1.1"><trk><trkseg><trkpt lat="{lat}" lon="13.4"><time>{t}</time></trkpt></trkseg></trk></gpx>'
            xml = open(sample, encoding='utf-8').read()
            xml = xml.replace('</HealthData>', '\\n'.join(workout(i) for i in range(routes)) + '\\n</HealthData>')
            with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('apple_health_export/export.xml', xml)
                for i in range(clinical):
                    z.writestr(f'apple_health_export/clinical-records/Observation-{i:06d}.json', '{"resourceType":"Observation","id":"o%d"}' % i)
                for i in range(routes):
                    kind = i % 5   # 0, 1: in place; 2: missing; 3: in another folder; 4: litter, then two folders
                    if kind < 2: z.writestr(f'apple_health_export/workout-routes/route_{i}.gpx', gpx(i, 10))
                    if kind == 3: z.writestr(f'other/workout-routes/route_{i}.gpx', gpx(i, 20))
                    if kind == 4:
                        z.writestr(f'__MACOSX/apple_health_export/workout-routes/route_{i}.gpx', gpx(i, 30))
                        z.writestr(f'b/workout-routes/route_{i}.gpx', gpx(i, 40))
                        z.writestr(f'a/workout-routes/route_{i}.gpx', gpx(i, 50))
            """)
        let out = dir.appendingPathComponent("out").path
        let started = Date()
        let summary = try importJSON(zip, out, zone: "UTC")
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(summary["clinical_files"] as? Int, 40_000)
        let missing = (summary["route_files_missing"] as? [String] ?? []).filter { $0.range(of: #"^/workout-routes/route_\d+\.gpx$"#, options: .regularExpression) != nil }
        XCTAssertEqual(missing.count, 1_000)
        // Each route's point is the one of the entry the scan found: in place (10), in the other
        // folder (20), the first folder after the litter (40).
        let found = try query(out + "/health.sqlite", """
            SELECT p.latitude || ':' || count(*) FROM workout_routes r JOIN workout_route_points p ON p.route_id = r.id
            WHERE r.file_path GLOB '/workout-routes/route_[0-9]*.gpx' GROUP BY p.latitude ORDER BY p.latitude
            """)
        XCTAssertEqual(found, ["10.0:2000", "20.0:1000", "40.0:1000"])
        XCTAssertLessThan(seconds, 60, "found by index (the scans took minutes)")
        print("40,000 clinical files and 5,000 routes imported in \(String(format: "%.1f", seconds)) s")
    }
}
