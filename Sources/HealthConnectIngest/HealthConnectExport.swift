import Foundation
import HealthCore
import SQLite

/// A Health Connect export (Android: Settings → Health Connect → Export) as one of the
/// pipeline's inputs: `health_connect_export.zip`, the `health_connect_export.db` inside it, or
/// a folder holding that file. The database is a copy of Health Connect's own (docs/HEALTH_CONNECT.md);
/// it comes from outside, so it is opened as SQLite advises for an untrusted file
/// (`Database.Mode.untrusted`) and checked whole before a row is read (`HealthConnectCheck`).
package struct HealthConnectExport: HealthInput, HealthInputFormat {
    package let path: String
    package let kindName: String
    package let dataFile: String
    package let inputBytes: Int64
    package let progressTotal: Int64
    package let notes: [String]
    let connection: HealthConnectConnection
    let check: HealthConnectCheck.Result
    let home: HomeZone
    package let sourcePriority: [String: [String]]

    package var platform: InputPlatform { .healthConnect }
    package var displayName: String { kindName == "zip" ? "\(path):\(dataFile)" : dataFile }
    package var estimatedRecords: Int { Int(min(progressTotal, 2_800_000)) }
    package var fingerprintFile: String { kindName == "folder" ? dataFile : path }
    package var companionFolder: String? { nil }

    package static func recognizes(_ path: String) throws -> Bool {
        try HealthConnectFile.find(path) != nil
    }

    package static func open(_ path: String, scratch: String) throws -> any HealthInput {
        guard let found = try HealthConnectFile.find(path) else {
            throw HealthETLError.dataUnusable("\(path): not a Health Connect export")
        }
        let opened = try found.open(scratch: scratch)
        let check = try HealthConnectCheck.run(opened.database, name: opened.name)
        let connection = HealthConnectConnection(database: opened.database)
        let (home, priority) = try HealthConnectCheck.reading(opened.name) {
            (try HomeZone.infer(from: opened.database, tables: check.readable),
             try HealthConnectPriority.read(opened.database, tables: check.readable))
        }
        return HealthConnectExport(path: path, kindName: found.kind, dataFile: found.dataFile, inputBytes: found.bytes,
                                   progressTotal: check.rows, notes: check.notes, connection: connection, check: check,
                                   home: home, sourcePriority: priority)
    }

    package func contentState() throws -> String? {
        try reading { try HealthConnectChanges(database: $0, tables: check.readable).state() }
    }

    package func compare(with state: String) throws -> InputComparison {
        try reading { try HealthConnectChanges(database: $0, tables: check.readable).compare(with: state) }
    }

    /// Health Connect exports hold no profile: nothing about the person but their data.
    package func person() throws -> ExportPerson? { nil }

    package func zoneHints() throws -> ExportZoneHints {
        var hints = ExportZoneHints(timeZoneName: home.zone?.identifier, exportOffsetSeconds: home.latestOffset,
                                    exportDate: home.latestInstant)
        hints.timeZoneReason = home.reason
        return hints
    }

    package func read(resumingAt resume: ResumePoint?, knownRoutePaths: [String], prefilter: (any RecordPrefilter)?,
                      emit: @escaping (IngestBatch) throws -> Void) throws -> IngestSummary {
        try reading { try HealthConnectReader(database: $0, check: check, home: home, displayName: displayName).run(resumingAt: resume, emit: emit) }
    }

    /// `body` on the open database, its SQLite failures the input's (exit 65).
    private func reading<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.withDatabase { database in try HealthConnectCheck.reading(displayName) { try body(database) } }
    }
}

/// The open database, handed from the thread that opened it to the ingest thread, which alone
/// uses it from then on (a SQLite connection is used by one thread at a time).
final class HealthConnectConnection: @unchecked Sendable {
    private let database: Database
    private let lock = NSLock()
    init(database: Database) { self.database = database }
    func withDatabase<T>(_ body: (Database) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(database)
    }
}
