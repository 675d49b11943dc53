import HealthCore
import Parquet

// The Parquet writer knows days and microseconds since the epoch; the store's outputs write
// the model's dates and instants.
extension ParquetRow {
    @inline(__always)
    mutating func date(_ column: Int, _ value: CivilDate?) {
        date(column, daysSinceEpoch: value.map { Int32(truncatingIfNeeded: $0.daysSinceEpoch) })
    }

    @inline(__always)
    mutating func timestamp(_ column: Int, _ value: Timestamp?) {
        timestamp(column, microsecondsSinceEpoch: value?.microseconds)
    }
}
