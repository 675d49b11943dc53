import Foundation
import HealthQL

/// The schema as resources: the language and every source (`healthql://schema`), one source's
/// fields (`healthql://sources/NAME`), and the types in the default store (`healthql://types`).
struct MCPResources {
    let server: MCPServer

    static var list: [[String: Any]] {
        var resources: [[String: Any]] = [
            ["uri": "healthql://schema", "name": "schema", "title": "HealthQL: grammar and sources",
             "description": "The query language and every source with its fields", "mimeType": "text/markdown"],
            ["uri": "healthql://types", "name": "types", "title": "Types in the store",
             "description": "The HealthKit types stored, with units, sample counts and date ranges", "mimeType": "application/json"],
        ]
        for source in SchemaCatalog.tableSources() {
            resources.append(["uri": "healthql://sources/\(source.name)", "name": source.name, "title": "Source \(source.name)",
                              "description": source.summary, "mimeType": "text/markdown"])
        }
        return resources
    }

    func read(_ uri: String) throws -> [String: Any] {
        let (mime, text): (String, String)
        if uri == "healthql://schema" {
            (mime, text) = ("text/markdown", Self.schema)
        } else if uri == "healthql://types" {
            let types = try SchemaCatalog.storedTypes(server.engine(person: nil).store).map { t -> [String: Any] in
                ["alias": t.alias, "identifier": t.identifier, "unit": t.unit ?? NSNull(), "samples": t.samples,
                 "first_day": t.firstDay ?? NSNull(), "last_day": t.lastDay ?? NSNull(), "aggregation": t.aggregation]
            }
            (mime, text) = ("application/json", try MCPTools.json(["types": types]))
        } else if uri.hasPrefix("healthql://sources/"),
                  let source = try? SchemaCatalog.typeSource(String(uri.dropFirst("healthql://sources/".count))) {
            (mime, text) = ("text/markdown", Self.markdown(source))
        } else {
            throw JSONRPC.Failure(.resourceNotFound, "Resource not found: \(uri)")
        }
        return ["contents": [["uri": uri, "mimeType": mime, "text": text]]]
    }

    static func markdown(_ source: SourceDescription) -> String {
        var lines = ["## \(source.name)", "", source.summary + ".", "", "| field | kind | in SELECT * |", "|---|---|---|"]
        lines += source.fields.map { "| \($0.name) | \($0.kind) | \($0.selectedByStar ? "yes" : "") |" }
        return lines.joined(separator: "\n") + "\n"
    }

    static var schema: String {
        """
        # HealthQL

        `SELECT <items> FROM <source> [JOIN <source> ON …] [WHERE …] [GROUP BY …] [HAVING …] [ORDER BY … ASC|DESC] [LIMIT n]`

        - Sources: any HealthKit type by alias (`steps`, `heart_rate`, `resting_heart_rate`, `hrv`, `weight` …; \
        the tool list_metrics lists those stored), and the tables below.
        - A type's rows are samples (`date`, `value`, `unit`, `source` …). Aggregates of `value` over a cumulative \
        type (steps, distances, energy) read the source-merged series, one value per day, so `sum(value) … GROUP BY day` \
        equals the Health app's daily total. Filter whole days on `daily` (`SELECT date, steps FROM daily WHERE steps > 10000`), \
        not on samples.
        - Aggregates: `sum avg min max count p50 p90 p95 p99 stddev variance`. GROUP BY `hour day week month year`, `source`, or a field.
        - Conditions: `= != < <= > >=`, `AND OR NOT`, `IS [NOT] NULL`, `[NOT] IN (…)`, `[NOT] BETWEEN a AND b`, \
        `[NOT] LIKE 'pat%'`; names of values compare by name (`type = 'running'`, `value = 'deep'`).
        - Time: durations `30min 12h 7d 2w 3mo 1y`; `today() now() start_of_week() start_of_month() start_of_year()`; \
        dates `'2024-01-31'`; periods `date IN LAST 4 WEEKS`, `date IN THIS MONTH`, `date IN LAST MONTH`. \
        today() is the data's last complete day (not the calendar's), and a result that used it says so in a note.

        """ + SchemaCatalog.tableSources().map(markdown).joined(separator: "\n")
    }
}
