#if canImport(Glibc)
import Glibc
#endif
import Archive
import FuzzHarness
import HealthCore
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`
// instead, so that the whole package builds in release.
#if DEBUG || FUZZING
@testable import HealthIngest

// The zip reader: end records (ZIP64 included), the central directory and its extra fields,
// local headers, stored and deflated data with their sizes and CRC-32s; then what an import
// does with an archive (`ExportSource`: find the export XML, sniff its root, read it, and read
// a route file beside it).
//
// Input: the archive's bytes, in a memory-backed file (an unlinked file in /dev/shm, a tmpfs)
// opened through its /proc path, so that the reader runs unchanged (its `pread`s included)
// and nothing touches the disk. (`memfd_create` would do, but Glibc's module does not export it.)

/// One descriptor for the whole run: rewritten for every input.
let archiveFD: Int32 = {
    let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    let path = "\(folder)/fuzz-zip-\(getpid())"
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    unlink(path)
    return fd
}()

func fuzzZip(_ input: UnsafeRawBufferPointer) {
    guard ftruncate(archiveFD, 0) == 0, input.count == 0 || pwrite(archiveFD, input.baseAddress, input.count, 0) == input.count
    else { preconditionFailure("cannot write the memory file") }
    let path = "/proc/self/fd/\(archiveFD)"

    if let archive = try? ZipArchive(path: path) {
        for entry in archive.entries {
            _ = entry.isJunk
            _ = entry.baseName
            var total = 0
            try? archive.read(entry, chunkSize: 1 << 16) { total += $0.count }
            _ = try? archive.readPrefix(entry, maxBytes: 100)
        }
    }

    // The import's view of the same bytes: which entry is the export, its text, a route file.
    if let source = try? ExportSource(path: path), source.kind == .zip {
        var total = 0
        try? source.readXML(from: 0, chunkSize: 1 << 16, progress: { _ in }) { total += $0.count }
        for name in (try? ZipArchive(path: path))?.entries.map(\.name) ?? [] {
            guard let routes = name.range(of: "workout-routes/") else { continue }
            _ = try? source.readReferencedFile("/" + name[routes.lowerBound...]) { total += $0.count }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzZip(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main enum Main {
    static func main() { FuzzHarness.main(fuzzerTestOneInput) }
}
#else
@main enum Main {
    static func main() { FuzzHarness.unavailable() }
}
#endif
