import Foundation
import HealthStore
import SQLite

/// Stages outputs that use no other output's files, two at a time when it can: a full build's
/// outputs are staged from its committed store, so a second thread can read the same file
/// through a connection of its own (a snapshot: the job's connection holds the file's lock,
/// and writes nothing until both lanes are done). Each lane takes the next output due, so a
/// long one (the workbook) runs beside the others instead of after them. Inside a
/// transaction (an incremental build stages from its uncommitted store) there is one lane.
enum OutputLanes {
    typealias StageOne = @Sendable (_ index: Int, _ database: Database, _ progress: (String) throws -> Void) throws -> StagedFiles

    /// Stages `indices` with `stage`; returns what each staged. Only this thread's lane
    /// reports `progress` (it is the job's, and where a cancelled run stops).
    static func run(_ indices: [Int], from database: Database, progress: (String) throws -> Void,
                    _ stage: @escaping StageOne) throws -> [Int: StagedFiles] {
        let lanes = LaneQueue(indices)
        guard indices.count > 1, !database.isInTransaction else {
            while let index = lanes.next() { lanes.put(index, try stage(index, database, progress)) }
            return lanes.staged
        }
        let threads = StageThreads()
        threads.onFailure { lanes.stop() }
        let path = database.path
        threads.spawn("outputs") {
            let snapshot = try Database(path: path, mode: .snapshot)
            while let index = lanes.next() { lanes.put(index, try stage(index, snapshot, { _ in })) }
        }
        do {
            while let index = lanes.next() { lanes.put(index, try stage(index, database, progress)) }
        } catch {
            lanes.stop()
            _ = try? threads.wait()
            throw error
        }
        try threads.wait()
        return lanes.staged
    }
}

/// The outputs left to stage and what the lanes staged, shared by the two lanes.
private final class LaneQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var left: ArraySlice<Int>
    private var done: [Int: StagedFiles] = [:]

    init(_ indices: [Int]) { left = indices[...] }

    /// The next output to stage, nil when none is left (or the lanes were stopped).
    func next() -> Int? { lock.withLock { left.popFirst() } }

    func put(_ index: Int, _ files: StagedFiles) { lock.withLock { done[index] = files } }

    /// After a failure: nothing more is taken.
    func stop() { lock.withLock { left = [] } }

    var staged: [Int: StagedFiles] { lock.withLock { done } }
}
