import Foundation
import XCTest
import TestSupport

/// Issue 49: the opt-in `fhir` output, FHIR R4 in the Bulk Data form, read back by a real FHIR
/// library (`Scripts/check_fhir.py`: fhir.resources' R4B models, the systems and references,
/// the store's values).
final class FHIRTests: XCTestCase {
    private func importWithFHIR(_ export: String, _ out: String, in dir: URL, _ extra: [String] = []) throws -> [String: Any] {
        let pipeline = try write(#"{"outputs": ["sqlite", "csv", "fhir"]}"#, to: "fhir-pipeline.json", in: dir)
        return try importJSON(export, out, ["--pipeline", pipeline] + extra)
    }

    /// `Scripts/check_fhir.py` on OUT/fhir/ passes.
    static func check(_ out: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try runProcess(try TestTools.python(importing: ["fhir.resources.R4B.observation"]), [TestPaths.script("check_fhir.py"), out], timeout: 600)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr, file: file, line: line)
        XCTAssertTrue(r.stdout.contains("fhir checks passed"), r.stdout, file: file, line: line)
    }

    func testTheSampleInFHIRParsesResolvesAndEqualsTheStore() throws {
        let dir = try temporaryFolder(self)
        let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path
        let out = dir.appendingPathComponent("out").path
        let summary = try importWithFHIR(sample, out, in: dir)
        XCTAssertEqual(summary["outputs_written"] as? [String], ["health.sqlite", "csv/", "fhir/"])
        try Self.check(out)
        // The sample's steps on 21 March 2024 are its daily steps, over Berlin's local day.
        let steps = try query(out + "/health.sqlite", "SELECT CAST(steps AS INTEGER) FROM daily_analytics WHERE date = '2024-03-21'")
        let lines = try String(contentsOfFile: out + "/fhir/Observation.ndjson", encoding: .utf8).split(separator: "\n")
        let day = try XCTUnwrap(lines.first { $0.contains("-steps-2024-03-21\"") })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(day.utf8)) as? [String: Any])
        XCTAssertEqual((object["valueQuantity"] as? [String: Any])?["value"] as? Int, Int(steps.first ?? ""))
        XCTAssertEqual(object["effectivePeriod"] as? [String: String],
                       ["start": "2024-03-21T00:00:00+01:00", "end": "2024-03-22T00:00:00+01:00"])
        // Private, like every output.
        for name in ["manifest.json", "Patient.ndjson", "Device.ndjson", "Observation.ndjson"] {
            let mode = try FileManager.default.attributesOfItem(atPath: out + "/fhir/" + name)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, name)
        }
        // Off by default.
        let plain = dir.appendingPathComponent("plain").path
        _ = try importJSON(sample, plain)
        XCTAssertFalse(FileManager.default.fileExists(atPath: plain + "/fhir"))
        // `export-fhir` writes them for an existing store: the same bytes as the output.
        let exported = try healthetl(["export-fhir", "--out", plain])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(exported.stderr.contains("1 Patient"), exported.stderr)
        for name in ["manifest.json", "Patient.ndjson", "Device.ndjson", "Observation.ndjson"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: plain + "/fhir/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: out + "/fhir/" + name)), name)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: plain + "/.healthetl").filter { $0.hasPrefix("staging") }, [],
                       "no staging left behind")
    }

    /// A nightly run writes the files a full import of the newer export writes, byte for byte
    /// (ids from the store's identities: a server that gets them twice updates, not duplicates).
    func testANightlyRunsFHIREqualsAFullImportsByteForByte() throws {
        let dir = try temporaryFolder(self)
        let full = dir.appendingPathComponent("full.xml").path
        try generateExport(["--out", full, "--days", "30", "--start", "2024-10-10", "--seed", "49"])
        let (older, newer) = try splitExport(full, at: "2024-11-02 00:00:00 +0100", in: dir)
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        _ = try importWithFHIR(older, nightly, in: dir)
        let patient = try Data(contentsOf: URL(fileURLWithPath: nightly + "/fhir/Patient.ndjson"))
        XCTAssertEqual(try importWithFHIR(newer, nightly, in: dir)["mode"] as? String, "incremental")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: nightly + "/fhir/Patient.ndjson")), patient,
                       "the person's id stays when a later export adds later records")
        _ = try importWithFHIR(newer, fresh, in: dir, ["--full"])
        for name in ["manifest.json", "Patient.ndjson", "Device.ndjson", "Observation.ndjson"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: nightly + "/fhir/" + name))
            XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: fresh + "/fhir/" + name)), name)
            XCTAssertGreaterThan(a.count, 50, name)
        }
        try Self.check(nightly)
    }

    /// A generated year: every line parses and every figure is the store's.
    func testAGeneratedYearInFHIR() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("year.xml").path
        try generateExport(["--out", export, "--days", "365", "--start", "2024-01-01", "--seed", "4949"])
        let out = dir.appendingPathComponent("out").path
        _ = try importWithFHIR(export, out, in: dir)
        try Self.check(out)
    }
}
