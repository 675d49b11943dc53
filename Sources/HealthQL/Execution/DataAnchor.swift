import Foundation
import HealthCore
import SQLite

/// Where relative dates (`today()`, `now()`, `LAST 4 WEEKS`) are counted from when no `--now` is
/// given: the export's last complete day, not the wall clock. An export from last year still
/// answers "the last 30 days" with its own last 30 days.
package struct DataAnchor: Sendable, Equatable {
    /// What `today()` is: the day before the export was made (that day was still running), or the
    /// last day with analytics when the store has no export date.
    package var today: CivilDate
    /// What `now()` is: the export's time, or the end of `today`.
    package var now: Timestamp
    /// Why, for the note under a result.
    package var reason: String

    package var note: String {
        "today() is \(today.iso8601), \(reason); give --now YYYY-MM-DD to count from another day"
    }
}

extension StoreContext {
    /// The anchor of this store's data, nil when it holds no export date and no analytics.
    func computeDataAnchor() -> DataAnchor? {
        var calendar = calendar
        if (try? database.hasTable("profile")) == true,
           let text = try? database.scalar("SELECT export_date_utc FROM profile WHERE id = 1").string,
           let exported = Timestamp(iso8601: text) {
            let exportDay = calendar.localDate(of: exported)
            let stamp = "\(exportDay.iso8601) \(Self.clockText(exported, calendar: &calendar))"
            return DataAnchor(today: exportDay.adding(days: -1), now: exported,
                              reason: "the last complete day of the data (exported \(stamp))")
        }
        if (try? database.hasTable("daily_analytics")) == true,
           let last = try? database.scalar("SELECT max(date) FROM daily_analytics").string, let day = CivilDate(iso: last) {
            return DataAnchor(today: day, now: calendar.startOfDay(day.adding(days: 1)),
                              reason: "the last day with data")
        }
        return nil
    }

    /// An anchor at a given instant: today() is its local day.
    static func anchor(at t: Timestamp, _ store: StoreContext) -> DataAnchor {
        var calendar = store.calendar
        return DataAnchor(today: calendar.localDate(of: t), now: t, reason: "from --now")
    }

    private static func clockText(_ t: Timestamp, calendar: inout LocalCalendar) -> String {
        let seconds = calendar.secondOfDay(t)
        return String(format: "%02d:%02d", Int(seconds / 3600), Int(seconds % 3600 / 60))
    }
}

extension Expr {
    /// Whether `today()`, `now()` or a `start_of_…()` appears (so a relative period does too).
    var readsClock: Bool {
        switch self {
        case .time: true
        case .aggregate(_, let e, _): e?.readsClock ?? false
        case .unary(_, let e, _), .isNull(let e, _, _): e.readsClock
        case .binary(_, let l, let r, _): l.readsClock || r.readsClock
        case .inList(let e, let list, _, _): e.readsClock || list.contains { $0.readsClock }
        default: false
        }
    }
}

extension Query {
    var readsClock: Bool {
        var exprs: [Expr] = items.compactMap { if case .expr(let e, _) = $0 { e } else { nil } }
        exprs += [filter, having, join?.on].compactMap { $0 } + orderBy.map(\.expr)
        return exprs.contains { $0.readsClock }
    }
}
