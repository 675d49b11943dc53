import XCTest
import TestSupport
import HealthCore
@testable import HealthIngest

/// The fixed-position reader of the usual export date form must agree with the general
/// reader on every date it accepts, and leave everything else to it.
final class DateParserTests: XCTestCase {
    private func instant(_ text: String) -> Int64? {
        withSpan(text) { DateParser.parse($0)?.timestamp.microseconds }
    }

    func testFixedFormAgreesWithTheGeneralReader() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<5_000 {
            let sign = next(2) == 0 ? "+" : "-"
            let text = String(format: "%04d-%02d-%02d %02d:%02d:%02d %@%02d%02d", 1900 + next(250), 1 + next(12),
                              1 + next(31), next(24), next(60), next(61), sign, next(15), next(4) * 15)
            let (fixed, general) = withSpan(text) { (DateParser.fixedForm($0), DateParser.anyForm($0)) }
            let parsed = try XCTUnwrap(fixed, text)
            XCTAssertEqual(parsed.timestamp, general?.timestamp, text)
            XCTAssertEqual(parsed.offsetSeconds, general?.offsetSeconds, text)
        }
    }

    func testKnownInstants() {
        XCTAssertEqual(instant("1970-01-01 01:00:00 +0100"), 0)
        XCTAssertEqual(instant("2024-02-29 23:58:58 -0830"), (1_709_251_138 + 8 * 3600 + 1800) * 1_000_000)
        XCTAssertEqual(instant("2015-06-03 05:02:17 +0000"), instant("20150603050217+0000"))
        XCTAssertEqual(instant("2019-06-11 15:00:02 +0000"), instant("2019-06-11T15:00:02Z"))
    }

    /// A wrong byte at any position of the fixed form is either read the same way by the
    /// general reader or rejected by both.
    func testEveryCorruptedByteFallsBackToTheGeneralReader() {
        let good = Array("2024-01-10 11:30:00 +0100".utf8)
        for position in good.indices {
            for replacement in Array("x/0 9:+-".utf8) where replacement != good[position] {
                var bad = good
                bad[position] = replacement
                let text = String(decoding: bad, as: UTF8.self)
                let (fixed, general) = withSpan(text) { (DateParser.fixedForm($0), DateParser.anyForm($0)) }
                if let fixed {
                    XCTAssertEqual(fixed.timestamp, general?.timestamp, text)
                } else {
                    XCTAssertEqual(withSpan(text) { DateParser.parse($0)?.timestamp }, general?.timestamp, text)
                }
            }
        }
        XCTAssertNil(instant("2024-13-10 11:30:00 +0100"))
        XCTAssertNil(instant("2024-01-32 11:30:00 +0100"))
        XCTAssertNil(instant("2024-01-10 24:30:00 +0100"))
        XCTAssertNil(instant("2024-01-10 11:30:00 *0100"))
    }

    /// Found by fuzzing (`make fuzz TARGET=dates-numbers`): a time of day with a run of digits
    /// longer than an Int holds stopped the process with an arithmetic overflow.
    func testTimeOfDayWithEndlessDigitsIsRejected() throws {
        let long = String(repeating: "4", count: 40)
        XCTAssertNil(withSpan("\u{0E}\n" + long) { DateParser.timeOfDay($0) })
        XCTAssertNil(withSpan("9:\(long):00") { DateParser.timeOfDay($0) })
        XCTAssertNil(withSpan("\(long):30") { DateParser.timeOfDay($0) })
        XCTAssertEqual(try XCTUnwrap(withSpan("9:58:41.42 PM") { DateParser.timeOfDay($0) }), 21 * 3600 + 58 * 60 + 41.42, accuracy: 1e-6)
    }

    /// Found by fuzzing: the store's own date texts, read back by the exporters, trapped on a
    /// damaged value (an overflowing year or clock, a seconds field of ".") instead of reading
    /// as no date.
    func testStoreDateTextsOutOfRangeAreNoDates() {
        XCTAssertNil(Timestamp(iso8601: "8888882019-06-11T15:00:02Z"))
        XCTAssertNil(Timestamp(iso8601: "2019-06-11T9999999999999999:00:02Z"))
        XCTAssertNil(Timestamp(iso8601: "2019-06-11T15:00:.Z"))
        XCTAssertNil(CivilDate(iso: "9223372036854775807-01-01"))
        XCTAssertEqual(Timestamp(iso8601: "2024-01-10T10:30:00.5Z")?.microseconds, 1_704_882_600_500_000)
        XCTAssertEqual(CivilDate(iso: "2024-01-10"), CivilDate(year: 2024, month: 1, day: 10))
    }

    /// `CivilDate.iso8601` writes its ten bytes in place and `CivilDate(iso:)` reads that form
    /// from its bytes: both must agree with the general rule on every kind of date, and the
    /// reader must refuse what the general rule refuses.
    func testTheFixedFormOfADateAgreesWithTheGeneralRule() {
        for days in stride(from: CivilDate(year: 0, month: 1, day: 1).daysSinceEpoch,
                           through: CivilDate(year: 9999, month: 12, day: 31).daysSinceEpoch, by: 97) {
            let date = CivilDate(daysSinceEpoch: days)
            let expected = String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
            XCTAssertEqual(date.iso8601, expected)
            XCTAssertEqual(CivilDate(iso: expected), date, expected)
            XCTAssertEqual(CivilDate(iso: expected[...]), date, "a substring reads the same")
        }
        XCTAssertEqual(CivilDate(year: -1, month: 12, day: 31).iso8601, "00-1-12-31", "outside 0…9999: the general rule")
        for bad in ["2024-13-01", "2024-00-10", "2024-01-32", "2024-01-00", "20a4-01-01", "2024-01-1a", "2024/01/10", "2024-01-10 "] {
            XCTAssertNil(CivilDate(iso: bad), bad)
        }
        XCTAssertEqual(CivilDate(iso: "2024-1-5"), CivilDate(year: 2024, month: 1, day: 5), "other forms: the general rule")
    }
}

extension DateParserTests {
    /// `DateReader` (the known-record check's) reads only the time of
    /// day of a date whose day and zone are the last one's: it must give the parser's instant
    /// and offset for every date, in any order — fractions of a second, other zones, other
    /// forms, a leap second, the ends of the representable range, and bytes that are no date.
    func testTheDateReaderReadsDatesAsTheParserDoes() throws {
        var reader = DateReader()
        var check = KnownRecordCheck(prefilter: SkipperTestPrefilter(cutoffs: [:]))
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let days = ["2024-10-19", "2024-10-20", "2024-02-29", "0001-01-02", "9999-12-24", "2024-13-01", "2024-1a-01"]
        // ".1234Z": a fraction of a second and UTC, in the fixed form's 25 bytes.
        let zones = [" +0100", " +0200", " -0800", " +0000", " +1500", "+01:00", " +01:0x", ".1234Z", ".5000Z"]
        let times = ["09:36:57", "23:59:59", "00:00:00", "12:00:60", "24:00:00", "09:61:00", "9:36:570", "09:36:5x"]
        var checked = 0
        for _ in 0..<20_000 {
            var text = days[next(days.count)] + " " + times[next(times.count)]
            if next(8) == 0 { text += ".5" }
            text += zones[next(zones.count)]
            let expected = withSpan(text) { DateParser.parse($0) }
            let got = withSpan(text) { reader.parse($0) }
            XCTAssertEqual(got?.timestamp, expected?.timestamp, text)
            XCTAssertEqual(got?.offsetSeconds, expected?.offsetSeconds, text)
            XCTAssertEqual(withSpan(text) { check.instant($0) }, expected?.timestamp.microseconds, text)
            if expected != nil { checked += 1 }
        }
        XCTAssertGreaterThan(checked, 1_000)
    }
}
