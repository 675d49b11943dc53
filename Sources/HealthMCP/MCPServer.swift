import Foundation
import HealthQL

/// `healthetl mcp`: a Model Context Protocol server on stdio, so an AI assistant can ask a
/// store questions and get the same rows `healthetl query --format json` prints. Read-only: the
/// stores are opened read-only (SQLite's read-only open and `query_only`), and HealthQL has no
/// statement that writes. Every bad line is answered with a JSON-RPC error and the server
/// reads the next one; only the end of input stops it.
package final class MCPServer {
    package struct Configuration {
        /// The person whose store tools read when they name none (nil: the output folder's own store).
        package var defaultPerson: String?
        /// Seconds a query may run; longer ones are stopped and reported as a tool error.
        package var timeLimit: Double
        /// `--now` (relative dates count from it), or nil: from the data's last complete day.
        package var now: String?
        /// The store of a person (nil: the default store); throws a message for someone unknown.
        package var storePath: (String?) throws -> String
        /// Everyone with a folder in the output folder.
        package var people: () -> [String]

        package init(defaultPerson: String?, timeLimit: Double, now: String?,
                    storePath: @escaping (String?) throws -> String, people: @escaping () -> [String]) {
            self.defaultPerson = defaultPerson; self.timeLimit = timeLimit; self.now = now
            self.storePath = storePath; self.people = people
        }
    }

    /// Protocol revisions this server speaks, newest first: a client asking for one gets it,
    /// any other gets the newest (the client then decides whether it can go on).
    package static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    package static let serverName = "healthetl"

    let configuration: Configuration
    private var engines: [String: QueryEngine] = [:]
    private(set) var negotiatedVersion: String?

    package init(configuration: Configuration) { self.configuration = configuration }

    /// The longest request line read (a query's text is at most 1 MiB, escaped in JSON).
    package static let maximumRequestBytes = 4 << 20

    /// When the request being answered was read: a query's time limit counts from there.
    private(set) var requestStarted = QueryEngine.monotonicNow()

    /// Reads requests from standard input until it ends, answering each on standard output.
    package func serve() {
        var lines = RequestLines(maximum: Self.maximumRequestBytes)
        while let line = lines.next() {
            let answer: Data?
            switch line {
            case .request(let data): answer = handle(line: data)
            case .tooLong(let bytes):
                answer = JSONRPC.encode(JSONRPC.error(id: nil, JSONRPC.Failure(
                    .invalidRequest, "Invalid request: \(bytes) bytes, more than the \(Self.maximumRequestBytes >> 20) MiB a request may have")))
            }
            if let answer { FileHandle.standardOutput.write(answer) }
        }
    }

    /// The answer to one line (nil for a notification or a blank line), newline included.
    package func handle(line: Data) -> Data? {
        requestStarted = QueryEngine.monotonicNow()
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        switch JSONRPC.decode(line) {
        case .invalid(let id, let failure):
            return JSONRPC.encode(JSONRPC.error(id: id, failure))
        case .notification:
            // notifications/initialized, notifications/cancelled …: nothing to answer (requests run to completion in order).
            return nil
        case .request(let id, let method, let params):
            do {
                return JSONRPC.encode(JSONRPC.result(id: id, try dispatch(method, params)))
            } catch let failure as JSONRPC.Failure {
                return JSONRPC.encode(JSONRPC.error(id: id, failure))
            } catch {
                return JSONRPC.encode(JSONRPC.error(id: id, JSONRPC.Failure(.internalError, "Internal error: \(error)")))
            }
        }
    }

    private func dispatch(_ method: String, _ params: [String: Any]) throws -> [String: Any] {
        switch method {
        case "initialize": return try initialize(params)
        case "ping": return [:]
        case "tools/list": return ["tools": MCPTools.definitions]
        case "tools/call":
            guard let name = params["name"] as? String else { throw JSONRPC.Failure(.invalidParams, "Invalid params: tools/call needs \"name\"") }
            let arguments = params["arguments"] ?? [String: Any]()
            guard let dictionary = arguments as? [String: Any] else {
                throw JSONRPC.Failure(.invalidParams, "Invalid params: \"arguments\" must be an object")
            }
            return try MCPTools(server: self).call(name, dictionary)
        case "resources/list": return ["resources": MCPResources.list]
        case "resources/templates/list": return ["resourceTemplates": [Any]()]
        case "resources/read":
            guard let uri = params["uri"] as? String else { throw JSONRPC.Failure(.invalidParams, "Invalid params: resources/read needs \"uri\"") }
            return try MCPResources(server: self).read(uri)
        default:
            let known = ["initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read"]
            throw JSONRPC.Failure(.methodNotFound, "Method not found: \(method) (this server answers \(known.joined(separator: ", ")))")
        }
    }

    private func initialize(_ params: [String: Any]) throws -> [String: Any] {
        guard let requested = params["protocolVersion"] as? String else {
            throw JSONRPC.Failure(.invalidParams, "Invalid params: initialize needs \"protocolVersion\"")
        }
        let version = Self.protocolVersions.contains(requested) ? requested : Self.protocolVersions[0]
        negotiatedVersion = version
        return [
            "protocolVersion": version,
            "capabilities": ["tools": ["listChanged": false], "resources": ["subscribe": false, "listChanged": false]],
            "serverInfo": ["name": Self.serverName, "title": "HealthETL (Apple Health store, read-only)", "version": "1.0"],
            "instructions": """
                Answers questions about one person's Apple Health data from a HealthETL store, read-only. \
                Use list_metrics first (what is stored, units, date ranges), then query with HealthQL \
                (SQL-like: SELECT day, sum(value) FROM steps WHERE date IN LAST 4 WEEKS GROUP BY day). \
                Totals of steps, distances and energy are source-merged (no double counting of phone and watch), \
                as the Health app shows them. Read the resource healthql://schema for the grammar and every source's fields. \
                Relative dates (today(), LAST 4 WEEKS) count from the data's last complete day, not today's date.
                """,
        ]
    }

    /// Opens the default store now, so a wrong folder or `--now` fails at start, not at the first question.
    package func openDefaultStore() throws {
        _ = try engine(person: nil)
    }

    /// The engine of a person's store (nil: the default person), opened read-only once.
    func engine(person: String?) throws -> QueryEngine {
        let path = try configuration.storePath(person ?? configuration.defaultPerson)
        if let engine = engines[path] { return engine }
        let engine = try QueryEngine(storePath: path)
        engine.timeLimit = configuration.timeLimit
        engine.rowLimit = AnswerBounds.rows
        if let now = configuration.now { try engine.setNow(now) }
        engines[path] = engine
        return engine
    }
}
