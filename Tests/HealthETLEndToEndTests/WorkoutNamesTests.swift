import Foundation
import SQLite
import XCTest
import TestSupport

/// Issue 47, item 4: a workout's name was written three ways; the report showed both
/// "Traditional Strength Training" and "TraditionalStrengthTraining" for one workout. One rule
/// (`HealthStore.WorkoutDisplay`): the report, the workbook and `workout_details` say the same.
final class WorkoutNamesTests: XCTestCase {
    func testTheReportTheWorkbookAndTheStoreNameAWorkoutAlike() throws {
        let dir = try temporaryFolder(self)
        let workout = { (type: String, day: String) in
            #"<Workout workoutActivityType="HKWorkoutActivityType\#(type)" duration="45" durationUnit="min" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Apple Watch" startDate="2024-04-\#(day) 18:00:00 +0200" endDate="2024-04-\#(day) 18:45:00 +0200"/>"#
        }
        let steps = ExportXML.record("StepCount", source: "iPhone", unit: "count", value: "5000",
                                     start: "2024-04-15 10:00:00 +0200", end: "2024-04-15 11:00:00 +0200", created: nil)
        let export = try write(ExportXML.document([steps, workout("TraditionalStrengthTraining", "15"),
                                                   workout("HighIntensityIntervalTraining", "16")],
                                                  exportDate: "2024-04-19 09:00:00 +0200"), to: "export.xml", in: dir)
        let out = dir.appendingPathComponent("out").path
        let pipeline = try write(#"{"outputs": ["sqlite", "report", "xlsx"]}"#, to: "p.json", in: dir)
        let r = try healthetl(["import", export, "--out", out, "--pipeline", pipeline, "--quiet", "--timezone", "Europe/Berlin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = ["High Intensity Interval Training", "Traditional Strength Training"]
        let db = try Database(path: out + "/health.sqlite", mode: .readOnly)
        XCTAssertEqual(try db.rows("SELECT activity FROM workout_details ORDER BY activity").map { $0[0].description }, expected)
        let html = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
        for name in expected { XCTAssertTrue(html.contains(">\(name)<"), "the report names \(name)") }
        XCTAssertFalse(html.contains("TraditionalStrengthTraining") || html.contains("HighIntensityIntervalTraining"),
                       "no run-together activity type in the report")
        let python = try TestTools.python(importing: ["openpyxl"])
        let sheet = try runProcess(python, ["-c", """
            import sys, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1])["Workouts"]
            print("\\n".join(sorted(str(r[0].value) for r in ws.iter_rows(min_row=2))))
            """, out + "/health.xlsx"])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        XCTAssertEqual(sheet.stdout.split(separator: "\n").map(String.init), expected, "the workbook names them alike")
    }
}
