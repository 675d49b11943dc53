import Foundation
import FuzzHarness
import HealthCore
// `@testable import` needs a build with -enable-testing: a debug build (the replayer) or
// fuzz/run.sh's (-DFUZZING). A plain `swift build -c release` of the package gets a stub `main`
// instead, so that the whole package builds in release.
#if DEBUG || FUZZING
@testable import HealthQL
import HealthStore
import SQLite

// HealthQL: the lexer, the parser (the IR printed back must parse to the same IR) and the
// planner, on an empty store with the real schema; a plan's SQL is run there too, so SQL the
// planner writes and SQLite rejects is a finding as well.
//
// Input: one query's text (UTF-8; invalid bytes are read as U+FFFD, as the REPL would).

/// One empty store for the whole run, in a private temporary file.
nonisolated(unsafe) let store: StoreContext = {
    let path = NSTemporaryDirectory() + "fuzz-healthql-\(getpid()).sqlite"
    do {
        try? FileManager.default.removeItem(atPath: path)
        let db = try Database(path: path, mode: .create)
        try db.execute(StoreSchema.tables)
        try db.execute(StoreSchema.indexes)
        try db.execute(StoreSchema.views)
        try db.execute("INSERT INTO settings VALUES ('analytics', 'schema=2;zone=Europe/Berlin;weekStart=0')")
        let context = try StoreContext(database: Database(path: path, mode: .readOnly))
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "fuzz-healthql-\(getpid()).sqlite") }
        return context
    } catch {
        fatalError("cannot create the empty store: \(error)")
    }
}()

/// A fixed "now", so that an input always plans the same way.
let now = Timestamp(microseconds: 1_732_000_000_000_000)

func fuzzHealthQL(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    _ = try? Lexer.tokens(text)
    guard let query = try? Parser.parse(text) else { return }
    let printed = query.description
    do {
        let again = try Parser.parse(printed)
        if again != query { FuzzHarness.disagree("'\(text)' prints as '\(printed)', which parses to another query") }
    } catch {
        FuzzHarness.disagree("'\(text)' prints as '\(printed)', which does not parse: \(error)")
    }
    guard let plan = try? Planner(store: store, now: now).plan(query) else { return }
    do {
        _ = try store.database.rows(plan.sql, plan.bindings)
    } catch {
        FuzzHarness.disagree("'\(text)' plans to SQL that SQLite rejects: \(error)\n\(plan.sql)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzHealthQL(UnsafeRawBufferPointer(start: data, count: size))
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
