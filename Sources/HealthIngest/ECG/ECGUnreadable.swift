/// Why an ECG file cannot be used: no recorded date, no voltages, a hostile size. The file is
/// skipped and named in the run summary; it never stops the import.
public struct ECGUnreadable: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
