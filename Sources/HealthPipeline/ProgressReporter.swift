import Foundation
import HealthAnalytics
import HealthCore

/// The phases of an import, as the command line shows them and a library caller receives them.
public enum ImportTask: String, Sendable, CaseIterable, Codable {
    /// Reading, parsing and loading the export (the parse and the inserts overlap).
    case reading
    /// Committing what was loaded: the staged store's last rows, or the delta into the published store.
    case storing
    /// Building the store's indexes (and, alongside, the analytics of a full load).
    case indexing
    /// Days, weeks, months and years.
    case analytics
    /// CSV, Parquet and the other files.
    case writingFiles = "writing files"
}

/// Where an import stands: a fraction of the whole run (0…1, never going back), the current
/// task, and for the read the speed and the time left.
public struct ImportProgress: Sendable, Equatable {
    public var fraction: Double
    public var task: ImportTask
    /// What inside the task: `weekly`, `daily.csv`, `resuming at element 1200` (or nil).
    public var detail: String?
    /// Records read so far (this process).
    public var records: Int
    public var recordsPerSecond: Double
    /// Estimated seconds until the read ends (while reading).
    public var secondsLeft: Double?

    public init(fraction: Double, task: ImportTask, detail: String? = nil, records: Int = 0,
                recordsPerSecond: Double = 0, secondsLeft: Double? = nil) {
        self.fraction = fraction; self.task = task; self.detail = detail; self.records = records
        self.recordsPerSecond = recordsPerSecond; self.secondsLeft = secondsLeft
    }
}

/// Receives an import's progress. Called on the thread that runs `ImportJob.run()` (never on
/// two threads at once), at most about ten times a second while reading, at every change of
/// task, and once with fraction 1 when the run has published its outputs. Keep it short: the
/// import waits for it.
public typealias ImportProgressHandler = @Sendable (ImportProgress) -> Void

/// Turns the load's position and the phases into `ImportProgress` for a handler (the command
/// line's progress line is one), and is where an import notices that it was cancelled: each
/// report before the outputs are published is a cancellation point that throws
/// `CancellationError`, which leaves the published store and files as they were.
///
/// The shares of the bar: reading 0–70 %, storing 70–75 %, indexing 75–80 %, analytics 80–95 %,
/// writing files 95–100 % (a full import of a year of data spends about that on each).
package final class ProgressReporter: @unchecked Sendable {
    private let handler: ImportProgressHandler?
    private let isCancelled: @Sendable () -> Bool
    private let totalBytes: Int64
    private let started = Date()
    private var lastReport = Date.distantPast
    private var last = ImportProgress(fraction: 0, task: .reading)

    package static let minimumInterval = 0.1

    package init(totalBytes: Int64, handler: ImportProgressHandler? = nil,
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.handler = handler
        self.totalBytes = totalBytes
        self.isCancelled = isCancelled
    }

    static let share: [ImportTask: ClosedRange<Double>] = [
        .reading: 0...0.70, .storing: 0.70...0.75, .indexing: 0.75...0.80, .analytics: 0.80...0.95, .writingFiles: 0.95...1,
    ]

    /// While reading: how far into the input the load is, and the records so far.
    func update(position: InputPosition, records: Int) throws {
        try checkCancellation()
        guard handler != nil else { return }
        let now = Date()
        guard now.timeIntervalSince(lastReport) >= Self.minimumInterval else { return }
        let elapsed = now.timeIntervalSince(started)
        let read = min(max(position.fraction, 0), 1)
        report(ImportProgress(fraction: Self.fraction(.reading, read), task: .reading, records: records,
                              recordsPerSecond: elapsed > 0 ? Double(records) / elapsed : 0,
                              secondsLeft: read > 0.01 ? elapsed * (1 - read) / read : nil), at: now)
    }

    /// A new task, or a step `within` (0…1) of the current one.
    func phase(_ task: ImportTask, _ detail: String? = nil, within: Double = 0) throws {
        try checkCancellation()
        guard handler != nil else { return }
        report(ImportProgress(fraction: Self.fraction(task, within), task: task, detail: detail, records: last.records,
                              recordsPerSecond: last.recordsPerSecond), at: Date())
    }

    /// The analytics' progress (`AnalyticsProgress`): a phase of `.analytics`.
    var analytics: AnalyticsProgress { { part, within in try self.phase(.analytics, part, within: within) } }

    /// The run is complete (its outputs are published): fraction 1. Not a cancellation point.
    func done() {
        guard handler != nil else { return }
        report(ImportProgress(fraction: 1, task: .writingFiles, detail: "done", records: last.records,
                              recordsPerSecond: last.recordsPerSecond), at: Date())
    }

    private func checkCancellation() throws {
        if isCancelled() { throw CancellationError() }
    }

    private static func fraction(_ task: ImportTask, _ within: Double) -> Double {
        let range = share[task] ?? 0...1
        return range.lowerBound + (range.upperBound - range.lowerBound) * min(max(within, 0), 1)
    }

    private func report(_ progress: ImportProgress, at now: Date) {
        var progress = progress
        progress.fraction = max(progress.fraction, last.fraction)   // never backwards (a resumed run starts late)
        last = progress
        lastReport = now
        handler?(progress)
    }
}

/// The command line's live progress line on an interactive terminal (stderr), drawn from the
/// same reports a library caller gets: task, overall percent, and while reading records/s and
/// the time left. Redrawn at most four times a second, and at every change of task.
package final class TerminalProgressLine: @unchecked Sendable {
    private var lastDraw = Date.distantPast
    private var lastTask: ImportTask?
    private var drew = false

    package init() {}

    package var handler: ImportProgressHandler { { [self] in self.show($0) } }

    func show(_ p: ImportProgress) {
        let now = Date()
        if p.fraction >= 1 { return clear() }
        guard p.task != lastTask || now.timeIntervalSince(lastDraw) >= 0.25 else { return }
        lastDraw = now
        lastTask = p.task
        var line = p.task.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
            + String(format: " %5.1f%%", p.fraction * 100)
        if p.task == .reading {
            line += String(format: "  %9.0f records/s", p.recordsPerSecond)
            if let left = p.secondsLeft { line += String(format: "  ETA %3.0f s", left) }
        }
        if let detail = p.detail { line += "  " + detail }
        drew = true
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    private func clear() {
        guard drew else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
