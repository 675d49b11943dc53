import Foundation

/// The start of a phase of a run: wall clock and the process's CPU time, so that `--json`
/// can say what a phase cost besides how long it took (on a busy machine the wall time
/// moves with the load; CPU seconds hardly do).
struct PhaseMark {
    let wall = Date()
    let cpu = PhaseMark.processCPUSeconds()

    /// What the phase started at this mark cost until now.
    func figures() -> PhaseFigures {
        PhaseFigures(seconds: Date().timeIntervalSince(wall), cpuSeconds: Self.processCPUSeconds() - cpu,
                     peakRSSMegabytes: Self.peakRSSMegabytes())
    }

    /// User + system seconds of every thread of this process so far.
    static func processCPUSeconds() -> Double {
        guard let usage = usage() else { return 0 }
        let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func usage() -> rusage? {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        return getrusage(who, &usage) == 0 ? usage : nil
    }

    /// The process's resident-set high-water mark so far (Linux reports KiB, macOS bytes).
    static func peakRSSMegabytes() -> Double {
        guard let usage = usage() else { return 0 }
        #if os(macOS)
        return Double(usage.ru_maxrss) / 1_048_576
        #else
        return Double(usage.ru_maxrss) / 1024
        #endif
    }
}

/// One phase's wall seconds, CPU seconds (all threads) and the peak RSS at its end: the
/// high-water mark so far, so the first phase whose figure is the run's peak is where it was reached.
struct PhaseFigures {
    var seconds: Double
    var cpuSeconds: Double
    var peakRSSMegabytes: Double
}
