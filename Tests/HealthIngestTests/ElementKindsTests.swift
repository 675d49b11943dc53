import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// One small export holding every element kind of docs/FORMAT.md, read through the real parser.
final class ElementKindsTests: XCTestCase {
    func testEveryElementKindIsRead() throws {
        let dir = try temporaryFolder(self)
        let path = try write(ExportXML.everyElementKind, to: "export.xml", in: dir)
        let (batches, summary) = try readBatches(path)
        XCTAssertTrue(summary.removedDoctype)
        let records = batches.flatMap(\.records)
        XCTAssertEqual(records.count, 3, "correlation children are not top-level records")

        let hrv = try XCTUnwrap(records.first)
        XCTAssertEqual(hrv.type, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
        XCTAssertEqual(hrv.source.name, "Anna’s Apple Watch")
        XCTAssertEqual(hrv.source.device, "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.3")
        XCTAssertEqual(hrv.source.deviceModel, "Watch")
        XCTAssertEqual(hrv.value, "41.5")
        XCTAssertEqual(hrv.startDate?.iso8601, "2024-02-29T22:58:58Z")
        XCTAssertEqual(hrv.metadata, [MetadataEntry(key: "HKAlgorithmVersion", value: "1")])
        // Beat times are times of day in the export's offset; the second crosses midnight.
        XCTAssertEqual(hrv.heartbeats.map(\.bpm), [63, 64])
        XCTAssertEqual(hrv.heartbeats.map { $0.time?.iso8601 }, ["2024-02-29T22:58:59.25Z", "2024-02-29T23:00:00.5Z"])

        let correlation = try XCTUnwrap(batches.flatMap(\.correlations).first)
        XCTAssertEqual(correlation.type, "HKCorrelationTypeIdentifierBloodPressure")
        XCTAssertEqual(correlation.members.map(\.value), ["121", "79"])
        XCTAssertEqual(correlation.metadata.first?.key, "HKWasUserEntered")

        let workout = try XCTUnwrap(batches.flatMap(\.workouts).first)
        XCTAssertEqual(workout.activityType, "HKWorkoutActivityTypeRunning")
        XCTAssertEqual(workout.duration, Measurement(value: 30.5, unit: "min"))
        XCTAssertEqual(workout.totalDistance, Measurement(value: 3.1, unit: "mi"))
        XCTAssertEqual(workout.totalEnergyBurned, Measurement(value: 1200, unit: "kJ"))
        XCTAssertEqual(workout.events.map(\.type), ["HKWorkoutEventTypePause", "HKWorkoutEventTypeResume"])
        XCTAssertEqual(workout.statistics.count, 2)
        XCTAssertEqual(workout.statistics[1].average, 151)
        XCTAssertEqual(workout.activities.count, 1)
        XCTAssertEqual(workout.activities[0].events.count, 1)
        XCTAssertEqual(workout.activities[0].statistics.first?.sum, 4100)
        XCTAssertEqual(workout.routes.count, 2)
        XCTAssertEqual(workout.routes[0].filePath, "/workout-routes/route_2024-02-20_7.00am.gpx")
        XCTAssertEqual(workout.routes[1].points.count, 2)
        XCTAssertEqual(workout.routes[1].points[1].speed, 3.0)
        XCTAssertEqual(summary.routeFilesMissing, ["/workout-routes/route_2024-02-20_7.00am.gpx"])

        let activity = try XCTUnwrap(batches.flatMap(\.activitySummaries).first)
        XCTAssertEqual(activity.date, CivilDate(year: 2024, month: 2, day: 20))
        XCTAssertEqual(activity.activeEnergyBurned, 612.5)
        XCTAssertEqual(activity.appleStandHoursGoal, 12)

        let profile = try XCTUnwrap(batches.compactMap(\.profile).first)
        XCTAssertEqual(profile.characteristics["HKCharacteristicTypeIdentifierBloodType"], "HKBloodTypeONegative")
        XCTAssertEqual(batches.compactMap(\.exportDate).first?.iso8601, "2024-03-01T09:00:00Z")
        XCTAssertEqual(batches.compactMap(\.locale).first, "en_US")

        let clinical = try XCTUnwrap(batches.flatMap(\.clinicalRecords).first)
        XCTAssertEqual(clinical.identifier, "abc-1")
        XCTAssertEqual(clinical.fhirVersion, "4.0.1")
        let audiogram = try XCTUnwrap(batches.flatMap(\.audiograms).first)
        XCTAssertEqual(audiogram.points.map(\.frequencyHz), [1000, 4000])
        XCTAssertEqual(audiogram.points.map(\.rightEarDBHL), [20, 30])
        let vision = try XCTUnwrap(batches.flatMap(\.visionPrescriptions).first)
        XCTAssertEqual(vision.brand, "Zeiss")
        XCTAssertEqual(vision.rightEye.first { $0.key == "axis" }?.value, "90")

        let unknown = batches.reduce(into: [String: Int]()) { $0.merge($1.unknownElements, uniquingKeysWith: +) }
        XCTAssertEqual(unknown, ["FutureElement": 1])
    }
}
