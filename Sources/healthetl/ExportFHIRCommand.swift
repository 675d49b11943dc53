import Foundation
import HealthCore
import HealthFHIR
import HealthPipeline

/// `healthetl export-fhir [--out DIR] [--person ID]`: writes OUT/fhir/ (FHIR R4, Bulk Data
/// NDJSON) from the store, for a store whose pipeline does not name the `fhir` output.
enum ExportFHIRCommand: Command {
    static let name = "export-fhir"
    static let abstract = "write OUT/fhir/ (FHIR R4 NDJSON and a manifest) from the store"
    static let discussion = """
        The same files as the pipeline output "fhir" (docs/FHIR.md): Patient.ndjson, Device.ndjson, Observation.ndjson,
        the clinical records' Bundles (Bundle.ndjson for R4, Bundle.DSTU2.ndjson) when the export had them, and
        manifest.json, replaced as one step. An import whose pipeline names "fhir" rewrites them itself.
        """
    static let spec = ArgumentSpec(options: [.out, .person])

    static func run(_ args: ParsedArguments) throws {
        try args.refuseFamilyFolderWithoutPerson(name)
        let folder = try args.outputFolder
        let rows = try OutputRewrite.run(FHIROutput(), in: folder)
        let counts = rows.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.replacingOccurrences(of: "fhir ", with: ""))" }
        FileHandle.standardError.write(Data("wrote \(counts.joined(separator: ", "))\n".utf8))
        print((folder.path as NSString).appendingPathComponent("fhir"))
    }
}
