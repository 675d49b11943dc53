import Foundation
import HealthCore

/// A pipeline definition (`pipelines/default.json`, `pipelines/nightly.json`): SPEC "Pipelines".
public struct PipelineConfig: Codable, Sendable, Equatable {
    public var timezone: String?
    public var weekStart: String?
    public var outputs: [String]?
    public var sourcePriority: [String]?
    public var anchorOverlapSeconds: Double?
    public var sleepDayStartHour: Int?
    public var heartbeatMaxGapMinutes: Double?
    public var out: String?
    /// Records loaded between two checkpoint commits (default 250,000: a second or two of work;
    /// each commit costs a write-ahead-log checkpoint).
    public var checkpointRecords: Int?

    public init() {}

    /// What a pipeline without `outputs` writes.
    public static let allOutputs = ["sqlite", "csv", "parquet"]

    public static func load(_ path: String) throws -> PipelineConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HealthETLError.inputMissing("\(path): pipeline file not found")
        }
        do {
            return try JSONDecoder().decode(PipelineConfig.self, from: data)
        } catch {
            throw HealthETLError.usage("\(path): not a valid pipeline definition (\(error))")
        }
    }

    /// The zone for local days: the option, else the pipeline's, else the machine's.
    public func resolvedTimeZone(override: String?) throws -> TimeZone {
        let name = override ?? timezone
        guard let name, !name.isEmpty else { return TimeZone.current }
        guard let zone = TimeZone(identifier: name) else {
            throw HealthETLError.usage("unknown time zone '\(name)' (expected an IANA name such as Europe/Berlin)")
        }
        return zone
    }
}
