/// A Parquet file that could not be written as asked: a schema or row that breaks the format's
/// rules, a closed writer used again, a compressor failure. (File system failures are
/// `FileError`s.) A command line exits with EX_SOFTWARE (70): these are the program's faults.
public struct ParquetError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }

    public var exitCode: Int32 { 70 }
}
