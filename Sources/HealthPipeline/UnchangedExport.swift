import Foundation
import HealthAnalytics
import HealthCore
import HealthIngest
import HealthStore
import PrivateFiles

/// Recognizes a run over the very export the last run published, under the same settings and
/// program, into a store and outputs nobody touched since: there is nothing to read, so the run
/// reads nothing (a nightly cron job finds the same `export.zip` until the person exports again).
///
/// "The same export" is the same size, modification time and bytes at both ends of the file
/// (`InputFingerprint`; the head holds the export's `ExportDate`, a zip's tail the CRC of every
/// entry), plus, beside an XML or in a folder, the names, sizes and times of the route and ECG
/// files. Anything else different and the run is a normal incremental run: a changed setting,
/// another build of `healthetl`, a missing output, a store written since it was published, a
/// publication cut short, or a killed load waiting to be resumed. Kept in
/// `.healthetl/published-input.json`, written after each publication.
struct UnchangedExport: Codable, Equatable {
    var input: InputFingerprint
    /// Files beside the export's data file (an unzipped export's routes and ECGs: `name size mtime`, sorted); empty for a zip.
    var companions: [String]
    /// The analytics settings (the zone among them), the output settings, the outputs and the program.
    var job: String
    /// What the store held when it was published (for the summary of a run that reads nothing).
    var storeDays: Int
    var storeSleepNights: Int

    init(source: any HealthInput, job: String, storeDays: Int = 0, storeSleepNights: Int = 0) throws {
        input = try InputFingerprint(path: source.fingerprintFile)
        companions = source.companionFolder.map { Self.companions(beside: $0) } ?? []
        self.job = job
        self.storeDays = storeDays
        self.storeSleepNights = storeSleepNights
    }

    /// The job line: everything besides the export that decides what a run writes.
    static func job(settings: AnalyticsSettings, outputs: OutputSettings, names: [String]) -> String {
        [settings.fingerprint, outputs.fingerprint, "outputs=" + names.joined(separator: ","),
         "program=" + programIdentity].joined(separator: "\n")
    }

    /// This build of the program (its executable's size and modification time): a new build
    /// may write different outputs, so it never counts as unchanged.
    static let programIdentity: String = {
        guard let path = Bundle.main.executablePath, let info = FileStat(path) else { return "unknown-\(getpid())" }
        return "\(info.size) \(info.modified)"
    }()

    static func path(_ folder: OutputFolder) -> String {
        (folder.stateFolder as NSString).appendingPathComponent("published-input.json")
    }

    /// What the last publication recorded, if it is this export and job; nil otherwise.
    static func recorded(_ current: UnchangedExport, in folder: OutputFolder) -> UnchangedExport? {
        guard let data = FileManager.default.contents(atPath: path(folder)),
              let last = try? JSONDecoder().decode(UnchangedExport.self, from: data),
              last.input == current.input, last.companions == current.companions, last.job == current.job else { return nil }
        return last
    }

    /// Whether nothing but the export's own sameness is left to check: the store (`storeTrusted`:
    /// `StoreFingerprint.unchangedSincePublished`) and the outputs are as published and no
    /// earlier run left work behind.
    static func outputsAsPublished(_ folder: OutputFolder, storeTrusted: Bool, outputs: [any Output]) -> Bool {
        storeTrusted && !Publication.wasCutShort(in: folder)
            && !CheckpointFiles.anyLeft(in: folder)
            && !outputs.contains { $0.isMissing(in: folder.path) }
    }

    /// Notes the export just published, with the days and nights the run's store holds.
    func record(_ folder: OutputFolder, holding summary: RunSummary) {
        var published = self
        (published.storeDays, published.storeSleepNights) = (summary.storeDays, summary.storeSleepNights)
        published.record(folder)
    }

    /// Writes the record (best effort: without it the next run reads the export).
    private func record(_ folder: OutputFolder) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? AtomicFile.write(String(decoding: data, as: UTF8.self), to: Self.path(folder))
    }

    /// Forgets it (`--full`, a failed run): the next run reads the export whatever it is.
    static func forget(_ folder: OutputFolder) { unlink(path(folder)) }

    /// The files an export folder holds beside its XML, each with its size and modification
    /// time: a route, ECG or clinical-records file that changed makes the export another one.
    private static func companions(beside folder: String) -> [String] {
        var lines: [String] = []
        for sub in ["workout-routes", "electrocardiograms", "clinical-records"] {
            let base = (folder as NSString).appendingPathComponent(sub)
            guard let names = try? FileManager.default.subpathsOfDirectory(atPath: base) else { continue }
            for name in names {
                guard let info = FileStat((base as NSString).appendingPathComponent(name)) else { continue }
                lines.append("\(sub)/\(name) \(info.size) \(info.modified)")
            }
        }
        return lines.sorted()
    }
}
