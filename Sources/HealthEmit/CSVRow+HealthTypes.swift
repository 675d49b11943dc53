import CSV
import HealthCore

// The CSV library knows no health types: dates and instants go in as their parts, with the
// model's own text for the years the fast path does not write.
extension CSVRow {
    package mutating func date(_ column: Int, _ value: CivilDate?) {
        date(column, value.map { ($0.year, $0.month, $0.day) }, otherwise: value?.iso8601 ?? "")
    }

    package mutating func timestamp(_ column: Int, _ value: Timestamp?) {
        timestamp(column, microseconds: value?.microseconds, otherwise: value?.iso8601 ?? "")
    }
}

extension CSVError: SysexitsError {}
