import Foundation
import XCTest
@testable import HealthAggregate
@testable import HealthCore
import SQLite
import TestSupport

/// Issue 31: HRV from beat lists equals neurokit2's `hrv_time` within 1e-6 ms, on synthetic lists
/// written into an export in three clocks (12-hour with a narrow no-break space, 24-hour with a
/// decimal comma, across midnight), imported by the binary and read from `hrv_measurements`.
/// neurokit2 runs in `Scripts/hrv_neurokit.py` under the tests' Python (TestTools.python; tooling only).
final class HRVNeurokitTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct Mix { var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9; z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    /// Beat offsets in ms (10 ms steps, as the export prints them): a slow wave and noise,
    /// every interval 600…1200 ms and within the bpm agreement, so every interval is kept.
    static func offsets(count: Int, _ mix: inout Mix) -> [Int] {
        var t = 0, result = [0]
        let base = 700 + Int(mix.next() * 30) * 10
        for i in 1..<count {
            let wave = 60 * sin(Double(i) / 3)
            t += base + Int(((wave + (mix.next() - 0.5) * 120) / 10).rounded()) * 10
            result.append(t)
        }
        return result
    }

    /// `h:mm:ss.ff` on a 12- or 24-hour clock from a second of the day and hundredths.
    static func clock(_ ms: Int, style: Int) -> String {
        let day = ms / 1000 % 86_400, hundredths = ms % 1000 / 10
        let h = day / 3600, m = day / 60 % 60, s = day % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        switch style {
        case 0: return "\(h % 12 == 0 ? 12 : h % 12):\(two(m)):\(two(s)).\(two(hundredths))\u{202F}\(h < 12 ? "AM" : "PM")"
        default: return "\(two(h)):\(two(m)):\(two(s)),\(two(hundredths))"
        }
    }

    func testBeatListFiguresEqualNeurokit2() throws {
        let python = try TestTools.python(importing: ["numpy", "neurokit2"])
        var mix = Mix(state: 31)
        var records: [String] = [], expectedTimes: [[Int64]] = []
        // Start instants (UTC+1 local clock, seconds of 2024-03-10 local): morning, evening, and
        // one starting a few seconds before midnight so that the list crosses it.
        let dayStart: Int64 = 1_710_025_200   // 2024-03-10 00:00:00 +0100
        for n in 0..<24 {
            let startSecond = n == 23 ? 86_400 - 20 : 6 * 3600 + n * 2400 + Int(mix.next() * 600)
            let beats = Self.offsets(count: 20 + Int(mix.next() * 80), &mix)
            let firstMs = startSecond * 1000 + 930
            let style = n % 2
            let list = beats.enumerated().map { i, t -> String in
                let interval = i == 0 ? beats[1] - beats[0] : t - beats[i - 1]
                return #"<InstantaneousBeatsPerMinute bpm="\#(Int((60_000.0 / Double(interval)).rounded()))" time="\#(Self.clock(firstMs + t, style: style))"/>"#
            }
            expectedTimes.append(beats.map { (dayStart + Int64(startSecond)) * 1_000_000 + Int64(930 + $0) * 1000 })
            func local(_ second: Int) -> String {
                let day = 10 + second / 86_400, s = second % 86_400
                return String(format: "2024-03-%02d %02d:%02d:%02d +0100", day, s / 3600, s / 60 % 60, s % 60)
            }
            let end = local(startSecond + beats.last! / 1000 + 2)
            records.append(ExportXML.record("HeartRateVariabilitySDNN", source: "Watch", unit: "ms", value: "\(40 + n)",
                                            start: local(startSecond), end: end, created: end,
                                            children: "<HeartRateVariabilityMetadataList>\n" + list.joined(separator: "\n")
                                                + "\n</HeartRateVariabilityMetadataList>"))
        }
        let dir = try temporaryFolder(self)
        let export = try write(ExportXML.document(records, exportDate: "2024-03-12 10:00:00 +0100"), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let db = out + "/health.sqlite"

        // The clocks were read to the µs the lists were made with.
        let stored = try queryRows(db, "SELECT sample_id, time_us FROM heartbeat_data ORDER BY sample_id, rowid")
        var storedTimes: [[Int64]] = [], last: Int64?
        for row in stored {
            if row[0].int != last { storedTimes.append([]); last = row[0].int }
            storedTimes[storedTimes.count - 1].append(try XCTUnwrap(row[1].int))
        }
        XCTAssertEqual(storedTimes, expectedTimes)

        let lists = dir.appendingPathComponent("lists.json")
        try JSONSerialization.data(withJSONObject: expectedTimes).write(to: lists)
        let script = TestPaths.script("hrv_neurokit.py")
        let nk = try runProcess(python, [script, lists.path], timeout: 300)
        XCTAssertEqual(nk.status, 0, nk.stderr)
        let reference = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(nk.stdout.utf8)) as? [[String: Double]])
        let ours = try queryRows(db, "SELECT mean_nn_ms, sdnn_ms, rmssd_ms, pnn50_percent, intervals, beats, note FROM hrv_measurements ORDER BY start_utc")
        XCTAssertEqual(ours.count, reference.count)
        for (row, nk) in zip(ours, reference) {
            XCTAssertEqual(row[4].int, row[5].int.map { $0 - 1 }, "every interval kept")
            XCTAssertEqual(row[6].string, nil)
            for (i, key) in ["MeanNN", "SDNN", "RMSSD", "pNN50"].enumerated() {
                let value = try XCTUnwrap(row[i].double, key), expected = try XCTUnwrap(nk[key], key)
                XCTAssertEqual(value, expected, accuracy: key == "pNN50" ? 1e-9 : 1e-6, key)
            }
        }
    }
}
