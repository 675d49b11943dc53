import Foundation
import HealthCore
import HealthEmit
import HealthIngest
import HealthStore
import SQLite

/// What a run did: printed with `--json`, stored in the `runs` table.
public struct RunSummary: Codable, Sendable {
    /// Which healthetl ran (`Release.description`): release, commit, build date.
    public var healthetl = Release.description
    public var status: String
    public var input: String
    /// The platform the export came from: `apple-health` or `health-connect` (`InputPlatform`).
    public var platform = "apple-health"
    public var inputKind: String
    public var xml: String
    public var inputBytes: Int64
    public var seconds: Double
    public var elements: Int64
    public var recordsRead: Int
    public var samples: Int
    public var duplicates: Int
    public var quarantined: Int
    public var workouts: Int
    public var routePoints: Int
    public var correlations: Int
    public var unknownElements: [String: Int]
    public var removedDoctype: Bool
    public var repairedBytes: Int
    public var routeFilesMissing: [String]
    public var timeZone: String
    /// Why that zone: `--timezone`, the setting, the export's `HKTimeZone`, its `ExportDate` offset …
    public var timeZoneReason = ""
    /// The person's zone timeline when the store's `HKTimeZone` evidence shows more than one
    /// zone (issue 48): "2 zones: America/Los_Angeles, Asia/Tokyo (Asia/Tokyo 2024-02-01 – 2024-02-10)".
    public var zoneTimeline: String?
    /// `where-recorded` or `zone` (issue 48): what the local days follow.
    public var localDays = LocalDays.zone.rawValue
    public var out: String
    public var megabytesPerSecond: Double
    public var recordsPerSecond: Double
    /// The days and sleep nights this run computed (an incremental run: of the days it
    /// recomputed, those with data).
    public var days = 0
    public var sleepNights = 0
    /// What the store holds after the run, in all.
    public var storeDays = 0
    public var storeSleepNights = 0
    /// The outputs this run wrote, relative to `out` (`csv/`, `report/index.html` …): an
    /// incremental run that brings nothing new rewrites none but the store's run log.
    public var outputsWritten: [String] = []
    /// The pipeline's outputs this run left as they were, published before (`ImportJob`).
    public var outputsUnchanged: [String] = []
    /// Rows per CSV/Parquet table written.
    public var outputRows: [String: Int] = [:]
    /// Wall-clock seconds per phase (load = parse through SQLite insert, overlapped).
    public var phaseSeconds: [String: Double] = [:]
    /// CPU seconds per phase (user + system, every thread of the process).
    public var phaseCpuSeconds: [String: Double] = [:]
    /// The process's peak RSS (MB) at the end of each phase: a high-water mark, so the first
    /// phase that shows the run's peak is the one that reached it.
    public var phasePeakRssMb: [String: Double] = [:]

    /// `full` (a new store), `incremental` (added to the published one), `unchanged` (the
    /// export the last run published: nothing read, nothing written but the run log) or
    /// `nothing-new` (another export file, read, whose records the store already held: the
    /// store and outputs kept as published, `NothingNew`).
    public var mode = "full"
    /// Records dropped by their anchor (already imported), new rows an incremental run added,
    /// and the days whose analytics it recomputed.
    public var skippedByAnchor = 0
    public var newSamples: Int?
    public var newWorkouts: Int?
    public var touchedDays: Int?
    /// What the user should know about the input (which of two exports in a zip was imported).
    public var notes: [String] = []
    /// Samples created after the export's `ExportDate` (or now): kept, not used as anchors.
    public var futureDated = 0
    /// Set when this run resumed a killed one: the top-level XML element it picked up after.
    public var resumedAtElement: Int64?
    /// ECG recordings this run stored (an incremental run: in its delta; `newEcgRecordings`
    /// says how many the published store did not hold), and the ECG files it could not read
    /// (each named, with the reason, in `notes`).
    public var ecgRecordings = 0
    public var ecgFilesUnreadable = 0
    public var newECGRecordings: Int?
    /// The files of `clinical-records/` this run read, and those it could not (named in `notes`).
    public var clinicalFiles = 0
    public var clinicalFilesUnreadable = 0
    /// What this import changed, a line each (new complete days, bests, streaks, baselines,
    /// gaps: `ChangeDigest`); empty when it changed nothing a person would be told.
    public var changes: [String] = []

    init(input: String, source: any HealthInput, load: Loader.Result, timeZone: String, out: String) {
        status = "ok"; self.input = input; platform = source.platform.rawValue; inputKind = source.kindName; xml = source.dataFile
        inputBytes = source.inputBytes; seconds = 0; elements = load.reader.elements
        recordsRead = load.state.recordsRead; samples = load.counts.samplesWritten; duplicates = load.counts.duplicatesDropped
        quarantined = load.counts.quarantined; workouts = load.counts.workouts; routePoints = load.counts.routePoints
        correlations = load.counts.correlations; unknownElements = load.state.unknownElements
        futureDated = load.counts.futureDated
        notes = source.notes
        ecgRecordings = load.counts.ecgRecordings
        ecgFilesUnreadable = load.reader.ecgFilesUnreadable.count
        notes += load.reader.ecgFilesUnreadable.lines("ECG file not readable, skipped: ") + load.reader.ecgNotes.lines("")
        (clinicalFiles, clinicalFilesUnreadable) = (load.reader.clinicalFilesRead, load.reader.clinicalFilesUnreadable.count)
        notes += load.reader.clinicalFilesUnreadable.lines("Clinical record file not readable, skipped: ")
        notes += load.reader.notRead.lines("Not read: ")
        removedDoctype = load.reader.removedDoctype; repairedBytes = load.reader.repairedBytes
        routeFilesMissing = load.reader.routeFilesMissing; self.timeZone = timeZone; self.out = out
        skippedByAnchor = load.state.skippedByAnchor
        megabytesPerSecond = 0; recordsPerSecond = 0
        for (phase, figures) in load.phases { record(phase, figures) }
    }

    /// A run that found the export the last run published (`UnchangedExport`): it read nothing
    /// and wrote nothing but the run log; the store's figures are the ones published.
    init(unchanged source: any HealthInput, input: String, timeZone: TimeZoneChoice, out: String, published: UnchangedExport) {
        status = "ok"; self.input = input; platform = source.platform.rawValue; inputKind = source.kindName; xml = source.dataFile
        inputBytes = source.inputBytes; seconds = 0; elements = 0; recordsRead = 0; samples = 0; duplicates = 0
        quarantined = 0; workouts = 0; routePoints = 0; correlations = 0; unknownElements = [:]
        removedDoctype = false; repairedBytes = 0; routeFilesMissing = []
        self.timeZone = timeZone.name; timeZoneReason = timeZone.reason; self.out = out
        megabytesPerSecond = 0; recordsPerSecond = 0
        mode = "unchanged"; newSamples = 0; newWorkouts = 0; touchedDays = 0; newECGRecordings = 0
        storeDays = published.storeDays; storeSleepNights = published.storeSleepNights
        notes = source.notes
    }

    /// Records a phase's wall and CPU seconds and the peak RSS at its end.
    mutating func record(_ phase: String, _ figures: PhaseFigures) {
        phaseSeconds[phase] = figures.seconds
        phaseCpuSeconds[phase] = figures.cpuSeconds
        phasePeakRssMb[phase] = figures.peakRSSMegabytes
    }

    mutating func record(_ phase: String, since mark: PhaseMark) { record(phase, mark.figures()) }

    mutating func finish(started: Date) {
        seconds = Date().timeIntervalSince(started)
        megabytesPerSecond = seconds > 0 ? Double(inputBytes) / 1_000_000 / seconds : 0
        recordsPerSecond = seconds > 0 ? Double(recordsRead + skippedByAnchor) / seconds : 0
    }

    /// The run log's line for a run that failed.
    static func failureJSON(_ error: Error, input: String) -> String {
        let message = (error as? any SysexitsError)?.description ?? "\(error)"
        let fields = ["status": "failed", "input": input, "error": message, "healthetl": Release.description,
                      "finished_utc": Timestamp(secondsSince1970: Date().timeIntervalSince1970).iso8601]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(fields), as: UTF8.self)) ?? "{}"
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }

    /// What the analytics line says: a full build's days, or which days an incremental run
    /// recomputed beside what the store holds (never a bare "0 days" that reads as an empty store).
    var analyticsText: String {
        let store = "\(storeDays) days, \(storeSleepNights) sleep nights in the store"
        if mode == "unchanged" { return store }
        guard mode == "incremental" || mode == "nothing-new" else { return "\(storeDays) days, \(storeSleepNights) sleep nights" }
        switch touchedDays {
        case nil:
            return "every day recomputed: " + store
        case 0?:
            return "no day to recompute; " + store
        case let n?:
            return "\(n) day\(n == 1 ? "" : "s") recomputed (\(days) with data, \(sleepNights) sleep night\(sleepNights == 1 ? "" : "s")); "
                + store
        }
    }

    /// The outputs this run wrote, and those it kept as they were (nothing new for them).
    var outputLines: [String] {
        let path = { (name: String) in "\(self.out)/" + (name.hasSuffix("/") ? String(name.dropLast()) : name) }
        let written = outputsWritten.filter { $0 != "dataset partitions" }
        var lines: [String]
        if mode == "unchanged" {
            lines = []
        } else if mode == "nothing-new" {
            lines = ["  → nothing written: every record was in the store, which stays as published"]
        } else if written.isEmpty {
            lines = ["  → \(path("health.sqlite")) (only this run's log: nothing new)"]
        } else {
            lines = ["  → wrote " + written.map(path).joined(separator: ", ")
                + (outputsWritten.contains("dataset partitions") ? ", and this person's dataset partitions" : "")]
        }
        if !outputsUnchanged.isEmpty { lines.append("  unchanged: " + outputsUnchanged.map(path).joined(separator: ", ")) }
        return lines
    }

    /// "local days in Europe/Berlin (why)", or where recorded: "local days where recorded, home Europe/Berlin (why)".
    var localDaysText: String {
        (localDays == LocalDays.whereRecorded.rawValue ? "local days where recorded, home " : "local days in ")
            + "\(timeZone) (\(timeZoneReason))"
    }

    /// One line each, whatever the export's names hold (a file name's newline or escape
    /// sequence is shown, not obeyed).
    private func printable(_ lines: [String]) -> String {
        lines.map(PrintableText.escaped).joined(separator: "\n")
    }

    /// The human summary printed at the end of an interactive run.
    public var text: String {
        if mode == "unchanged" {
            return printable(["Nothing new in \(input): it is the export the last run imported (same size, time and content), "
                        + "so nothing was read and no output rewritten (--full rebuilds from it anyway)"]
                + notes.map { "  note: " + $0 }
                + ["  analytics: " + analyticsText + "; " + localDaysText]
                + outputLines)
        }
        var lines = [
            String(format: "Imported %@ (%@, %.1f MB) in %.1f s: %.0f MB/s, %.0f records/s",
                   input, inputKind, Double(inputBytes) / 1_000_000, seconds, megabytesPerSecond, recordsPerSecond),
            "  samples \(samples) (exact duplicates dropped \(duplicates)), quarantined \(quarantined), "
                + "workouts \(workouts), route points \(routePoints), correlations \(correlations)",
        ]
        for note in notes { lines.append("  note: " + note) }
        if let element = resumedAtElement {
            lines.append("  resumed a killed run: committed work up to element \(element) of the XML was kept")
        }
        if mode == "incremental" || mode == "nothing-new" {
            lines.append("  \(mode): \(skippedByAnchor) records already imported (anchors), \(newSamples ?? 0) new samples, "
                + "\(newWorkouts ?? 0) new workouts, \(newECGRecordings ?? 0) new ECG recordings")
        }
        if ecgRecordings > 0 || ecgFilesUnreadable > 0 {
            lines.append("  ECG recordings \(ecgRecordings), ECG files not readable \(ecgFilesUnreadable)")
        }
        if clinicalFiles > 0 || clinicalFilesUnreadable > 0 {
            lines.append("  clinical record files \(clinicalFiles), not readable \(clinicalFilesUnreadable)")
        }
        if futureDated > 0 {
            lines.append("  \(futureDated) samples created after the export date: kept, but not used to skip later records")
        }
        if !unknownElements.isEmpty {
            lines.append("  unknown elements: " + unknownElements.sorted { $0.key < $1.key }
                .map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
        let repairs = (removedDoctype ? ["DOCTYPE skipped"] : []) + (repairedBytes > 0 ? ["\(repairedBytes) invalid bytes dropped"] : [])
        if !repairs.isEmpty { lines.append("  repaired: " + repairs.joined(separator: ", ")) }
        if routeFilesMissing.count > 3 {
            lines.append("  \(routeFilesMissing.count) route files not found (GPX routes come with the zip or the export folder)")
        } else {
            for missing in routeFilesMissing { lines.append("  route file not found: \(missing)") }
        }
        lines.append("  analytics: " + analyticsText + "; " + localDaysText)
        if let zoneTimeline { lines.append("  travel: " + zoneTimeline) }
        if !changes.isEmpty { lines.append("  what changed:"); lines += changes.map { "    " + $0 } }
        lines += outputLines
        return printable(lines)
    }
}

/// The `runs` table: one row per successful run, written into the staged store before it
/// is published, so a store never shows a run that did not finish.
enum RunLog {
    static func record(_ summary: RunSummary, in database: Database, started: Date) throws {
        let iso = ISO8601DateFormatter()
        try RunRecord(startedUTC: iso.string(from: started), finishedUTC: iso.string(from: Date()), input: summary.input,
                      inputKind: summary.inputKind, inputBytes: summary.inputBytes, status: summary.status,
                      elements: summary.elements, recordsRead: summary.recordsRead, samples: summary.samples,
                      duplicates: summary.duplicates, quarantined: summary.quarantined, workouts: summary.workouts,
                      routePoints: summary.routePoints,
                      unknownElements: String(decoding: (try? JSONEncoder().encode(summary.unknownElements)) ?? Data(), as: UTF8.self),
                      repaired: summary.removedDoctype ? "doctype" : "", seconds: summary.seconds, timeZone: summary.timeZone,
                      mode: summary.mode, newSamples: summary.newSamples ?? summary.samples,
                      skippedByAnchor: summary.skippedByAnchor).record(in: database)
    }
}
