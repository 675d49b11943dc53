#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if DEBUG
import Synchronization
#endif

/// Fault injection for tests, as SQLite tests its I/O errors: `HEALTHETL_FAULT=write:3:ENOSPC`
/// makes the 3rd `write` of the process fail with ENOSPC, once; the run must then fail cleanly
/// (an I/O exit code, a message naming the file, the published outputs untouched) and the next
/// run must recover. Kinds here: `write` (write, pwrite, sendfile), `fsync`, `rename`, and
/// `kill-after-checkpoint:N` (SIGKILL right after the N-th checkpoint commit); `sqlite-io` is
/// the SQLite library's (its VFS shim). Errors: ENOSPC, EIO.
///
/// Debug builds only: in a release build the plan is never read and `FileCall` is the plain
/// system call, so the hook costs nothing there. When a plan is set, the process notes on stderr
/// the call it failed (`fault injected: …`), or at exit how many calls of the kind it saw, so a
/// test knows whether its N was reached.
public enum FaultInjection {
    enum Kind: String, Sendable {
        case write, fsync, rename
        case killAfterCheckpoint = "kill-after-checkpoint"
    }

    /// Called right after a checkpoint is committed for good: with `kill-after-checkpoint:N`, the
    /// N-th call kills the process as `kill -9` would (no cleanup, no exit handlers).
    @inline(__always)
    public static func checkpointCommitted() {
        #if DEBUG
        if fires(.killAfterCheckpoint, "a checkpoint commit") != nil { kill(getpid(), SIGKILL) }
        #endif
    }

    #if DEBUG
    struct Plan {
        var kind: Kind
        var call: Int
        var errorNumber: Int32
    }

    /// `HEALTHETL_FAULT`, read once; a malformed value stops the process (a test that meant to
    /// inject a fault must not pass because none was injected).
    static let plan: Plan? = {
        guard let raw = getenv("HEALTHETL_FAULT") else { return nil }
        let text = String(cString: raw)
        guard let plan = parse(text) else {
            if text.hasPrefix("sqlite-io:") { return nil }   // the SQLite library's own kind
            report("HEALTHETL_FAULT=\(text) is not KIND:N[:ENOSPC|EIO] (write, fsync, rename, kill-after-checkpoint)")
            exit(70)
        }
        atexit {
            guard FaultInjection.fired.load(ordering: .relaxed) == 0, let plan = FaultInjection.plan else { return }
            FaultInjection.report("fault injection: \(FaultInjection.calls.load(ordering: .relaxed)) \(plan.kind.rawValue) calls, none failed")
        }
        return plan
    }()

    static func parse(_ text: String) -> Plan? {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count >= 2, let kind = Kind(rawValue: parts[0]), let call = Int(parts[1]), call >= 1 else { return nil }
        if kind == .killAfterCheckpoint { return parts.count == 2 ? Plan(kind: kind, call: call, errorNumber: 0) : nil }
        guard parts.count == 3 else { return nil }
        switch parts[2] {
        case "ENOSPC": return Plan(kind: kind, call: call, errorNumber: ENOSPC)
        case "EIO": return Plan(kind: kind, call: call, errorNumber: EIO)
        default: return nil
        }
    }

    /// Calls of the planned kind so far (every thread's), and whether the fault was injected.
    static let calls = Atomic<Int>(0)
    static let fired = Atomic<Int>(0)

    /// The errno to fail this call of `kind` with (on `file`), or nil to make it.
    static func fires(_ kind: Kind, _ file: @autoclosure () -> String) -> Int32? {
        guard let plan, plan.kind == kind else { return nil }
        let call = calls.add(1, ordering: .relaxed).newValue
        guard call == plan.call else { return nil }
        fired.store(1, ordering: .relaxed)
        let error = plan.kind == .killAfterCheckpoint ? "SIGKILL" : String(cString: strerror(plan.errorNumber))
        report("fault injected: \(kind.rawValue) #\(call) on \(file()) (\(error))")
        return plan.errorNumber
    }

    static func report(_ line: String) {
        let text = Array("healthetl: \(line)\n".utf8)
        _ = text.withUnsafeBytes { systemWrite(2, $0.baseAddress, $0.count) }
    }
    #endif
}

/// The system calls by which this package writes, syncs and renames files, each one a point
/// where a debug build can inject a fault (`FaultInjection`): on the planned call, the call is
/// not made, and it returns -1 with `errno` set. Elsewhere, and in release builds, it is the
/// system call itself. `file` names the file for the fault's note only.
public enum FileCall {
    @inline(__always)
    public static func write(_ fd: Int32, _ start: UnsafeRawPointer?, _ count: Int, file: @autoclosure () -> String) -> Int {
        #if DEBUG
        if let error = FaultInjection.fires(.write, file()) { errno = error; return -1 }
        #endif
        return systemWrite(fd, start, count)
    }

    @inline(__always)
    public static func pwrite(_ fd: Int32, _ start: UnsafeRawPointer?, _ count: Int, at offset: off_t,
                              file: @autoclosure () -> String) -> Int {
        #if DEBUG
        if let error = FaultInjection.fires(.write, file()) { errno = error; return -1 }
        #endif
        return systemPwrite(fd, start, count, offset)
    }

    @inline(__always)
    public static func fsync(_ fd: Int32, file: @autoclosure () -> String) -> Int32 {
        #if DEBUG
        if let error = FaultInjection.fires(.fsync, file()) { errno = error; return -1 }
        #endif
        return systemFsync(fd)
    }

    @inline(__always)
    public static func rename(_ from: String, _ to: String) -> Int32 {
        #if DEBUG
        if let error = FaultInjection.fires(.rename, to) { errno = error; return -1 }
        #endif
        return systemRename(from, to)
    }

    #if os(Linux)
    /// `sendfile(2)` (a copy in the kernel): a write.
    @inline(__always)
    public static func sendfile(_ output: Int32, _ input: Int32, _ count: Int, file: @autoclosure () -> String) -> Int {
        #if DEBUG
        if let error = FaultInjection.fires(.write, file()) { errno = error; return -1 }
        #endif
        return systemSendfile(output, input, count)
    }
    #endif
}

// The system calls themselves, named apart (inside `FileCall`, `write` names its own method).
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { write(fd, p, n) }
private func systemPwrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int, _ at: off_t) -> Int { pwrite(fd, p, n, at) }
private func systemFsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
#if os(Linux)
private func systemSendfile(_ output: Int32, _ input: Int32, _ n: Int) -> Int { sendfile(output, input, nil, n) }
#endif
