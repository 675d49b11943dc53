/// An archive's entries by exact name, built once when the archive is opened. A scan of the
/// entries per lookup made reading each of an archive's files cost the number of its entries:
/// 100,000 small files took 114 s, a million some three hours.
struct ZipNameIndex: Sendable {
    /// For each name, the first entry in archive order that has it.
    private var first: [String: Int] = [:]
    /// For a name whose first entry is a directory, the first entry with the name that is not
    /// one. Names equal under `==` end in `/` alike in all but absurd cases, so this stays empty;
    /// it keeps the answer the scan's in those too.
    private var firstFileAfterDirectory: [String: Int] = [:]

    init(_ entries: [ZipArchive.Entry]) {
        first.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard let earliest = first[entry.name] else {
                first[entry.name] = index
                continue
            }
            if !entry.isDirectory, entries[earliest].isDirectory, firstFileAfterDirectory[entry.name] == nil {
                firstFileAfterDirectory[entry.name] = index
            }
        }
    }

    /// The first entry named `name` (the one a scan in archive order finds).
    func first(named name: String) -> Int? { first[name] }

    /// The first entry named `name` that is not a directory.
    func firstFile(named name: String, in entries: [ZipArchive.Entry]) -> Int? {
        guard let index = first[name] else { return nil }
        return entries[index].isDirectory ? firstFileAfterDirectory[name] : index
    }
}
