import XCTest
@testable import HealthStore
import SQLite

/// `StoreSchema.upgrade` and its steps (`migrations`), against the store's shapes from git
/// history (`StoreSchemaHistory`, which names the commit of each).
final class StoreUpgradeTests: XCTestCase {
    private struct Interrupted: Error {}

    func testTheStepsGoOneVersionAtATimeFromTheOldestUpgradableToTheCurrentVersion() throws {
        let steps = StoreSchema.migrations, (oldest, newest) = (StoreSchema.oldestUpgradable, StoreSchema.version)
        XCTAssertNil(SchemaMigration.problem(in: steps, from: oldest, to: newest))
        XCTAssertEqual(StoreSchemaHistory.shapes.first?.version, oldest)
        XCTAssertEqual(StoreSchemaHistory.shapes.last?.version, newest, "the newest version's shape is in StoreSchemaHistory")
        var swapped = steps
        swapped.swapAt(1, 2)
        let faulty: [String: [SchemaMigration]] = [
            "out of order": swapped, "with a gap": steps.filter { $0.version != 7 }, "with a step twice": steps + [steps[2]],
            "short of the current version": Array(steps.dropLast()), "starting late": Array(steps.dropFirst()), "empty": [],
        ]
        for (what, list) in faulty {
            XCTAssertNotNil(SchemaMigration.problem(in: list, from: oldest, to: newest), what)
            // Refused before anything runs.
            let store = try Self.store(ofShape: 0)
            XCTAssertThrowsError(try StoreSchema.upgrade(store, steps: list), what)
            XCTAssertEqual(try Self.version(of: store), oldest, what)
            XCTAssertEqual(try SchemaShape(of: store), try SchemaShape(of: Self.store(ofShape: 0)), what)
        }
    }

    /// The steps to each version, on version 3's tables, make that version's shape as main had it.
    func testTheStepsReplayedOnVersion3GiveEachVersionItsShapeFromHistory() throws {
        for (index, shape) in StoreSchemaHistory.shapes.enumerated() where Self.isLastOfItsVersion(index) {
            let replayed = try SchemaShape(of: Self.replayed(to: shape.version))
            let historical = try SchemaShape(of: Self.store(ofShape: index))
            XCTAssertEqual(replayed, historical, "version \(shape.version), \(shape.commits):\n\(replayed.difference(from: historical))")
        }
    }

    /// A new store is the newest shape of history to the letter: a change to the fresh schema
    /// without a new version (and its step) fails here.
    func testTheNewestShapeOfHistoryIsTheFreshSchema() throws {
        let newest = try Self.store(ofShape: StoreSchemaHistory.shapes.count - 1), fresh = try Self.fresh()
        let master = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try newest.rows(master), try fresh.rows(master))
        XCTAssertEqual(try Self.version(of: newest), try Self.version(of: fresh))
    }

    /// Every shape, as its version made it and (the last of a version) as the steps upgraded an
    /// older store to it, becomes a fresh store's schema, with its rows, and a second upgrade
    /// changes nothing.
    func testEveryShapeUpgradesToTheFreshSchemaKeepingItsRows() throws {
        let fresh = try SchemaShape(of: Self.fresh())
        for (index, shape) in StoreSchemaHistory.shapes.enumerated().dropLast() {
            var stores = [("made by version \(shape.version) (\(shape.commits))", try Self.store(ofShape: index))]
            if Self.isLastOfItsVersion(index) {
                stores.append(("upgraded from 3 to \(shape.version)", try Self.replayed(to: shape.version)))
            }
            for (how, store) in stores {
                try StoreRows.fillEveryTable(store)
                let before = try StoreRows(of: store)
                let expectedMarker = try Self.copiesUnknownMarker(store)
                try StoreSchema.upgrade(store)
                let shapeAfter = try SchemaShape(of: store)
                XCTAssertEqual(shapeAfter, fresh, "\(how):\n\(shapeAfter.difference(from: fresh))")
                XCTAssertEqual(try Self.version(of: store), StoreSchema.version, how)
                try Self.assertKept(before, in: store, adding: expectedMarker, how)

                let once = try StoreRows(of: store)
                try StoreSchema.upgrade(store)
                XCTAssertEqual(try SchemaShape(of: store), shapeAfter, "again: \(how)")
                let twice = try StoreRows(of: store)
                XCTAssertEqual(twice, once, "again: \(how)\n\(twice.difference(from: once))")
            }
        }
    }

    /// Each step can run again on the store it made: what a store left by an earlier upgrade
    /// (which set the version only at its end) or made between two merges of one version needs.
    func testEachStepCanRunAgainOnTheStoreItMade() throws {
        for migration in StoreSchema.migrations {
            let store = try Self.replayed(to: migration.version)
            try StoreRows.fillEveryTable(store)
            let (shape, rows) = (try SchemaShape(of: store), try StoreRows(of: store))
            try migration.step(store)
            let shapeAgain = try SchemaShape(of: store)
            XCTAssertEqual(shapeAgain, shape, "version \(migration.version)\n\(shapeAgain.difference(from: shape))")
            let again = try StoreRows(of: store)
            XCTAssertEqual(again, rows, "version \(migration.version)\n\(again.difference(from: rows))")
        }
    }

    /// A store with everything of the current version under an older number (the most an
    /// interrupted earlier upgrade can have left) upgrades to what it is.
    func testAStoreHoldingMoreThanItsVersionSaysUpgradesUnchanged() throws {
        for version in StoreSchema.oldestUpgradable..<StoreSchema.version {
            let store = try Self.fresh()
            try StoreRows.fillEveryTable(store)
            let (shape, rows) = (try SchemaShape(of: store), try StoreRows(of: store))
            try store.execute("PRAGMA user_version = \(version)")
            try StoreSchema.upgrade(store)
            let upgradedShape = try SchemaShape(of: store)
            XCTAssertEqual(upgradedShape, shape, "labelled \(version)\n\(upgradedShape.difference(from: shape))")
            let upgraded = try StoreRows(of: store)
            XCTAssertEqual(upgraded, rows, "labelled \(version)\n\(upgraded.difference(from: rows))")
            XCTAssertEqual(try Self.version(of: store), StoreSchema.version, "labelled \(version)")
        }
    }

    /// Outside a transaction each step commits with its version: a step that fails leaves the
    /// store of the version before it, without half of the failed step, and the next upgrade
    /// carries on from there.
    func testAFailingStepLeavesTheStoreAtTheVersionBeforeIt() throws {
        let store = try Self.store(ofShape: 0)
        XCTAssertThrowsError(try StoreSchema.upgrade(store, steps: Self.steps(failingAt: 8)))
        XCTAssertEqual(try Self.version(of: store), 7)
        XCTAssertEqual(try SchemaShape(of: store), try SchemaShape(of: Self.replayed(to: 7)))
        try StoreSchema.upgrade(store)
        XCTAssertEqual(try SchemaShape(of: store), try SchemaShape(of: Self.fresh()))
    }

    /// Inside the caller's transaction the steps are its savepoints: its rollback undoes them
    /// all, the version with them.
    func testInTheCallersTransactionAFailingStepUndoesEveryStep() throws {
        let store = try Self.store(ofShape: 0)
        let before = try SchemaShape(of: store)
        XCTAssertThrowsError(try store.transaction { try StoreSchema.upgrade(store, steps: Self.steps(failingAt: 8)) })
        XCTAssertEqual(try Self.version(of: store), StoreSchema.oldestUpgradable)
        XCTAssertEqual(try SchemaShape(of: store), before)
    }

    /// Older than `oldestUpgradable`: refused (the callers rebuild it). Newer than this program:
    /// left as it is.
    func testOnlyStoresFromTheOldestUpgradableVersionOnAreUpgraded() throws {
        for version in [StoreSchema.oldestUpgradable - 1, StoreSchema.version + 1] {
            let store = try Self.store(ofShape: 0)
            try store.execute("PRAGMA user_version = \(version)")
            if version < StoreSchema.oldestUpgradable {
                XCTAssertThrowsError(try StoreSchema.upgrade(store))
            } else {
                try StoreSchema.upgrade(store)
            }
            XCTAssertEqual(try Self.version(of: store), version)
            XCTAssertEqual(try SchemaShape(of: store), try SchemaShape(of: Self.store(ofShape: 0)), "version \(version)")
        }
    }

    // MARK: - Stores

    /// A store of `StoreSchemaHistory.shapes[index]`, as its version made it: every statement of
    /// the shapes up to it, a later one in place of an earlier one of the same name.
    private static func store(ofShape index: Int) throws -> Database {
        var statements: [(name: String, sql: String)] = []
        for shape in StoreSchemaHistory.shapes[...index] {
            for sql in shape.statements.components(separatedBy: ";\n") where !sql.allSatisfy(\.isWhitespace) {
                let name = try XCTUnwrap(sql.split(separator: " ").first { !["CREATE", "UNIQUE", "TABLE", "INDEX", "VIEW"].contains($0) })
                if let existing = statements.firstIndex(where: { $0.name == name }) {
                    statements[existing].sql = sql
                } else {
                    statements.append((String(name), sql))
                }
            }
        }
        let database = try Database(path: ":memory:")
        try database.execute(statements.map { $0.sql + ";" }.joined(separator: "\n"))
        try database.execute("PRAGMA user_version = \(StoreSchemaHistory.shapes[index].version)")
        return database
    }

    /// A store of version 3 taken to `version` by the steps, as an upgrade to that version left it.
    private static func replayed(to version: Int) throws -> Database {
        let database = try store(ofShape: 0)
        for migration in StoreSchema.migrations where migration.version <= version {
            try migration.step(database)
            try database.execute("PRAGMA user_version = \(migration.version)")
        }
        return database
    }

    /// A new store, as a finished load leaves it (its tables, then the indexes and views).
    private static func fresh() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(StoreSchema.tables + StoreSchema.indexes + StoreSchema.views)
        return database
    }

    private static func isLastOfItsVersion(_ index: Int) -> Bool {
        let shapes = StoreSchemaHistory.shapes
        return index == shapes.count - 1 || shapes[index + 1].version > shapes[index].version
    }

    private static func version(of database: Database) throws -> Int {
        Int(try database.scalar("PRAGMA user_version").int ?? -1)
    }

    /// The real steps, the one to `version` replaced by one that does part of its work and fails.
    private static func steps(failingAt version: Int) -> [SchemaMigration] {
        StoreSchema.migrations.map { migration in
            migration.version != version ? migration : SchemaMigration(version: version) { database in
                try database.execute("CREATE TABLE half_done (x)")
                throw Interrupted()
            }
        }
    }

    // MARK: - Rows

    /// The `settings` row an upgrade adds to a store without `duplicate_copies` that holds
    /// samples: the copies of what it loaded, through its last day, were never counted.
    private static func copiesUnknownMarker(_ store: Database) throws -> String? {
        guard !(try store.hasTable("duplicate_copies")),
              let day = try store.scalar("SELECT date(max(local_day) * 86400, 'unixepoch') FROM sample_data").string else {
            return nil
        }
        return "key=\(StoreSchema.duplicatesUnknownThroughKey) value=\(day)"
    }

    /// Every row of `before` is in `store`, in the columns it had, and no other row but the
    /// marker. `sleep_sessions` without `recorded` (version 4 and earlier) is recreated empty:
    /// the analytics of an older version are recomputed.
    private static func assertKept(_ before: StoreRows, in store: Database, adding marker: String?, _ how: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        for (table, (columns, rows)) in before.tables {
            let after = try StoreRows.rows(of: table, columns: columns, in: store)
            if table == "sleep_sessions", !columns.contains("recorded") {
                XCTAssertEqual(after, [], "\(how): \(table)", file: file, line: line)
            } else if table == "settings", let marker {
                XCTAssertEqual(after, (rows + [marker]).sorted(), "\(how): \(table)", file: file, line: line)
            } else {
                XCTAssertEqual(after, rows, "\(how): \(table)", file: file, line: line)
            }
        }
    }
}
