import HealthCore
import SQLite

/// The heart-rate samples of every workout, as `VitalsStore.heartRates(from:to:)` reads them
/// (positive bpm, starting inside the workout, in (start, row id) order), gathered from the
/// heart-rate series a full build's analytics read anyway: one pass along the series instead
/// of a query per workout on the import's critical path.
package struct WorkoutHeartRates: Sendable {
    /// Workouts with a start and an end, by start.
    private let spans: [(id: Int64, start: Int64, end: Int64)]
    /// The next workout of `spans` not yet started, and those started and not yet over.
    private var next = 0
    private var running: [Int] = []
    /// Workout id → its readings. Every workout of `spans` has an entry, empty or not.
    package private(set) var rates: [Int64: [(start: Int64, bpm: Double)]] = [:]

    /// Every stored workout that has a start and an end not before it (`VitalsBuilder`
    /// computes no heart rate for the others).
    package init(database: Database) throws {
        var spans: [(id: Int64, start: Int64, end: Int64)] = []
        let stmt = try database.prepare("SELECT id, start_us, end_us FROM workouts WHERE start_us IS NOT NULL AND end_us >= start_us")
        while try stmt.step() { spans.append((stmt.int64(0), stmt.int64(1), stmt.int64(2))) }
        self.spans = spans.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        for s in spans { rates[s.id] = [] }
    }

    /// Adds a batch of the series of `type`, in start order (the analytics' tap); only
    /// heart rate counts.
    package mutating func add(type identifier: String, _ rows: [SeriesReader.Row]) {
        guard identifier == VitalsStore.heartRateType, let last = rows.last?.start else { return }
        // Most batches fall between workouts.
        guard !running.isEmpty || (next < spans.count && spans[next].start <= last) else { return }
        for i in rows.indices {   // by index: a row copied whole retains and releases its texts
            let start = rows[i].start
            while next < spans.count && spans[next].start <= start { running.append(next); next += 1 }
            guard !running.isEmpty else { continue }
            running.removeAll { spans[$0].end <= start }   // the series only moves on
            guard let bpm = rows[i].value, bpm > 0 else { continue }
            for w in running { rates[spans[w].id]!.append((start, bpm)) }
        }
    }
}
