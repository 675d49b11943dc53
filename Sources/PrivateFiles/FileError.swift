/// A file that could not be created, written or read, with the message a person reads and the
/// sysexits code a command line exits with. (This library knows files, not what is in them.)
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The file could not be created (EX_CANTCREAT, 73).
        case cannotCreate
        /// A write, sync, rename or read failed: a full disk, an I/O error (EX_IOERR, 74).
        case io
        /// The caller used a file it had already closed (EX_SOFTWARE, 70).
        case unexpected
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    public var exitCode: Int32 {
        switch kind {
        case .cannotCreate: 73
        case .io: 74
        case .unexpected: 70
        }
    }
}
