#if canImport(Glibc)
// <malloc.h> is not in Swift's Glibc module (see the executable's main.swift).
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
#endif

/// Gives the pages of freed memory back to the system, where the allocator keeps them.
///
/// SQLite's page cache is thousands of page-sized blocks from the main thread's arena: when
/// the cache shrinks after the load (32 → 8 MB, `SQLiteSink.finish`), glibc keeps the 24 MB
/// freed inside that arena, resident, below blocks still in use, where its automatic trim
/// (the top of the heap only) cannot return them. `malloc_trim` releases every whole free
/// page of every arena (issue 35).
enum FreedMemory {
    static func returnToSystem() {
#if canImport(Glibc)
        _ = malloc_trim(0)
#endif
    }
}
