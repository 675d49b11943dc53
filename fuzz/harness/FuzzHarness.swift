#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if FUZZING
/// libFuzzer's driver, for a `main` of our own (see `FuzzHarness.main`).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                 _ test: FuzzHarness.TestOneInput) -> CInt
#endif

/// What the fuzz targets share: their `main`, control bytes read from the front of an input,
/// and feeding a payload in chunks.
public enum FuzzHarness {
    /// A target's `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Every target's `main`. Built with -DFUZZING (`make fuzz`), it hands over to libFuzzer's
    /// driver. (libFuzzer's own `main` cannot be used: SwiftPM links an executable's `main` to
    /// the `@main` of its module, and without SwiftPM's --sanitize=fuzzer, which fuzz/run.sh
    /// cannot use, it insists on one.) A plain build replays the inputs named on the command
    /// line, so that a crash input reproduces without libFuzzer (and under a debugger).
    public static func main(_ test: TestOneInput) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
        #else
        replay { _ = test($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
        exit(0)
        #endif
    }

    /// The `main` of a target in a build where it cannot run: a release build without
    /// -enable-testing (`swift build -c release` of the whole package), where the target's
    /// `@testable import` is compiled out.
    public static func unavailable() -> Never {
        printError("\(CommandLine.arguments[0]): a release build without fuzzing support; replay inputs "
                   + "with a debug build (swift build) or fuzz with make fuzz")
        exit(70)
    }

    private static func replay(_ body: (UnsafeRawBufferPointer) -> Void) {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            printError("usage: \(CommandLine.arguments[0]) INPUT...  (runs the fuzz target on each input)")
            exit(64)
        }
        for path in paths {
            guard let bytes = readFile(path) else {
                printError("\(path): cannot read")
                exit(66)
            }
            bytes.withUnsafeBytes(body)
            print("\(path): ok")
        }
    }

    /// A line on standard error (descriptor 2: the C `stderr` variable is shared mutable state
    /// to Swift 6).
    public static func printError(_ line: String) {
        var text = Array((line + "\n").utf8)
        _ = write(2, &text, text.count)
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        return ferror(file) == 0 ? bytes : nil
    }

    /// Splits `input` into `count` chunk lengths taken from its first bytes and the payload
    /// after them, so that the fuzzer explores where chunk boundaries fall. A byte `b` is a
    /// chunk of `b + 1` bytes (1…255), but 255 is "the rest": a whole-document feed stays
    /// reachable. A short input is all control bytes and an empty payload.
    public static func chunks(_ input: UnsafeRawBufferPointer, count: Int) -> (lengths: [Int], payload: UnsafeRawBufferPointer) {
        let header = min(count, input.count)
        var lengths = (0..<header).map { input[$0] == 255 ? Int.max : Int(input[$0]) + 1 }
        if lengths.isEmpty { lengths = [Int.max] }
        return (lengths, UnsafeRawBufferPointer(rebasing: input[header...]))
    }

    /// Calls `body` with consecutive pieces of `payload`, cycling through `lengths`; an empty
    /// payload gives no call.
    public static func feed<Failure: Error>(_ payload: UnsafeRawBufferPointer, lengths: [Int],
                                            _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        var offset = 0, k = 0
        while offset < payload.count {
            let n = min(lengths[k % lengths.count], payload.count - offset)
            try body(UnsafeRawBufferPointer(rebasing: payload[offset..<offset + n]))
            offset += n
            k += 1
        }
    }

    /// An oracle of a target failed (two ways of reading the same bytes disagree): a finding,
    /// reported as a crash so that libFuzzer saves the input.
    public static func disagree(_ message: String) -> Never {
        printError("fuzz oracle: \(message)")
        abort()
    }
}
