import Foundation

/// A file's size, inode, modification and change times (ns), without following a symbolic link.
struct FileStat {
    let size: Int64
    let inode: UInt64
    let modified: Int64
    let changed: Int64

    init?(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let (m, c) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (m, c) = (info.st_mtim, info.st_ctim)
        #endif
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        modified = Int64(m.tv_sec) * 1_000_000_000 + Int64(m.tv_nsec)
        changed = Int64(c.tv_sec) * 1_000_000_000 + Int64(c.tv_nsec)
    }
}
