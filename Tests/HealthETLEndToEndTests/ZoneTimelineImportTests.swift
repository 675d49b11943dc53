import Foundation
import XCTest
import TestSupport

/// Issue 48, item 1: the zone timeline of a traveller, built from the `HKTimeZone` evidence the
/// Watch writes on sleep records, kept in the store, shown by the run summary and `people show`,
/// and moved by a nightly run that brings new evidence.
final class ZoneTimelineImportTests: XCTestCase {
    static let watch = #" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;""#

    /// A night from 23:00 to 07:00 local time ending on `wake` (`yyyy-MM-dd`), in `zone`, with
    /// the zone's offset on that date printed as the export prints it (all in the phone's zone
    /// at export: Los Angeles), and the night's `HKTimeZone`.
    static func night(wake: String, zone: String) -> String {
        let la = TimeZone(identifier: "America/Los_Angeles")!, local = TimeZone(identifier: zone)!
        let parse = DateFormatter(), print = DateFormatter()
        parse.locale = Locale(identifier: "en_US_POSIX"); print.locale = parse.locale
        parse.timeZone = local; print.timeZone = la
        parse.dateFormat = "yyyy-MM-dd HH:mm"; print.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let end = parse.date(from: wake + " 07:00")!, start = end.addingTimeInterval(-8 * 3600)
        return ExportXML.record("HKCategoryTypeIdentifierSleepAnalysis", source: "Watch", value: "HKCategoryValueSleepAnalysisAsleepCore",
                                start: print.string(from: start), end: print.string(from: end), created: print.string(from: end),
                                attributes: watch, children: #"<MetadataEntry key="HKTimeZone" value="\#(zone)"/>"#)
    }

    /// Nights in Los Angeles waking 25–31 January, in Tokyo 3–10 February, in Los Angeles from
    /// 12 February through `lastWake` (a later export adds nights).
    static func trip(lastWake: Int) -> [String] {
        (25...31).map { night(wake: "2024-01-\($0)", zone: "America/Los_Angeles") }
            + (3...10).map { night(wake: String(format: "2024-02-%02d", $0), zone: "Asia/Tokyo") }
            + (12...lastWake).map { night(wake: String(format: "2024-02-%02d", $0), zone: "America/Los_Angeles") }
    }

    func testATravellersTimelineIsBuiltKeptShownAndMovedByTheNextRun() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let first = try write(ExportXML.document(Self.trip(lastWake: 14), exportDate: "2024-02-14 12:00:00 -0800"), to: "a.xml", in: dir)
        let summary = try importJSON(first, out, zone: "America/Los_Angeles")
        let text = try XCTUnwrap(summary["zone_timeline"] as? String, "\(summary)")
        // Three stretches: LA, Tokyo, LA. The switches sit halfway between the last night of one
        // zone and the first of the next; Tokyo's dates are read in Tokyo.
        XCTAssertEqual(text, "2 zones: America/Los_Angeles, Asia/Tokyo (Asia/Tokyo 2024-02-01 – 2024-02-11)")
        let store = out + "/health.sqlite"
        XCTAssertEqual(try query(store, "SELECT ifnull(start_us, 'start') || ' ' || zone FROM zone_timeline ORDER BY start_us IS NOT NULL, start_us").count, 3)
        XCTAssertEqual(try query(store, "SELECT zone FROM zone_timeline ORDER BY start_us IS NOT NULL, start_us"),
                       ["America/Los_Angeles", "Asia/Tokyo", "America/Los_Angeles"])
        XCTAssertEqual(try query(store, "SELECT count(*) FROM zone_windows"), ["2"])
        // The switch to Tokyo: halfway between the start of the last LA night (30 Jan 23:00 PST)
        // and of the first Tokyo night (2 Feb 23:00 JST): evidence is read at a record's start.
        let lastLA = Int64(1_706_684_400) * 1_000_000   // 2024-01-31T07:00:00Z
        let firstTokyo = Int64(1_706_882_400) * 1_000_000   // 2024-02-02T14:00:00Z
        XCTAssertEqual(try query(store, "SELECT start_us FROM zone_timeline WHERE zone = 'Asia/Tokyo'"), ["\((lastLA + firstTokyo) / 2)"])

        // A later export: more nights at home; the timeline keeps its stretches and the summary says so.
        let second = try write(ExportXML.document(Self.trip(lastWake: 20), exportDate: "2024-02-20 12:00:00 -0800"), to: "b.xml", in: dir)
        let again = try importJSON(second, out, zone: "America/Los_Angeles")
        XCTAssertEqual(again["mode"] as? String, "incremental")
        XCTAssertEqual(again["zone_timeline"] as? String, text)

        // people show lists it (a person's store).
        let family = dir.appendingPathComponent("family").path
        XCTAssertEqual(try healthetl(["import", first, "--out", family, "--person", "ann", "--quiet", "--timezone", "America/Los_Angeles"]).status, 0)
        let shown = try healthetl(["people", "show", "ann", "--out", family])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("zone timeline (from the export's HKTimeZone evidence):\n"
                                            + "  America/Los_Angeles … – 2024-02-01\n  Asia/Tokyo 2024-02-01 – 2024-02-11\n"
                                            + "  America/Los_Angeles 2024-02-10 – …"), shown.stdout)
    }

    /// A person who never travels: one stretch, no travel line, no windows.
    func testAPersonWhoNeverTravelsHasOneStretch() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("out").path
        let nights = (1...9).map { Self.night(wake: "2024-03-0\($0)", zone: "America/Los_Angeles") }
        let export = try write(ExportXML.document(nights, exportDate: "2024-03-09 12:00:00 -0800"), to: "e.xml", in: dir)
        let summary = try importJSON(export, out, zone: "America/Los_Angeles")
        XCTAssertNil(summary["zone_timeline"] as? String)
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT ifnull(start_us, 'start') || ' ' || zone FROM zone_timeline"),
                       ["start America/Los_Angeles"])
        XCTAssertEqual(try query(out + "/health.sqlite", "SELECT count(*) FROM zone_windows"), ["0"])
    }
}
