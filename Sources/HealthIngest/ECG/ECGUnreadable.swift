/// Why an ECG file cannot be used: no recorded date, no voltages, a hostile size. The file is
/// skipped and named in the run summary; it never stops the import.
package struct ECGUnreadable: Error, Equatable, Sendable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}
