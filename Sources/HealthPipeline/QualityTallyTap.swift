import Foundation
import HealthCore
import HealthStore
import SQLite

/// Gathers the data-quality tally from the series a full build's analytics read anyway, on
/// their thread, passing each batch on to the next tap (the samples output).
final class QualityTallyTap: @unchecked Sendable {
    // The builder calls its tap from one thread; the lock only hands the tally over safely.
    private let lock = NSLock()
    private var tally: QualityTally

    init(database: Database, timeZone: TimeZone) throws {
        tally = QualityTally(calendar: LocalCalendar(timeZone: timeZone), phones: try QualityTally.phoneSources(in: database))
    }

    /// The builder's tap: tallies every batch, then hands it to `next`.
    func tap(then next: (@Sendable (String, [SeriesReader.Row]) throws -> Void)?) -> @Sendable (String, [SeriesReader.Row]) throws -> Void {
        { [self] type, rows in
            lock.withLock { tally.add(type: type, rows) }
            try next?(type, rows)
        }
    }

    /// The tally of every batch tapped so far: call once the series are read.
    func finish() -> QualityTally {
        lock.withLock {
            tally.finish()
            return tally
        }
    }
}
