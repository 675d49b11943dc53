import Foundation

/// The terminal's settings before raw mode, for the signal handlers (which can take no context).
/// Written only while no handler can read them: before `rawMode` is set. Both are allocated
/// (by stride, 60 bytes), not Swift values: Swift imports `termios` at 57 bytes and glibc's
/// `tcgetattr` writes all 60 of its C size, past the end of a Swift global (AddressSanitizer).
nonisolated(unsafe) private let cookedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let rawSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
/// Whether the terminal is in raw mode now: what a signal handler checks before restoring it.
nonisolated(unsafe) private var rawMode: sig_atomic_t = 0
/// The actions the handlers replaced, by signal number, so a signal still does what it did
/// (Swift's backtracer on a trap, the default action otherwise) once the terminal is restored.
nonisolated(unsafe) private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))

/// Raw mode for the line editor, and its undoing: after each line, and on a signal that ends the
/// process while a line is read (issue 56: a trap in the editor left the terminal without echo,
/// and so did `kill`). SIGKILL cannot be caught: `stty sane` is the remedy then.
enum RawTerminal {
    /// The signals that end a process, by a trap (a Swift runtime check) or from outside.
    private static let fatalSignals = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGTERM, SIGHUP, SIGQUIT]
    nonisolated(unsafe) private static var handlersInstalled = false

    /// Keystrokes one by one, no echo, Ctrl-C as a byte; output processing stays on ("\n" → "\r\n").
    static func enable() {
        guard tcgetattr(STDIN_FILENO, cookedSettings) == 0 else { return }
        installHandlers()
        rawSettings.update(from: cookedSettings, count: 1)
        rawSettings.pointee.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        rawSettings.pointee.c_iflag &= ~tcflag_t(IXON | ICRNL)
        rawMode = 1
        tcsetattr(STDIN_FILENO, TCSANOW, rawSettings)
    }

    static func restore() {
        guard rawMode != 0 else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, cookedSettings)
        rawMode = 0
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                // Only async-signal-safe calls: tcsetattr, sigaction, raise.
                if rawMode != 0 { tcsetattr(STDIN_FILENO, TCSANOW, cookedSettings); rawMode = 0 }
                sigaction(signal, previousActions + Int(signal), nil)
                // A trap returns to its instruction, which traps again into the previous action;
                // a signal sent by a process (si_code <= 0) is sent again, to the same end.
                if info?.pointee.si_code ?? 0 <= 0 { raise(signal) }
            }
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previousActions + Int(signal))
        }
    }
}
