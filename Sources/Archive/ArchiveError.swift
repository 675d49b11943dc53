/// An archive that could not be read or written, with the message a person reads and the
/// sysexits code a command line exits with. (This library knows archives, not what is in them.)
public struct ArchiveError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The file cannot be opened or is no file (EX_NOINPUT, 66).
        case cannotOpen
        /// Not a (complete, supported) archive, or a damaged entry (EX_DATAERR, 65).
        case unusable
        /// An archive that inflates far more than real data can: refused whole, wherever it is
        /// found, even by a reader that skips a damaged entry (EX_DATAERR, 65).
        case bomb
        /// A read failed (EX_IOERR, 74).
        case io
        /// zlib failed, or the archive would break a limit of its format (EX_SOFTWARE, 70).
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
        case .cannotOpen: 66
        case .unusable, .bomb: 65
        case .io: 74
        case .unexpected: 70
        }
    }
}
