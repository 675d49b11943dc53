import Foundation
import HealthStore
import PrivateFiles

/// The export's `clinical-records/` as `collection` Bundles, one per FHIR release, each resource
/// copied as the provider sent it (its JSON on one line). An R4 Bundle is `Bundle.ndjson`, an
/// output like the others; any other release (Apple's DSTU2, 1.0.2) is `Bundle.DSTU2.ndjson`,
/// kept out of the manifest's `output` (an R4 reader would misread it) and named, like every
/// release, in the manifest's `extension.clinicalRecords` with its count.
struct FHIRClinicalBundles {
    /// What the manifest says of one release's Bundle.
    struct Written {
        var release: String
        var fhirVersions: [String]
        var resources: Int
        var file: String { FHIRClinicalBundles.fileName(release) }
    }

    let personID: String
    let timestamp: String?
    let folder: String

    /// The release a `ClinicalRecord@fhirVersion` belongs to; "unknown" when no element names the file.
    static func release(of fhirVersion: String?) -> String {
        guard let version = fhirVersion else { return "unknown" }
        let parts = version.split(separator: ".")
        switch (parts.first, parts.dropFirst().first) {
        case ("1", "0"?): return "DSTU2"
        case ("3", _): return "STU3"
        case ("4", "0"?): return "R4"
        case ("4", "3"?): return "R4B"
        case ("5", _): return "R5"
        default: return "FHIR-" + version.filter { $0.isLetter || $0.isNumber || $0 == "." }.prefix(16)
        }
    }

    static func fileName(_ release: String) -> String { release == "R4" ? "Bundle.ndjson" : "Bundle.\(release).ndjson" }

    /// Streams the store's clinical resources into their releases' Bundles (one line each), one
    /// Bundle after the other: a file open per release at once ran out of descriptors on an
    /// export whose elements named 1,100 made-up versions (each a release of its own). The
    /// resources are grouped first by row (8 bytes each, their JSON stays in the store), so
    /// each Bundle still holds its resources in path order.
    func write(from store: HealthStore) throws -> [Written] {
        var groups: [String: (rows: [Int64], versions: Set<String>)] = [:]
        var releases: [String?: String] = [:]   // versions repeat: each is looked at once
        try store.forEachClinicalResourceVersion { row, version in
            let release = releases[version] ?? Self.release(of: version)
            releases[version] = release
            groups[release, default: ([], [])].rows.append(row)
            if let version { groups[release]!.versions.insert(version) }
        }
        var written: [Written] = []
        for release in groups.keys.sorted() {
            let group = groups.removeValue(forKey: release)!
            var rest: [String: Any] = ["resourceType": "Bundle", "type": "collection",
                                       "id": "\(personID)-clinical-\(release.lowercased())"]
            if let timestamp { rest["timestamp"] = timestamp }
            let file = try BundleFile(release: release, in: folder)
            do {
                try store.forEachClinicalResourceJSON(rows: group.rows) { try file.append($0) }
                try file.finish(rest)
            } catch {
                file.discard()
                throw error
            }
            written.append(Written(release: release, fhirVersions: group.versions.sorted(), resources: group.rows.count))
        }
        return written
    }
}

/// One release's Bundle as it is written: `{"entry":[` and the resources, then the Bundle's
/// other keys, which sort after "entry" (FHIRJSON's order), and the line's end.
private final class BundleFile {
    private let file: AtomicOutputFile
    private var resources = 0

    init(release: String, in folder: String) throws {
        file = try AtomicOutputFile(path: (folder as NSString).appendingPathComponent(FHIRClinicalBundles.fileName(release)),
                                    durability: .syncedWhenPublished)
        try file.write(Array(#"{"entry":["#.utf8))
    }

    func append(_ json: String) throws {
        try file.write(Array(((resources == 0 ? "" : ",") + #"{"resource":"# + json + "}").utf8))
        resources += 1
    }

    func finish(_ rest: [String: Any]) throws {
        var tail: [UInt8] = []
        FHIRJSON.write(rest, into: &tail)
        try file.write(Array("],".utf8) + tail.dropFirst() + [UInt8(ascii: "\n")])
        try file.commit()
    }

    func discard() { file.discard() }
}
