import Archive
import PrivateFiles
/// A column of a sheet: its header, how its cells are stored and shown, and its width.
public struct SheetColumn: Sendable, Equatable {
    public enum Kind: Sendable, Hashable {
        case text
        /// A number shown with `places` decimals (0: an integer).
        case number(places: Int)
        /// A date cell (a serial day number shown as `yyyy-mm-dd`).
        case date
        /// A date and time cell (UTC), shown as `yyyy-mm-dd hh:mm:ss`.
        case dateTime
        /// A number with thousands separators (`#,##0`, `#,##0.0`, …).
        case grouped(places: Int)
        /// A wall-clock date and time (the caller has put it in the reader's zone), shown as
        /// `yyyy-mm-dd hh:mm`.
        case localDateTime
        /// A duration (`SheetValue.duration`), shown as hours and minutes `[h]:mm`.
        case duration
    }

    public var header: String
    public var kind: Kind
    /// In characters; nil: from the header and the kind.
    public var width: Double?

    public init(_ header: String, _ kind: Kind, width: Double? = nil) {
        self.header = header; self.kind = kind; self.width = width
    }

    /// Headers wrap (at most three lines in the usual case), so a column is as wide as its values
    /// need and its header's longest word, not its whole header: "Walking distance (km)" over
    /// numbers is 10 characters wide, not 23.
    var shownWidth: Double {
        width ?? max(Double(header.split(separator: " ").map(\.count).max() ?? 0) + 2, (Double(header.count) / 3).rounded(.up) + 2,
                     kind == .date ? 12 : kind == .dateTime ? 20 : kind == .localDateTime ? 17 : 10)
    }

    /// The lines the header takes when wrapped at its width (words kept whole, as spreadsheets wrap).
    var headerLines: Int {
        let room = max(Int(shownWidth) - 1, 1)
        var lines = 1, used = 0
        for word in header.split(separator: " ").map(\.count) {
            if used == 0 { used = word } else if used + 1 + word <= room { used += 1 + word } else { lines += 1; used = word }
        }
        return lines
    }
}

/// One cell value of a row.
public enum SheetValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    /// Days since 1970-01-01.
    case date(Int)
    /// Seconds since 1970-01-01T00:00:00Z.
    case dateTime(Double)
    /// A duration in minutes (stored as a fraction of a day, as spreadsheets keep times).
    case duration(minutes: Double)
    case empty
}

/// How a sheet prints. A wide sheet is split across pages at full size, never shrunk to one
/// page's width (19 columns on one page were unreadable): its header row repeats at the top of
/// every page and its first `repeatedColumns` columns (the date) at the left of every page, so
/// each page reads on its own. The sheet's name heads each page and "Page n of m" ends it.
public struct PageSetup: Sendable, Equatable {
    public enum Orientation: String, Sendable { case portrait, landscape }
    public var orientation: Orientation
    public var repeatHeaderRow: Bool
    /// Leading columns printed on every page (0: none).
    public var repeatedColumns: Int

    public init(orientation: Orientation = .landscape, repeatHeaderRow: Bool = true, repeatedColumns: Int = 1) {
        self.orientation = orientation; self.repeatHeaderRow = repeatHeaderRow; self.repeatedColumns = repeatedColumns
    }

    /// What a sheet a person shares wants: landscape, the header and the first column on every page.
    public static let shareable = PageSetup()

    /// The print titles' reference (`'Daily'!$A:$A,'Daily'!$1:$1`), nil when nothing repeats.
    func printTitles(sheet quoted: String, columns: Int) -> String? {
        var parts: [String] = []
        let repeated = min(repeatedColumns, columns)
        if repeated > 0 { parts.append("\(quoted)!$A:$\(WorkbookWriter.column(repeated - 1))") }
        if repeatHeaderRow { parts.append("\(quoted)!$1:$1") }
        return parts.isEmpty ? nil : parts.joined(separator: ",")
    }
}

/// Writes an Office Open XML workbook (`.xlsx`) sheet by sheet, row by row, streamed into a zip
/// (deflate by zlib) written beside its path and renamed into place on `close()`. Each sheet
/// has its header row frozen, an autofilter over its rows, fixed column widths, and a number
/// format per column; dates are date cells. Strings are inline (no shared-strings part), so
/// memory stays one row. A sheet holds at most 1,048,576 rows.
public final class WorkbookWriter {
    private let zip: ZipWriter
    private var sheets: [(name: String, rows: Int, columns: Int, page: PageSetup?)] = []
    private var formats: [String] = []   // custom number formats, numFmtId 164 + index
    private var styleOf: [SheetColumn.Kind: Int] = [:]
    private var styleFormats: [Int] = []  // cellXfs after the two fixed ones: their numFmtIds

    public static let maximumRows = 1_048_576

    public init(path: String, durability: Durability = .synced) throws {
        zip = try ZipWriter(path: path, durability: durability)
    }

    /// Adds a sheet: `rows` calls its argument once per row, with one value per column.
    public func addSheet(_ name: String, columns: [SheetColumn], pageSetup: PageSetup? = nil,
                         rows: ((([SheetValue]) throws -> Void)) throws -> Void) throws {
        let title = Self.sheetName(name)
        let index = sheets.count + 1
        let styles = columns.map { style(for: $0.kind) }
        try zip.begin("xl/worksheets/sheet\(index).xml")
        var head = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#
            + #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#
            + #"<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>"#
            + #"<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><cols>"#
        for (i, c) in columns.enumerated() {
            head += #"<col min="\#(i + 1)" max="\#(i + 1)" width="\#(c.shownWidth)" customWidth="1"/>"#
        }
        // The header row as high as its most wrapped header (spreadsheets do not re-measure on opening).
        let lines = columns.map(\.headerLines).max() ?? 1
        head += #"</cols><sheetData><row r="1" ht="\#(15 * lines)" customHeight="1">"#
        for (i, c) in columns.enumerated() {
            head += #"<c r="\#(Self.column(i))1" t="inlineStr" s="1"><is><t>\#(Self.xml(c.header))</t></is></c>"#
        }
        try zip.write(head + "</row>")
        var count = 1
        var line = ""
        try rows { values in
            guard values.count == columns.count else {
                throw SpreadsheetError("sheet \(title): a row of \(values.count) values for \(columns.count) columns")
            }
            count += 1
            guard count <= Self.maximumRows else { throw SpreadsheetError("sheet \(title): more than \(Self.maximumRows) rows") }
            line.removeAll(keepingCapacity: true)
            line += #"<row r="\#(count)">"#
            for (i, value) in values.enumerated() {
                let ref = "\(Self.column(i))\(count)"
                switch value {
                case .empty: continue
                case .text(let t): line += #"<c r="\#(ref)" t="inlineStr"><is><t>\#(Self.xml(t))</t></is></c>"#
                case .number(let v) where v.isFinite:
                    let text = v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
                    line += #"<c r="\#(ref)" s="\#(styles[i])"><v>\#(text)</v></c>"#
                case .number: continue
                case .date(let days): line += #"<c r="\#(ref)" s="\#(styles[i])"><v>\#(days + 25_569)</v></c>"#
                case .dateTime(let seconds):
                    // Days since 1899-12-30 (the spreadsheets' day 0) with the time as a fraction.
                    line += #"<c r="\#(ref)" s="\#(styles[i])"><v>\#(seconds / 86_400 + 25_569)</v></c>"#
                case .duration(let minutes) where minutes.isFinite:
                    line += #"<c r="\#(ref)" s="\#(styles[i])"><v>\#(minutes / 1440)</v></c>"#
                case .duration: continue
                }
            }
            line += "</row>"
            try zip.write(line)
        }
        let last = "\(Self.column(max(columns.count - 1, 0)))\(count)"
        var tail = #"</sheetData><autoFilter ref="A1:\#(last)"/>"#
        if let pageSetup {
            // Element order is the schema's: margins, then the page setup.
            tail += #"<pageMargins left="0.5" right="0.5" top="0.6" bottom="0.6" header="0.3" footer="0.3"/>"#
                + #"<pageSetup orientation="\#(pageSetup.orientation.rawValue)" scale="100"/>"#
                + #"<headerFooter><oddHeader>&amp;C&amp;A</oddHeader><oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter>"#
        }
        try zip.write(tail + "</worksheet>")
        sheets.append((title, count, columns.count, pageSetup))
    }

    /// Writes the workbook's other parts and publishes the file.
    public func close() throws {
        try part("[Content_Types].xml", #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#
            + sheets.indices.map { #"<Override PartName="/xl/worksheets/sheet\#($0 + 1).xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"# }.joined()
            + "</Types>")
        try part("_rels/.rels", #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#)
        var workbook = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>"#
        for (i, s) in sheets.enumerated() {
            workbook += #"<sheet name="\#(Self.xml(s.name))" sheetId="\#(i + 1)" r:id="rId\#(i + 1)"/>"#
        }
        workbook += "</sheets><definedNames>"
        for (i, s) in sheets.enumerated() {
            // The autofilter's range, as spreadsheet programs record it.
            let quoted = "'" + Self.xml(String(s.name.flatMap { $0 == "'" ? ["'", "'"] : [$0] })) + "'"
            workbook += #"<definedName name="_xlnm._FilterDatabase" localSheetId="\#(i)" hidden="1">\#(quoted)!$A$1:$\#(Self.column(max(s.columns - 1, 0)))$\#(s.rows)</definedName>"#
            if let titles = s.page?.printTitles(sheet: quoted, columns: s.columns) {
                workbook += #"<definedName name="_xlnm.Print_Titles" localSheetId="\#(i)">\#(titles)</definedName>"#
            }
        }
        try part("xl/workbook.xml", workbook + "</definedNames></workbook>")
        try part("xl/_rels/workbook.xml.rels", #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
            + sheets.indices.map { #"<Relationship Id="rId\#($0 + 1)" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet\#($0 + 1).xml"/>"# }.joined()
            + #"<Relationship Id="rId\#(sheets.count + 1)" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#)
        try part("xl/styles.xml", stylesXML)
        try zip.close()
    }

    /// Removes the unfinished file.
    public func abort() { zip.abort() }

    // MARK: styles

    /// The cell style (index in `cellXfs`) of a kind: 0 default, 1 the header, then one per format.
    private func style(for kind: SheetColumn.Kind) -> Int {
        if let s = styleOf[kind] { return s }
        let format: Int
        switch kind {
        case .text: format = 0
        case .number(let places): format = places == 0 ? 1 : places == 2 ? 2 : customFormat("0." + String(repeating: "0", count: places))
        case .date: format = customFormat("yyyy-mm-dd")
        case .dateTime: format = customFormat("yyyy-mm-dd hh:mm:ss")
        case .grouped(let places): format = places == 0 ? 3 : places == 2 ? 4 : customFormat("#,##0." + String(repeating: "0", count: places))
        case .localDateTime: format = customFormat("yyyy-mm-dd hh:mm")
        case .duration: format = customFormat("[h]:mm")
        }
        styleFormats.append(format)
        styleOf[kind] = 1 + styleFormats.count
        return 1 + styleFormats.count
    }

    private func customFormat(_ code: String) -> Int {
        if let i = formats.firstIndex(of: code) { return 164 + i }
        formats.append(code)
        return 163 + formats.count
    }

    private var stylesXML: String {
        var s = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
        if !formats.isEmpty {
            s += #"<numFmts count="\#(formats.count)">"#
                + formats.enumerated().map { #"<numFmt numFmtId="\#(164 + $0)" formatCode="\#(Self.xml($1))"/>"# }.joined() + "</numFmts>"
        }
        s += #"<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>"#
            + #"<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>"#
            + #"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#
            + #"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#
            + #"<cellXfs count="\#(2 + styleFormats.count)"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#
            + #"<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>"#
            + styleFormats.map { #"<xf numFmtId="\#($0)" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"# }.joined()
            + #"</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"#
        return s
    }

    // MARK: helpers

    private func part(_ name: String, _ text: String) throws {
        try zip.begin(name)
        try zip.write(text)
    }

    /// `A`, `B`, … `Z`, `AA` … for a 0-based column.
    static func column(_ index: Int) -> String {
        var n = index + 1, out = ""
        while n > 0 {
            let r = (n - 1) % 26
            out = String(UnicodeScalar(UInt8(65 + r))) + out
            n = (n - 1) / 26
        }
        return out
    }

    /// A sheet name as spreadsheets allow it: no `[]:*?/\`, at most 31 characters.
    static func sheetName(_ name: String) -> String {
        String(name.map { "[]:*?/\\".contains($0) ? "_" : $0 }.prefix(31))
    }

    /// Text for XML, with what XML 1.0 forbids (most control characters) dropped.
    static func xml(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            default: if c.value >= 0x20 { out.unicodeScalars.append(c) }
            }
        }
        return out
    }
}
