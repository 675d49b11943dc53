import Foundation
import FuzzHarness
import HealthCore
import HealthMCP
import HealthStore
import SQLite

// The MCP server (issue 45): JSON-RPC lines, one message a line, into `MCPServer.handle(line:)`
// over an empty store with the real schema. Oracle: no crash, no hang past the time limit, and
// every answer is one line holding one JSON object (never a broken or a second line), whatever
// the bytes; a tool answer stays within the answer's bounds (64 KiB of rows, 2,000 characters
// of a message, plus their notes).
//
// Input: lines of (mostly) JSON-RPC; a fresh server for each input (the handshake is state).

/// One empty store for the whole run, in a private temporary file.
let storePath: String = {
    let path = NSTemporaryDirectory() + "fuzz-mcp-\(getpid()).sqlite"
    do {
        try? FileManager.default.removeItem(atPath: path)
        let db = try Database(path: path, mode: .create)
        try db.execute(StoreSchema.tables)
        try db.execute(StoreSchema.indexes)
        try db.execute(StoreSchema.views)
        try db.execute(StoreSchema.vitalsTables)
        try db.execute("INSERT INTO settings VALUES ('analytics', 'schema=2;zone=Europe/Berlin;weekStart=0')")
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "fuzz-mcp-\(getpid()).sqlite") }
        return path
    } catch {
        fatalError("cannot create the empty store: \(error)")
    }
}()

/// An answer bigger than this is more than the bounds allow (rows, message and notes together).
let largestAnswer = 128 << 10

func fuzzMCP(_ input: UnsafeRawBufferPointer) {
    let server = MCPServer(configuration: .init(
        defaultPerson: nil, timeLimit: 1, now: "2024-11-19",
        storePath: { person in
            guard person == nil || person == "ann" else { throw HealthETLError.inputMissing("no person '\(person!)'") }
            return storePath
        },
        people: { ["ann"] }))
    for line in input.split(separator: 0x0A, omittingEmptySubsequences: true) {
        guard let answer = server.handle(line: Data(line)) else { continue }
        guard answer.last == 0x0A, !answer.dropLast().contains(0x0A) else {
            FuzzHarness.disagree("an answer is not one line: \(String(decoding: answer.prefix(300), as: UTF8.self))")
        }
        guard (try? JSONSerialization.jsonObject(with: answer.dropLast())) is [String: Any] else {
            FuzzHarness.disagree("an answer is not a JSON object: \(String(decoding: answer.prefix(300), as: UTF8.self))")
        }
        if answer.count > largestAnswer { FuzzHarness.disagree("an answer of \(answer.count) bytes, past the bounds") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzMCP(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main enum Main {
    static func main() { FuzzHarness.main(fuzzerTestOneInput) }
}
