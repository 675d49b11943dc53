import HealthCore

/// Builds typed export values from SAX events and hands them on in batches.
///
/// Knows every element of docs/FORMAT.md, iOS 8 through current: children of `HealthData`
/// become values; their children are attached to the value being built. Anything
/// unknown is counted (and its subtree skipped), never fatal.
final class ExportSAXHandler: SAXHandler {
    enum Failure: Error { case notHealthExport(root: String) }

    enum Context {
        case root, record, heartbeatList, correlation, correlationRecord
        case workout, workoutRoute, workoutActivity, workoutEvent, activityEvent, audiogram, vision, leaf, skipped
    }

    private let batchSize: Int
    private let emit: (IngestBatch) throws -> Void
    private let position: () -> InputPosition
    var text = AttributeText()
    /// A record's three dates mostly share their day and zone, and so does the next record's.
    private var dateReader = DateReader()
    private var stack: [Context] = []
    private var batch = IngestBatch()
    /// Top-level elements ended as this handler saw them (plus the resumed-from ordinal).
    private var elementsEnded: Int64 = 0
    private(set) var sawRoot = false
    /// Set with a prefilter: recognises records already imported.
    private var known: KnownRecordCheck?
    /// `known != nil`, asked once a record: the comparison itself copied the optional through
    /// the generic witnesses of `Optional` (it is no `Equatable`; issue 62).
    private let checksKnown: Bool
    private var skippedByPrefilter = 0
    /// Route points and heartbeats in the batch, counted as items: a workout or an HRV record
    /// is one item but may hold hundreds of them, and a batch of a four-year export's 872
    /// workouts held 30 k route points at once (issue 35: memory flat).
    var nestedItems = 0

    // Values under construction.
    var record: ExportRecord?
    var recordStart: DateParser.Parsed?
    /// Set by `metadataEntry` when it dropped a value over `maximumValueBytes`.
    var oversizedMetadata: String?
    private var beatShift: Double?
    var correlation: ExportCorrelation?
    var workout: ExportWorkout?
    var activity: ExportWorkoutActivity?
    var route: ExportWorkoutRoute?
    var audiogram: ExportAudiogram?
    var vision: ExportVisionPrescription?

    /// The parser feeding this handler, asked where a batch ends (for resume points).
    weak var parser: SAXPushParser?

    /// `resumingAt`: the parse starts after that many top-level elements (a resumed run).
    init(batchSize: Int = 4096, resumingAt resume: ResumePoint? = nil, prefilter: (any RecordPrefilter)? = nil,
         position: @escaping () -> InputPosition, emit: @escaping (IngestBatch) throws -> Void) {
        self.batchSize = batchSize
        batch = Self.emptyBatch(batchSize)
        known = prefilter.map(KnownRecordCheck.init)
        checksKnown = prefilter != nil
        self.position = position
        self.emit = emit
        elementsEnded = resume?.elementOrdinal ?? 0
    }

    /// Top-level elements completed so far, the records and workouts the parser's byte-level
    /// skipper removed before the current position included (they are counted as if seen).
    var elementOrdinal: Int64 { elementsEnded + Int64(parser?.elementsSkippedBeforeHere ?? 0) }

    /// Hands on the batch; every batch ends at the end of a top-level element, so it carries
    /// the point a later run can resume from. Call with `xmlComplete` after the document ended.
    func flush(xmlComplete: Bool = false) throws {
        let skippedEarly = parser?.recordsSkippedBeforeHere ?? 0
        let ordinal = elementOrdinal
        batch.position = position()
        batch.position.elementOrdinal = ordinal
        batch.position.resume = parser?.resumePoint(elementOrdinal: ordinal, line: currentLine, xmlComplete: xmlComplete)
        batch.skippedByAnchorSoFar = skippedByPrefilter + skippedEarly
        try emit(batch)
        batch = Self.emptyBatch(batchSize)
        nestedItems = 0
    }

    /// Room for a full batch of records up front: growing by doubling copied every record
    /// about twice more on the parse thread.
    private static func emptyBatch(_ size: Int) -> IngestBatch {
        var batch = IngestBatch()
        batch.records.reserveCapacity(size)
        return batch
    }

    private func flushIfFull() {
        guard batch.itemCount + nestedItems >= batchSize else { return }
        do { try flush() } catch { abort(error) }
    }

    override func startElement(_ name: ByteSpan, _ attributes: SAXAttributes) {
        let parent = stack.last
        let context: Context
        switch parent {
        case nil:
            guard name.equals("HealthData") else {
                abort(Failure.notHealthExport(root: name.string))
                return
            }
            sawRoot = true
            for i in 0..<attributes.count where attributes.name(i).equals("locale") {
                batch.locale = text.plain(attributes.value(i))
            }
            context = .root
        case .root:
            context = startTopLevel(name, attributes)
        case .record:
            if name.equals("MetadataEntry") {
                appendMetadataToRecord(attributes); context = .leaf
            } else if name.equals("HeartRateVariabilityMetadataList") {
                context = .heartbeatList
            } else { context = unknown(name, in: "Record") }
        case .heartbeatList:
            if name.equals("InstantaneousBeatsPerMinute") {
                let beat = heartbeat(attributes)
                record?.heartbeats.append(beat); nestedItems += 1; context = .leaf
            } else { context = unknown(name, in: "HeartRateVariabilityMetadataList") }
        case .correlation:
            if name.equals("MetadataEntry") {
                correlation?.metadata.append(metadataEntry(attributes)); context = .leaf
            } else if name.equals("Record") {
                record = parseRecord(attributes, line: currentLine); context = .correlationRecord
            } else { context = unknown(name, in: "Correlation") }
        case .correlationRecord:
            if name.equals("MetadataEntry") {
                appendMetadataToRecord(attributes); context = .leaf
            } else { context = unknown(name, in: "Record") }
        case .workout, .workoutActivity:
            context = startWorkoutChild(name, attributes, inActivity: parent == .workoutActivity)
        case .workoutRoute:
            context = startRouteChild(name, attributes)
        case .workoutEvent, .activityEvent:
            if name.equals("MetadataEntry") {
                let entry = metadataEntry(attributes)
                if parent == .activityEvent {
                    if let last = activity?.events.indices.last { activity?.events[last].metadata.append(entry) }
                } else if let last = workout?.events.indices.last {
                    workout?.events[last].metadata.append(entry)
                }
                context = .leaf
            } else { context = unknown(name, in: "WorkoutEvent") }
        case .audiogram:
            if name.equals("SensitivityPoint") {
                audiogram?.points.append(sensitivityPoint(attributes)); context = .leaf
            } else if name.equals("MetadataEntry") {
                audiogram?.metadata.append(metadataEntry(attributes)); context = .leaf
            } else { context = unknown(name, in: "Audiogram") }
        case .vision:
            let entries = allAttributes(attributes)
            if name.equals("RightEye") { vision?.rightEye = entries; context = .leaf }
            else if name.equals("LeftEye") { vision?.leftEye = entries; context = .leaf }
            else if name.equals("Attachment") || name.equals("MetadataEntry") {
                vision?.attachments.append(entries); context = .leaf
            } else { context = unknown(name, in: "VisionPrescription") }
        case .leaf:
            context = unknown(name, in: "leaf")
        case .skipped:
            context = .skipped
        }
        stack.append(context)
    }

    override func endElement(_ name: ByteSpan) {
        guard let context = stack.popLast() else { return }
        switch context {
        case .record:
            if let r = record.take() { batch.records.append(r) }
        case .correlationRecord:
            if let r = record.take() { correlation?.members.append(r) }
        case .correlation:
            if let c = correlation.take() { batch.correlations.append(c) }
        case .workout:
            if let w = workout.take() { batch.workouts.append(w) }
        case .workoutActivity:
            if let a = activity.take() { workout?.activities.append(a) }
        case .workoutRoute:
            if let r = route.take() { workout?.routes.append(r) }
        case .audiogram:
            if let a = audiogram.take() { batch.audiograms.append(a) }
        case .vision:
            if let v = vision.take() { batch.visionPrescriptions.append(v) }
        case .root, .heartbeatList, .workoutEvent, .activityEvent, .leaf, .skipped:
            break
        }
        if stack.count == 1 {
            elementsEnded += 1
            flushIfFull()
        }
    }

    // MARK: Children of HealthData

    private func startTopLevel(_ name: ByteSpan, _ attributes: SAXAttributes) -> Context {
        if checksKnown, name.equals("Record"), isKnown(attributes) {
            skippedByPrefilter += 1
            return .skipped   // its children are skipped unread too
        }
        let line = currentLine
        if name.equals("Record") {
            record = parseRecord(attributes, line: line)
            return .record
        }
        if name.equals("Workout") {
            let parsed = parseWorkout(attributes, line: line)
            // The store holds it (by the id the normalizer gives the same parsed workout): the
            // merge would keep the store's, so it and its children are skipped unread.
            if let known, known.prefilter.knowsWorkout(parsed.storeID) { return .skipped }
            workout = parsed
            return .workout
        }
        if name.equals("ActivitySummary") { batch.activitySummaries.append(activitySummary(attributes, line: line)); return .leaf }
        if name.equals("Correlation") {
            let (source, dates) = sourceAndDates(attributes)
            var type = ""
            for i in 0..<attributes.count where attributes.name(i).equals("type") { type = text.interned(attributes.value(i)) }
            correlation = ExportCorrelation(type: type, source: source, creationDate: dates.creation,
                                            startDate: dates.start, endDate: dates.end, line: line)
            return .correlation
        }
        if name.equals("ExportDate") {
            for i in 0..<attributes.count where attributes.name(i).equals("value") {
                batch.exportDate = DateParser.parse(attributes.value(i))?.timestamp
            }
            return .leaf
        }
        if name.equals("Me") {
            var characteristics: [String: String] = [:]
            for i in 0..<attributes.count {
                // A `device` is read as on every element: the sanitizer may have cut its address
                // already or not, by where a chunk ended, and both must give the same text.
                let name = attributes.name(i)
                characteristics[name.string] = name.equals("device") ? text.device(attributes.value(i)) : text.plain(attributes.value(i))
            }
            batch.profile = ExportProfile(characteristics: characteristics)
            return .leaf
        }
        if name.equals("ClinicalRecord") { batch.clinicalRecords.append(clinicalRecord(attributes)); return .leaf }
        if name.equals("Audiogram") {
            let (source, dates) = sourceAndDates(attributes)
            audiogram = ExportAudiogram(source: source, startDate: dates.start, endDate: dates.end)
            return .audiogram
        }
        if name.equals("VisionPrescription") { vision = visionPrescription(attributes); return .vision }
        return unknown(name, in: nil)
    }

    func unknown(_ name: ByteSpan, in parent: String?) -> Context {
        let key = parent.map { "\($0)/\(name.string)" } ?? name.string
        batch.unknownElements[key, default: 0] += 1
        return .skipped
    }

    // MARK: Records

    /// Asks the prefilter with the three attributes it needs, parsing nothing else.
    private func isKnown(_ attributes: SAXAttributes) -> Bool {
        var type: ByteSpan?, source: ByteSpan?, created: ByteSpan?
        for i in 0..<attributes.count {
            let name = attributes.name(i)
            switch name.count {
            case 4 where name.equals("type"): type = attributes.value(i)
            case 10 where name.equals("sourceName"), 6 where name.equals("source"): source = attributes.value(i)
            case 12 where name.equals("creationDate"): created = attributes.value(i)
            default: continue
            }
            if type != nil, source != nil, created != nil { break }
        }
        guard let type, let source, let created else { return false }
        return known?.isKnown(type: type, source: source, created: created) { text.interned($0) } ?? false
    }

    /// Attribute names of `Record`; anything else (iOS 8 writes metadata as attributes)
    /// becomes a metadata entry.
    private func parseRecord(_ attributes: SAXAttributes, line: Int) -> ExportRecord {
        // Fields in locals, the record made once at the end: mutating a `var` record here
        // made the compiler copy the whole record (and retain its strings) to return it.
        var type = "", source = SourceInfo(name: ""), unit: String?, value: String?
        var created: Timestamp?, end: Timestamp?
        var metadata: [MetadataEntry] = [], unreadable: [String] = []
        recordStart = nil
        beatShift = nil
        for i in 0..<attributes.count {
            let name = attributes.name(i), text = attributes.value(i)
            if text.count > Self.maximumValueBytes {
                // Not copied: the record goes to quarantine saying which value was too long.
                unreadable.append(Self.oversized(name.count <= 64 ? name.string : "attribute", text.count))
                continue
            }
            switch name.count {
            case 4 where name.equals("type"): type = self.text.repeated(.type, text)
            case 4 where name.equals("unit"): unit = self.text.repeated(.unit, text)
            case 5 where name.equals("value"):
                // Category values repeat (`HKCategoryValue…`); numbers are short and inline.
                value = text.hasPrefix("HK") ? self.text.interned(text) : self.text.plain(text)
            case 7 where name.equals("endDate"):
                end = dateReader.parse(text)?.timestamp
                if end == nil && !text.isEmpty { unreadable.append("endDate") }
            case 9 where name.equals("startDate"):
                recordStart = dateReader.parse(text)
                if recordStart == nil && !text.isEmpty { unreadable.append("startDate") }
            case 12 where name.equals("creationDate"):
                created = dateReader.parse(text)?.timestamp
                if created == nil && !text.isEmpty { unreadable.append("creationDate") }
            case 10 where name.equals("sourceName"), 6 where name.equals("source"): source.name = self.text.repeated(.sourceName, text)
            case 13 where name.equals("sourceVersion"): source.version = self.text.repeated(.sourceVersion, text)
            case 6 where name.equals("device"): source.device = self.text.repeated(.device, text)
            default: metadata.append(MetadataEntry(key: self.text.interned(name), value: self.text.plain(text)))
            }
        }
        return ExportRecord.parsed(type: type, source: source, unit: unit, value: value, creationDate: created,
                                   startDate: recordStart?.timestamp, endDate: end, metadata: metadata,
                                   unreadableDates: unreadable, line: line)
    }

    /// A record with an over-long metadata value goes to quarantine, saying so.
    private func appendMetadataToRecord(_ attributes: SAXAttributes) {
        let entry = metadataEntry(attributes)
        if let note = oversizedMetadata.take() {
            record?.unreadableDates.append(note)
        } else {
            record?.metadata.append(entry)
        }
    }

    func metadataEntry(_ attributes: SAXAttributes) -> MetadataEntry {
        var entry = MetadataEntry(key: "", value: "")
        for i in 0..<attributes.count {
            let name = attributes.name(i), value = attributes.value(i)
            if value.count > Self.maximumValueBytes {
                // Dropped, not copied; a record holding it is quarantined (`parseRecord` notes it).
                oversizedMetadata = Self.oversized(name.equals("value") ? "metadata" : "metadata \(name.count <= 64 ? name.string : "")",
                                                   value.count)
                continue
            }
            if name.equals("key") { entry.key = text.interned(value) }
            else if name.equals("value") { entry.value = text.plain(value) }
        }
        return entry
    }

    /// The longest attribute or metadata value kept, in bytes. Real values are short (a device
    /// description, a time zone name, a few hundred bytes at most); a 200 MB value is a damaged
    /// or hostile file, and its record goes to quarantine instead of into memory three times.
    static let maximumValueBytes = 64 << 10

    static func oversized(_ what: String, _ bytes: Int) -> String {
        "\(what) value of \(bytes) bytes (over the \(maximumValueBytes)-byte limit)"
    }

    /// A beat's time is a localized time of day with no date and no offset. It is written in
    /// the zone in force at recording, which may differ from the export's printed offset by
    /// whole or half hours (a winter sample exported in summer). So the beat is placed at
    /// that time of day nearest to the record's start, shifted by the half-hour multiple
    /// that puts the first beat inside the record; later beats keep the same shift.
    private func heartbeat(_ attributes: SAXAttributes) -> HeartbeatSample {
        var beat = HeartbeatSample(time: nil, bpm: nil)
        for i in 0..<attributes.count {
            let name = attributes.name(i)
            if name.equals("bpm") { beat.bpm = attributes.value(i).double }
            else if name.equals("time"), let start = recordStart, let tod = DateParser.timeOfDay(attributes.value(i)) {
                let startSeconds = Double(start.timestamp.microseconds) / 1_000_000
                let startTimeOfDay = (startSeconds + Double(start.offsetSeconds)).truncatingRemainder(dividingBy: 86_400)
                var delta = tod - (startTimeOfDay < 0 ? startTimeOfDay + 86_400 : startTimeOfDay)
                if delta > 43_200 { delta -= 86_400 } else if delta <= -43_200 { delta += 86_400 }
                if beatShift == nil {
                    let duration = Double((record?.endDate ?? start.timestamp).microseconds - start.timestamp.microseconds) / 1_000_000
                    beatShift = Self.zoneShift(delta: delta, duration: duration)
                }
                beat.time = Timestamp(secondsSince1970: startSeconds + delta - (beatShift ?? 0))
            }
        }
        return beat
    }

    /// The multiple of 30 minutes (up to ±14 h) that moves `delta` into [-60 s, duration + 60 s].
    static func zoneShift(delta: Double, duration: Double) -> Double {
        for k in 0...28 {
            for sign in [1.0, -1.0] {
                let shift = sign * Double(k) * 1800
                if delta - shift >= -60 && delta - shift <= duration + 60 { return shift }
            }
        }
        return 0
    }

    func sourceAndDates(_ attributes: SAXAttributes)
        -> (SourceInfo, (creation: Timestamp?, start: Timestamp?, end: Timestamp?)) {
        var source = SourceInfo(name: "")
        var dates: (creation: Timestamp?, start: Timestamp?, end: Timestamp?) = (nil, nil, nil)
        for i in 0..<attributes.count {
            let name = attributes.name(i), value = attributes.value(i)
            if name.equals("sourceName") || name.equals("source") { source.name = text.interned(value) }
            else if name.equals("sourceVersion") { source.version = text.interned(value) }
            else if name.equals("device") { source.device = text.device(value) }
            else if name.equals("creationDate") { dates.creation = DateParser.parse(value)?.timestamp }
            else if name.equals("startDate") { dates.start = DateParser.parse(value)?.timestamp }
            else if name.equals("endDate") { dates.end = DateParser.parse(value)?.timestamp }
        }
        return (source, dates)
    }

    func allAttributes(_ attributes: SAXAttributes) -> [MetadataEntry] {
        (0..<attributes.count).map {
            MetadataEntry(key: text.interned(attributes.name($0)), value: text.plain(attributes.value($0)))
        }
    }
}
