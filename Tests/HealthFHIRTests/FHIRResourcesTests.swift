import Foundation
import XCTest
@testable import HealthCore
@testable import HealthFHIR
@testable import HealthStore

/// The FHIR resources' pieces that carry meaning: local times with their offset, ids that stay
/// the same run after run, the sex's code, the codings.
final class FHIRResourcesTests: XCTestCase {
    private func resources(_ zone: String) -> FHIRResources {
        FHIRResources(personID: "0123456789abcdef", calendar: LocalCalendar(identifier: zone)!)
    }

    func testDateTimesAreTheWallClockWithTheOffsetInForce() {
        var berlin = resources("Europe/Berlin")
        XCTAssertEqual(berlin.dateTime(Timestamp(iso8601: "2024-03-21T07:30:05Z")!), "2024-03-21T08:30:05+01:00")
        XCTAssertEqual(berlin.dateTime(Timestamp(iso8601: "2024-04-01T07:30:05Z")!), "2024-04-01T09:30:05+02:00", "summer time")
        var newYork = resources("America/New_York")
        XCTAssertEqual(newYork.dateTime(Timestamp(iso8601: "2024-01-01T03:00:00Z")!), "2023-12-31T22:00:00-05:00")
        var kolkata = resources("Asia/Kolkata")
        XCTAssertEqual(kolkata.dateTime(Timestamp(iso8601: "2024-01-01T00:00:00Z")!), "2024-01-01T05:30:00+05:30")
        // A day's period is the local day, whatever its length (23 hours on 31 March in Berlin).
        let day = berlin.day(CivilDate(iso: "2024-03-31")!, metric: "steps", value: 10, FHIRCode.daily[0].code)
        XCTAssertEqual(day["effectivePeriod"] as? [String: String],
                       ["start": "2024-03-31T00:00:00+01:00", "end": "2024-04-01T00:00:00+02:00"])
        XCTAssertEqual(day["id"] as? String, "0123456789abcdef-steps-2024-03-31")
    }

    /// Issue 56: before 1972 some zones' offsets have seconds (local mean times: Amsterdam's
    /// +00:19:32, Monrovia's -00:44:30, Kolkata's +05:21:10); FHIR's have none. The text must
    /// still name the instant (it was the wall clock with the offset's seconds cut: up to 59 s off).
    func testADateTimeNamesItsInstantWhenTheZonesOffsetHasSeconds() throws {
        let parser = ISO8601DateFormatter()
        var withSeconds = 0
        for zone in ["Europe/Amsterdam", "Africa/Monrovia", "Europe/Dublin", "Asia/Kolkata", "Europe/Brussels", "America/New_York",
                     "Europe/Berlin"] {
            for utc in ["1850-01-01T00:00:10Z", "1900-01-01T12:34:56Z", "1920-01-01T12:00:00Z", "1971-03-01T12:00:00Z",
                        "2024-03-21T07:30:05Z"] {
                var r = resources(zone)
                let instant = try XCTUnwrap(Timestamp(iso8601: utc))
                var calendar = try XCTUnwrap(LocalCalendar(identifier: zone))
                if calendar.offset(at: instant) % 60 != 0 { withSeconds += 1 }
                let written = r.dateTime(instant)
                XCTAssertNotNil(written.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$"#, options: .regularExpression), written)
                XCTAssertEqual(parser.date(from: written)?.timeIntervalSince1970, Double(instant.microseconds) / 1_000_000,
                               "\(zone) \(utc): \(written)")
            }
        }
        XCTAssertGreaterThan(withSeconds, 3, "the zone data has offsets with seconds to try")
    }

    func testIdsDeriveFromContentAndTheSexMapsToFHIRsCodes() {
        let profile = StoredProfile(dateOfBirth: CivilDate(iso: "1988-06-14"), biologicalSex: "HKBiologicalSexFemale")
        let id = FHIRResources.personID(profile, earliestIdentity: 42)
        XCTAssertEqual(id, FHIRResources.personID(profile, earliestIdentity: 42))
        XCTAssertEqual(id.count, 16)
        XCTAssertNotEqual(id, FHIRResources.personID(profile, earliestIdentity: 43), "another person's samples, another id")
        XCTAssertEqual(["HKBiologicalSexFemale", "HKBiologicalSexMale", "HKBiologicalSexOther", "HKBiologicalSexNotSet", nil]
            .map(FHIRResources.gender), ["female", "male", "other", "unknown", "unknown"])
        let r = resources("UTC")
        let watch = HealthStore.FHIRSource(name: "Ann’s Apple Watch", version: "10.4", model: "Watch")
        XCTAssertEqual(r.deviceID(watch), r.deviceID(watch))
        XCTAssertNotEqual(r.deviceID(watch), r.deviceID(.init(name: watch.name, version: "10.5", model: "Watch")))
    }

    func testCodingsAreLOINCWhereOneExistsAndHealthKitAlways() throws {
        let heart = FHIRResources.codeable(FHIRCode.heartRate)["coding"] as? [[String: String]]
        XCTAssertEqual(heart?.map { $0["system"] ?? "" }, [FHIRCode.loincSystem, FHIRCode.healthKitSystem])
        XCTAssertEqual(heart?.first?["code"], "8867-4")
        let vo2 = try XCTUnwrap(FHIRCode.samples["HKQuantityTypeIdentifierVO2Max"])
        XCTAssertEqual((FHIRResources.codeable(vo2)["coding"] as? [[String: String]])?.map { $0["system"] ?? "" },
                       [FHIRCode.healthKitSystem])
        // Oxygen saturation is stored as a fraction and written in percent.
        var r = resources("UTC")
        let spo2 = try XCTUnwrap(FHIRCode.samples["HKQuantityTypeIdentifierOxygenSaturation"])
        let o = r.sample(.init(identity: -1, type: "HKQuantityTypeIdentifierOxygenSaturation", start: 0, end: 0, value: 0.97,
                               source: .init(name: "Watch")), spo2)
        XCTAssertEqual((o["valueQuantity"] as? [String: Any])?["value"] as? Double ?? 0, 97, accuracy: 1e-9)
        XCTAssertEqual(o["effectiveDateTime"] as? String, "1970-01-01T00:00:00+00:00")
        XCTAssertEqual(o["id"] as? String, "0123456789abcdef-sffffffffffffffff")
    }
}

/// The JSON text the files hold: keys sorted, whole numbers without a fraction, escapes.
final class FHIRJSONTests: XCTestCase {
    private func text(_ value: Any) -> String {
        var out: [UInt8] = []
        FHIRJSON.write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testObjectsArraysNumbersAndStrings() {
        XCTAssertEqual(text(["b": 1, "a": [true, "x", 2.5] as [Any], "c": ["z": 3010.0, "y": NSNull()] as [String: Any]] as [String: Any]),
                       #"{"a":[true,"x",2.5],"b":1,"c":{"y":null,"z":3010}}"#)
        XCTAssertEqual(text("Ann’s \"Watch\"\\\n\t\u{1}"), #""Ann’s \"Watch\"\\\n\t\u0001""#)
        XCTAssertEqual(text([0.1, -0.000012, 1e20, Double.nan] as [Any]), "[0.1,-1.2e-05,1e+20,null]")
        // What it writes reads back as the same values.
        let object: [String: Any] = ["value": 76.0958230958231, "unit": "/min", "n": -3]
        let parsed = try? JSONSerialization.jsonObject(with: Data(text(object).utf8)) as? [String: Any]
        XCTAssertEqual(parsed?["value"] as? Double, 76.0958230958231)
        XCTAssertEqual(parsed?["unit"] as? String, "/min")
    }
}
