import Foundation
import XCTest
import HealthStore
@testable import HealthQL
import SQLite

/// A store with the real schema in a temporary file (removed after `test`), its analytics
/// settings in Europe/Berlin under `schema`; `fill` writes the test's rows. Read back read-only,
/// as the query engine opens a store.
func schemaStore(_ test: XCTestCase, _ name: String, schema: Int, indexes: Bool = false,
                 fill: (Database) throws -> Void = { _ in }) throws -> StoreContext {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("healthql-\(name)-\(UUID().uuidString).sqlite").path
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    do {   // closed before the store is opened read-only
        let db = try Database(path: path, mode: .create)
        try db.execute(StoreSchema.tables)
        if indexes { try db.execute(StoreSchema.indexes) }
        try db.execute(StoreSchema.views)
        try db.execute("INSERT INTO settings VALUES ('analytics', 'schema=\(schema);zone=Europe/Berlin;weekStart=0')")
        try fill(db)
    }
    return try StoreContext(database: Database(path: path, mode: .readOnly))
}

