import CZlib

/// The zlib this process runs with (its own report, which may be newer than the headers built against).
public enum Zlib {
    public static var version: String { String(cString: zlibVersion()) }
}
