/// Typed values read from an export, before normalization.
///
/// Ingest produces these and never rejects anything: a value it cannot read stays `nil`
/// (or raw text) and normalize decides whether the record goes to quarantine. Repeated
/// strings (type, source, unit, device) are interned by ingest, so copying them only
/// retains shared storage.

/// `MetadataEntry key= value=`; values may carry units (`"418 cm"`), so they stay text.
public struct MetadataEntry: Hashable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) { self.key = key; self.value = value }
}

/// One `InstantaneousBeatsPerMinute` of a heart-rate-variability list.
public struct HeartbeatSample: Hashable, Sendable {
    public var time: Timestamp?
    public var bpm: Double?
    public init(time: Timestamp?, bpm: Double?) { self.time = time; self.bpm = bpm }
}

/// Who wrote a sample: `sourceName`, `sourceVersion` and the `device` description with its
/// per-object memory address removed (it would make every description unique).
public struct SourceInfo: Hashable, Sendable {
    public var name: String
    public var version: String?
    public var device: String?
    @inlinable public init(name: String, version: String? = nil, device: String? = nil) {
        self.name = name; self.version = version; self.device = device
    }

    /// The synthesized `==` compares the optional texts as `Optional`s, which copies them
    /// (a dozen retains and releases per comparison; the sink and the identity stage compare
    /// every record's source with the last one). Same result, read in place.
    @inlinable public static func == (a: SourceInfo, b: SourceInfo) -> Bool {
        a.name == b.name && same(a.version, b.version) && same(a.device, b.device)
    }

    @inlinable static func same(_ a: String?, _ b: String?) -> Bool {
        switch (a == nil, b == nil) {
        case (true, true): return true
        case (false, false): return a.unsafelyUnwrapped == b.unsafelyUnwrapped
        default: return false
        }
    }

    /// The `model:` field of the device description (`Watch`, `iPhone`), if any.
    public var deviceModel: String? { device.flatMap { Self.field("model", in: $0) } }
    /// The `hardware:` field (`Watch6,1`).
    public var deviceHardware: String? { device.flatMap { Self.field("hardware", in: $0) } }

    static func field(_ name: String, in description: String) -> String? {
        for part in description.split(separator: ",", omittingEmptySubsequences: true) {
            let trimmed = part.drop(while: { $0 == " " || $0 == "<" })
            if trimmed.hasPrefix(name + ":") {
                var v = trimmed.dropFirst(name.count + 1)
                while v.last == ">" { v = v.dropLast() }
                return String(v)
            }
        }
        return nil
    }
}

/// A `Record` element: one quantity or category sample.
public struct ExportRecord: Sendable {
    /// Line of the element in the input, for quarantine reports. (First, so that the implicit
    /// memberwise initializer's name differs from the public one's; see `parsed`.)
    public var line: Int
    public var type: String
    public var source: SourceInfo
    public var unit: String?
    /// The printed value (`"72"`, `"1.23457e+06"`, `"HKCategoryValueSleepAnalysisAsleepCore"`).
    public var value: String?
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry]
    public var heartbeats: [HeartbeatSample]
    /// Dates that were present but could not be read (name of the attribute).
    public var unreadableDates: [String]
}

extension ExportRecord {
    @inlinable public init(type: String, source: SourceInfo, unit: String? = nil, value: String? = nil,
                creationDate: Timestamp? = nil, startDate: Timestamp? = nil, endDate: Timestamp? = nil,
                metadata: [MetadataEntry] = [], heartbeats: [HeartbeatSample] = [], line: Int = 0,
                unreadableDates: [String] = []) {
        self.type = type; self.source = source; self.unit = unit; self.value = value
        self.creationDate = creationDate; self.startDate = startDate; self.endDate = endDate
        self.metadata = metadata; self.heartbeats = heartbeats; self.line = line
        self.unreadableDates = unreadableDates
    }

    /// The record the parser read, built where it is returned. Built through the written
    /// initializer (even inlined), it was made on the stack and then copied, a dozen strings
    /// and arrays retained and released once more per record; only the implicit memberwise
    /// initializer builds in place (Swift 6.3).
    public static func parsed(type: consuming String, source: consuming SourceInfo, unit: consuming String?,
                              value: consuming String?, creationDate: Timestamp?, startDate: Timestamp?,
                              endDate: Timestamp?, metadata: consuming [MetadataEntry],
                              unreadableDates: consuming [String], line: Int) -> ExportRecord {
        ExportRecord(line: line, type: type, source: source, unit: unit, value: value, creationDate: creationDate,
                     startDate: startDate, endDate: endDate, metadata: metadata, heartbeats: [],
                     unreadableDates: unreadableDates)
    }
}

/// A `Correlation` (blood pressure, food). Its child records also appear at top level, so
/// they are kept here as members only and never become samples a second time.
public struct ExportCorrelation: Sendable {
    public var type: String
    public var source: SourceInfo
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry]
    public var members: [ExportRecord]
    public var line: Int
    public init(type: String, source: SourceInfo, creationDate: Timestamp?, startDate: Timestamp?,
                endDate: Timestamp?, metadata: [MetadataEntry] = [], members: [ExportRecord] = [], line: Int) {
        self.type = type; self.source = source; self.creationDate = creationDate; self.startDate = startDate
        self.endDate = endDate; self.metadata = metadata; self.members = members; self.line = line
    }
}

/// A number with the unit it was printed in (`totalDistance="3.1" totalDistanceUnit="mi"`).
public struct Measurement: Hashable, Sendable {
    public var value: Double
    public var unit: String?
    public init(value: Double, unit: String?) { self.value = value; self.unit = unit }
}

public struct ExportWorkoutEvent: Hashable, Sendable {
    public var type: String
    public var date: Timestamp?
    public var duration: Measurement?
    public var metadata: [MetadataEntry]
    public init(type: String, date: Timestamp?, duration: Measurement?, metadata: [MetadataEntry] = []) {
        self.type = type; self.date = date; self.duration = duration; self.metadata = metadata
    }
}

/// `WorkoutStatistics` (iOS 16+): a sum or average/minimum/maximum of one quantity type.
public struct ExportWorkoutStatistic: Hashable, Sendable {
    public var type: String
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: String?
    public init(type: String, startDate: Timestamp? = nil, endDate: Timestamp? = nil, sum: Double? = nil,
                average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil, unit: String? = nil) {
        self.type = type; self.startDate = startDate; self.endDate = endDate; self.sum = sum
        self.average = average; self.minimum = minimum; self.maximum = maximum; self.unit = unit
    }
}

/// One point of a route, from a GPX file or an inline `Location`.
public struct RoutePoint: Hashable, Sendable {
    public var time: Timestamp?
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var course: Double?
    public var speed: Double?
    public init(time: Timestamp?, latitude: Double, longitude: Double, altitude: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                course: Double? = nil, speed: Double? = nil) {
        self.time = time; self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy; self.verticalAccuracy = verticalAccuracy
        self.course = course; self.speed = speed
    }
}

/// A `WorkoutRoute`: either a reference to a GPX file in the export or inline points.
public struct ExportWorkoutRoute: Sendable {
    public var source: SourceInfo
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    /// `FileReference path=`, e.g. `/workout-routes/route_2024-05-01_7.12am.gpx`.
    public var filePath: String?
    public var points: [RoutePoint]
    public var metadata: [MetadataEntry]
    public init(source: SourceInfo, startDate: Timestamp?, endDate: Timestamp?, filePath: String? = nil,
                points: [RoutePoint] = [], metadata: [MetadataEntry] = []) {
        self.source = source; self.startDate = startDate; self.endDate = endDate; self.filePath = filePath
        self.points = points; self.metadata = metadata
    }
}

/// A `WorkoutActivity` (iOS 16+, not in the DTD): one part of a multi-part workout.
public struct ExportWorkoutActivity: Sendable {
    public var uuid: String?
    public var activityType: String?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var duration: Measurement?
    public var events: [ExportWorkoutEvent]
    public var statistics: [ExportWorkoutStatistic]
    public var metadata: [MetadataEntry]
    public init(uuid: String? = nil, activityType: String? = nil, startDate: Timestamp? = nil,
                endDate: Timestamp? = nil, duration: Measurement? = nil, events: [ExportWorkoutEvent] = [],
                statistics: [ExportWorkoutStatistic] = [], metadata: [MetadataEntry] = []) {
        self.uuid = uuid; self.activityType = activityType; self.startDate = startDate; self.endDate = endDate
        self.duration = duration; self.events = events; self.statistics = statistics; self.metadata = metadata
    }
}

public struct ExportWorkout: Sendable {
    public var activityType: String
    public var source: SourceInfo
    public var duration: Measurement?
    /// Legacy totals carried as attributes (pre iOS 16); newer exports use `statistics`.
    public var totalDistance: Measurement?
    public var totalEnergyBurned: Measurement?
    public var totalSwimmingStrokeCount: Measurement?
    public var totalFlightsClimbed: Measurement?
    public var creationDate: Timestamp?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var metadata: [MetadataEntry]
    public var events: [ExportWorkoutEvent]
    public var statistics: [ExportWorkoutStatistic]
    public var routes: [ExportWorkoutRoute]
    public var activities: [ExportWorkoutActivity]
    public var line: Int
    public init(activityType: String, source: SourceInfo, line: Int) {
        self.activityType = activityType; self.source = source; self.line = line
        metadata = []; events = []; statistics = []; routes = []; activities = []
    }
}

/// `ActivitySummary`: the Watch's own ring values and goals for one day.
public struct ExportActivitySummary: Hashable, Sendable {
    public var date: CivilDate?
    public var activeEnergyBurned: Double?
    public var activeEnergyBurnedGoal: Double?
    public var activeEnergyBurnedUnit: String?
    public var appleMoveTime: Double?
    public var appleMoveTimeGoal: Double?
    public var appleExerciseTime: Double?
    public var appleExerciseTimeGoal: Double?
    public var appleStandHours: Double?
    public var appleStandHoursGoal: Double?
    public var line: Int
    public init(line: Int) { self.line = line }
}

/// `Me`: the user's characteristics, keyed by the HealthKit identifier.
public struct ExportProfile: Hashable, Sendable {
    public var characteristics: [String: String]
    public init(characteristics: [String: String]) { self.characteristics = characteristics }
}

public struct ExportClinicalRecord: Hashable, Sendable {
    public var type: String
    public var identifier: String?
    public var sourceName: String?
    public var sourceURL: String?
    public var fhirVersion: String?
    public var receivedDate: Timestamp?
    public var resourceFilePath: String?
    public init(type: String) { self.type = type }
}

/// A file of `clinical-records/`: one FHIR resource as the provider sent it, its JSON with the
/// whitespace between tokens removed (`path` as `ClinicalRecord@resourceFilePath` names it,
/// without the leading slash).
public struct ClinicalResource: Hashable, Sendable {
    public var path: String
    public var resourceType: String
    public var json: [UInt8]
    public init(path: String, resourceType: String, json: [UInt8]) {
        self.path = path; self.resourceType = resourceType; self.json = json
    }
}

public struct SensitivityPoint: Hashable, Sendable {
    public var frequencyHz: Double?
    public var leftEarDBHL: Double?
    public var rightEarDBHL: Double?
    /// Every attribute as printed, since newer exports add masked/clamping variants.
    public var attributes: [MetadataEntry]
    public init(frequencyHz: Double?, leftEarDBHL: Double?, rightEarDBHL: Double?, attributes: [MetadataEntry]) {
        self.frequencyHz = frequencyHz; self.leftEarDBHL = leftEarDBHL; self.rightEarDBHL = rightEarDBHL
        self.attributes = attributes
    }
}

public struct ExportAudiogram: Sendable {
    public var source: SourceInfo
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var points: [SensitivityPoint]
    public var metadata: [MetadataEntry]
    public init(source: SourceInfo, startDate: Timestamp?, endDate: Timestamp?) {
        self.source = source; self.startDate = startDate; self.endDate = endDate; points = []; metadata = []
    }
}

public struct ExportVisionPrescription: Sendable {
    public var type: String?
    public var dateIssued: Timestamp?
    public var expirationDate: Timestamp?
    public var brand: String?
    public var rightEye: [MetadataEntry]
    public var leftEye: [MetadataEntry]
    public var attachments: [[MetadataEntry]]
    public init() { rightEye = []; leftEye = []; attachments = [] }
}

extension ExportWorkout {
    /// The id the store keeps a workout by: positive, from what identifies it in every export
    /// of the same phone. 49 bits (15 decimal digits), so that a spreadsheet shows it exactly
    /// instead of `2.79E+18`. The normalizer makes it, and an incremental run's SAX handler (from the
    /// same parsed workout) and skipper (from a start tag's bytes) to drop a workout the store
    /// holds: all through here.
    public static func storeID(activityType: String, sourceName: String, start: Timestamp?, end: Timestamp?) -> Int64 {
        var h = StableHasher()
        h.combine(activityType)
        h.combine(sourceName)
        h.combine(start?.microseconds ?? 0)
        h.combine(end?.microseconds ?? 0)
        return Int64(bitPattern: h.value & 0x1_FFFF_FFFF_FFFF)
    }

    public var storeID: Int64 { Self.storeID(activityType: activityType, sourceName: source.name, start: startDate, end: endDate) }
}
