/// The seam every ingest plugs into (docs/ARCHITECTURE.md, "Inputs"): one export, opened and
/// checked, that the pipeline reads the same way whatever its platform. An input yields the
/// typed batches of `IngestBatch` (records, workouts, routes …) into the load's channel; the
/// stages after it never learn where they came from. It reports how far it has got in its own
/// unit (`InputPosition`: bytes of a file, rows of a database) against `progressTotal`, and
/// each batch that ends where it could start again carries a `ResumePoint`, which the load
/// commits with the batch's rows: `read(resumingAt:)` of the same input in a new process goes
/// on from there.
package protocol HealthInput: Sendable {
    /// Where the export comes from, as the run summary names it.
    var platform: InputPlatform { get }
    /// The path the person gave.
    var path: String { get }
    /// What the path is (`zip`, `xml`, `folder`, `database`): the run summary's `input_kind`.
    var kindName: String { get }
    /// The file inside the export that holds its data (the XML, the database; the zip's entry
    /// name for a zip): the run summary's `xml`.
    var dataFile: String { get }
    /// A name for messages: `export.zip:apple_health_export/export.xml`, or the file path.
    var displayName: String { get }
    /// The size of what is read, in bytes (the zip's compressed size): the run summary's
    /// `input_bytes` and MB/s.
    var inputBytes: Int64 { get }
    /// What `InputPosition.totalBytes` counts to: the read's 100 % (bytes or rows).
    var progressTotal: Int64 { get }
    /// About how many records it holds, to size tables up front (0 when unknown).
    var estimatedRecords: Int { get }
    /// What the person should know about how the export was found (a zip holding two exports).
    var notes: [String] { get }
    /// The file whose fingerprint says whether the export changed since the last run, and the
    /// folder whose other files count as well (an unzipped export's routes beside its XML; nil
    /// when everything is inside that file).
    var fingerprintFile: String { get }
    var companionFolder: String? { get }

    /// Per type identifier, the sources that count where records overlap, best first, when the
    /// export says (a Health Connect export's priority lists); empty: the pipeline's patterns
    /// decide. A source not listed for a type does not count for it.
    var sourcePriority: [String: [String]] { get }

    /// The exports this input reads: itself, or each of a person's exports of several platforms
    /// read as one (the pipeline's `CombinedInput`), whose state the store keeps per platform.
    var parts: [any HealthInput] { get }

    /// What the next run needs to tell whether its export only adds to this one (opaque; kept
    /// with the published store). nil: exports of this kind only ever add.
    func contentState() throws -> String?
    /// How this export relates to the one `state` describes (the one the store was built from).
    func compare(with state: String) throws -> InputComparison

    /// Whose export it is, from what the export itself says, read before anything else (nil:
    /// it says nothing).
    func person() throws -> ExportPerson?
    /// What the export says about the phone's zone, for a first import with none configured.
    func zoneHints() throws -> ExportZoneHints
    /// Streams the whole input (or the rest after `resume`) as batches through `emit`, which
    /// blocks while the stages after it are busy. `knownRoutePaths`: the route files the part
    /// before `resume` referenced. `prefilter`: records an earlier run stored, which the input
    /// may drop unread (or leave to the load, which drops them too).
    func read(resumingAt resume: ResumePoint?, knownRoutePaths: [String], prefilter: (any RecordPrefilter)?,
              emit: @escaping (IngestBatch) throws -> Void) throws -> IngestSummary
}

extension HealthInput {
    package var sourcePriority: [String: [String]] { [:] }
    package var parts: [any HealthInput] { [self] }
    package func contentState() throws -> String? { nil }
    package func compare(with state: String) throws -> InputComparison { .adds }
}

/// How an export relates to the one a store was built from (`HealthInput.compare`).
package enum InputComparison: Sendable, Equatable {
    /// It holds what the earlier one did, and maybe more: the run adds what is new.
    case adds
    /// It changed or lost records the store holds (why): the run rebuilds the store from it.
    case rewrites(String)
    /// It holds none of the earlier export's records (why): another person's, refused.
    case anotherPerson(String)
}

/// The platforms an export can come from.
package enum InputPlatform: String, Sendable, Codable, CaseIterable {
    /// An iPhone's Health app export (`export.zip`, `export.xml`).
    case appleHealth = "apple-health"
    /// Android's Health Connect export (`health_connect_export.zip`, its database).
    case healthConnect = "health-connect"

    /// How messages name the platform's exports.
    package var displayName: String {
        switch self {
        case .appleHealth: "Apple Health"
        case .healthConnect: "Health Connect"
        }
    }

    package var article: String { self == .appleHealth ? "an" : "a" }
}

/// One kind of input the pipeline can open: it recognises its own exports by their content
/// (never by a flag or a file name, which people and phones localize) and opens them.
package protocol HealthInputFormat: SendableMetatype {
    /// True when `path` (a file or a folder) is an export of this kind, judged from its first
    /// bytes or its entries; cheap, and never a full read.
    static func recognizes(_ path: String) throws -> Bool
    /// Opens and checks the export at `path`, or says in a sentence why it cannot. `scratch`: a
    /// private folder (the output's state folder, created on first use) for what the input
    /// must unpack to read, such as a database inside a zip; nothing is written anywhere else.
    static func open(_ path: String, scratch: String) throws -> any HealthInput
}
