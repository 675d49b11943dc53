import Foundation
import SQLite

/// Health Connect's priority lists (`health_data_category_priority_table`: per data category,
/// app row ids best first, joined by commas) as the pipeline's per-type source lists. Health
/// Connect merges by priority the summed records of the activity, sleep and wellness
/// categories and no others (docs/HEALTH_CONNECT.md, "How Health Connect adds up"); a category
/// with no list keeps the pipeline's own order, every app counting.
enum HealthConnectPriority {
    static let merged: Set<Int> = [DataCategory.activity, DataCategory.sleep, DataCategory.wellness]

    static func read(_ database: Database, tables: [RecordTable]) throws -> [String: [String]] {
        let apps = try SourceTable.appNames(in: database)
        var lists: [Int: [String]] = [:]
        for row in try database.rows("SELECT health_data_category, app_id_priority_order FROM health_data_category_priority_table") {
            guard let category = row[0].int.map(Int.init), merged.contains(category), let order = row[1].string else { continue }
            let names = order.split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.compactMap { apps[$0] }
            if !names.isEmpty { lists[category] = names }
        }
        var byType: [String: [String]] = [:]
        for table in tables {
            guard let names = lists[table.category] else { continue }
            for type in table.types { byType[type] = names }
        }
        return byType
    }
}
