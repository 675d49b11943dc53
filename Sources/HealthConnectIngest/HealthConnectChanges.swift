import Foundation
import HealthCore
import SQLite

/// Whether a Health Connect export only added records to the one the store was built from.
/// Each export holds everything, and an app may have changed a record since (Health Connect
/// keeps its `uuid` and gives it a later `last_modified_time`) or deleted one (its row is gone).
/// The store holds what the last export said; a nightly run may only add to it when nothing it
/// holds changed. So each published store keeps, per table, the newest `last_modified_time`
/// the export had, its rows and a sum of their (`uuid`, `last_modified_time`) hashes; the next
/// export's rows modified no later than that must be exactly those rows — same count, same
/// sum — or something the store holds was edited or deleted, and the run rebuilds from the new
/// export (which holds everything), so that a nightly run always equals `--full`.
struct HealthConnectChanges {
    /// Per table: the newest modification, the rows, the sum of their hashes.
    struct TableState: Codable, Equatable {
        var newest: Int64
        var rows: Int64
        var sum: UInt64
    }

    let database: Database
    let tables: [RecordTable]

    /// This export's state, as the store keeps it (JSON, tables in name order).
    func state() throws -> String {
        var states: [String: TableState] = [:]
        for table in tables {
            let newest = try database.scalar("SELECT max(last_modified_time) FROM \"\(table.name)\"").int ?? 0
            states[table.name] = try tally(table.name, upTo: newest)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(states), as: UTF8.self)
    }

    /// Why this export is not the earlier one plus new records (nil: it is).
    func rewritten(since earlier: String) throws -> String? {
        guard let states = try? JSONDecoder().decode([String: TableState].self, from: Data(earlier.utf8)) else {
            return "the store does not say which Health Connect export it was built from"
        }
        var changed: [String] = []
        for (name, before) in states.sorted(by: { $0.key < $1.key }) {
            guard tables.contains(where: { $0.name == name }) else {
                if before.rows > 0 { changed.append("\(name): all \(before.rows) records gone") }
                continue
            }
            let now = try tally(name, upTo: before.newest)
            if now.rows != before.rows {
                changed.append("\(name): \(before.rows - now.rows) of \(before.rows) records changed or deleted")
            } else if now.sum != before.sum {
                changed.append("\(name): records changed")
            }
        }
        guard !changed.isEmpty else { return nil }
        return "records of the last Health Connect export were changed or deleted since (" + changed.joined(separator: "; ")
            + "): the store is rebuilt from this export"
    }

    private func tally(_ table: String, upTo newest: Int64) throws -> TableState {
        let statement = try database.prepare(
            "SELECT hex(uuid), last_modified_time FROM \"\(table)\" WHERE last_modified_time <= ? OR last_modified_time IS NULL")
        statement.bind(1, newest)
        var state = TableState(newest: newest, rows: 0, sum: 0)
        while try statement.step() {
            var hasher = StableHasher()
            statement.withText(0) { hasher.combine(bytes: $0.bindMemory(to: UInt8.self)) }
            hasher.combine(String(statement.int64(1)))
            state.rows += 1
            state.sum &+= hasher.value
        }
        return state
    }
}
