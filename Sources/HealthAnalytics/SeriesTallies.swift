import Foundation
import HealthCore
import HealthStore
import SQLite

/// What the data-quality and vitals tables need from every sample (`QualityTally`, the
/// heart rate of each workout), gathered from the series that a build of every day's analytics
/// reads anyway, on its thread, each batch then passed on to the next tap (the samples
/// output). Reading them back from the store instead cost a year's full import some 20 %.
package final class SeriesTallies: @unchecked Sendable {
    // Unchecked: the builder calls its tap from one thread; the lock only hands the results over.
    private let lock = NSLock()
    private var quality: QualityTally
    private var workouts: WorkoutHeartRates

    /// What the tallies need besides the series, read from the loaded store.
    package init(database: Database, calendar: LocalCalendar) throws {
        quality = QualityTally(calendar: calendar, phones: try QualityTally.phoneSources(in: database))
        workouts = try WorkoutHeartRates(database: database)
    }

    /// The builder's tap: tallies every batch, then hands it to `next`.
    package func tap(then next: (@Sendable (String, [SeriesReader.Row]) throws -> Void)?) -> @Sendable (String, [SeriesReader.Row]) throws -> Void {
        { [self] type, rows in
            lock.withLock {
                quality.add(type: type, rows)
                workouts.add(type: type, rows)
            }
            try next?(type, rows)
        }
    }

    /// The tallies of every batch tapped: call once, after the last.
    package func finish() -> (quality: QualityTally, workouts: WorkoutHeartRates) {
        lock.withLock {
            quality.finish()
            return (quality, workouts)
        }
    }
}
