import Foundation

/// A Health Connect export for a test, written by `tools/health_connect/generate.py` from
/// Android's own schema (never a simplified one): apps, devices, priority lists and records as
/// the scenario format of that tool describes them (column names as stored).
package struct HealthConnectScenario {
    package var apps: [(package: String, name: String)] = []
    package var devices: [[String: Any]] = []
    package var priority: [String: [String]] = [:]
    package var records: [[String: Any]] = []

    package init() {}

    package static let generator = TestPaths.packageRoot.appendingPathComponent("tools/health_connect/generate.py").path
    package static let aggregator = TestPaths.packageRoot.appendingPathComponent("tools/health_connect/aggregate.py").path

    package mutating func add(_ table: String, app: String, _ fields: [String: Any]) {
        records.append(["table": table, "app": app].merging(fields) { a, _ in a })
    }

    /// Writes the export to `path` (a `.zip` like the phone's, or the bare database).
    package func write(to path: String) throws {
        let scenario: [String: Any] = [
            "apps": apps.map { ["package": $0.package, "name": $0.name] }, "devices": devices,
            "priority": priority, "records": records,
        ]
        let json = path + ".scenario.json"
        try JSONSerialization.data(withJSONObject: scenario, options: [.sortedKeys]).write(to: URL(fileURLWithPath: json))
        let result = try runProcess(try TestTools.python(), [Self.generator, json, path])
        guard result.status == 0 else { throw TestFailure("generate.py failed: \(result.stderr)") }
    }

    /// Health Connect's own daily totals of a database (the tests' oracle, `aggregate.py`).
    package static func dailyTotals(of database: String) throws -> [String: [String: Any]] {
        let result = try runProcess(try TestTools.python(), [aggregator, database, "--json"])
        guard result.status == 0 else { throw TestFailure("aggregate.py failed: \(result.stderr)") }
        return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]]) ?? [:]
    }
}

/// A test's setup that failed, with its reason.
package struct TestFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
