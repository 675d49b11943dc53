/// Which calendar a person's local days follow (issue 48; the pipeline's `localDays`,
/// `--local-days`).
public enum LocalDays: String, Sendable, CaseIterable {
    /// Local to where the person was: along their zone timeline (`LocalCalendar(timeline:)`),
    /// home where the export holds no evidence. The default when no zone is configured.
    case whereRecorded = "where-recorded"
    /// Every day in one zone, as the Health app shows when viewed there: the default when a
    /// zone is configured (`--timezone`, a person's or the pipeline's `timezone`).
    case zone
}

import Foundation

/// The wall clock where each instant was recorded: a calendar's offset (its zone's, or along a
/// traveller's timeline the zone they were in), for writers that print local times (the
/// semicolon CSV, the workbook). The calendar caches the span of its last lookup: kept behind
/// a lock, so the clock can be handed to a `@Sendable` writer.
public final class WallClock: @unchecked Sendable {
    private var calendar: LocalCalendar
    private let lock = NSLock()

    public init(_ calendar: LocalCalendar) { self.calendar = calendar }

    /// Seconds east of UTC at `seconds` since 1970.
    public func offset(atSecond seconds: Int64) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return Int(calendar.offset(at: Timestamp(seconds: seconds)))
    }
}
