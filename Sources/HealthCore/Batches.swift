/// The values that flow between stages, one batch at a time.

/// How far the reader has got, for progress lines and checkpoints, in the input's own unit
/// (`HealthInput.progressTotal`): bytes of the file for an export XML or zip (compressed bytes
/// for a zip), rows for a database.
public struct InputPosition: Hashable, Sendable {
    /// Units of the input consumed so far (bytes, or rows).
    public var bytesRead: Int64
    public var totalBytes: Int64
    /// Items completed so far: top-level elements (children of `HealthData`) of an XML, rows of a database.
    public var elementOrdinal: Int64
    /// Where a later run can pick up right after this batch; nil for batches that do not end
    /// at a point the input can resume from (route files).
    public var resume: ResumePoint?
    public init(bytesRead: Int64 = 0, totalBytes: Int64 = 0, elementOrdinal: Int64 = 0, resume: ResumePoint? = nil) {
        self.bytesRead = bytesRead; self.totalBytes = totalBytes; self.elementOrdinal = elementOrdinal
        self.resume = resume
    }
    public var fraction: Double { totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : 0 }
}

/// The ingest stage's state at the end of a batch: enough to start reading again from there
/// in a new process. An export XML seeks to `inputOffset`, opens a synthetic `<HealthData>` and
/// counts lines and elements on from here; a database input goes on with the rows of `table`
/// after `afterRowID` (tables are read in one fixed order, each by its row id).
public struct ResumePoint: Codable, Hashable, Sendable {
    /// XML: bytes of the export XML (uncompressed) before the next top-level element.
    public var inputOffset: Int64
    /// Items completed (top-level elements of the XML, rows of a database).
    public var elementOrdinal: Int64
    /// XML: the line at `inputOffset` (1-based).
    public var line: Int
    /// The whole input has been read; only files it references (routes) may be left.
    public var inputComplete: Bool
    /// What the XML sanitizer did before this point (for the run's summary).
    public var removedDoctype: Bool
    public var repairedBytes: Int
    /// A database input: the table being read, and the last row id read from it.
    public var table: String?
    public var afterRowID: Int64?
    /// Which of a `CombinedInput`'s exports the point is in (nil: the first, or a lone input).
    public var part: Int?
    public init(inputOffset: Int64, elementOrdinal: Int64, line: Int, inputComplete: Bool = false,
                removedDoctype: Bool = false, repairedBytes: Int = 0, table: String? = nil, afterRowID: Int64? = nil) {
        self.inputOffset = inputOffset; self.elementOrdinal = elementOrdinal; self.line = line
        self.inputComplete = inputComplete; self.removedDoctype = removedDoctype; self.repairedBytes = repairedBytes
        self.table = table; self.afterRowID = afterRowID
    }

    // The names a checkpoint of an earlier release used (a killed run resumes across an upgrade).
    enum CodingKeys: String, CodingKey {
        case inputOffset = "xmlOffset", inputComplete = "xmlComplete"
        case elementOrdinal, line, removedDoctype, repairedBytes, table, afterRowID, part
    }
}

/// Points of one GPX file of the export, read after the XML: a long route comes in parts of
/// at most `RouteFile.partPoints` points, in order, so memory stays flat whatever its length
/// (issue 46: one route of 10 M points took 1.87 GB).
public struct RouteFile: Sendable {
    /// The path as `FileReference` names it (`/workout-routes/route_….gpx`).
    public var path: String
    public var points: [RoutePoint]
    /// The file's last part: its route's owner is settled once every point is in.
    public var isLast: Bool
    /// The file broke after earlier parts were sent: the points of its earlier parts go (a
    /// broken route file loses its route, not the import).
    public var abandoned: Bool

    public static let partPoints = 10_000

    public init(path: String, points: [RoutePoint], isLast: Bool = true, abandoned: Bool = false) {
        self.path = path; self.points = points; self.isLast = isLast; self.abandoned = abandoned
    }
}

/// A record that could not be used, with where and why (docs/FORMAT.md, "Bad input").
public struct QuarantineEntry: Error, Hashable, Sendable {
    public var line: Int
    public var element: String
    public var type: String?
    public var reason: String
    public init(line: Int, element: String, type: String?, reason: String) {
        self.line = line; self.element = element; self.type = type; self.reason = reason
    }
}

/// What ingest emits: every element kind of the export, typed, in input order per kind.
public struct IngestBatch: Sendable {
    public var records: [ExportRecord] = []
    public var correlations: [ExportCorrelation] = []
    public var workouts: [ExportWorkout] = []
    public var activitySummaries: [ExportActivitySummary] = []
    public var clinicalRecords: [ExportClinicalRecord] = []
    public var audiograms: [ExportAudiogram] = []
    public var visionPrescriptions: [ExportVisionPrescription] = []
    public var routeFiles: [RouteFile] = []
    /// Electrocardiograms from the export's `electrocardiograms/` files, read after the XML.
    public var ecgRecordings: [ECGRecording] = []
    /// The FHIR resources of the export's `clinical-records/` files, read after the XML.
    public var clinicalResources: [ClinicalResource] = []
    public var profile: ExportProfile?
    public var exportDate: Timestamp?
    public var locale: String?
    /// Element names that are not part of any known export format, with counts.
    public var unknownElements: [String: Int] = [:]
    public var position = InputPosition()
    /// Records ingest's prefilter (the anchors) has dropped so far in this process (its state,
    /// for checkpoints).
    public var skippedByAnchorSoFar = 0
    /// The platform of the export this batch comes from, when one run reads exports of two
    /// (`CombinedInput`); nil: the run's input's own.
    package var platform: InputPlatform?

    public init() {}

    /// Number of items in the batch (what "records/s" counts).
    public var itemCount: Int {
        records.count + correlations.count + workouts.count + activitySummaries.count + clinicalRecords.count
            + audiograms.count + visionPrescriptions.count + routeFiles.count + ecgRecordings.count
            + clinicalResources.count
    }
}

/// A record after normalize: instants checked, value in the canonical unit, local day known.
public struct Sample: Sendable {
    public var record: ExportRecord
    public var start: Timestamp
    public var end: Timestamp
    /// Value in `unit` (canonical); nil for category samples.
    public var value: Double?
    public var unit: String?
    /// The enum value of a category sample (`HKCategoryValueSleepAnalysisAsleepCore`).
    public var categoryValue: String?
    /// Local calendar day of `start` in the configured zone.
    public var localDate: CivilDate
    /// Typed in by the user (`HKWasUserEntered=1`): ranks as manual entry in the merge.
    public var userEntered: Bool
}

// No written initializer: only the implicit memberwise one builds a sample in place. A sample
// made through a written one (even inlined) was built on the stack and then copied where it
// went, its record's strings and arrays retained once more and released with the stack copy
// (Swift 6.3). Other modules make samples through `initialize`.
extension Sample {
    /// Initializes the memory at `slot` with a sample that takes over `record`, uncopied.
    public static func initialize(_ slot: UnsafeMutablePointer<Sample>, record: consuming ExportRecord,
                                  start: Timestamp, end: Timestamp, value: Double?, unit: consuming String?,
                                  categoryValue: consuming String?, localDate: CivilDate, userEntered: Bool) {
        slot.initialize(to: Sample(record: record, start: start, end: end, value: value, unit: unit,
                                   categoryValue: categoryValue, localDate: localDate, userEntered: userEntered))
    }
}

/// A workout with its totals in canonical units (statistics first, legacy attributes second).
public struct NormalizedWorkout: Sendable {
    public var workout: ExportWorkout
    /// Stable across runs: derived from type, source and instants.
    public var id: Int64
    public var localDate: CivilDate?
    public var durationMinutes: Double?
    public var distanceMeters: Double?
    public var energyKilocalories: Double?
    public init(workout: ExportWorkout, id: Int64, localDate: CivilDate?, durationMinutes: Double?,
                distanceMeters: Double?, energyKilocalories: Double?) {
        self.workout = workout; self.id = id; self.localDate = localDate; self.durationMinutes = durationMinutes
        self.distanceMeters = distanceMeters; self.energyKilocalories = energyKilocalories
    }
}

/// What normalize emits: usable samples, the quarantine, and the other kinds passed on.
public struct NormalizedBatch: Sendable {
    public var samples: [Sample] = []
    /// The content hash of each sample, in the same order (equal for exact duplicates), set by
    /// the dedupe stage. Beside the samples rather than in them: stamping it then writes a new
    /// array of integers instead of copying the batch's samples.
    public var identities: [UInt64] = []
    public var workouts: [NormalizedWorkout] = []
    public var quarantine: [QuarantineEntry] = []
    /// Everything but records and workouts, as ingest produced it.
    public var rest = IngestBatch()
    public init() {}
    public var position: InputPosition { rest.position }
}

/// Lets ingest drop a record from its type, source and creation instant alone, before it reads
/// the rest of it (an incremental run's anchors: most of a cumulative export is known).
public protocol RecordPrefilter: Sendable {
    /// Records of this type and source created before the returned instant (µs) are known
    /// already and can be dropped unread; nil: none can.
    func cutoff(type: String, source: String) -> Int64?
    /// Whether the store holds the workout of this id (`ExportWorkout.storeID`), so that it
    /// can be dropped unread (the merge would keep the store's).
    func knowsWorkout(_ id: Int64) -> Bool
}

extension RecordPrefilter {
    public func knowsWorkout(_ id: Int64) -> Bool { false }
}
