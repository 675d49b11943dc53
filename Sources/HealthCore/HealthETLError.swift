/// A failure the user can see: its message and the sysexits code the command line exits with
/// (README.md, exit codes). `HealthETLError` is one; the general libraries (SQLite, Parquet, private
/// files) have their own error types, which know nothing of this module, with the same two
/// properties, and the modules that use them declare the conformance.
public protocol SysexitsError: Error, CustomStringConvertible {
    var exitCode: Int32 { get }
}

/// Every failure of the health pipeline the user can see, with its sysexits code.
public enum HealthETLError: SysexitsError, Sendable, Equatable {
    case usage(String)
    /// Not a Health export, or not well-formed beyond repair (names file, line, column).
    case dataUnusable(String)
    case inputMissing(String)
    case cannotCreateOutput(String)
    case io(String)
    /// Another run holds the output folder's lock.
    case locked(String)
    case `internal`(String)

    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .dataUnusable: 65
        case .inputMissing: 66
        case .cannotCreateOutput: 73
        case .io: 74
        case .locked: 75
        case .internal: 70
        }
    }

    public var description: String {
        switch self {
        case .usage(let m), .dataUnusable(let m), .inputMissing(let m), .cannotCreateOutput(let m),
             .io(let m), .locked(let m), .internal(let m): m
        }
    }
}

extension Optional {
    /// The value, or an internal error: for invariants the code itself guarantees.
    public func orThrow(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let value = self else { throw HealthETLError.internal(message()) }
        return value
    }
}
