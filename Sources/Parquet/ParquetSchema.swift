
/// The column types the writer supports, each mapped onto a Parquet physical type and,
/// where it has one, a logical type.
public enum ParquetType: Sendable, Hashable {
    /// INT32.
    case int32
    /// INT64.
    case int64
    /// DOUBLE.
    case double
    /// BOOLEAN.
    case boolean
    /// BYTE_ARRAY with logical type STRING (converted type UTF8).
    case string
    /// INT32 days since 1970-01-01, logical type DATE.
    case date
    /// INT64 microseconds since 1970-01-01T00:00:00Z, logical type
    /// TIMESTAMP(isAdjustedToUTC = true, unit = MICROS) (converted type TIMESTAMP_MICROS).
    case timestampMicrosUTC
}

/// One column of a flat schema.
public struct ParquetColumn: Sendable, Hashable {
    public var name: String
    public var type: ParquetType
    /// OPTIONAL (nullable) rather than REQUIRED.
    public var optional: Bool
    /// Dictionary-encode the values (string columns only). Falls back to PLAIN for the rest
    /// of the file when a row group's dictionary outgrows its limits.
    public var dictionary: Bool

    public init(_ name: String, _ type: ParquetType, optional: Bool = false, dictionary: Bool = false) {
        self.name = name
        self.type = type
        self.optional = optional
        self.dictionary = dictionary
    }
}

/// How pages are compressed.
public struct ParquetCompression: Sendable, Hashable {
    /// 0 for UNCOMPRESSED, otherwise the zlib level (1…9) of GZIP.
    public let gzipLevel: Int32

    public static let none = ParquetCompression(gzipLevel: 0)
    /// GZIP at zlib level 1: fast, and level 6 is ~4× slower for ~3% smaller files.
    public static let gzip = ParquetCompression(gzipLevel: 1)
    public static func gzip(level: Int) -> ParquetCompression {
        ParquetCompression(gzipLevel: Int32(min(max(level, 1), 9)))
    }

    var codec: Int32 { gzipLevel == 0 ? ParquetThrift.Codec.uncompressed : ParquetThrift.Codec.gzip }
}

/// Enum values and field ids from `parquet.thrift` (apache/parquet-format).
enum ParquetThrift {
    enum PhysicalType {
        static let boolean: Int32 = 0, int32: Int32 = 1, int64: Int32 = 2, double: Int32 = 5, byteArray: Int32 = 6
    }
    enum ConvertedType {
        static let utf8: Int32 = 0, date: Int32 = 6, timestampMicros: Int32 = 10
    }
    enum Repetition {
        static let required: Int32 = 0, optional: Int32 = 1
    }
    enum Encoding {
        static let plain: Int32 = 0, rle: Int32 = 3, deltaBinaryPacked: Int32 = 5, rleDictionary: Int32 = 8
    }
    enum Codec {
        static let uncompressed: Int32 = 0, gzip: Int32 = 2
    }
    enum PageType {
        static let dataPage: Int32 = 0, dictionaryPage: Int32 = 2
    }
}

/// How a column's values are held in memory and laid out in PLAIN encoding.
enum ParquetStorage: Sendable, Equatable {
    case int32, int64, double, boolean, bytes

    init(_ type: ParquetType) {
        switch type {
        case .int32, .date: self = .int32
        case .int64, .timestampMicrosUTC: self = .int64
        case .double: self = .double
        case .boolean: self = .boolean
        case .string: self = .bytes
        }
    }
}

extension ParquetType {
    var physicalType: Int32 {
        switch self {
        case .int32, .date: ParquetThrift.PhysicalType.int32
        case .int64, .timestampMicrosUTC: ParquetThrift.PhysicalType.int64
        case .double: ParquetThrift.PhysicalType.double
        case .boolean: ParquetThrift.PhysicalType.boolean
        case .string: ParquetThrift.PhysicalType.byteArray
        }
    }

    var convertedType: Int32? {
        switch self {
        case .string: ParquetThrift.ConvertedType.utf8
        case .date: ParquetThrift.ConvertedType.date
        case .timestampMicrosUTC: ParquetThrift.ConvertedType.timestampMicros
        case .int32, .int64, .double, .boolean: nil
        }
    }

    /// Writes the `LogicalType` union, if the type has one.
    func writeLogicalType(_ w: inout ThriftCompactWriter) -> Bool {
        switch self {
        case .string:
            w.field(10, struct: { u in u.field(1, struct: { _ in }) })           // STRING: StringType {}
        case .date:
            w.field(10, struct: { u in u.field(6, struct: { _ in }) })           // DATE: DateType {}
        case .timestampMicrosUTC:
            w.field(10, struct: { u in
                u.field(8, struct: { t in                                      // TIMESTAMP: TimestampType
                    t.field(1, bool: true)                                     // isAdjustedToUTC
                    t.field(2, struct: { unit in unit.field(2, struct: { _ in }) })  // unit: MICROS
                })
            })
        case .int32, .int64, .double, .boolean:
            return false
        }
        return true
    }
}

extension ParquetColumn {
    /// `SchemaElement` of a leaf.
    func writeSchemaElement(_ w: inout ThriftCompactWriter) {
        w.writeStruct { e in
            e.field(1, i32: type.physicalType)
            e.field(3, i32: optional ? ParquetThrift.Repetition.optional : ParquetThrift.Repetition.required)
            e.field(4, string: name)
            if let converted = type.convertedType { e.field(6, i32: converted) }
            _ = type.writeLogicalType(&e)
        }
    }
}

/// Checks a schema before any file is created.
func validateParquetSchema(_ columns: [ParquetColumn]) throws {
    guard !columns.isEmpty else { throw ParquetError("parquet: a schema needs at least one column") }
    var seen = Set<String>()
    for c in columns {
        guard !c.name.isEmpty else { throw ParquetError("parquet: a column has an empty name") }
        guard seen.insert(c.name).inserted else {
            throw ParquetError("parquet: column name '\(c.name)' appears twice")
        }
        if c.dictionary && c.type != .string {
            throw ParquetError("parquet: column '\(c.name)': dictionary encoding is for string columns")
        }
    }
}
