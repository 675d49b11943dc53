import HealthCore
import HealthPresentation
import HealthStore
import SQLite
import Spreadsheet

/// One column of a sheet as the workbook shows it: its header and format, and how its cell is
/// read from the row of the table's query (`source`: the query's column).
struct WorkbookColumn {
    var column: SheetColumn
    var source: Int32
    var read: (Statement, Int32) -> SheetValue
}

/// The columns of each sheet. Most sheets show their table's columns as they are (numbers with
/// thousands separators); Sleep and Workouts are shaped for a person: local bedtime and wake,
/// durations as h:mm, workouts by name with local start and end.
enum WorkbookSheet {
    static func columns(_ table: OutputTable, units: UnitSystem, clock: LocalClock) -> [WorkbookColumn] {
        let index = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1.name, Int32($0)) })
        func plain(_ name: String) -> WorkbookColumn? {
            guard let i = index[name], let c = table.columns.first(where: { $0.name == name }) else { return nil }
            let shown = units.show(name, spreadsheet: true)
            return WorkbookColumn(column: SheetColumn(shown.title, HealthWorkbook.kind(c.kind, shown)), source: i) { stmt, i in
                HealthWorkbook.value(stmt, i, c.kind, shown)
            }
        }
        func local(_ name: String, _ header: String) -> WorkbookColumn? {
            guard let i = index[name] else { return nil }
            return WorkbookColumn(column: SheetColumn(header, .localDateTime), source: i) { stmt, i in
                guard case .dateTime(let seconds) = HealthWorkbook.value(stmt, i, .timestamp, units.show(name, spreadsheet: true)) else { return .empty }
                return .dateTime(clock.seconds(seconds))
            }
        }
        func duration(_ name: String, _ header: String) -> WorkbookColumn? {
            guard let i = index[name] else { return nil }
            return WorkbookColumn(column: SheetColumn(header, .duration), source: i) { stmt, i in
                stmt.isNull(i) ? .empty : .duration(minutes: stmt.double(i))
            }
        }
        switch table.name {
        case OutputTable.sleep.name:
            return [plain("night_date"), local("start_utc", "Bedtime (local)"), local("end_utc", "Wake (local)"),
                    duration("in_bed_minutes", "In bed (h:mm)"), duration("asleep_minutes", "Asleep (h:mm)"),
                    duration("core_minutes", "Core (h:mm)"), duration("deep_minutes", "Deep (h:mm)"),
                    duration("rem_minutes", "REM (h:mm)"), duration("unspecified_minutes", "Asleep, no stage (h:mm)"),
                    duration("awake_minutes", "Awake (h:mm)"), duration("nap_minutes", "Naps (h:mm)"), plain("naps"),
                    plain("sources"), plain("recorded")].compactMap { $0 }
        case HealthWorkbook.workoutsSheet.table.name:
            // `workout_details`' display name, local start and end as date cells, h:mm.
            let name = index["activity"].map { i in
                WorkbookColumn(column: SheetColumn("Workout", .text, width: 24), source: i) { stmt, i in
                    stmt.text(i).map { .text($0) } ?? .empty
                }
            }
            return ([name, local("start_utc", "Start (local)"), local("end_utc", "End (local)"), plain("local_date"),
                     duration("duration_min", "Duration (h:mm)")]
                + table.columns.map(\.name).dropFirst(5).map(plain)).compactMap { $0 }
        default:
            return table.columns.map(\.name).compactMap(plain)
        }
    }
}
