#if DEBUG
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import Synchronization

/// SQLite's share of fault injection (see `FaultInjection` in PrivateFiles, which this library
/// does not depend on): with `HEALTHETL_FAULT=sqlite-io:N:ENOSPC` (or `EIO`), a VFS that wraps
/// the default one is registered as the default, counts every xWrite, xSync and xTruncate of
/// every database, journal and temporary file, and fails the N-th: SQLITE_FULL for ENOSPC,
/// SQLITE_IOERR_WRITE / _FSYNC / _TRUNCATE for EIO, with `errno` set, as the unix VFS fails on
/// a full or failing disk. Every other call goes to the wrapped VFS untouched.
///
/// Debug builds only (this file is empty in a release build), and only when the plan names
/// `sqlite-io`. Like the file calls, it notes on stderr the call it failed, or at exit how many
/// it counted.
enum FaultInjectingVFS {
    struct Plan {
        var call: Int
        var errorNumber: Int32
    }

    /// Registers the VFS if `HEALTHETL_FAULT` names `sqlite-io`; once, before the first open.
    static func registerIfPlanned() {
        guard let raw = getenv("HEALTHETL_FAULT"), String(cString: raw).hasPrefix("sqlite-io:") else { return }
        let text = String(cString: raw)
        let parts = text.split(separator: ":")
        guard parts.count == 3, let call = Int(parts[1]), call >= 1, parts[2] == "ENOSPC" || parts[2] == "EIO" else {
            report("HEALTHETL_FAULT=\(text) is not sqlite-io:N:ENOSPC|EIO")
            exit(70)
        }
        plan = Plan(call: call, errorNumber: parts[2] == "ENOSPC" ? ENOSPC : EIO)
        guard let wrapped = sqlite3_vfs_find(nil) else { return }
        self.wrapped = wrapped
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)   // lives as long as the process
        vfs.initialize(to: wrapped.pointee)
        vfs.pointee.zName = UnsafePointer(strdup("healthetl-faults"))
        vfs.pointee.pNext = nil
        vfs.pointee.szOsFile = Int32(headerSize) + wrapped.pointee.szOsFile
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in
            guard let file else { return SQLITE_MISUSE }
            let header = UnsafeMutableRawPointer(file)
            header.storeBytes(of: nil, toByteOffset: 0, as: UnsafeRawPointer?.self)   // pMethods: none until open
            header.storeBytes(of: name.map(UnsafeRawPointer.init), toByteOffset: 8, as: UnsafeRawPointer?.self)
            let inner = FaultInjectingVFS.inner(file)
            let rc = FaultInjectingVFS.wrapped!.pointee.xOpen(FaultInjectingVFS.wrapped, name, inner, flags, outFlags)
            // SQLite calls xClose only if pMethods is set, also after a failed open.
            if inner.pointee.pMethods != nil { file.pointee.pMethods = UnsafePointer(FaultInjectingVFS.methods) }
            return rc
        }
        sqlite3_vfs_register(vfs, 1)
        atexit {
            guard FaultInjectingVFS.fired.load(ordering: .relaxed) == 0 else { return }
            FaultInjectingVFS.report("fault injection: \(FaultInjectingVFS.calls.load(ordering: .relaxed)) sqlite-io calls, none failed")
        }
    }

    // Set once, before the VFS is registered (so before any other thread can read them).
    nonisolated(unsafe) static var plan: Plan?
    nonisolated(unsafe) static var wrapped: UnsafeMutablePointer<sqlite3_vfs>?
    static let calls = Atomic<Int>(0)
    static let fired = Atomic<Int>(0)

    /// Our part of each file (the methods pointer SQLite reads, the file's name), 16 bytes; the
    /// wrapped VFS's file follows.
    static let headerSize = 16

    static func inner(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    static func name(_ file: UnsafeMutablePointer<sqlite3_file>) -> String {
        UnsafeMutableRawPointer(file).load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self)
            .map { String(cString: $0) } ?? "a temporary file"
    }

    /// The result code to fail this write, sync or truncate with (`eio`: the one for EIO), or nil.
    static func fault(_ file: UnsafeMutablePointer<sqlite3_file>, _ call: String, eio: Int32) -> Int32? {
        guard let plan else { return nil }
        let n = calls.add(1, ordering: .relaxed).newValue
        guard n == plan.call else { return nil }
        fired.store(1, ordering: .relaxed)
        report("fault injected: sqlite-io #\(n) (\(call)) on \(name(file)) (\(String(cString: strerror(plan.errorNumber))))")
        errno = plan.errorNumber
        return plan.errorNumber == ENOSPC ? SQLITE_FULL : eio
    }

    static func report(_ line: String) {
        let text = Array("healthetl: \(line)\n".utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The wrapped file's methods.
    static func real(_ file: UnsafeMutablePointer<sqlite3_file>?) -> (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods) {
        let inner = inner(file!)
        return (inner, inner.pointee.pMethods.pointee)
    }

    // SQLITE_IOERR_WRITE, _FSYNC and _TRUNCATE (extended codes: SQLITE_IOERR | n << 8).
    static let ioerrWrite = SQLITE_IOERR | (3 << 8)
    static let ioerrFsync = SQLITE_IOERR | (4 << 8)
    static let ioerrTruncate = SQLITE_IOERR | (6 << 8)

    /// Every call forwarded; xWrite, xSync and xTruncate counted and failed as planned.
    nonisolated(unsafe) static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
        let m = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        m.initialize(to: sqlite3_io_methods(
            iVersion: 3,
            xClose: { file in let (f, m) = real(file); return m.xClose(f) },
            xRead: { file, buffer, count, offset in let (f, m) = real(file); return m.xRead(f, buffer, count, offset) },
            xWrite: { file, buffer, count, offset in
                if let rc = fault(file!, "write", eio: ioerrWrite) { return rc }
                let (f, m) = real(file); return m.xWrite(f, buffer, count, offset)
            },
            xTruncate: { file, size in
                if let rc = fault(file!, "truncate", eio: ioerrTruncate) { return rc }
                let (f, m) = real(file); return m.xTruncate(f, size)
            },
            xSync: { file, flags in
                if let rc = fault(file!, "sync", eio: ioerrFsync) { return rc }
                let (f, m) = real(file); return m.xSync(f, flags)
            },
            xFileSize: { file, size in let (f, m) = real(file); return m.xFileSize(f, size) },
            xLock: { file, lock in let (f, m) = real(file); return m.xLock(f, lock) },
            xUnlock: { file, lock in let (f, m) = real(file); return m.xUnlock(f, lock) },
            xCheckReservedLock: { file, out in let (f, m) = real(file); return m.xCheckReservedLock(f, out) },
            xFileControl: { file, op, arg in let (f, m) = real(file); return m.xFileControl(f, op, arg) },
            xSectorSize: { file in let (f, m) = real(file); return m.xSectorSize(f) },
            xDeviceCharacteristics: { file in let (f, m) = real(file); return m.xDeviceCharacteristics(f) },
            xShmMap: { file, page, size, extend, out in
                let (f, m) = real(file); return m.iVersion >= 2 ? m.xShmMap(f, page, size, extend, out) : SQLITE_IOERR
            },
            xShmLock: { file, offset, n, flags in
                let (f, m) = real(file); return m.iVersion >= 2 ? m.xShmLock(f, offset, n, flags) : SQLITE_IOERR
            },
            xShmBarrier: { file in let (f, m) = real(file); if m.iVersion >= 2 { m.xShmBarrier(f) } },
            xShmUnmap: { file, delete in
                let (f, m) = real(file); return m.iVersion >= 2 ? m.xShmUnmap(f, delete) : SQLITE_OK
            },
            xFetch: { file, offset, count, out in
                let (f, m) = real(file)
                guard m.iVersion >= 3 else { out?.pointee = nil; return SQLITE_OK }
                return m.xFetch(f, offset, count, out)
            },
            xUnfetch: { file, offset, page in
                let (f, m) = real(file); return m.iVersion >= 3 ? m.xUnfetch(f, offset, page) : SQLITE_OK
            }))
        return m
    }()
}
#endif
