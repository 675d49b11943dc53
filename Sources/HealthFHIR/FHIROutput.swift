import Foundation
import HealthCore
import HealthStore
import PrivateFiles
import SQLite

/// `fhir/` as an output of a run (pipeline name `fhir`, opt-in): the person's data as FHIR R4
/// in the Bulk Data form, one NDJSON file per resource type and `manifest.json` (docs/FHIR.md).
/// Written whole from the store each time, so a nightly run's files equal a full import's.
package struct FHIROutput: Output {
    package init() {}

    package var name: String { "fhir" }
    package var summaryName: String { "fhir/" }
    package var published: [String] { [name] }

    package func isMissing(in folder: String) -> Bool {
        !FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("fhir/manifest.json"))
    }

    package func stage(from database: Database, in staging: String, folder: String, run: StagingRun,
                      progress: (String) throws -> Void) throws -> StagedFiles {
        try progress("fhir")
        let counts = try FHIRWriter.write(from: database, to: staging)
        return StagedFiles(moves: OutputFolders.moves(from: staging, to: (folder as NSString).appendingPathComponent("fhir")),
                           rows: Dictionary(uniqueKeysWithValues: counts.map { ("fhir " + $0.type, $0.count) }))
    }
}

/// Writes the NDJSON files and the manifest of a store into a folder.
package enum FHIRWriter {
    /// Returns the resource types written with their counts, in the manifest's order.
    @discardableResult
    package static func write(from database: Database, to folder: String) throws -> [(type: String, count: Int)] {
        let store = HealthStore(database: database)
        let profile = try store.profile()
        var resources = FHIRResources(personID: FHIRResources.personID(profile, earliestIdentity: try store.earliestSampleIdentity()),
                                      calendar: try StoreSettings.calendar(in: database) ?? LocalCalendar(identifier: "UTC")!)
        resources.healthConnectSources = try store.fhirSources(of: .healthConnect)
        resources.onlyHealthConnect = try store.sourcePlatforms() == [.healthConnect]
        var written: [(type: String, count: Int)] = []
        func file(_ type: String, _ body: (NDJSONFile) throws -> Void) throws {
            let out = try NDJSONFile(path: (folder as NSString).appendingPathComponent(type + ".ndjson"))
            do { try body(out); try out.commit() } catch { out.discard(); throw error }
            written.append((type, out.count))
        }
        try file("Patient") { try $0.append(resources.patient(profile)) }
        try file("Device") { out in for s in try store.fhirSources() { try out.append(resources.device(s)) } }
        try file("Observation") { out in
            for (date, values, _) in try store.fhirDays() {
                for (metric, code) in FHIRCode.daily {
                    guard let value = values[metric] else { continue }
                    try out.append(resources.day(date, metric: metric, value: value, code))
                }
            }
            for day in try store.fhirHeartRateDays() {
                try out.append(resources.heartRateDay(day.date, minimum: day.minimum, mean: day.mean, maximum: day.maximum))
            }
            try store.forEachFHIRSample(types: FHIRCode.samples.keys.sorted()) { s in
                guard let code = FHIRCode.samples[s.type] else { return }
                try out.append(resources.sample(s, code))
            }
            for b in try store.fhirBloodPressure() { try out.append(resources.bloodPressure(b)) }
            for w in try store.fhirWorkouts() { try out.append(resources.workout(w)) }
            for c in try store.allCycles() { try out.append(resources.cycle(c)) }
        }
        let clinical = try FHIRClinicalBundles(personID: resources.personID, timestamp: profile?.exportDate, folder: folder)
            .write(from: store)
        if clinical.contains(where: { $0.release == "R4" }) { written.append(("Bundle", 1)) }
        try writeManifest(written, clinical: clinical, exportDate: profile?.exportDate, to: folder)
        return written + clinical.filter { $0.release != "R4" }.map { ("Bundle " + $0.release, 1) }
    }

    /// The Bulk Data manifest: each file with its type and count. `transactionTime` is the
    /// export's date (not the run's: a nightly run's manifest equals a full import's).
    /// The clinical records' Bundles are listed in `extension.clinicalRecords` (release, the
    /// elements' `fhirVersion`s, file, resources in it); only the R4 one also in `output`.
    static func writeManifest(_ written: [(type: String, count: Int)], clinical: [FHIRClinicalBundles.Written],
                              exportDate: String?, to folder: String) throws {
        var manifest: [String: Any] = [
            "transactionTime": exportDate ?? "1970-01-01T00:00:00Z", "request": "healthetl import (outputs: fhir)",
            "requiresAccessToken": false, "error": [] as [Any],
            "output": written.map { ["type": $0.type, "url": $0.type + ".ndjson", "count": $0.count] as [String: Any] },
        ]
        if !clinical.isEmpty {
            manifest["extension"] = ["clinicalRecords": clinical.map {
                ["release": $0.release, "fhirVersions": $0.fhirVersions.sorted(), "url": $0.file, "count": $0.resources] as [String: Any]
            }]
        }
        let out = try AtomicOutputFile(path: (folder as NSString).appendingPathComponent("manifest.json"),
                                       durability: .syncedWhenPublished)
        do {
            var bytes: [UInt8] = []
            FHIRJSON.write(manifest, into: &bytes)
            try out.write(bytes + [UInt8(ascii: "\n")])
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
    }
}

/// One NDJSON file: a resource a line, keys sorted, published on `commit` only.
final class NDJSONFile {
    private let file: AtomicOutputFile
    private(set) var count = 0
    private var line: [UInt8] = []

    init(path: String) throws { file = try AtomicOutputFile(path: path, durability: .syncedWhenPublished) }

    func append(_ resource: [String: Any]) throws {
        line.removeAll(keepingCapacity: true)
        FHIRJSON.write(resource, into: &line)
        line.append(UInt8(ascii: "\n"))
        try file.write(line)
        count += 1
    }

    func commit() throws { try file.commit() }
    func discard() { file.discard() }
}
