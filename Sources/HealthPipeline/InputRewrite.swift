import Foundation
import HealthCore
import HealthStore
import SQLite

/// How this run's export relates to the one of its platform the published store was built
/// from (`HealthInput.compare`), asked of the state the store kept (`StoreExports`). A store
/// without one (built from an export that only ever adds, or by an earlier release) is added
/// to as before. Another person's export is refused here, before anything is read or written,
/// as `SamePerson` refuses an Apple export whose `Me` differs.
enum InputRewrite {
    /// Why the store is rebuilt from this export instead of added to (nil: it is added to).
    static func reason(_ source: any HealthInput, stored: StoreExports, publishedStore path: String, input: String,
                       out: String) throws -> String? {
        guard source.parts.count == 1, let state = stored.entry(source.platform)?.state,
              FileManager.default.fileExists(atPath: path) else { return nil }
        switch try source.compare(with: state) {
        case .adds: return nil
        case .rewrites(let why): return why
        case .anotherPerson(let why):
            throw HealthETLError.dataUnusable("""
                \(input) is not the export of the person whose data is in \(out): \(why). Import it into its \
                own folder (--person ID) or into another --out; to replace this store with it, run again with --full.
                """)
        }
    }
}
