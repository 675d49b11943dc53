import HealthCore
import SQLite

/// Reads the checked database table by table, in `RecordTable.all`'s order, each by `row_id`,
/// with one statement per table (and one per child table, by its `parent_key` index), so that
/// memory holds a batch and the read is one pass however large the file. Every batch ends after
/// a whole parent row (a heart-rate series, a sleep session with its stages, an exercise session
/// with its route) and carries the point to resume after it: the table and that row's id.
struct HealthConnectReader {
    let database: Database
    let check: HealthConnectCheck.Result
    let home: HomeZone
    let displayName: String
    /// Records (samples, workouts) a batch holds before it is sent on.
    static let batchRecords = 4096

    /// One row's common columns.
    struct Row {
        var id: Int64
        var source: SourceInfo
        var modified: Timestamp?
        var start: Timestamp
        var end: Timestamp
        var startOffset: Int
        var manual: Bool
        var metadata: [MetadataEntry] = []
    }

    func run(resumingAt resume: ResumePoint?, emit: @escaping (IngestBatch) throws -> Void) throws -> IngestSummary {
        var summary = IngestSummary()
        summary.notRead = check.notRead
        summary.elements = check.rows
        if resume?.inputComplete == true { return summary }
        let sources = try SourceTable(database: database)
        var out = Output(emit: emit, total: check.rows, done: resume?.elementOrdinal ?? 0)
        let first = resume?.table.flatMap { name in check.readable.firstIndex { $0.name == name } } ?? 0
        for (index, table) in check.readable.enumerated() where index >= first {
            let after = index == first ? resume?.afterRowID ?? 0 : 0
            try read(table, after: after, sources: sources, into: &out)
        }
        try out.finish()
        return summary
    }

    private func read(_ table: RecordTable, after: Int64, sources: SourceTable, into out: inout Output) throws {
        let times = table.timeColumns.joined(separator: ", ")
        let values = table.columns.isEmpty ? "" : ", " + table.columns.joined(separator: ", ")
        let statement = try database.prepare("""
            SELECT row_id, last_modified_time, app_info_id, device_info_id, recording_method, \(times)\(values)
            FROM "\(table.name)" WHERE row_id > ? ORDER BY row_id
            """)
        statement.bind(1, after)
        let valueStart: Int32 = table.shape == .interval ? 9 : 7
        let children = table.children.map { ChildRows(database: database, table: $0) }
        while try statement.step() {
            let id = statement.int64(0)
            let start = statement.int64(5)
            let (end, startOffset) = table.shape == .interval
                ? (statement.int64(7), Int(statement.int64(6))) : (start, Int(statement.int64(6)))
            var row = Row(id: id, source: sources.source(app: statement.int64(2), device: statement.isNull(3) ? nil : statement.int64(3)),
                          modified: statement.isNull(1) ? nil : Timestamp(microseconds: statement.int64(1) &* 1000),
                          start: Timestamp(microseconds: start &* 1000), end: Timestamp(microseconds: end &* 1000),
                          startOffset: startOffset, manual: statement.int64(4) == HealthConnectNames.manualEntry)
            if row.end < row.start { row.end = row.start }
            // The table's enum columns kept as metadata: the last columns selected.
            let metadataStart = valueStart + Int32(table.columns.count - table.metadata.count)
            for (i, entry) in table.metadata.enumerated() where !statement.isNull(metadataStart + Int32(i)) {
                if let value = entry.values[Int64(statement.text(metadataStart + Int32(i)) ?? "") ?? -1] {
                    row.metadata.append(MetadataEntry(key: entry.key, value: value))
                }
            }
            switch table.kind {
            case .values(let columns):
                for (i, column) in columns.enumerated() where !statement.isNull(valueStart + Int32(i)) {
                    out.add(record(column.type, row, unit: column.unit,
                                   value: number(statement, valueStart + Int32(i), factor: column.factor)))
                }
            case .category(let type, let column, let names):
                var value = RecordTable.notApplicable
                if column != nil {
                    guard !statement.isNull(valueStart), let name = names[statement.int64(valueStart)] else {
                        out.notRead(table.name + ": values with no HealthKit counterpart")
                        continue
                    }
                    value = name
                }
                out.add(record(type, row, unit: nil, value: value))
            case .series(let series):
                try children[0].each(of: id, columns: [series.timeColumn, series.valueColumn]) { child in
                    let at = Timestamp(microseconds: child.int64(0) &* 1000)
                    var sample = row
                    (sample.start, sample.end) = (at, at)
                    out.add(record(series.type, sample, unit: series.unit, value: number(child, 1, factor: series.factor)))
                }
            case .bloodPressure:
                guard !statement.isNull(valueStart), !statement.isNull(valueStart + 1) else { continue }
                let members = [record(RecordTable.quantity + "BloodPressureSystolic", row, unit: "mmHg", value: number(statement, valueStart)),
                               record(RecordTable.quantity + "BloodPressureDiastolic", row, unit: "mmHg",
                                      value: number(statement, valueStart + 1))]
                for member in members { out.add(member) }
                out.batch.correlations.append(ExportCorrelation(type: "HKCorrelationTypeIdentifierBloodPressure", source: row.source,
                                                                creationDate: row.modified, startDate: row.start,
                                                                endDate: row.end, members: members, line: 0))
            case .sleep:
                try sleep(row, stages: children[0], into: &out)
            case .exercise:
                try exercise(row, type: statement.int64(valueStart), children: children, into: &out)
            }
            out.rowDone(table: table.name, id: id)
            if out.batch.itemCount + out.nestedItems >= Self.batchRecords { try out.send() }
        }
    }

    func record(_ type: String, _ row: Row, unit: String?, value: String) -> ExportRecord {
        var metadata = row.metadata
        if row.manual { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1")) }
        return ExportRecord(type: type, source: row.source, unit: unit, value: value, creationDate: row.modified ?? row.end,
                            startDate: row.start, endDate: row.end, metadata: metadata)
    }

    private func number(_ statement: Statement, _ column: Int32, factor: Double = 1) -> String {
        if factor == 1, statement.isInteger(column) { return String(statement.int64(column)) }
        return String(statement.double(column) * factor)
    }

    /// A session: in bed for its span; its stages as they are, and its time no stage covers as
    /// asleep (Health Connect counts a session's time as sleep but for its awake stages).
    private func sleep(_ session: Row, stages: ChildRows, into out: inout Output) throws {
        let zone = MetadataEntry(key: "HKTimeZone", value: home.zoneName(offset: session.startOffset,
                                                                         at: session.start.microseconds / 1000))
        func add(_ value: String, _ from: Timestamp, _ to: Timestamp) {
            guard to > from else { return }
            var part = session
            (part.start, part.end) = (from, to)
            var r = record(RecordTable.categoryType + "SleepAnalysis", part, unit: nil, value: value)
            r.metadata.append(zone)
            out.add(r)
        }
        add(HealthConnectNames.inBed, session.start, session.end)
        var covered = session.start
        try stages.each(of: session.id, columns: ["stage_start_time", "stage_end_time", "stage_type"]) { stage in
            let from = max(Timestamp(microseconds: stage.int64(0) &* 1000), covered)
            let to = min(Timestamp(microseconds: stage.int64(1) &* 1000), session.end)
            guard to > from else { return }
            add(HealthConnectNames.asleep, covered, from)
            add(HealthConnectNames.sleepValue(stage.int64(2)), from, to)
            covered = to
        }
        add(HealthConnectNames.asleep, covered, session.end)
    }

    /// A workout with its laps and segments as events, and its route as a route file of the
    /// same batch (the load writes a batch's workouts before its route files).
    private func exercise(_ session: Row, type: Int64, children: [ChildRows], into out: inout Output) throws {
        var workout = ExportWorkout(activityType: HealthConnectNames.activityType(type), source: session.source, line: 0)
        (workout.startDate, workout.endDate, workout.creationDate) = (session.start, session.end, session.modified ?? session.end)
        workout.duration = Measurement(value: (session.end.seconds - session.start.seconds) / 60, unit: "min")
        func ms(_ v: Int64) -> Timestamp { Timestamp(microseconds: v &* 1000) }
        var pauses: [(Timestamp, Timestamp)] = []
        try children[0].each(of: session.id, columns: ["segment_start_time", "segment_end_time", "segment_type"]) { s in
            let (from, to) = (ms(s.int64(0)), ms(s.int64(1)))
            if HealthConnectNames.pauseSegments.contains(s.int64(2)) {
                pauses.append((from, to))
                workout.events.append(ExportWorkoutEvent(type: "HKWorkoutEventTypePause", date: from, duration: nil))
                workout.events.append(ExportWorkoutEvent(type: "HKWorkoutEventTypeResume", date: to, duration: nil))
            } else {
                workout.events.append(ExportWorkoutEvent(type: "HKWorkoutEventTypeSegment", date: from,
                                                         duration: Measurement(value: (to.seconds - from.seconds) / 60, unit: "min")))
            }
        }
        try children[1].each(of: session.id, columns: ["lap_start_time", "lap_end_time"]) { lap in
            let (from, to) = (ms(lap.int64(0)), ms(lap.int64(1)))
            workout.events.append(ExportWorkoutEvent(type: "HKWorkoutEventTypeLap", date: from,
                                                     duration: Measurement(value: (to.seconds - from.seconds) / 60, unit: "min")))
        }
        out.nestedItems += workout.events.count
        workout.events.sort { ($0.date ?? session.start) < ($1.date ?? session.start) }
        // Its exercise time, as Health Connect counts it: the session less its pauses and rests.
        var from = session.start
        for (pauseStart, pauseEnd) in pauses.sorted(by: { $0.0 < $1.0 }) + [(session.end, session.end)] {
            let to = min(max(pauseStart, from), session.end)
            if to > from {
                var part = session
                (part.start, part.end) = (from, to)
                out.add(record(RecordTable.exerciseTime, part, unit: "min", value: String((to.seconds - from.seconds) / 60)))
            }
            from = max(from, min(pauseEnd, session.end))
        }
        let path = "health-connect/exercise_route_table/\(session.id)"
        var points: [RoutePoint] = []
        var parts = 0
        try children[2].each(of: session.id, columns: ["timestamp_millis", "latitude", "longitude", "altitude",
                                                        "horizontal_accuracy", "vertical_accuracy"]) { p in
            points.append(RoutePoint(time: ms(p.int64(0)), latitude: p.double(1), longitude: p.double(2), altitude: p.double(3),
                                     horizontalAccuracy: p.double(4), verticalAccuracy: p.double(5)))
            out.nestedItems += 1
            if points.count == RouteFile.partPoints {
                out.batch.routeFiles.append(RouteFile(path: path, points: points, isLast: false))
                points.removeAll(keepingCapacity: true)
                parts += 1
            }
        }
        if parts > 0 || !points.isEmpty {
            workout.routes.append(ExportWorkoutRoute(source: session.source, startDate: session.start, endDate: session.end, filePath: path))
            out.batch.routeFiles.append(RouteFile(path: path, points: points, isLast: true))
        }
        out.batch.workouts.append(workout)
    }

    /// Collects records into batches and sends each with its resume point.
    struct Output {
        let emit: (IngestBatch) throws -> Void
        let total: Int64
        var done: Int64
        var batch = IngestBatch()
        var point: ResumePoint?
        /// What the batch holds inside its items: a workout's events and its route's points
        /// (a route file counts once in `itemCount`, whatever its points). They count towards
        /// the batch's size, or one batch would hold every session's route (as the XML reader's
        /// `nestedItems`).
        var nestedItems = 0

        mutating func add(_ record: ExportRecord) { batch.records.append(record) }
        mutating func notRead(_ note: String) { batch.unknownElements[note, default: 0] += 1 }

        mutating func rowDone(table: String, id: Int64) {
            done += 1
            point = ResumePoint(inputOffset: 0, elementOrdinal: done, line: 0, table: table, afterRowID: id)
        }

        mutating func send(complete: Bool = false) throws {
            if complete {
                point = ResumePoint(inputOffset: 0, elementOrdinal: done, line: 0, inputComplete: true)
            }
            batch.position = InputPosition(bytesRead: done, totalBytes: total, elementOrdinal: done, resume: point)
            try emit(batch)
            batch = IngestBatch()
            nestedItems = 0
        }

        mutating func finish() throws { try send(complete: true) }
    }
}

/// The rows of a child table for one parent at a time, through its `parent_key` index (the
/// check makes sure it has one), in time order: the columns a reader asks for on its first call,
/// one prepared statement from then on (each child table is read one way).
final class ChildRows {
    private let database: Database
    private let table: String
    private var statement: Statement?

    init(database: Database, table: String) {
        self.database = database
        self.table = table
    }

    func each(of parent: Int64, columns: [String], _ body: (Statement) throws -> Void) throws {
        let statement = try self.statement
            ?? database.prepare("SELECT \(columns.joined(separator: ",")) FROM \"\(table)\" WHERE parent_key = ? ORDER BY \(columns[0])")
        self.statement = statement
        statement.bind(1, parent)
        while try statement.step() { try body(statement) }
    }
}

/// Apps and devices, each row read once: a record's source is its app, on its device.
struct SourceTable {
    private var apps: [Int64: String] = [:]
    private var devices: [Int64: String] = [:]
    private var cache: [Pair: SourceInfo] = [:]
    private struct Pair: Hashable { var app: Int64; var device: Int64? }

    init(database: Database) throws {
        apps = try Self.appNames(in: database)
        for row in try database.rows("SELECT row_id, manufacturer, model, device_type FROM device_info_table") {
            guard let id = row[0].int else { continue }
            let model = row[2].string ?? ""
            let kind = row[3].int.flatMap { HealthConnectNames.deviceTypes[$0] } ?? "unknown"
            devices[id] = "<<HCDevice>, name:\(model), manufacturer:\(row[1].string ?? ""), model:\(model), hardware:\(kind)>"
        }
    }

    /// Every app's name as a source, by its row id.
    static func appNames(in database: Database) throws -> [Int64: String] {
        var apps: [Int64: String] = [:]
        for row in try database.rows("SELECT row_id, package_name, app_name FROM application_info_table") {
            guard let id = row[0].int else { continue }
            apps[id] = name(package: row[1].string, app: row[2].string, id: id)
        }
        return apps
    }

    /// An app as a source: the name it shows, else its package.
    private static func name(package: String?, app: String?, id: Int64) -> String {
        app.flatMap { $0.isEmpty ? nil : $0 } ?? package ?? "app \(id)"
    }

    func source(app: Int64, device: Int64?) -> SourceInfo {
        SourceInfo(name: apps[app] ?? "app \(app)", device: device.flatMap { devices[$0] })
    }
}
