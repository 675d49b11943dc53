import Foundation
import HealthCore

// Health data is private: every file this process creates is 0600, every folder 0700.
umask(0o077)
// A file-size limit (ulimit -f) must not kill the process without a word: with SIGXFSZ
// ignored, the write fails with EFBIG and is reported as an I/O error (74), naming the file.
signal(SIGXFSZ, SIG_IGN)

let commands: [any Command.Type] = [ImportCommand.self, ImportAllCommand.self, PeopleCommand.self, ReportCommand.self, QueryCommand.self,
                                     ReplCommand.self, MCPCommand.self, StatusCommand.self, ResetCommand.self]

let usage = "usage:\n" + commands.map { "  " + $0.usage }.joined(separator: "\n")

let arguments = CommandLine.arguments
guard arguments.count >= 2, let command = commands.first(where: { $0.name == arguments[1] }) else {
    if arguments.count >= 2, ["-h", "--help", "help"].contains(arguments[1]) {
        print(usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("healthetl: \(arguments.count < 2 ? "missing command" : "unknown command '\(arguments[1])'")\n\(usage)\n".utf8))
    exit(64)
}

do {
    let parsed = try ArgumentParser.parse(arguments.dropFirst(2), spec: command.spec, command: command.name)
    try command.run(parsed)
    exit(0)
} catch let error as any SysexitsError {
    FileHandle.standardError.write(Data("healthetl: \(error.description)\n".utf8))
    exit(error.exitCode)
} catch {
    FileHandle.standardError.write(Data("healthetl: internal error: \(error)\n".utf8))
    exit(70)
}
