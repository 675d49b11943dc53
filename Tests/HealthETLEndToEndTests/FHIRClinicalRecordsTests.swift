import Foundation
import XCTest
import TestSupport

/// Issue 49: the export's `clinical-records/` (FHIR files of a person's providers, each named by
/// a `ClinicalRecord` element with its `fhirVersion`) stored as sent and written by the `fhir`
/// output as one `collection` Bundle per FHIR release: R4 in `Bundle.ndjson` (read back by
/// fhir.resources), DSTU2 apart in `Bundle.DSTU2.ndjson`, each counted in the manifest.
final class FHIRClinicalRecordsTests: XCTestCase {
    /// A file of `clinical-records/`, as written into the fixture export.
    struct ClinicalFile {
        var name: String
        /// The `fhirVersion` of its `ClinicalRecord` element; nil: no element names it.
        var version: String?
        var type: String
        var text: String
    }

    private static let patient = #""subject": {"reference": "Patient/e63wRTbPfr1p8UW81d8Seiw3", "display": "Ann Müller"}"#

    /// Three R4 files (pretty printed, one with a byte order mark and CRLF line ends, a value
    /// written `5.40`), two DSTU2 ones (one a resource type R4 no longer has), one no element
    /// names, and two that cannot be used.
    static func files(glucose: String = "5.40") -> [ClinicalFile] {
        [
            ClinicalFile(name: "Observation-5F1A2B3C.json", version: "4.0.1", type: "Observation", text: """
                {
                  "resourceType": "Observation", "id": "eGLnqS5Wq", "status": "final",
                  "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"}]}],
                  "code": {"coding": [{"system": "http://loinc.org", "code": "2345-7"}], "text": "Glucose \\"fasting\\"  (two spaces)"},
                  \(patient),
                  "effectiveDateTime": "2024-03-18T08:05:00+01:00",
                  "valueQuantity": {"value": \(glucose), "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"},
                  "note": [{"text": "line one\\nline two\\ttabbed µ"}]
                }
                """),
            ClinicalFile(name: "AllergyIntolerance-11AA.json", version: "4.0.1", type: "AllergyIntolerance",
                         text: "\u{FEFF}{\r\n  \"resourceType\": \"AllergyIntolerance\", \"id\": \"allergy-1\",\r\n"
                            + "  \"clinicalStatus\": {\"coding\": [{\"system\": \"http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical\", \"code\": \"active\"}]},\r\n"
                            + "  \"code\": {\"text\": \"Penicillin\"}, \"patient\": {\"reference\": \"Patient/e63wRTbPfr1p8UW81d8Seiw3\"},\r\n"
                            + "  \"recordedDate\": \"2019-05-02\"\r\n}\r\n"),
            ClinicalFile(name: "Condition-7C.json", version: "4.0.1", type: "Condition", text: """
                {"resourceType": "Condition", "id": "cond-7",
                 "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/condition-clinical", "code": "resolved"}]},
                 "code": {"coding": [{"system": "http://snomed.info/sct", "code": "195662009", "display": "Acute viral pharyngitis"}]},
                 \(patient), "onsetDateTime": "2023-11-02"}
                """),
            ClinicalFile(name: "Observation-D2-0001.json", version: "1.0.2", type: "Observation", text: """
                {"resourceType": "Observation", "id": "d2-obs-1", "status": "final",
                 "code": {"coding": [{"system": "http://loinc.org", "code": "718-7"}], "text": "Hemoglobin"},
                 \(patient), "effectiveDateTime": "2016-07-01T10:00:00-05:00",
                 "valueQuantity": {"value": 13.9, "unit": "g/dL", "system": "http://unitsofmeasure.org", "code": "g/dL"}}
                """),
            ClinicalFile(name: "MedicationOrder-D2-0002.json", version: "1.0.2", type: "MedicationOrder", text: """
                {"resourceType": "MedicationOrder", "id": "d2-med-2", "status": "active",
                 "patient": {"reference": "Patient/e63wRTbPfr1p8UW81d8Seiw3"},
                 "medicationCodeableConcept": {"text": "Amoxicillin 500 mg"}, "dateWritten": "2016-07-01"}
                """),
            ClinicalFile(name: "Immunization-0C11.json", version: nil, type: "Immunization", text: """
                {"resourceType": "Immunization", "id": "imm-1", "status": "completed", "vaccineCode": {"text": "Influenza"},
                 "patient": {"reference": "Patient/e63wRTbPfr1p8UW81d8Seiw3"}, "occurrenceDateTime": "2023-10-12"}
                """),
        ]
    }

    /// Files that must be named as unreadable, with the reason the summary gives.
    /// (Issue 56: a UTF-16 file was stored with its NULs and cut the R4 Bundle's line; a name
    /// twice passed the check and a first-wins reader saw another resource.)
    static let unusable = [("Procedure-CUT.json", Data(#"{"resourceType": "Procedure", "status": "comp"#.utf8), "not JSON"),
                           ("Basic-DEEP.json", Data((#"{"resourceType": "Basic", "x": "# + String(repeating: "[", count: 500)).utf8),
                            "nested deeper"),
                           ("Observation-UTF16.json", #"{"resourceType": "Observation", "status": "final"}"#.data(using: .utf16)!, "not JSON: UTF-16"),
                           ("Observation-TWICE.json", Data(#"{"resourceType": {"a": 1}, "resourceType": "Observation"}"#.utf8),
                            #"not JSON for every reader: the name "resourceType" twice"#)]

    /// The sample export with a `ClinicalRecord` element per versioned file (before
    /// `</HealthData>`), the files beside it and a README that is not JSON, zipped.
    func makeExport(_ files: [ClinicalFile], in dir: URL, name: String) throws -> String {
        let root = dir.appendingPathComponent(name + "/apple_health_export")
        let folder = root.appendingPathComponent("clinical-records")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var xml = try String(contentsOfFile: OutputFilesTests.sampleExport, encoding: .utf8)
        let elements = files.compactMap { f in
            f.version.map {
                #" <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="\#(f.type)/\#(f.name)" "#
                    + #"sourceName="Example Health" sourceURL="https://fhir.example.org/api/FHIR/\#(f.type)" "#
                    + #"fhirVersion="\#($0)" receivedDate="2024-03-20 09:12:44 +0100" resourceFilePath="/clinical-records/\#(f.name)"/>"#
            }
        }
        let end = try XCTUnwrap(xml.range(of: "</HealthData>"))
        xml.replaceSubrange(end, with: elements.joined(separator: "\n") + "\n</HealthData>")
        try write(xml, to: "export.xml", in: root)
        for f in files { try write(f.text, to: f.name, in: folder) }
        for (name, bytes, _) in Self.unusable { try bytes.write(to: folder.appendingPathComponent(name)) }
        try write("not a resource", to: "README.txt", in: folder)
        let zip = dir.appendingPathComponent(name + ".zip").path
        try zipFolder(root.path, into: zip)
        return zip
    }

    private func importWithFHIR(_ export: String, _ out: String, in dir: URL, _ extra: [String] = []) throws -> [String: Any] {
        let pipeline = try write(#"{"outputs": ["sqlite", "fhir"]}"#, to: "fhir-pipeline.json", in: dir)
        return try importJSON(export, out, ["--pipeline", pipeline] + extra)
    }

    /// The one line of a Bundle file, parsed.
    private func bundle(_ path: String) throws -> [String: Any] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "\(path): one line and its end")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    }

    /// The Bundle holds exactly `files`, in name order, each the file's resource.
    private func assertBundle(_ bundle: [String: Any], holds files: [ClinicalFile], _ message: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(bundle["resourceType"] as? String, "Bundle", message, file: file, line: line)
        XCTAssertEqual(bundle["type"] as? String, "collection", message, file: file, line: line)
        let entries = try XCTUnwrap(bundle["entry"] as? [[String: Any]], message, file: file, line: line)
        let expected = files.sorted { $0.name < $1.name }
        XCTAssertEqual(entries.count, expected.count, message, file: file, line: line)
        for (entry, f) in zip(entries, expected) {
            let original = try JSONSerialization.jsonObject(with: Data(f.text.utf8)) as? NSDictionary
            XCTAssertEqual(entry["resource"] as? NSDictionary, original, "\(message): \(f.name)", file: file, line: line)
        }
    }

    func testClinicalRecordsAreBundledByReleaseCountedAndReadByFHIRResources() throws {
        let dir = try temporaryFolder(self)
        let files = Self.files()
        let export = try makeExport(files, in: dir, name: "export")
        let out = dir.appendingPathComponent("out").path
        let summary = try importWithFHIR(export, out, in: dir)
        XCTAssertEqual(summary["clinical_files"] as? Int, files.count)
        XCTAssertEqual(summary["clinical_files_unreadable"] as? Int, Self.unusable.count)
        let notes = (summary["notes"] as? [String] ?? []).joined(separator: "\n")
        for (name, _, reason) in Self.unusable {
            XCTAssertTrue(notes.contains("clinical-records/\(name): \(reason)"), notes)
        }
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM clinical_resources"), ["\(files.count)"])

        let fhir = out + "/fhir/"
        try assertBundle(try bundle(fhir + "Bundle.ndjson"), holds: files.filter { $0.version == "4.0.1" }, "R4")
        try assertBundle(try bundle(fhir + "Bundle.DSTU2.ndjson"), holds: files.filter { $0.version == "1.0.2" }, "DSTU2")
        try assertBundle(try bundle(fhir + "Bundle.unknown.ndjson"), holds: files.filter { $0.version == nil }, "no element")
        // As sent: a value keeps its digits, a string its spaces and escapes.
        let r4 = try String(contentsOfFile: fhir + "Bundle.ndjson", encoding: .utf8)
        XCTAssertTrue(r4.contains(#""valueQuantity":{"value":5.40,"#), r4)
        XCTAssertTrue(r4.contains(#""text":"Glucose \"fasting\"  (two spaces)""#), r4)

        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fhir + "manifest.json"))) as? [String: Any])
        let output = try XCTUnwrap(manifest["output"] as? [[String: Any]])
        XCTAssertEqual(output.filter { $0["type"] as? String == "Bundle" } as NSArray,
                       [["type": "Bundle", "url": "Bundle.ndjson", "count": 1]] as NSArray, "only the R4 Bundle is an R4 output")
        let clinical = (manifest["extension"] as? [String: Any])?["clinicalRecords"] as? NSArray
        XCTAssertEqual(clinical, [["release": "DSTU2", "fhirVersions": ["1.0.2"], "url": "Bundle.DSTU2.ndjson", "count": 2],
                                  ["release": "R4", "fhirVersions": ["4.0.1"], "url": "Bundle.ndjson", "count": 3],
                                  ["release": "unknown", "fhirVersions": [String](), "url": "Bundle.unknown.ndjson", "count": 1]] as NSArray)
        for name in ["Bundle.ndjson", "Bundle.DSTU2.ndjson", "Bundle.unknown.ndjson"] {
            let mode = try FileManager.default.attributesOfItem(atPath: fhir + name)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, name)
        }
        // fhir.resources reads the R4 Bundle (every resource in it as R4B) with the rest.
        try FHIRTests.check(out)
    }

    /// An export folder whose XML stays as it was while a provider's file changes: the run does
    /// not take the export for the one it has already imported (the files beside the XML are
    /// part of what it compares), and the Bundle has the amended result.
    func testAChangedFileBesideAnUnchangedXMLIsReadAgain() throws {
        let dir = try temporaryFolder(self)
        _ = try makeExport(Self.files(), in: dir, name: "export")
        let folder = dir.appendingPathComponent("export/apple_health_export")
        let out = dir.appendingPathComponent("out").path
        _ = try importWithFHIR(folder.path, out, in: dir)
        let amended = try XCTUnwrap(Self.files(glucose: "5.65").first)
        try write(amended.text, to: amended.name, in: folder.appendingPathComponent("clinical-records"))
        let file = folder.appendingPathComponent("clinical-records/" + amended.name).path
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file)
        let second = try importWithFHIR(folder.path, out, in: dir)
        XCTAssertEqual(second["mode"] as? String, "incremental", "\(second)")
        try assertBundle(try bundle(out + "/fhir/Bundle.ndjson"),
                         holds: Self.files(glucose: "5.65").filter { $0.version == "4.0.1" }, "amended")
    }

    /// A later export with a file changed (an amended result) and one more: a nightly run
    /// stores both, and its Bundles equal those of a full import byte for byte.
    func testANightlyRunTakesChangedAndNewFilesAndEqualsAFullImport() throws {
        let dir = try temporaryFolder(self)
        let older = try makeExport(Self.files().filter { $0.name != "Condition-7C.json" }, in: dir, name: "older")
        let newer = try makeExport(Self.files(glucose: "5.65"), in: dir, name: "newer")
        let nightly = dir.appendingPathComponent("nightly").path, fresh = dir.appendingPathComponent("fresh").path
        _ = try importWithFHIR(older, nightly, in: dir)
        XCTAssertEqual(try bundle(nightly + "/fhir/Bundle.ndjson")["entry"].map { ($0 as? [Any])?.count }, 2)
        let second = try importWithFHIR(newer, nightly, in: dir)
        XCTAssertNotEqual(second["mode"] as? String, "full", "\(second)")
        _ = try importWithFHIR(newer, fresh, in: dir, ["--full"])
        try assertBundle(try bundle(nightly + "/fhir/Bundle.ndjson"), holds: Self.files(glucose: "5.65").filter { $0.version == "4.0.1" }, "nightly")
        for name in ["manifest.json", "Bundle.ndjson", "Bundle.DSTU2.ndjson", "Bundle.unknown.ndjson", "Observation.ndjson"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: nightly + "/fhir/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: fresh + "/fhir/" + name)), name)
        }
    }
}
