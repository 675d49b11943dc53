import Foundation
import XCTest
import TestSupport

/// Issue 33: the report on a real phone and on paper. Headless Chromium lays out a
/// `--window-size=390` window at 500 px, so the page is measured inside an iframe of width 390
/// (and 1280) of a wider window, by a probe script added to a copy of the page: its
/// `innerWidth`, the document's scroll width, every visible text's rendered size (an SVG
/// label's size times its chart's scale), the navigation's links, the tables and the charts.
/// Then the page printed to PDF: a short summary, not a dozen pages.
final class ReportLayoutTests: XCTestCase {
    private static let sample = TestPaths.packageRoot.appendingPathComponent("sample-data/export.xml").path

    /// What the probe reports, as JSON on one console line `PROBE {...}`.
    static let probe = """
    <script>window.addEventListener('load',function(){
    var W=window.innerWidth,small=[];
    function scaleOf(el){var svg=el.closest('svg');if(!svg)return 1;var vb=svg.viewBox.baseVal;return vb&&vb.width?svg.getBoundingClientRect().width/vb.width:1}
    document.querySelectorAll('body *').forEach(function(el){
    if(['TITLE','SCRIPT','STYLE','OPTION'].indexOf(el.tagName.toUpperCase())>=0)return;
    var own='';el.childNodes.forEach(function(n){if(n.nodeType===3)own+=n.textContent});if(!own.trim())return;
    if(!el.getClientRects().length)return;var cs=getComputedStyle(el);if(cs.visibility==='hidden')return;
    var size=parseFloat(cs.fontSize)*scaleOf(el);if(size<10.95)small.push(el.tagName+' '+own.trim().slice(0,24)+' '+size.toFixed(1))});
    var nav=[].map.call(document.querySelectorAll('nav a'),function(a){var r=a.getBoundingClientRect();return {t:a.textContent,ok:r.width>0&&r.left>=0&&r.right<=W+0.5}});
    var tables=[].map.call(document.querySelectorAll('table'),function(t){var cs=getComputedStyle(t);var r=t.getBoundingClientRect();
    return {fits:t.scrollWidth<=t.clientWidth+1,scrolls:cs.overflowX==='auto'||cs.overflowX==='scroll',inside:r.right<=W+0.5}});
    var charts=[].map.call(document.querySelectorAll('.chart'),function(c){var r=c.getBoundingClientRect();return r.width===0||r.right<=W+0.5});
    var scrolled=[].filter.call(document.querySelectorAll('.chart'),function(c){return c.getClientRects().length&&c.scrollWidth>c.clientWidth+1}).map(function(c){return c.scrollLeft+c.clientWidth>=c.scrollWidth-1});
    var overlaps=[],years=[];document.querySelectorAll('svg').forEach(function(svg){if(!svg.getClientRects().length)return;var sr=svg.getBoundingClientRect();
    var r=[].map.call(svg.querySelectorAll('text.lbl'),function(t){return {t:t.textContent,b:t.getBoundingClientRect()}});
    r.forEach(function(a,i){if(/[0-9]{4}$/.test(a.t))years.push(a.t);if(a.b.left<sr.left-0.5||a.b.right>sr.right+0.5)overlaps.push('outside: '+a.t);
    for(var j=i+1;j<r.length;j++){var b=r[j].b;if(a.b.left<b.right-0.5&&b.left<a.b.right-0.5&&a.b.top<b.bottom-0.5&&b.top<a.b.bottom-0.5)overlaps.push(a.t+' / '+r[j].t)}})});
    var quality=new Set([].map.call(document.querySelectorAll('#quality .month'),function(m){return Math.round(m.getBoundingClientRect().left)})).size;
    var energy=document.querySelector('#workouts th:last-child');
    var week=[].map.call(document.querySelectorAll('#workouts td:first-child'),function(td){var cs=getComputedStyle(td);return (td.getBoundingClientRect().height-parseFloat(cs.paddingTop)-parseFloat(cs.paddingBottom))/parseFloat(cs.lineHeight)});
    console.log('PROBE '+JSON.stringify({width:W,scroll:document.documentElement.scrollWidth,small:small,nav:nav,tables:tables,charts:charts,scrolled:scrolled,
    overlaps:overlaps,years:years,quality:quality,energy:energy?energy.textContent:null,weekLines:Math.max.apply(null,week.concat([0]))}))});</script>
    """

    struct Probe: Decodable {
        struct Link: Decodable { var t: String; var ok: Bool }
        struct Table: Decodable { var fits: Bool; var scrolls: Bool; var inside: Bool }
        var width: Int, scroll: Int, small: [String], nav: [Link], tables: [Table], charts: [Bool]
        /// Each chart that scrolls in its own box: whether it opened at its right end (the latest data).
        var scrolled: [Bool]
        /// Chart date labels that overlap another or stick out of their chart; labels that carry a year.
        var overlaps: [String], years: [String]
        /// The Data quality calendar's columns of months.
        var quality: Int
        var energy: String?, weekLines: Double
    }

    private func importSample(into dir: URL) throws -> String {
        let out = dir.appendingPathComponent("out").path
        let r = try healthetl(["import", Self.sample, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return out + "/report/index.html"
    }

    private func run(_ arguments: [String], in dir: URL) throws -> ProcessResult {
        let profile = dir.appendingPathComponent("profile-\(UUID().uuidString)").path
        return try TestTools.headlessChromium(["--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND"] + arguments,
                                              profile: profile, timeout: 180)
    }

    /// Renders `page` in an iframe `width` px wide; returns the probe's findings and the console lines.
    private func measure(_ page: String, width: Int, in dir: URL, screenshot: String) throws -> (Probe, [String]) {
        let probed = dir.appendingPathComponent("probed-\(width).html")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        try html.replacingOccurrences(of: "</body>", with: Self.probe + "</body>").write(to: probed, atomically: true, encoding: .utf8)
        let frame = dir.appendingPathComponent("frame-\(width).html")
        try #"<!doctype html><html><body style="margin:0;background:#f3f5f8"><iframe src="\#(probed.lastPathComponent)" width="\#(width)" height="3000" style="border:0;display:block"></iframe></body></html>"#
            .write(to: frame, atomically: true, encoding: .utf8)
        // The window wider than the frame: headless Chromium's smallest window is 500 px.
        let r = try run(["--window-size=\(max(width, 500)),3000", "--screenshot=\(screenshot)", frame.absoluteString], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let console = TestTools.consoleLines(r)
        guard let line = console.first(where: { $0.contains("PROBE ") }),
              let json = line.range(of: "PROBE ").map({ String(line[$0.upperBound...]) }),
              let end = json.lastIndex(of: "}") else {
            XCTFail("the probe did not report: \(console)")
            throw XCTSkip("no probe")
        }
        // The console line ends with `", source: …`: the JSON is up to its last brace.
        let text = String(json[...end]).replacingOccurrences(of: #"\""#, with: "\"")
        return (try JSONDecoder().decode(Probe.self, from: Data(text.utf8)), console)
    }

    private func consoleProblems(_ lines: [String]) -> [String] {
        lines.filter { $0.contains("Uncaught") || $0.contains("violates") || $0.contains("Refused") || $0.contains(":ERROR:") }
    }

    func testTheReportAtATruePhoneWidthAndOnADesktop() throws {
        let dir = try temporaryFolder(self)
        let page = try importSample(into: dir)
        for width in [390, 1280] {
            let png = dir.appendingPathComponent("report-\(width).png").path
            let (probe, console) = try measure(page, width: width, in: dir, screenshot: png)
            XCTAssertEqual(probe.width, width, "the page is laid out at a true \(width) px")
            XCTAssertLessThanOrEqual(probe.scroll, width, "no sideways scrolling at \(width) px")
            XCTAssertEqual(probe.small, [], "no text under 11 px at \(width) px")
            XCTAssertEqual(probe.nav.map(\.t), ["Today", "Trends", "Sleep", "Workouts", "Heart", "Vitals", "Insights", "Data quality"])
            XCTAssertTrue(probe.nav.allSatisfy(\.ok), "every link of the navigation whole on screen: \(probe.nav)")
            XCTAssertFalse(probe.tables.isEmpty)
            XCTAssertTrue(probe.tables.allSatisfy { ($0.fits || $0.scrolls) && $0.inside }, "tables fit or scroll in their own box: \(probe.tables)")
            XCTAssertTrue(probe.charts.allSatisfy { $0 }, "every chart box inside the screen")
            // Issue 45: a chart that scrolls sideways opens at its latest data.
            if width == 390 { XCTAssertFalse(probe.scrolled.isEmpty, "at 390 px some charts scroll in their box (the sleep chart)") }
            XCTAssertTrue(probe.scrolled.allSatisfy { $0 }, "every scrolled chart opens at its right end: \(probe.scrolled)")
            XCTAssertEqual(probe.overlaps, [], "no date label overlaps another or leaves its chart at \(width) px")
            XCTAssertEqual(probe.energy, "Energy (kcal)", "the workouts table keeps its Energy column")
            XCTAssertLessThan(probe.weekLines, 1.5, "week labels on one line")
            XCTAssertTrue(console.contains { $0.contains("report ready") }, "the page's script ran: \(console)")
            XCTAssertEqual(consoleProblems(console), [], "width \(width)")
            if let keep = ProcessInfo.processInfo.environment["HEALTHETL_SCREENSHOT_DIR"] {
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                let target = (keep as NSString).appendingPathComponent(width == 390 ? "report-phone.png" : "report.png")
                try? FileManager.default.removeItem(atPath: target)
                try FileManager.default.copyItem(atPath: png, toPath: target)
            }
        }
    }

    /// Issue 45: charts over a New Year (a generated export from 20 Nov to 28 Jan) at a phone's
    /// and a desktop's width: no two date labels overlap, the labels carry the year, and the Data
    /// quality calendar puts months side by side on the desktop (one column on the phone).
    func testChartsOverANewYearAndTheQualityCalendarsWidth() throws {
        let dir = try temporaryFolder(self)
        let export = dir.appendingPathComponent("export").path, out = dir.appendingPathComponent("out").path
        try generateExport(["--out", export, "--days", "70", "--start", "2024-11-20", "--seed", "45"])
        let r = try healthetl(["import", export, "--out", out, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for width in [390, 1280] {
            let (probe, console) = try measure(out + "/report/index.html", width: width, in: dir,
                                               screenshot: dir.appendingPathComponent("year-\(width).png").path)
            XCTAssertEqual(probe.width, width)
            XCTAssertEqual(probe.overlaps, [], "no date label overlaps another or leaves its chart at \(width) px")
            XCTAssertTrue(probe.years.contains { $0.hasSuffix("2024") } && probe.years.contains { $0.hasSuffix("2025") },
                          "labels carry the years the range crosses: \(probe.years)")
            XCTAssertTrue(probe.scrolled.allSatisfy { $0 }, "every scrolled chart opens at its right end")
            if width == 390 { XCTAssertEqual(probe.quality, 1, "one month a row on a phone") }
            else { XCTAssertGreaterThanOrEqual(probe.quality, 3, "the quality calendar's months side by side on a desktop") }
            XCTAssertEqual(consoleProblems(console), [])
        }
    }

    /// The probe can fail: an old-style page (a chart that scales its labels, a table wider
    /// than the phone) is caught.
    func testTheProbeCatchesScaledLabelsAndWideTables() throws {
        let dir = try temporaryFolder(self)
        let page = dir.appendingPathComponent("bad.html").path
        try """
        <!doctype html><html><body><nav><a>Today</a></nav><svg viewBox="0 0 720 100" style="width:100%"><text x="0" y="50" font-size="11">tiny</text></svg>
        <svg viewBox="0 0 300 40" style="min-width:300px"><text class="lbl" x="100" y="30">28 Dec</text><text class="lbl" x="110" y="30">31 Dec</text></svg>
        <table style="width:600px"><tr><td>wide</td></tr></table><script>console.log('report ready')</script></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        let (probe, _) = try measure(page, width: 390, in: dir, screenshot: dir.appendingPathComponent("bad.png").path)
        XCTAssertEqual(probe.width, 390)
        XCTAssertGreaterThan(probe.scroll, 390)
        XCTAssertEqual(probe.small.count, 1, "the scaled label: \(probe.small)")
        XCTAssertFalse(probe.tables.allSatisfy { ($0.fits || $0.scrolls) && $0.inside })
        XCTAssertEqual(probe.overlaps, ["28 Dec / 31 Dec"], "the overlapping labels are caught")
    }

    /// Printed (A4), the report is a short summary for a doctor's visit: the day, sleep, heart,
    /// workouts in brief; the calendars and pickers stay on screen.
    func testTheReportPrintsAsAShortSummary() throws {
        let dir = try temporaryFolder(self)
        let page = try importSample(into: dir)
        let pdf = dir.appendingPathComponent("report.pdf").path
        let r = try run(["--no-pdf-header-footer", "--print-to-pdf=\(pdf)", URL(fileURLWithPath: page).absoluteString], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let pages = try Self.pageCount(pdf)
        print("the report prints on \(pages) pages")
        XCTAssertGreaterThan(pages, 0)
        XCTAssertLessThanOrEqual(pages, 3, "a short summary, not \(pages) pages")
    }

    /// Page objects in a PDF (`/Type /Page`, not `/Pages`).
    static func pageCount(_ path: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        let regex = try NSRegularExpression(pattern: #"/Type\s*/Page(?![a-zA-Z])"#)
        return regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }
}
