import HealthCore

/// Time-domain heart-rate variability of one `HeartRateVariabilityMetadataList`
/// (docs/vitals-hrv-workouts.md, "HRV from beat lists").
///
/// An Apple Watch list is not every beat: it lists the beats it trusted, so two listed beats
/// may have missed beats between them. An interval is therefore kept (an NN interval) only
/// when it agrees with the instantaneous bpm the watch gave its closing beat (within
/// `agreement`) and lies in 300…2000 ms; a successive difference is taken only between two
/// kept intervals that share a beat, so nothing is differenced across a gap.
package struct BeatIntervals: Sendable, Equatable {
    /// One beat as stored: time in µs since 1970 (nil: it did not parse), instantaneous bpm.
    package struct Beat: Sendable, Equatable {
        package var timeMicroseconds: Int64?
        package var bpm: Double?
        package init(timeMicroseconds: Int64?, bpm: Double?) { self.timeMicroseconds = timeMicroseconds; self.bpm = bpm }
    }

    /// Why a measurement has no figures (nil when it has them).
    package enum Problem: String, Sendable {
        case tooFewBeats = "fewer than 2 beats"
        case unparsedTime = "a beat time that does not parse"
        case unordered = "beat times out of order or repeated"
        case zeroBPM = "a beat with no bpm (0 or missing)"
        case noIntervals = "no interval agrees with its beat's bpm"
    }

    /// The largest relative difference between an interval and 60 000 / bpm of its closing beat.
    package static let agreement = 0.25
    package static let shortest = 300.0, longest = 2000.0

    package var beats: Int
    /// Intervals kept (NN) and successive differences used.
    package var intervals: Int
    package var differences: Int
    package var meanNN: Double?
    package var sdnn: Double?
    package var rmssd: Double?
    package var pnn50: Double?
    package var problem: Problem?

    package init(beats list: [Beat]) {
        beats = list.count; intervals = 0; differences = 0
        guard list.count >= 2 else { problem = .tooFewBeats; return }
        var times: [Int64] = []
        times.reserveCapacity(list.count)
        for beat in list {
            guard let t = beat.timeMicroseconds else { problem = .unparsedTime; return }
            guard let bpm = beat.bpm, bpm > 0, bpm.isFinite else { problem = .zeroBPM; return }
            if let last = times.last, t <= last { problem = .unordered; return }
            times.append(t)
        }
        // nn[i]: the interval closing at beat i+1 in ms, nil when excluded.
        var nn: [Double?] = []
        nn.reserveCapacity(list.count - 1)
        for i in 1..<list.count {
            let ms = Double(times[i] - times[i - 1]) / 1000
            let expected = 60_000 / list[i].bpm!
            let agrees = abs(ms - expected) <= Self.agreement * expected
            nn.append(agrees && ms >= Self.shortest && ms <= Self.longest ? ms : nil)
        }
        let kept = nn.compactMap { $0 }
        guard !kept.isEmpty else { problem = .noIntervals; return }
        intervals = kept.count
        let mean = kept.reduce(0, +) / Double(kept.count)
        meanNN = mean
        if kept.count >= 2 {
            let squares = kept.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            sdnn = (squares / Double(kept.count - 1)).squareRoot()   // sample SD, as neurokit2 and Apple
        }
        var sumSquares = 0.0, over50 = 0
        for i in 1..<nn.count {
            guard let a = nn[i - 1], let b = nn[i] else { continue }
            let d = b - a
            sumSquares += d * d; differences += 1
            if abs(d) > 50 { over50 += 1 }
        }
        if differences > 0 {
            rmssd = (sumSquares / Double(differences)).squareRoot()
            // Over the NN intervals, not the differences: the Task Force's (1996) "NN50 count
            // divided by the total number of all NN intervals", as neurokit2 computes it.
            pnn50 = Double(over50) / Double(intervals) * 100
        }
    }
}
