/// A workbook that could not be written as asked (file errors are `FileError`s). Exit code 70.
public struct SpreadsheetError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var exitCode: Int32 { 70 }
}
