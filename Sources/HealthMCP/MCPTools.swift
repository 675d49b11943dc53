import Foundation
import HealthCore
import HealthQL
import HealthStore

/// The server's tools. A tool that cannot answer (a mistake in a query, an unknown person, a
/// query stopped by the time limit) returns its message with `isError: true`, so the assistant
/// can read it and try again; a call the protocol cannot accept (no such tool, arguments of the
/// wrong shape) is a JSON-RPC error (-32602).
struct MCPTools {
    let server: MCPServer

    private static var person: [String: Any] { [
        "type": "string", "description": "A person's id in a household output folder (healthetl people list); leave out for the default store",
    ] }

    static var definitions: [[String: Any]] { [
        [
            "name": "query",
            "title": "Run a HealthQL query",
            "description": """
                Runs one HealthQL query (read-only, SQL-like) and returns its rows as a JSON array of objects, \
                exactly as `healthetl query --format json` prints them, then any notes. Examples: \
                SELECT week, sum(value) FROM steps WHERE date IN LAST 8 WEEKS GROUP BY week; \
                SELECT month, avg(value) FROM resting_heart_rate GROUP BY month; \
                SELECT date, asleep FROM sleep WHERE asleep < 360; \
                SELECT type, count(*), sum(duration) FROM workouts GROUP BY type. \
                Sources: any type (steps, heart_rate, …), sleep, workouts, activity, ecg, daily, weekly, monthly, yearly. \
                Read healthql://schema for every field.
                """,
            "inputSchema": [
                "type": "object",
                "properties": ["query": ["type": "string", "description": "The HealthQL statement"], "person": person],
                "required": ["query"],
                "additionalProperties": false,
            ],
            "annotations": ["readOnlyHint": true, "openWorldHint": false],
        ],
        [
            "name": "list_metrics",
            "title": "What is stored",
            "description": "Lists the types stored (alias to use in queries, unit, sample count, first and last day) and "
                + "the table sources (sleep, workouts, daily …) with their row counts and date ranges, and what today() means.",
            "inputSchema": ["type": "object", "properties": ["person": person], "additionalProperties": false],
            "annotations": ["readOnlyHint": true, "openWorldHint": false],
        ],
        [
            "name": "describe_person",
            "title": "Describe a person",
            "description": "The person's profile as exported (date of birth, biological sex, blood type …), the time zone "
                + "the store was imported in, when the export was made, the days with data, and the people in the output folder.",
            "inputSchema": ["type": "object", "properties": ["person": person], "additionalProperties": false],
            "annotations": ["readOnlyHint": true, "openWorldHint": false],
        ],
        [
            "name": "daily_summary",
            "title": "Daily summary for a period",
            "description": "The daily analytics (steps, distances, energy, exercise and stand minutes, sleep …, one row per local day) "
                + "from one day through another, both included, as `SELECT * FROM daily WHERE date BETWEEN from AND to`.",
            "inputSchema": [
                "type": "object",
                "properties": [
                    "from": ["type": "string", "description": "First day, YYYY-MM-DD"],
                    "to": ["type": "string", "description": "Last day, YYYY-MM-DD"],
                    "person": person,
                ],
                "required": ["from", "to"],
                "additionalProperties": false,
            ],
            "annotations": ["readOnlyHint": true, "openWorldHint": false],
        ],
    ] }

    func call(_ name: String, _ arguments: [String: Any]) throws -> [String: Any] {
        guard let definition = Self.definitions.first(where: { $0["name"] as? String == name }) else {
            let names = Self.definitions.compactMap { $0["name"] as? String }
            throw JSONRPC.Failure(.invalidParams, "Invalid params: unknown tool '\(name)' (tools: \(names.joined(separator: ", ")))")
        }
        try Self.validate(arguments, against: definition["inputSchema"] as? [String: Any] ?? [:], tool: name)
        let person = arguments["person"] as? String
        do {
            switch name {
            case "query": return try query(arguments["query"] as? String ?? "", person: person)
            case "list_metrics": return try listMetrics(person: person)
            case "describe_person": return try describePerson(person)
            default: return try dailySummary(from: arguments["from"] as? String ?? "", to: arguments["to"] as? String ?? "", person: person)
            }
        } catch let error as HealthQLError {
            return Self.failure(error.message + " (at \(error.position))")
        } catch let failure as JSONRPC.Failure {
            throw failure
        } catch {
            return Self.failure(String(describing: error))
        }
    }

    /// Required arguments present, each a string, nothing the schema does not name.
    private static func validate(_ arguments: [String: Any], against schema: [String: Any], tool: String) throws {
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for required in schema["required"] as? [String] ?? [] where arguments[required] == nil {
            throw JSONRPC.Failure(.invalidParams, "Invalid params: \(tool) needs \"\(required)\"")
        }
        for (key, value) in arguments {
            guard properties[key] != nil else {
                throw JSONRPC.Failure(.invalidParams, "Invalid params: \(tool) takes no \"\(key)\" (it takes \(properties.keys.sorted().joined(separator: ", ")))")
            }
            guard value is String else { throw JSONRPC.Failure(.invalidParams, "Invalid params: \"\(key)\" must be a string") }
        }
    }

    static func failure(_ message: String) -> [String: Any] {
        ["content": [["type": "text", "text": AnswerBounds.cut(message)]], "isError": true]
    }

    static func success(_ texts: [String]) -> [String: Any] {
        ["content": texts.map { ["type": "text", "text": $0] }, "isError": false]
    }

    // MARK: the tools

    private func query(_ text: String, person: String?) throws -> [String: Any] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = trimmed.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).first?.uppercased(),
           ["INSERT", "UPDATE", "DELETE", "DROP", "CREATE", "ALTER", "REPLACE", "ATTACH", "DETACH", "PRAGMA", "VACUUM"].contains(first) {
            return Self.failure("This server is read-only: HealthQL has SELECT only, and the store is opened read-only (\(first) refused)")
        }
        let result = try server.engine(person: person).run(text, started: server.requestStarted)
        let (json, shown) = AnswerBounds.json(result)
        let total = result.totalRows ?? result.rows.count
        let more = total > shown
            ? ["note: \(total - shown) more rows not shown (\(total) in all): aggregate them (GROUP BY day, week or month) or add LIMIT"]
            : []
        return Self.success([json] + more + result.notes.map { "note: " + $0 })
    }

    private func dailySummary(from: String, to: String, person: String?) throws -> [String: Any] {
        for (name, day) in [("from", from), ("to", to)] where CivilDate(iso: day)?.iso8601 != day {
            return Self.failure("\(name): '\(day)' is not a day (use YYYY-MM-DD)")
        }
        guard from <= to else { return Self.failure("from (\(from)) is after to (\(to))") }
        return try query("SELECT * FROM daily WHERE date BETWEEN '\(from)' AND '\(to)'", person: person)
    }

    private func listMetrics(person: String?) throws -> [String: Any] {
        let engine = try server.engine(person: person)
        let types: [[String: Any]] = try SchemaCatalog.storedTypes(engine.store).map { t in
            ["alias": t.alias, "identifier": t.identifier, "unit": t.unit ?? NSNull(), "samples": t.samples,
             "first_day": t.firstDay ?? NSNull(), "last_day": t.lastDay ?? NSNull(), "aggregation": t.aggregation]
        }
        var tables: [[String: Any]] = []
        for source in SchemaCatalog.tableSources() {
            // An older store may lack a table (ECG before schema 4): leave it out rather than fail the list.
            guard let result = try? engine.run("SELECT count(*), min(date), max(date) FROM \(source.name)"),
                  let row = result.rows.first else { continue }
            tables.append(["name": source.name, "summary": source.summary, "rows": row[0].int ?? 0,
                           "first": row[1].string ?? NSNull(), "last": row[2].string ?? NSNull()])
        }
        var answer: [String: Any] = ["types": types, "tables": tables, "time_zone": engine.store.timeZone.identifier]
        if let anchor = engine.dataAnchor { answer["today"] = anchor.today.iso8601; answer["today_means"] = anchor.reason }
        return Self.success([try Self.json(answer)])
    }

    private func describePerson(_ person: String?) throws -> [String: Any] {
        let engine = try server.engine(person: person)
        let profile = try HealthStore(database: engine.store.database).profile()
        var answer: [String: Any] = [
            "person": (person ?? server.configuration.defaultPerson).map { $0 as Any } ?? NSNull(),
            "time_zone": engine.store.timeZone.identifier,
            "people_in_folder": server.configuration.people(),
        ]
        if let profile {
            answer["date_of_birth"] = profile.dateOfBirth?.iso8601 ?? NSNull()
            answer["biological_sex"] = profile.biologicalSex ?? NSNull()
            answer["blood_type"] = profile.bloodType ?? NSNull()
            answer["fitzpatrick_skin_type"] = profile.fitzpatrickSkinType ?? NSNull()
            answer["locale"] = profile.locale ?? NSNull()
            answer["export_date"] = profile.exportDate ?? NSNull()
        }
        if let days = try? engine.run("SELECT count(*), min(date), max(date) FROM daily").rows.first {
            answer["days_with_data"] = days[0].int ?? 0
            answer["first_day"] = days[1].string ?? NSNull()
            answer["last_day"] = days[2].string ?? NSNull()
        }
        if let anchor = engine.dataAnchor { answer["today"] = anchor.today.iso8601; answer["today_means"] = anchor.reason }
        return Self.success([try Self.json(answer)])
    }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }
}
