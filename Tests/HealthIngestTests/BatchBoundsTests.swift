import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// A batch's memory is bounded by what it holds, not by how many top-level elements: a
/// workout's inline route points and an HRV record's beats count as items, so a run of
/// workouts with routes (872 of them, with 30 k points, at the end of a four-year export)
/// is not handed on as one batch (issue 35: memory flat).
final class BatchBoundsTests: XCTestCase {
    static let batchSize = 40

    /// Workouts with 20 route points each, HRV records with 25 beats each, plain records.
    static func export(workouts: Int, hrvRecords: Int, plainRecords: Int) -> String {
        func stamp(_ minute: Int) -> String {
            String(format: "2024-02-20 %02d:%02d:00 +0100", 6 + minute / 60, minute % 60)
        }
        var elements: [String] = []
        for i in 0..<plainRecords {
            elements.append(ExportXML.record("StepCount", source: "Anna’s iPhone", unit: "count", value: "\(i + 10)",
                                             start: stamp(i), end: stamp(i + 1), created: stamp(i)))
        }
        for i in 0..<hrvRecords {
            let beats = (0..<25).map { beat in
                "<InstantaneousBeatsPerMinute bpm=\"\(60 + beat)\" time=\"\(6 + i / 60):\(String(format: "%02d", i % 60)):\(String(format: "%02d", beat)).00 AM\"/>"
            }
            elements.append(ExportXML.record("HeartRateVariabilitySDNN", source: "Anna’s Apple Watch", unit: "ms", value: "4\(i)",
                                             start: stamp(i), end: stamp(i + 1), created: stamp(i),
                                             children: (["<HeartRateVariabilityMetadataList>"] + beats
                                                        + ["</HeartRateVariabilityMetadataList>"]).joined(separator: "\n")))
        }
        for i in 0..<workouts {
            var workout = """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="20" durationUnit="min" sourceName="Apple Watch" startDate="\(stamp(30 * i))" endDate="\(stamp(30 * i + 20))">
              <WorkoutRoute sourceName="iPhone" startDate="\(stamp(30 * i))" endDate="\(stamp(30 * i + 20))">

            """
            for point in 0..<20 {
                workout += "   <Location date=\"\(stamp(30 * i + point))\" latitude=\"52.5\(point)\" longitude=\"13.4\(i)\"/>\n"
            }
            elements.append(workout + "  </WorkoutRoute>\n </Workout>")
        }
        return ExportXML.document(elements, exportDate: "2024-03-01 10:00:00 +0100")
    }

    /// Items, route points and beats of a batch.
    static func weight(_ batch: IngestBatch) -> Int {
        batch.itemCount + batch.records.reduce(0) { $0 + $1.heartbeats.count }
            + batch.workouts.reduce(0) { $0 + $1.routes.reduce(0) { $0 + $1.points.count } }
    }

    func testRoutePointsAndBeatsCountTowardsABatchsSize() throws {
        let dir = try temporaryFolder(self)
        let path = try write(Self.export(workouts: 6, hrvRecords: 4, plainRecords: 12), to: "export.xml", in: dir)
        let box = BatchBox()
        _ = try ExportReader(source: ExportSource(path: path), batchSize: Self.batchSize).run { box.batches.append($0) }
        let batches = box.batches
        // Everything arrives, whole.
        XCTAssertEqual(batches.flatMap(\.records).count, 16)
        XCTAssertEqual(batches.flatMap(\.records).map(\.heartbeats.count).filter { $0 > 0 }, [25, 25, 25, 25])
        XCTAssertEqual(batches.flatMap(\.workouts).map { $0.routes.first?.points.count }, Array(repeating: 20, count: 6))
        // A batch is handed on once it holds `batchSize`: it may go past by its last element
        // only (an HRV record and its 25 beats, 26; a workout and its 20 points, 21).
        let largestElement = 26
        for (i, batch) in batches.enumerated() {
            XCTAssertLessThan(Self.weight(batch), Self.batchSize + largestElement, "batch \(i) holds \(Self.weight(batch))")
        }
        XCTAssertGreaterThanOrEqual(batches.count, 5, "the beats and the points made batches of their own")
    }
}
