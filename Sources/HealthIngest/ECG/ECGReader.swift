import HealthCore

/// Reads one `electrocardiograms/ecg_….csv` file of an export into an `ECGRecording`:
/// a pure function of the bytes (`parse`), or fed chunk by chunk (`ECGParser`) as a zip entry
/// inflates, with flat memory either way: one line at a time, and at most
/// `maximumSamples` voltages.
///
/// The layout (English; keys are localized):
/// ```
/// Name,Jane Appleseed
/// Date of Birth,"Jan 1, 1980"
/// Recorded Date,2020-03-15 09:41:23 -0700
/// Classification,Sinus Rhythm
/// Symptoms,
/// Software Version,1.70
/// Device,"Watch4,4"
/// Sample Rate,512 hertz
/// ,
/// Lead,Lead I
/// Unit,µV
/// ,
/// ,
/// -61.237
/// …
/// ```
/// Header lines are `key,value` (`ECGHeaderField`); blank lines (`,`) are skipped; the voltages
/// start at the first line that is a number. A UTF-8 byte order mark, CRLF or CR line ends and
/// a decimal comma are read as well. A line among the voltages that is not a number is
/// skipped and counted.
package enum ECGReader {
    /// 1,000,000 voltages (8 MB): over half an hour at 512 Hz, sixty times a real recording.
    package static let maximumSamples = 1_000_000
    /// Real lines are under 100 bytes.
    package static let maximumLineBytes = 4096
    /// A real header has a dozen lines (name, birth date, recorded date, classification …); a
    /// file with no voltage after this many is not a recording, and is left at once (issue 46:
    /// megabytes of junk lines were each tried as a date, at 0.5 MB/s, for minutes).
    package static let maximumHeaderLines = 100
    /// Lines among the voltages that are not numbers are skipped; once they outnumber the
    /// voltages (and pass this count), the file is junk, not a damaged recording.
    package static let maximumSkippedLines = 10_000

    /// The recording in `bytes`; `fileName` is what the recording and any message name.
    package static func parse(bytes: UnsafeRawBufferPointer, fileName: String) throws(ECGUnreadable) -> ECGRecording {
        var parser = ECGParser(fileName: fileName)
        try parser.feed(bytes)
        return try parser.finish()
    }

    package static func parse(bytes: [UInt8], fileName: String) throws(ECGUnreadable) -> ECGRecording {
        var parser = ECGParser(fileName: fileName)
        var failure: ECGUnreadable?
        bytes.withUnsafeBytes { buffer in
            do throws(ECGUnreadable) { try parser.feed(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return try parser.finish()
    }
}

/// `ECGReader` fed in chunks of any size.
package struct ECGParser {
    private let fileName: String
    private var line: [UInt8] = []
    private var lineNumber = 0
    private var afterCR = false
    private var inSamples = false
    private var header = HeaderValues()
    private var samples: [Double] = []
    private var skippedLines = 0
    private var headerLines = 0

    package init(fileName: String) {
        self.fileName = fileName
        line.reserveCapacity(256)
    }

    package mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(ECGUnreadable) {
        for b in bytes {
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                // CRLF is one line end; so are a lone CR (old Mac files) and a lone LF.
                if !(b == UInt8(ascii: "\n") && afterCR) { try endLine() }
                afterCR = b == UInt8(ascii: "\r")
                continue
            }
            afterCR = false
            guard line.count < ECGReader.maximumLineBytes else {
                throw ECGUnreadable("line \(lineNumber + 1) is longer than \(ECGReader.maximumLineBytes) bytes")
            }
            line.append(b)
        }
    }

    package mutating func finish() throws(ECGUnreadable) -> ECGRecording {
        if !line.isEmpty { try endLine() }
        guard let recordedAt = header.recordedAt else {
            throw ECGUnreadable(header.unreadableDate.map { "its recorded date '\($0)' cannot be read" }
                                ?? "no recorded date (a line with a date, time and UTC offset)")
        }
        guard !samples.isEmpty else { throw ECGUnreadable("no voltages") }
        var microvolts = samples
        if header.microvoltsPerUnit != 1 {
            for i in microvolts.indices { microvolts[i] *= header.microvoltsPerUnit }
        }
        return ECGRecording(
            sourceFile: fileName, recordedAt: recordedAt, classification: header.text[.classification],
            symptoms: header.text[.symptoms], softwareVersion: header.text[.softwareVersion], device: header.text[.device],
            sampleRateHz: header.sampleRateHz, lead: header.text[.lead], unit: header.text[.unit],
            averageHeartRate: header.averageHeartRate ?? header.text[.classification].flatMap(ECGValueShape.beatsPerMinute),
            microvolts: microvolts, skippedLines: skippedLines)
    }

    private mutating func endLine() throws(ECGUnreadable) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        // A UTF-8 byte order mark (spreadsheet programs write one) is not part of the first key.
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        let outcome: LineOutcome = line.withUnsafeBufferPointer { bytes in
            if ECGLine.isBlank(bytes) { return .blank }
            if let value = ECGLine.number(bytes) { return .voltage(value) }
            return inSamples ? .other : .header(ECGLine.fields(bytes))
        }
        switch outcome {
        case .blank:
            break
        case .voltage(let value):
            inSamples = true
            // A value no heart makes (over a kilovolt even in µV) is damage, not a voltage.
            guard abs(value) <= 1e9 else { skippedLines += 1; return }
            guard samples.count < ECGReader.maximumSamples else {
                throw ECGUnreadable("more than \(ECGReader.maximumSamples) voltages")
            }
            samples.append(value)
        case .other:
            skippedLines += 1
            if skippedLines > ECGReader.maximumSkippedLines && skippedLines > samples.count {
                throw ECGUnreadable("more lines that are not numbers (\(skippedLines)) than voltages (\(samples.count)) by line \(lineNumber): not a recording")
            }
        case .header(let fields):
            headerLines += 1
            guard headerLines <= ECGReader.maximumHeaderLines else {
                throw ECGUnreadable("no voltage in its first \(ECGReader.maximumHeaderLines) lines: not a recording")
            }
            try header.take(fields)
        }
    }

    private enum LineOutcome {
        case blank, voltage(Double), other, header([String])
    }
}

/// The header lines read so far, typed.
private struct HeaderValues {
    var recordedAt: Timestamp?
    /// A recorded-date line (by its key) whose value is not a date we can read.
    var unreadableDate: String?
    var sampleRateHz: Double?
    var averageHeartRate: Double?
    var microvoltsPerUnit = 1.0
    /// Classification, symptoms, software version, device, lead, unit: as written.
    var text: [ECGHeaderField: String] = [:]
    /// Fields already seen (a value may be empty: `Symptoms,`), and the last one, for the
    /// positional reading of files in a language we do not know.
    private var seen: Set<ECGHeaderField> = []
    private var last: ECGHeaderField?
    private var dateKeyKnown = false

    mutating func take(_ fields: [String]) throws(ECGUnreadable) {
        guard let key = fields.first else { return }
        // An unquoted value with commas (`Device,Watch4,4`) is one value; trailing empty fields are not.
        var rest = Array(fields.dropFirst())
        while rest.last?.isEmpty == true { rest.removeLast() }
        let value = rest.joined(separator: ",")
        if let field = ECGHeaderField.named(key) {
            if field == .recordedDate { dateKeyKnown = true }
            try set(field, value)
        } else if let field = fieldByShape(value) ?? fieldByPosition() {
            try set(field, value)
        }
        // Otherwise a key we do not know (a line newer exports add): skipped.
    }

    private func fieldByShape(_ value: String) -> ECGHeaderField? {
        if !seen.contains(.recordedDate), ECGDateText.instant(value) != nil { return .recordedDate }
        if !seen.contains(.sampleRate), ECGValueShape.hertz(value) != nil { return .sampleRate }
        if !seen.contains(.averageHeartRate), ECGValueShape.beatsPerMinute(value) != nil, value.split(separator: " ").count == 2 {
            return .averageHeartRate
        }
        if !seen.contains(.unit), ECGValueShape.microvoltsPer(value) != nil { return .unit }
        if !seen.contains(.device), ECGValueShape.isWatchModel(value) { return .device }
        return nil
    }

    /// The line after the last one read, in Apple's order; only in a file whose recorded date
    /// had an unknown key (else an unknown key is a new line, not a translation).
    private func fieldByPosition() -> ECGHeaderField? {
        guard !dateKeyKnown else { return nil }
        let order = ECGHeaderField.appleOrder
        let next = last.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        guard next < order.count, !seen.contains(order[next]) else { return nil }
        // Dates, rates and units have shapes; a value without one is none of them.
        return [.recordedDate, .sampleRate, .unit].contains(order[next]) ? nil : order[next]
    }

    private mutating func set(_ field: ECGHeaderField, _ value: String) throws(ECGUnreadable) {
        guard seen.insert(field).inserted else { return }   // the first line of a kind counts
        last = field
        switch field {
        case .name, .dateOfBirth:
            break   // personal data the store does not need
        case .recordedDate:
            recordedAt = ECGDateText.instant(value)
            if recordedAt == nil { unreadableDate = String(value.prefix(100)) }
        case .sampleRate:
            sampleRateHz = ECGValueShape.hertz(value) ?? ECGValueShape.number(value).flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil }
        case .averageHeartRate:
            averageHeartRate = ECGValueShape.beatsPerMinute(value)
                ?? ECGValueShape.number(value).flatMap { $0 > 0 && $0 < 400 ? $0 : nil }
        case .unit:
            guard let factor = ECGValueShape.microvoltsPer(value) else {
                throw ECGUnreadable("its unit '\(value.prefix(40))' is not a voltage (µV, mV or V)")
            }
            microvoltsPerUnit = factor
            text[.unit] = value
        case .classification, .symptoms, .softwareVersion, .device, .lead:
            if !value.isEmpty { text[field] = String(value.prefix(1000)) }
        }
    }
}
