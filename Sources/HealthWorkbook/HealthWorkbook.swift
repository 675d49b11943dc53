import Foundation
import HealthCore
import HealthPresentation
import HealthStore
import PrivateFiles
import SQLite
import Spreadsheet

/// `health.xlsx`: one sheet each for Daily, Weekly, Monthly, Yearly, Sleep, Workouts, Activity
/// rings, ECG recordings (one row a recording), Data quality (DataQualitySheet.swift) and the cycles
/// (docs/cycles.md; left out without cycle data), from the store's output tables, in the
/// person's units. Headers name their
/// unit ("Walking distance (km)"), dates are date cells, numbers have a fixed format per column.
/// Samples and ECG voltages stay in Parquet: a sheet holds at most 1,048,576 rows.
package enum HealthWorkbook {
    package static let sheets: [(title: String, table: OutputTable)] = [
        ("Daily", .daily), ("Weekly", .weekly), ("Monthly", .monthly), ("Yearly", .yearly), ("Sleep", .sleep),
        workoutsSheet, ("Activity rings", .activitySummaries), ("ECG recordings", .ecgRecordings),
        vitalsSheet, bloodPressureSheet,
    ] + [dataQualitySheet] + [("Cycles", .cycles), ("Cycle days", .cycleDays)]

    /// Writes the workbook of `database` to `path` (published on success only). Every sheet
    /// prints landscape at full size, split across pages with its header row and key columns
    /// on each (`PageSetup`); a column empty in every
    /// row is left out, and a sheet without rows (no ECG recordings) too, except Daily.
    package static func write(from database: Database, to path: String, units: UnitSystem,
                             durability: Durability = .synced) throws {
        let clock = LocalClock(clock: WallClock(try StoreSettings.calendar(in: database) ?? LocalCalendar(identifier: "UTC")!))
        let writer = try WorkbookWriter(path: path, durability: durability)
        do {
            for (title, table) in sheets {
                let all = WorkbookSheet.columns(table, units: units, clock: clock)
                // A first pass finds the columns with a value somewhere (the tables are a row a
                // day or less: small).
                // row a day or less: small), and how wide the text of each text column runs
                // (issue 45: "Alex's iPhon" cut off), so a width fits its content.
                var filled = [Bool](repeating: false, count: all.count), rows = 0
                var longest = [Int](repeating: 0, count: all.count)
                let scan = try database.prepare(table.sql)
                while try scan.step() {
                    rows += 1
                    for (k, c) in all.enumerated() where !scan.isNull(c.source) {
                        filled[k] = true
                        if c.column.kind == .text { longest[k] = max(longest[k], scan.text(c.source)?.count ?? 0) }
                    }
                }
                if rows == 0 && title != "Daily" { continue }
                var sized = all
                for k in sized.indices where sized[k].column.kind == .text && longest[k] > 0 {
                    sized[k].column.width = Self.width(header: sized[k].column.header, longest: longest[k])
                }
                let columns = rows == 0 ? sized : zip(sized, filled).filter { $1 }.map(\.0)
                let stmt = try database.prepare(table.sql)
                try writer.addSheet(title, columns: columns.map(\.column), pageSetup: PageSetup(repeatedColumns: Self.keyColumns[title] ?? 1)) { emit in
                    var row = [SheetValue](repeating: .empty, count: columns.count)
                    while try stmt.step() {
                        for (k, c) in columns.enumerated() { row[k] = c.read(stmt, c.source) }
                        try emit(row)
                    }
                }
            }
            try writer.close()
        } catch {
            writer.abort()
            throw error
        }
    }

    /// A text column as wide as its longest cell (and its header's longest word: headers
    /// wrap), within 8…60 characters.
    static func width(header: String, longest: Int) -> Double {
        Double(min(60, max(8, (header.split(separator: " ").map(\.count).max() ?? 0) + 2, longest + 2)))
    }

    /// The columns that say which row a printed page's row is, repeated on every page of a
    /// sheet split across pages: the date, or year and month, or the workout and its start.
    static let keyColumns = ["Monthly": 2, "Workouts": 2]

    /// Years, months and ids are names, not amounts: no thousands separator (issue 45: "2,024").
    static func isIdentifier(_ column: String) -> Bool {
        ["year", "month", "id"].contains(column) || column.hasSuffix("_id")
    }

    static func kind(_ kind: OutputTable.Kind, _ shown: ShownColumn) -> SheetColumn.Kind {
        switch kind {
        case .text: .text
        case .integer where isIdentifier(shown.csvName): .number(places: 0)
        case .integer: .grouped(places: 0)
        case .real(let places): .grouped(places: shown.places ?? places)
        case .date: .date
        case .timestamp: .dateTime
        }
    }

    static func value(_ stmt: Statement, _ i: Int32, _ kind: OutputTable.Kind, _ shown: ShownColumn) -> SheetValue {
        if stmt.isNull(i) { return .empty }
        switch kind {
        case .text: return .text(stmt.text(i) ?? "")
        case .integer: return .number(Double(stmt.int64(i)))
        case .real: return .number(shown.convert(stmt.double(i)))
        case .date:
            if stmt.isInteger(i) { return .date(Int(stmt.int64(i))) }
            return stmt.text(i).flatMap { CivilDate(iso: $0) }.map { .date($0.daysSinceEpoch) } ?? .empty
        case .timestamp:
            if stmt.isInteger(i) { return .dateTime(Double(stmt.int64(i)) / 1_000_000) }
            return stmt.text(i).flatMap(Timestamp.init(iso8601:)).map { .dateTime($0.seconds) } ?? .empty
        }
    }
}
