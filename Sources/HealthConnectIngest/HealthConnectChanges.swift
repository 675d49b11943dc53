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
///
/// The same state holds the `uuid`s of each table's first records (`sampleSize` a table). The same
/// person's later export holds them still (an export holds everything, and nobody deletes all of
/// their oldest records one by one); an export that holds none of them is another person's, or a
/// phone that started over, and is refused like another person's Apple export.
struct HealthConnectChanges {
    static let sampleSize = 16

    /// What the store keeps of its export.
    struct State: Codable, Equatable {
        var tables: [String: TableState]
        /// `table:uuid` (hex) of each table's first records.
        var sample: [String]
    }

    /// Per table: the newest modification, the rows, the sum of their hashes.
    struct TableState: Codable, Equatable {
        var newest: Int64
        var rows: Int64
        var sum: UInt64
    }

    let database: Database
    let tables: [RecordTable]

    /// This export's state, as the store keeps it (JSON, keys sorted).
    func state() throws -> String {
        var state = State(tables: [:], sample: [])
        for table in tables {
            let newest = try database.scalar("SELECT max(last_modified_time) FROM \"\(table.name)\"").int ?? 0
            state.tables[table.name] = try tally(table.name, upTo: newest)
            state.sample += try database.rows("SELECT hex(uuid) FROM \"\(table.name)\" ORDER BY row_id LIMIT \(Self.sampleSize)")
                .compactMap { $0[0].string.map { "\(table.name):\($0)" } }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    /// How this export relates to the earlier one.
    func compare(with earlier: String) throws -> InputComparison {
        guard let state = try? JSONDecoder().decode(State.self, from: Data(earlier.utf8)) else {
            return .rewrites("the store does not say which Health Connect export it was built from: it is rebuilt from this one")
        }
        if !state.sample.isEmpty, try !state.sample.contains(where: holds) {
            return .anotherPerson("none of the \(state.sample.count) first records of the Health Connect export this store "
                + "was built from is in this export (an export holds every record): another person's, or a phone that started over")
        }
        return try rewritten(state.tables).map(InputComparison.rewrites) ?? .adds
    }

    /// Whether this export holds the record `table:uuid`.
    private func holds(_ entry: String) throws -> Bool {
        guard let colon = entry.firstIndex(of: ":") else { return false }
        let (table, uuid) = (String(entry[..<colon]), String(entry[entry.index(after: colon)...]))
        guard tables.contains(where: { $0.name == table }), uuid.allSatisfy(\.isHexDigit) else { return false }
        return try database.scalar("SELECT count(*) FROM \"\(table)\" WHERE uuid = x'\(uuid)'").int ?? 0 > 0
    }

    /// Why this export is not the earlier one plus new records (nil: it is).
    private func rewritten(_ states: [String: TableState]) throws -> String? {
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
