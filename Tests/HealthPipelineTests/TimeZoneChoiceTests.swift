import Foundation
import HealthCore
@testable import HealthPipeline
import XCTest

/// Which zone a run's local days use, and the reason the summary gives.
final class TimeZoneChoiceTests: XCTestCase {
    /// The option wins over the setting, each named as the reason; the name is kept as the
    /// user wrote it (Foundation on Linux calls UTC "GMT"); nothing set is no choice.
    func testTheOptionBeatsTheSettingAndKeepsItsName() throws {
        var config = PipelineConfig()
        config.timezone = "Europe/Berlin"
        let setting = try XCTUnwrap(config.configuredTimeZone(override: nil))
        XCTAssertEqual(setting.zone.identifier, "Europe/Berlin")
        XCTAssertEqual(setting.reason, "the timezone setting")
        let option = try XCTUnwrap(config.configuredTimeZone(override: "UTC"))
        XCTAssertEqual(option.name, "UTC")
        XCTAssertEqual(option.reason, "the --timezone option")
        XCTAssertEqual(option.zone.secondsFromGMT(), 0)
        XCTAssertNil(try PipelineConfig().configuredTimeZone(override: nil))
        config.timezone = ""
        XCTAssertNil(try config.configuredTimeZone(override: nil), "an empty setting is unset")
    }

    /// A configured zone means one zone; otherwise the earlier imports' mode, else the timeline.
    func testLocalDaysFollowWhetherAZoneWasConfigured() {
        var choice = TimeZoneChoice(zone: TimeZone(identifier: "Asia/Seoul")!, reason: "test")
        XCTAssertEqual(choice.localDays(configured: true), .zone)
        XCTAssertEqual(choice.localDays(configured: false), .whereRecorded)
        choice.earlierLocalDays = .zone
        XCTAssertEqual(choice.localDays(configured: false), .zone)
        choice.earlierLocalDays = .whereRecorded
        XCTAssertEqual(choice.localDays(configured: true), .zone)
    }

    /// The region of a locale is its last part when that is two capitals, else none.
    func testTheRegionOfALocale() {
        XCTAssertEqual(TimeZoneChoice.region(of: "ko-Kore_KR"), "KR")
        XCTAssertEqual(TimeZoneChoice.region(of: "en_US"), "US")
        XCTAssertNil(TimeZoneChoice.region(of: "de"))
        XCTAssertNil(TimeZoneChoice.region(of: "zh_Hant"))
        XCTAssertNil(TimeZoneChoice.region(of: nil))
    }

    /// The ExportDate's offset picks the region's main zone with that offset at that date:
    /// −04:00 in July and −05:00 in January are New York (daylight saving time counted), −04:00
    /// in January is not; +09:00 in Korea is Seoul; an offset the region never has is none.
    func testTheOffsetPicksTheRegionsZoneAtThatDate() {
        let july = Timestamp(seconds: 1_720_000_000)      // 2024-07-03
        let january = Timestamp(seconds: 1_705_000_000)   // 2024-01-11
        XCTAssertEqual(TimeZoneChoice.zone(withOffset: -4 * 3600, at: july, region: "US")?.identifier, "America/New_York")
        XCTAssertEqual(TimeZoneChoice.zone(withOffset: -5 * 3600, at: january, region: "US")?.identifier, "America/New_York")
        XCTAssertNotEqual(TimeZoneChoice.zone(withOffset: -4 * 3600, at: january, region: "US")?.identifier, "America/New_York")
        XCTAssertEqual(TimeZoneChoice.zone(withOffset: 9 * 3600, at: july, region: "KR")?.identifier, "Asia/Seoul")
        XCTAssertNil(TimeZoneChoice.zone(withOffset: 3 * 3600, at: july, region: "KR"))
        XCTAssertNil(TimeZoneChoice.zone(withOffset: 0, at: july, region: nil))
    }

    func testOffsetsPrintAsInTheExportDate() {
        XCTAssertEqual(TimeZoneChoice.offsetText(9 * 3600), "+0900")
        XCTAssertEqual(TimeZoneChoice.offsetText(-(3 * 3600 + 30 * 60)), "-0330")
        XCTAssertEqual(TimeZoneChoice.offsetText(0), "+0000")
        XCTAssertEqual(TimeZoneChoice.offsetText(5 * 3600 + 45 * 60), "+0545")
    }
}
