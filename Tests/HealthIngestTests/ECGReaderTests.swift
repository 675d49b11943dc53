import Foundation
import XCTest
@testable import HealthCore
@testable import HealthIngest
import TestSupport

/// ECG recordings (`electrocardiograms/ecg_….csv`): the reader on files made here (English and
/// German headers, units, decimal commas, line ends, damage). Whole imports: ECGImportTests.
final class ECGReaderTests: XCTestCase {
    private func parse(_ text: String, _ name: String = "electrocardiograms/ecg_test.csv") throws -> ECGRecording {
        try ECGReader.parse(bytes: Array(text.utf8), fileName: name)
    }

    private func assertUnreadable(_ text: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: line) { error in
            XCTAssertTrue((error as? ECGUnreadable)?.reason.contains(reason) == true, "\(error)", file: file, line: line)
        }
    }

    // MARK: Reader

    func testEnglishFileGivesEveryFieldAndEveryVoltageInOrder() throws {
        let voltages = ECGText.voltageTexts(15_360, seed: 1)
        let r = try parse(ECGText.english(voltages: voltages))
        XCTAssertEqual(r.recordedAt.iso8601, "2020-03-15T16:41:23Z")
        XCTAssertEqual(r.classification, "Sinus Rhythm")
        XCTAssertNil(r.symptoms)
        XCTAssertEqual(r.softwareVersion, "1.70")
        XCTAssertEqual(r.device, "Watch4,4")
        XCTAssertEqual(r.sampleRateHz, 512)
        XCTAssertEqual(r.lead, "Lead I")
        XCTAssertEqual(r.unit, "µV")
        XCTAssertNil(r.averageHeartRate)
        XCTAssertEqual(r.microvolts, voltages.map { Double($0)! })
        XCTAssertEqual(r.skippedLines, 0)
        XCTAssertEqual(r.sourceFile, "electrocardiograms/ecg_test.csv")
    }

    func testGermanFileWithMillivoltsDecimalCommasCRLFAndByteOrderMark() throws {
        let voltages = ECGText.voltageTexts(50, seed: 2).map { String(format: "%.3f", Double($0)! / 1000) }
        let r = try parse(ECGText.german(voltages: voltages))
        XCTAssertEqual(r.recordedAt.iso8601, "2020-03-16T09:00:00Z")
        XCTAssertEqual(r.classification, "Sinusrhythmus")
        XCTAssertEqual(r.symptoms, "Schwindel")
        XCTAssertEqual(r.device, "Watch5,1")
        XCTAssertEqual(r.sampleRateHz, 512)
        XCTAssertEqual(r.lead, "Ableitung I")
        XCTAssertEqual(r.unit, "mV")
        XCTAssertEqual(r.microvolts, voltages.map { Double($0)! * 1000 })
    }

    func testUnquotedDecimalCommaVoltsAndMissingOptionalLines() throws {
        // Only the recorded date and the voltages; an unquoted decimal comma splits a line in two fields.
        let r = try parse("Recorded Date,2021-01-02 03:04:05 +0000\r\nUnit,V\r\n,\r\n-0,000061\r\n0,0005\r\n")
        XCTAssertEqual(r.recordedAt.iso8601, "2021-01-02T03:04:05Z")
        XCTAssertEqual(r.microvolts, [-0.000061 * 1_000_000, 0.0005 * 1_000_000])
        XCTAssertNil(r.classification)
        XCTAssertNil(r.device)
        XCTAssertNil(r.sampleRateHz)
        XCTAssertNil(r.lead)
    }

    func testNewHeaderLinesAreSkippedAndAverageHeartRateIsRead() throws {
        let r = try parse(ECGText.english(extraHeader: ["Average Heart Rate,72 BPM", "Pacemaker,None"], voltages: ["1.5", "2.5"]))
        XCTAssertEqual(r.averageHeartRate, 72)
        XCTAssertEqual(r.softwareVersion, "1.70")
        XCTAssertEqual(r.microvolts, [1.5, 2.5])
        // Without that line, a rate in the classification counts.
        let inClassification = try parse(ECGText.english(classification: "Sinus Rhythm 64 BPM", voltages: ["1"]))
        XCTAssertEqual(inClassification.averageHeartRate, 64)
        XCTAssertEqual(inClassification.classification, "Sinus Rhythm 64 BPM")
    }

    /// A language whose keys we do not know: the date, rate and watch by their shape, the rest
    /// by Apple's order of the lines.
    func testUnknownLanguageByShapeAndPosition() throws {
        let text = ["Имя,Иван", "Дата рождения,\"1 янв. 1980 г.\"", "Дата записи,15.03.2020 17:41:23 +0100",
                    "Классификация,Синусовый ритм", "Симптомы,", "Версия ПО,1.70", "Устройство,\"Watch4,4\"",
                    "Частота дискретизации,512 Гц", ",", "Отведение,Отведение I", "Единицы,мкВ", ",", "12.5", "-3.25"]
            .joined(separator: "\n")
        let r = try parse(text)
        XCTAssertEqual(r.recordedAt.iso8601, "2020-03-15T16:41:23Z")
        XCTAssertEqual(r.classification, "Синусовый ритм")
        XCTAssertEqual(r.softwareVersion, "1.70")
        XCTAssertEqual(r.device, "Watch4,4")
        XCTAssertEqual(r.sampleRateHz, 512)
        XCTAssertEqual(r.lead, "Отведение I")
        XCTAssertEqual(r.microvolts, [12.5, -3.25])
    }

    func testGarbageAmongTheVoltagesIsSkippedAndCounted() throws {
        let r = try parse(ECGText.english(voltages: ["1.25", "garbage", "2.5", "1e400", "nan", "0x10", "", ",", "-3.75"]))
        XCTAssertEqual(r.microvolts, [1.25, 2.5, -3.75])
        XCTAssertEqual(r.skippedLines, 4)
    }

    func testRecordedDateForms() {
        let instant = ECGDateText.instant("2020-03-15 09:41:23 -0700")
        XCTAssertEqual(instant?.iso8601, "2020-03-15T16:41:23Z")
        for form in ["15.03.2020 17:41:23 +0100", "15.03.2020, 17:41:23 +01:00", "2020-03-15T16:41:23Z",
                     "2020-03-15 16:41:23 UTC", "2020/03/15 18:41:23 GMT+0200", "2020-03-15 16:41 +0000"] {
            XCTAssertEqual(ECGDateText.instant(form)?.iso8601, form.hasSuffix("41 +0000") ? "2020-03-15T16:41:00Z"
                           : instant?.iso8601, form)
        }
        // Birth dates, a time without its offset and nonsense are not instants.
        for text in ["Jan 1, 1980", "01.01.1980", "2020-03-15 09:41:23", "2020-13-15 09:41:23 +0000",
                     "2020-03-15 25:00:00 +0000", "03/15/2020 09:41:23 +0000", "99999-01-01 00:00:00 +0000", ""] {
            XCTAssertNil(ECGDateText.instant(text), text)
        }
    }

    func testChunksOfAnySizeGiveTheSameRecording() throws {
        let text = ECGText.german(voltages: ECGText.voltageTexts(300, seed: 3))
        let whole = try parse(text)
        let bytes = Array(text.utf8)
        for size in [1, 2, 3, 7, 64] {
            var parser = ECGParser(fileName: "electrocardiograms/ecg_test.csv")
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + size, bytes.count)
                try bytes[offset..<end].withUnsafeBytes { try parser.feed($0) }
                offset = end
            }
            let chunked = try parser.finish()
            XCTAssertEqual(chunked.microvolts, whole.microvolts, "chunks of \(size)")
            XCTAssertEqual(chunked.recordedAt, whole.recordedAt, "chunks of \(size)")
            XCTAssertEqual(chunked.classification, whole.classification, "chunks of \(size)")
        }
    }

    func testUnreadableFilesSayWhy() {
        assertUnreadable("", "no recorded date")
        assertUnreadable(ECGText.english(voltages: []), "no voltages")
        assertUnreadable("\u{0}\u{1}PK\u{3}\u{4} binary junk\n\u{FF}\u{FE}\n", "no recorded date")
        assertUnreadable(ECGText.english(recorded: "yesterday", voltages: ["1"]), "its recorded date 'yesterday' cannot be read")
        assertUnreadable(ECGText.english(unit: "mmHg", voltages: ["1"]), "its unit 'mmHg' is not a voltage")
        assertUnreadable("Recorded Date,2020-03-15 09:41:23 -0700\n" + String(repeating: "1", count: 5000) + "\n",
                         "line 2 is longer than \(ECGReader.maximumLineBytes) bytes")
    }

    /// A hostile file cannot make the reader hold more than `maximumSamples` voltages.
    func testTooManyVoltagesIsUnreadable() throws {
        var parser = ECGParser(fileName: "electrocardiograms/ecg_big.csv")
        try Array("Recorded Date,2020-03-15 09:41:23 -0700\n".utf8).withUnsafeBytes { try parser.feed($0) }
        let block = Array(String(repeating: "1\n", count: 100_000).utf8)
        var failure: ECGUnreadable?
        for _ in 0..<11 where failure == nil {
            do { try block.withUnsafeBytes { try parser.feed($0) } } catch let error as ECGUnreadable { failure = error }
        }
        XCTAssertEqual(failure?.reason, "more than \(ECGReader.maximumSamples) voltages")
    }
}
