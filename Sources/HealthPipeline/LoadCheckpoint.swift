import Foundation
import HealthCore
import HealthEmit
import HealthIngest
import HealthStore

/// Where a load stands, committed in the staged store in the same transaction as the data it
/// describes (`SQLiteSink.commit(checkpoint:)`), so the two can never disagree; a copy goes
/// to `.healthetl/checkpoint.json` after each commit for `status` and for people. The row
/// is what a resume trusts: a kill between the commit and the copy leaves the copy one
/// commit behind, never ahead.
struct LoadCheckpoint: Codable {
    enum Phase: String, Codable {
        /// Batches up to `ingest` are committed.
        case loading
        /// The whole input is committed; deduping and indexing are left.
        case finishing
        /// The load finished (deduped, indexed); what is left is analytics, outputs, publishing.
        case loaded
    }

    /// The export this load reads; a checkpoint of another file is never resumed.
    var input: InputFingerprint
    /// Mode, analytics settings and (incremental) the store the delta is for.
    var job: String
    var phase = Phase.loading
    /// Commits so far.
    var sequence = 0
    var started: String

    // Each stage's state at the commit.
    /// Ingest: where to start parsing again.
    var ingest: ResumePoint?
    /// Dedupe: records the anchors dropped.
    var skippedByAnchor = 0
    /// Emit: what the sink wrote.
    var counts = SQLiteSink.Counts()
    /// The load as a whole.
    var recordsRead = 0
    var unknownElements: [String: Int] = [:]
    /// The reader's summary, once the input is read to the end.
    var reader: IngestSummary?

    init(input: InputFingerprint, job: String) {
        self.input = input
        self.job = job
        started = Timestamp(secondsSince1970: Date().timeIntervalSince1970).iso8601
    }

    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ text: String) -> LoadCheckpoint? {
        try? JSONDecoder().decode(LoadCheckpoint.self, from: Data(text.utf8))
    }

    /// The checkpoint of the store at `staged`, if it is one of this job on this input; else
    /// what is wrong with the staged store, if it is damaged.
    static func resumable(at staged: String, input: InputFingerprint, job: String) -> (LoadCheckpoint?, damaged: String?) {
        guard FileManager.default.fileExists(atPath: staged) else { return (nil, nil) }
        let found = SQLiteSink.checkpoint(at: staged)
        guard let state = found.state.flatMap(decode), state.input == input, state.job == job else {
            return (nil, found.damaged)
        }
        return (state, nil)
    }

    /// Where in its input a resume point lies, in the input's own terms.
    static func place(_ point: ResumePoint) -> String {
        if let table = point.table { return "row \(point.afterRowID ?? 0) of \(table) (\(point.elementOrdinal) rows)" }
        return "element \(point.elementOrdinal) (byte \(point.inputOffset) of the XML)"
    }

    /// One line for `status` and progress messages.
    var description: String {
        switch phase {
        case .loaded: "load of \(input.path) finished (\(counts.samplesWritten) samples); analytics and outputs left"
        case .finishing: "\(input.path) read (\(recordsRead) records); deduping and indexing left"
        case .loading where ingest?.inputComplete == true:
            "\(input.path) read to the end (\(recordsRead) records); route files and indexing left"
        case .loading:
            "\(input.path) read to \(ingest.map(Self.place) ?? "its start"), \(recordsRead) records, \(sequence) commits since \(started)"
        }
    }
}

/// Identifies an export file cheaply: size, modification time and a hash of its first and
/// last 64 KiB (a fresh export of the same account differs in all three).
struct InputFingerprint: Codable, Equatable {
    var path: String
    var bytes: Int64
    var modified: Double
    var sample: UInt64

    init(path: String) throws {
        self.path = path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        bytes = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        var hasher = StableHasher()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
           let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            let window: Int64 = 64 << 10
            func combine(_ data: Data?) { Array(data ?? Data()).withUnsafeBufferPointer { hasher.combine(bytes: $0) } }
            combine(try? handle.read(upToCount: Int(window)))
            if bytes > window {
                try? handle.seek(toOffset: UInt64(bytes - window))
                combine(try? handle.read(upToCount: Int(window)))
            }
        }
        sample = hasher.value
    }

    static func == (a: InputFingerprint, b: InputFingerprint) -> Bool {
        // The path may change (the file was moved); the content may not.
        a.bytes == b.bytes && a.modified == b.modified && a.sample == b.sample
    }
}

/// The files of a resumable load in `.healthetl/`: the staged store (`load.sqlite` for a full
/// build, `delta.sqlite` for an incremental run) and the readable copy of its checkpoint.
struct CheckpointFiles {
    let staged: String
    let copy: String
    private let otherStaged: String

    init(folder: OutputFolder, incremental: Bool) {
        let state = folder.stateFolder as NSString
        let (mine, other) = incremental ? ("delta.sqlite", "load.sqlite") : ("load.sqlite", "delta.sqlite")
        staged = state.appendingPathComponent(mine)
        otherStaged = state.appendingPathComponent(other)
        copy = state.appendingPathComponent("checkpoint.json")
    }

    /// The checkpoint to resume from, if the staged store holds one of this job on this
    /// input; otherwise whatever an earlier load left is removed and the load starts afresh.
    /// `warn` hears of a damaged staged store (a disk error, a crash of the machine): it is
    /// discarded, never resumed, and never stops the run.
    func resumable(input: InputFingerprint, job: String, warn: (String) -> Void) -> LoadCheckpoint? {
        Self.removeStore(otherStaged)
        let (state, damaged) = LoadCheckpoint.resumable(at: staged, input: input, job: job)
        if let state { return state }
        if let damaged {
            warn("the interrupted run's state \(staged) was damaged (\(damaged.prefix(120))): discarded, the import starts over")
        }
        discard()
        return nil
    }

    /// Removes every staged store and checkpoint an earlier run left (`--full`, `reset`).
    static func clear(in folder: OutputFolder) {
        for name in ["load.sqlite", "delta.sqlite"] { removeStore((folder.stateFolder as NSString).appendingPathComponent(name)) }
        unlink((folder.stateFolder as NSString).appendingPathComponent("checkpoint.json"))
    }

    /// Whether an earlier run left a staged store or a checkpoint (to resume, or to clear away).
    static func anyLeft(in folder: OutputFolder) -> Bool {
        ["load.sqlite", "delta.sqlite", "checkpoint.json"].contains {
            FileManager.default.fileExists(atPath: (folder.stateFolder as NSString).appendingPathComponent($0))
        }
    }

    /// Removes the staged store and the copy (the load is published, or not resumable).
    func discard() {
        Self.removeStore(staged)
        unlink(copy)
    }

    private static func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// The pending load an earlier run left, as its copy describes it.
    static func pending(in folder: OutputFolder) -> LoadCheckpoint? {
        let copy = (folder.stateFolder as NSString).appendingPathComponent("checkpoint.json")
        return FileManager.default.contents(atPath: copy).flatMap { LoadCheckpoint.decode(String(decoding: $0, as: UTF8.self)) }
    }
}
