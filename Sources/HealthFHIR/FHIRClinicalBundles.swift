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
        var file: String
        var resources: Int
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

    /// Streams the store's clinical resources into their releases' Bundles (one line each).
    func write(from store: HealthStore) throws -> [Written] {
        var open: [String: (file: AtomicOutputFile, written: Written)] = [:]
        do {
            try store.forEachClinicalResource { resource in
                let release = Self.release(of: resource.fhirVersion)
                if open[release] == nil {
                    let name = Self.fileName(release)
                    let file = try AtomicOutputFile(path: (folder as NSString).appendingPathComponent(name), durability: .syncedWhenPublished)
                    try file.write(Array("{\"entry\":[".utf8))
                    open[release] = (file, Written(release: release, fhirVersions: [], file: name, resources: 0))
                }
                let separator = open[release]!.written.resources == 0 ? "" : ","
                try open[release]!.file.write(Array("\(separator){\"resource\":".utf8) + Array(resource.json.utf8) + [UInt8(ascii: "}")])
                open[release]!.written.resources += 1
                if let version = resource.fhirVersion, !open[release]!.written.fhirVersions.contains(version) {
                    open[release]!.written.fhirVersions.append(version)
                }
            }
            for release in open.keys.sorted() {
                var tail: [UInt8] = []
                var rest: [String: Any] = ["resourceType": "Bundle", "type": "collection",
                                           "id": "\(personID)-clinical-\(release.lowercased())"]
                if let timestamp { rest["timestamp"] = timestamp }
                FHIRJSON.write(rest, into: &tail)
                // `{"entry":[…],` then the other keys, still sorted ("entry" comes first).
                try open[release]!.file.write(Array("],".utf8) + tail.dropFirst() + [UInt8(ascii: "\n")])
                try open[release]!.file.commit()
            }
        } catch {
            for (_, o) in open { o.file.discard() }
            throw error
        }
        return open.keys.sorted().map { open[$0]!.written }
    }
}
