import Foundation
import HealthCore
import HealthEmit
import HealthStore
import PrivateFiles
import SQLite

/// A Hive-partitioned Parquet dataset of many people (`OUT/dataset/`), which DuckDB's
/// `hive_partitioning` and Spark's partition discovery read with `person` (and `year`) as
/// columns:
///
///     dataset/<table>/person=ID/part-0.parquet              daily, weekly, monthly, yearly,
///                                                            sleep, workouts, activity_summaries,
///                                                            ecg_recordings, ecg_samples,
///                                                            reconciliation, reconciliation_sources,
///                                                            data_quality, sources
///     dataset/samples/person=ID/year=YYYY/part-0.parquet    every sample, by local year
///
/// Every person has the same schema in every table (the store's output tables; a column a
/// person lacks is null). A person's partitions are staged beside the rest of their import's
/// outputs (`stage`) and moved in by that import's publication, each partition a rename, the
/// old one moved aside first and removed once every output is in place; a failure anywhere
/// puts the old ones back. The table folders only ever hold whole `person=ID` partitions
/// (DuckDB's glob reads hidden folders too, so nothing else may lie there): a reader never
/// sees half of a person's table, nor a person twice.
package struct CohortDataset: Sendable {
    package let root: String

    package init(root: String) { self.root = root }

    /// The tables partitioned by person only.
    package static let tables: [OutputTable] = [.daily, .weekly, .monthly, .yearly, .sleep, .workouts, .activitySummaries,
                                               .ecgRecordings, .ecgSamples] + OutputTable.vitalsTables + OutputTable.quality
    package static var tableNames: [String] { tables.map(\.name) + [OutputTable.samples.name] }

    package func partition(_ table: String, _ person: PersonKey) -> String {
        "\(root)/\(table)/person=\(person.rawValue)"
    }

    /// Whether every table has a partition of `person`.
    package func hasPartitions(of person: PersonKey) -> Bool {
        Self.tableNames.allSatisfy { FileManager.default.fileExists(atPath: partition($0, person)) }
    }

    /// Writes `person`'s partitions from their store into `staging`; returns each staged
    /// partition with the path it replaces (whose table folder this creates). A table whose
    /// Parquet file the run staged already (`linking`: table → file, the person's own
    /// `parquet/` output) is linked, not written twice: the same bytes, and published files are
    /// only ever replaced by rename, never written in place.
    package func stage(_ person: PersonKey, from database: Database, in staging: String,
                      linking staged: [String: String] = [:]) throws -> [(staged: String, final: String)] {
        let exporter = TableExporter(database: database, durability: .syncedWhenPublished)
        for table in Self.tables {
            let folder = "\(staging)/\(table.name)"
            try makeFolder(folder)
            if let file = staged[table.name], link(file, folder + "/part-0.parquet") == 0 { continue }
            try exporter.export(table, csv: nil, parquet: folder + "/part-0.parquet")
        }
        for (year, days) in try Self.samplesByYear(database) {
            let folder = "\(staging)/\(OutputTable.samples.name)/year=\(year)"
            try makeFolder(folder)
            try SeriesSamplesWriter.write(from: database, to: folder + "/part-0.parquet", localDays: days,
                                          durability: .syncedWhenPublished)
        }
        try makeFolder("\(staging)/\(OutputTable.samples.name)")
        return try Self.tableNames.map { name in
            try makeFolder("\(root)/\(name)")
            return (staged: "\(staging)/\(name)", final: partition(name, person))
        }
    }

    /// Each local year with samples, with its local days (days since 1970).
    static func samplesByYear(_ database: Database) throws -> [(Int, Range<Int>)] {
        let store = HealthStore(database: database)
        guard let days = try store.sampleLocalDays() else { return [] }
        return try (CivilDate(daysSinceEpoch: days.lowerBound).year...CivilDate(daysSinceEpoch: days.upperBound).year).compactMap { year in
            let from = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
            let to = CivilDate(year: year + 1, month: 1, day: 1).daysSinceEpoch
            return try store.sampleCount(localDays: from..<to) > 0 ? (year, from..<to) : nil
        }
    }

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw HealthETLError.cannotCreateOutput("\(path): cannot create a dataset folder (\(error.localizedDescription))")
        }
    }
}

/// A person's name in partition paths (`person=ID`): already a valid person id, so never a path.
package struct PersonKey: Sendable, Hashable {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }
}
