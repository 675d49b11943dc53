import Foundation
import HealthAnalytics
import HealthCore
@testable import HealthPipeline
import XCTest

/// A pipeline file's analytics settings, each checked: a mistake is a usage error (exit 64)
/// naming the key and the value, the edges of each range are accepted.
final class AnalyticsSettingsConfigTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    func config(_ change: (inout PipelineConfig) -> Void) -> PipelineConfig {
        var config = PipelineConfig()
        change(&config)
        return config
    }

    /// The usage message `config` is refused with, nil when it is accepted.
    func refusal(_ config: PipelineConfig) -> String? {
        do {
            _ = try AnalyticsSettings(config, timeZone: utc)
            return nil
        } catch HealthETLError.usage(let message) {
            return message
        } catch {
            return "not a usage error: \(error)"
        }
    }

    func testEachBadValueIsAUsageErrorNamingItsKey() {
        let bad: [(String, PipelineConfig)] = [
            ("localDays 'home'", config { $0.localDays = "home" }),
            ("weekStart 'sonntag'", config { $0.weekStart = "sonntag" }),
            ("maxHeartRate 99.0", config { $0.maxHeartRate = 99 }),
            ("maxHeartRate 251.0", config { $0.maxHeartRate = 251 }),
            ("maxHeartRate nan", config { $0.maxHeartRate = .nan }),
            ("validDayMinWatchHours -1.0", config { $0.validDayMinWatchHours = -1 }),
            ("validDayMinWatchHours 24.5", config { $0.validDayMinWatchHours = 24.5 }),
            ("validDayMinWatchHours inf", config { $0.validDayMinWatchHours = .infinity }),
        ]
        for (start, config) in bad {
            let message = refusal(config)
            XCTAssertTrue(message?.hasPrefix(start) == true, "\(start): \(message ?? "accepted")")
        }
    }

    /// The ends of each range and any case of a day name are accepted, and reach the settings.
    func testRangeEdgesAndDayNamesAreAccepted() throws {
        for rate in [100.0, 250] {
            XCTAssertEqual(try AnalyticsSettings(config { $0.maxHeartRate = rate }, timeZone: utc).maxHeartRate, rate)
        }
        for hours in [0.0, 24] {
            let settings = try AnalyticsSettings(config { $0.validDayMinWatchHours = hours }, timeZone: utc)
            XCTAssertEqual(settings.quality.validDayMinWatchHours, hours)
        }
        XCTAssertEqual(try AnalyticsSettings(config { $0.weekStart = "Sunday" }, timeZone: utc).weekStart, 6)
        XCTAssertEqual(try AnalyticsSettings(config { $0.weekStart = "" }, timeZone: utc).weekStart, 0, "unset: Monday")
    }

    /// `localDays` unset takes the caller's mode (the earlier imports', or one zone); set, it wins.
    func testLocalDaysUnsetTakesTheCallersMode() throws {
        XCTAssertEqual(try AnalyticsSettings(PipelineConfig(), timeZone: utc, localDays: .whereRecorded).localDays, .whereRecorded)
        XCTAssertEqual(try AnalyticsSettings(PipelineConfig(), timeZone: utc).localDays, .zone)
        let set = config { $0.localDays = "zone" }
        XCTAssertEqual(try AnalyticsSettings(set, timeZone: utc, localDays: .whereRecorded).localDays, .zone)
    }

    /// The other settings checked where the pipeline reads them: units, the CSV dialect, the zone.
    func testUnitsDialectAndZoneAreChecked() throws {
        XCTAssertThrowsError(try config { $0.units = "furlongs" }.unitSystem()) {
            XCTAssertEqual($0 as? HealthETLError, .usage("units 'furlongs' is neither metric nor imperial"))
        }
        XCTAssertThrowsError(try config { $0.csvDialect = "tsv" }.dialect()) {
            XCTAssertEqual($0 as? HealthETLError, .usage("csvDialect 'tsv' is neither rfc4180 nor excel-semicolon"))
        }
        XCTAssertThrowsError(try config { $0.timezone = "Mars/Olympus" }.configuredTimeZone(override: nil)) {
            guard case .usage(let message)? = $0 as? HealthETLError else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("'Mars/Olympus'"), message)
        }
    }
}
