import HealthCore
import SQLite

/// Dates the stored rows again under another calendar (issue 48): when a person's zone
/// timeline changes, the rows starting in the days that moved belong to other local days.
/// The rows are dated at load under the calendar the store had (`sample_data.local_day`,
/// `workouts.local_date`, `ecg_recordings.local_date`, and the dropped copies' day in
/// `duplicate_copies`); everything else is computed from them or from the instants.
package struct LocalDayRedating {
    let database: Database

    package init(database: Database) { self.database = database }

    /// Re-dates, with `calendar`, every row starting in one of `ranges` (µs, in order, apart),
    /// inside the caller's transaction; returns how many samples moved to another day.
    @discardableResult
    package func redate(startingIn ranges: [Range<Int64>], calendar: LocalCalendar) throws -> Int {
        let ranges = ranges.filter { !$0.isEmpty }
        guard !ranges.isEmpty else { return 0 }
        // A class: SQLite calls the function with no context of ours but this box, and the
        // calendar caches the span of its last lookup (rows come in (type, start) order).
        final class Box { var calendar: LocalCalendar; init(_ c: LocalCalendar) { calendar = c } }
        let box = Box(calendar)
        try database.add(function: DatabaseFunction("healthetl_local_day", argumentCount: 1) { args in
            .integer(Int64(box.calendar.localDate(of: Timestamp(microseconds: args[0].int64)).daysSinceEpoch))
        })
        var moved = 0
        for instants in ranges {
            let range: [SQLValue] = [.integer(instants.lowerBound), .integer(instants.upperBound)]
            // `type_id IN …` lets SQLite seek the (type, start) index of an indexed store, type by type.
            try database.rows("""
                UPDATE sample_data SET local_day = healthetl_local_day(start_us)
                WHERE type_id IN (SELECT id FROM types) AND start_us >= ? AND start_us < ?
                  AND local_day != healthetl_local_day(start_us)
                """, range)
            moved += database.changes
            try database.rows("""
                UPDATE duplicate_copies SET local_day = s.local_day
                FROM (SELECT identity, local_day FROM sample_data
                      WHERE type_id IN (SELECT id FROM types) AND start_us >= ? AND start_us < ?) AS s
                WHERE duplicate_copies.identity = s.identity AND duplicate_copies.local_day != s.local_day
                """, range)
            try database.rows("""
                UPDATE workouts SET local_date = date(healthetl_local_day(start_us) * 86400, 'unixepoch')
                WHERE start_us >= ? AND start_us < ?
                """, range)
        }
        // ECG recordings keep their instant as text: a few hundred at most, dated here.
        let update = try database.prepare("UPDATE ecg_recordings SET local_date = ? WHERE id = ?")
        for row in try database.rows("SELECT id, recorded_utc FROM ecg_recordings") {
            guard let id = row[0].int, let instant = row[1].string.flatMap(Timestamp.init(iso8601:)),
                  ranges.contains(where: { $0.contains(instant.microseconds) }) else { continue }
            try update.bind([.text(box.calendar.localDate(of: instant).iso8601), .integer(id)])
            try update.run()
        }
        return moved
    }
}
