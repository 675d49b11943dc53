import Foundation
import HealthCore
import HealthPipeline

// Health data is private: every file this process creates is 0600, every folder 0700.
umask(0o077)
// A file-size limit (ulimit -f) must not kill the process without a word: with SIGXFSZ
// ignored, the write fails with EFBIG and is reported as an I/O error (74), naming the file.
signal(SIGXFSZ, SIG_IGN)
#if canImport(Glibc)
// glibc's allocator keeps what a thread freed in that thread's arena (up to 8 per core) and
// raises its mmap threshold each time a large block is freed, so after the load the buffers
// of finished stages stay resident: 163 MB peak at four years of data. Two arenas and large
// blocks (≥ 4 MiB: batches, spill buffers, row groups) always mapped, so returned on free:
// 150 MB, at the same system time (docs/PERFORMANCE.md).
// A fixed mmap threshold also fixes the trim threshold at its default, 128 KiB: an arena gave
// back its top whenever that much was free, and the next batch faulted the pages in again,
// zeroed: 41,000 page faults in a year's import, and 7% of its CPU samples in them and in giving
// the pages back. 8 MiB halves the faults, at 1–3 MiB of peak (issue 62).
// (<malloc.h> is not in Swift's Glibc module: its constants are taken from there.)
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
let arenaMax: Int32 = -8, mmapThreshold: Int32 = -3, trimThreshold: Int32 = -1   // M_ARENA_MAX, M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
_ = mallopt(arenaMax, 2)
_ = mallopt(mmapThreshold, 4 << 20)
_ = mallopt(trimThreshold, 8 << 20)
#endif

/// Parses the command line, runs the command, and exits with its sysexits code.
enum Main {
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("healthetl: \(message)\n".utf8))
        exit(64)
    }

    static func didYouMean(_ word: String, _ names: [String]) -> String {
        Suggestion.closest(to: word, in: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// `healthetl help [COMMAND]`, or `COMMAND --help`: printed on stdout, exit 0.
    static func printHelp(_ name: String?, _ commands: [any Command.Type]) -> Never {
        if let name {
            let found = commands.first { $0.name == name }
            if found == nil { fail("help: no command '\(name)'" + didYouMean(name, commands.map { $0.name })) }
            print(Help.text(of: found!))
        } else {
            print(Help.overview(commands))
        }
        exit(0)
    }

    static func run(_ arguments: [String], _ commands: [any Command.Type]) -> Never {
        if arguments.isEmpty { fail("missing command\n\n" + Help.overview(commands)) }
        let first = arguments[0]
        if first == "-h" || first == "--help" { printHelp(nil, commands) }
        if first == "help" && arguments.dropFirst().first == "--man" {
            print(ManPage.roff(commands), terminator: "")
            exit(0)
        }
        if first == "help" { printHelp(arguments.dropFirst().first, commands) }
        if first == "--version" || first == "version" {
            let rest = arguments.dropFirst()
            guard rest.isEmpty || Array(rest) == ["--json"] else { fail("--version takes only --json") }
            print(rest.isEmpty ? VersionText.text : VersionText.json)
            exit(0)
        }
        let found = commands.first { $0.name == first }
        if found == nil {
            fail("unknown command '\(first)'" + didYouMean(first, commands.map { $0.name } + ["help"]) + "; healthetl help lists the commands")
        }
        let command = found!
        // `--help` anywhere before a lone `--` asks for the command's help instead of running it.
        let rest = arguments.dropFirst()
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) { printHelp(command.name, commands) }
        do {
            let parsed = try ArgumentParser.parse(rest, spec: command.spec, command: command.name)
            try command.run(parsed)
            exit(0)
        } catch let error as any SysexitsError {
            FileHandle.standardError.write(Data("healthetl: \(error.description)\n".utf8))
            exit(error.exitCode)
        } catch {
            FileHandle.standardError.write(Data("healthetl: internal error: \(error)\n".utf8))
            exit(70)
        }
    }
}

Main.run(Array(CommandLine.arguments.dropFirst()), Commands.all)
