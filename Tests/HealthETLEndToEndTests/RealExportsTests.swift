import Synchronization
import XCTest
@testable import HealthCore
import TestSupport

/// Every real export in ../shared/realexports imports, or fails cleanly with exit 65 and a
/// message naming the file, line and column when it is not well-formed.
final class RealExportsTests: XCTestCase {
    /// (path, expected exit status, expected samples or nil)
    static let expectations: [(String, Int32, Int?)] = [
        ("alxdrcirilo__apple-health-parser/export.xml", 0, 8),
        ("alxdrcirilo__apple-health-parser/export.zip", 0, 8),
        ("ashtom__hkimport/export.xml", 0, 10933),
        ("ashtom__hkimport/exportSmall.xml", 65, nil),
        ("brianerdelyi__AppleHealthKitXsltStylesheet/export.xml", 0, 563),
        ("brianerdelyi__AppleHealthKitXsltStylesheet/export_cda.xml", 65, nil),
        ("bwassim__Health-Data-Analysis/export.zip", 0, 67409),
        ("danecollins__fitness/export_small.xml", 0, 12),
        ("dogsheep__healthkit-to-sqlite/export.xml", 0, 2),
        ("dogsheep__healthkit-to-sqlite/zip_contents", 0, 2),
        ("ericwolter__apple-healthkit-csv/export.xml", 0, 3067),
        ("ericwolter__apple-healthkit-csv/Exportieren.xml", 65, nil),
        ("grll__apple-health-mcp/export.xml", 0, 26),
        ("haozes__HealthKitImporter/export.xml", 65, nil),
        ("k0rventen__apple-health-grafana/test-export.zip", 0, 8038),
        ("k0rventen__apple-health-grafana/test-export-cn.zip", 0, 8038),
        ("k0rventen__apple-health-grafana/test-export2.zip", 0, 8038),
        ("k0rventen__apple-health-grafana/test-export3.zip", 0, 8038),
        ("k0rventen__apple-health-grafana/test-export4.zip", 0, 8038),
        ("kairess__heart-rate-note/export_sample.xml", 0, 221),
        ("rgosdin__docs/export.zip", 0, 3352),
        ("robmarkcole__applehealthdata/example.zip", 0, 26070),
        ("tdda__applehealthdata/export6s3sample.xml", 0, 15),
        ("NicolasReyrolle__apple-health-analyzer/fragments/workout_running.xml", 65, nil),
    ]

    func testEveryRealExport() throws {
        guard FileManager.default.fileExists(atPath: TestPaths.realExports.path) else {
            throw XCTSkip("../shared/realexports not present")
        }
        let dir = try temporaryFolder(self)
        for (relative, status, samples) in Self.expectations {
            let path = try TestPaths.realExport(relative)
            let out = dir.appendingPathComponent(relative.replacingOccurrences(of: "/", with: "_")).path
            let result = try healthetl(["import", path, "--out", out, "--json", "--timezone", "Europe/Berlin"])
            XCTAssertEqual(result.status, status, "\(relative): \(result.stderr)")
            if status == 65 {
                XCTAssertTrue(result.stderr.contains((relative as NSString).lastPathComponent), result.stderr)
                let wellFormedButForeign = result.stderr.contains("not an Apple Health export")
                XCTAssertTrue(wellFormedButForeign || result.stderr.range(of: #"line \d+, column \d+"#,
                                                                          options: .regularExpression) != nil,
                              "\(relative): \(result.stderr)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/health.sqlite"))
            }
            if let samples {
                XCTAssertTrue(result.stdout.contains("\"samples\":\(samples),"), "\(relative): \(result.stdout)")
                // Independent count: distinct top-level <Record …> start tags in the raw XML.
                if relative.hasSuffix(".xml") {
                    XCTAssertEqual(try Self.distinctTopLevelRecords(path), samples, relative)
                    // Issue 48: the zone timeline holds the home zone and the zones the file's own
                    // HKTimeZone metadata names on sleep records and workouts (at most one in each
                    // real export), no other.
                    let zones = Set(try query(out + "/health.sqlite", "SELECT DISTINCT zone FROM zone_timeline"))
                    XCTAssertEqual(zones.subtracting(["Europe/Berlin"]), try Self.evidenceZones(path), relative)
                }
            }
        }
    }

    /// Issue 48: read with no zone configured (days where recorded, the default), every real
    /// export gives the figures it gives read in one zone, the one chosen: none of them shows a
    /// trip (their HKTimeZone evidence names one zone at most).
    func testEveryRealExportReadsTheSameWithoutAZoneAsInItsZone() throws {
        guard FileManager.default.fileExists(atPath: TestPaths.realExports.path) else {
            throw XCTSkip("../shared/realexports not present")
        }
        let dir = try temporaryFolder(self)
        let exports = Self.expectations.filter { $0.1 == 0 }.map(\.0)
        @Sendable func out(_ relative: String, _ kind: String) -> String {
            dir.appendingPathComponent(relative.replacingOccurrences(of: "/", with: "_") + "-" + kind).path
        }
        // Two imports at a time (two cores): each export without a zone, then in the zone it chose.
        let results = Mutex<[String: (status: Int32, stdout: String, stderr: String)]>([:])
        func both(_ arguments: @Sendable (String) throws -> [String]) {
            DispatchQueue.concurrentPerform(iterations: exports.count) { i in
                let r = Result { try healthetl(try arguments(exports[i])) }
                let done = (try? r.get()).map { ($0.status, $0.stdout, $0.stderr) } ?? (-1, "", "\(r)")
                results.withLock { $0[exports[i]] = done }
            }
        }
        both { ["import", try TestPaths.realExport($0), "--out", out($0, "recorded"), "--json", "--quiet"] }
        var chosen: [String: String] = [:]
        for relative in exports {
            let r = try XCTUnwrap(results.withLock { $0[relative] }, relative)
            XCTAssertEqual(r.status, 0, relative + ": " + r.stderr)
            let line = try XCTUnwrap(r.stdout.split(separator: "\n").last, relative)
            let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], relative)
            XCTAssertNil(summary["zone_timeline"], relative)
            chosen[relative] = try XCTUnwrap(summary["time_zone"] as? String, relative)
        }
        let zones = chosen
        both { ["import", try TestPaths.realExport($0), "--out", out($0, "zoned"), "--quiet", "--timezone", zones[$0] ?? "UTC"] }
        for relative in exports {
            XCTAssertEqual(results.withLock { $0[relative]?.status }, 0, relative)
            XCTAssertEqual(try analyticsSnapshot(out(relative, "recorded") + "/health.sqlite"),
                           try analyticsSnapshot(out(relative, "zoned") + "/health.sqlite"), relative)
        }
    }

    /// Counts distinct top-level Record elements with Python's own XML parser (not ours),
    /// after dropping the DOCTYPE that expat cannot always read.
    static func distinctTopLevelRecords(_ path: String) throws -> Int {
        let script = """
        import re, sys, xml.etree.ElementTree as ET
        data = open(sys.argv[1], 'rb').read()
        data = re.sub(rb'<!DOCTYPE.*?\\]>', b'', data, count=1, flags=re.S)
        root = ET.fromstring(data)
        def key(e):
            return (tuple(sorted(e.attrib.items())), tuple(tuple(sorted(c.attrib.items())) for c in e.iter() if c is not e))
        print(len({key(e) for e in root if e.tag == 'Record'}))
        """
        let result = try runProcess(try TestTools.python(), ["-c", script, path])
        guard result.status == 0, let n = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NSError(domain: "count", code: 1, userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        return n
    }

    /// The `HKTimeZone` values of sleep records and workouts, by Python's XML parser (not ours).
    static func evidenceZones(_ path: String) throws -> Set<String> {
        let script = """
        import re, sys, xml.etree.ElementTree as ET
        data = open(sys.argv[1], 'rb').read()
        data = re.sub(rb'<!DOCTYPE.*?\\]>', b'', data, count=1, flags=re.S)
        root = ET.fromstring(data)
        zones = set()
        for e in root:
            if e.tag == 'Workout' or (e.tag == 'Record' and e.get('type') == 'HKCategoryTypeIdentifierSleepAnalysis'):
                zones.update(m.get('value') for m in e.findall('MetadataEntry') if m.get('key') == 'HKTimeZone')
        print('\\n'.join(sorted(zones)))
        """
        let result = try runProcess(try TestTools.python(), ["-c", script, path])
        guard result.status == 0 else { throw NSError(domain: "zones", code: 1, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return Set(result.stdout.split(separator: "\n").map(String.init))
    }

    /// Zip, unzipped folder and bare XML of the same export give the same rows.
    func testZipFolderAndXMLGiveTheSameRows() throws {
        let zip = try TestPaths.realExport("robmarkcole__applehealthdata/example.zip")
        let folder = try TestPaths.realExport("robmarkcole__applehealthdata")
        let xml = try TestPaths.realExport("robmarkcole__applehealthdata/apple_health_export/export.xml")
        let dir = try temporaryFolder(self)
        var dumps: [[String]] = []
        for (i, input) in [zip, folder, xml].enumerated() {
            let out = dir.appendingPathComponent("o\(i)").path
            XCTAssertEqual(try healthetl(["import", input, "--out", out, "--quiet", "--timezone", "UTC"]).status, 0)
            dumps.append(try query(out + "/health.sqlite", """
                SELECT type || '|' || source_name || '|' || start_utc || '|' || end_utc || '|' || ifnull(value, '') || '|'
                       || ifnull(unit, '') || '|' || ifnull(metadata, '') FROM samples ORDER BY 1
                """))
        }
        XCTAssertEqual(dumps[0].count, 26070)
        XCTAssertEqual(dumps[0], dumps[1])
        XCTAssertEqual(dumps[0], dumps[2])
    }

    /// k0rventen's beats are written in the recording zone (+0100) while dates print the
    /// export's (+0200): every beat must still land inside its record.
    func testHeartbeatsLandInsideTheirRecords() throws {
        let zip = try TestPaths.realExport("k0rventen__apple-health-grafana/test-export.zip")
        let out = try temporaryFolder(self).path
        XCTAssertEqual(try healthetl(["import", zip, "--out", out, "--quiet"]).status, 0)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT count(*) FROM heartbeat_data"), ["13081"])
        XCTAssertEqual(try query(db, """
            SELECT count(*) FROM heartbeat_data h JOIN sample_data s ON s.id = h.sample_id
            WHERE h.time_us < s.start_us - 60000000 OR h.time_us > s.end_us + 60000000
            """), ["0"])
    }

    /// iOS 8: `source=`, compact dates, metadata as attributes, numeric `Me` values.
    func testIOS8Export() throws {
        let xml = try TestPaths.realExport("ericwolter__apple-healthkit-csv/export.xml")
        let out = try temporaryFolder(self).path
        XCTAssertEqual(try healthetl(["import", xml, "--out", out, "--quiet", "--timezone", "Europe/Berlin"]).status, 0)
        let db = out + "/health.sqlite"
        XCTAssertEqual(try query(db, "SELECT source_name || ' ' || start_utc || ' ' || value || ' ' || metadata FROM samples WHERE id = 1"),
                       ["Health 2014-10-18T15:32:00Z 1.75 {\"HKWasUserEntered\":\"1\"}"])
        XCTAssertEqual(try query(db, "SELECT date_of_birth || ' ' || biological_sex FROM profile"), ["1988-10-29 HKBiologicalSexMale"])
        // Heart rate in count/s becomes count/min; aggregated records use their average.
        XCTAssertEqual(try query(db, """
            SELECT round(value, 3) || ' ' || unit FROM samples
            WHERE type = 'HKQuantityTypeIdentifierHeartRate' AND source_name = 'Sleep Cycle' ORDER BY start_utc LIMIT 1
            """), ["67.0 count/min"])
    }
}
