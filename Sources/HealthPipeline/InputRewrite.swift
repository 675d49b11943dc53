import Foundation
import HealthCore
import HealthStore
import SQLite

/// Whether this run's export rewrote what the published store holds (`HealthInput.rewritten`):
/// asked of the state the store kept from its export. A store without one (built from an
/// export that only ever adds, or by an earlier release) is added to as before.
enum InputRewrite {
    static func reason(_ source: any HealthInput, publishedStore path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path),
              let store = try? Database(path: path, mode: .readOnly),
              let state = try? StoreSettings.inputState(in: store) else { return nil }
        return try source.rewritten(since: state)
    }
}
