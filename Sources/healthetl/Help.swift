import HealthPipeline

/// The help texts, generated from each command's declarations (`Command`, `ArgumentSpec`).
enum Help {
    /// `healthetl import EXPORT [--out DIR] [--full] …`
    static func usageLine(_ command: String, _ spec: ArgumentSpec) -> String {
        (["usage: healthetl", command] + spec.positionals.map { $0.optional ? "[\($0.name)]" : $0.name }
            + spec.options.map { "[\($0.synopsis)]" }).joined(separator: " ")
    }

    /// `healthetl help CMD`, `healthetl CMD --help`.
    static func text(of command: any Command.Type) -> String {
        var lines = ["healthetl \(command.name): \(command.abstract)", "", usageLine(command.name, command.spec)]
        let width = (command.spec.positionals.map(\.name.count) + command.spec.options.map(\.synopsis.count) + [10]).max()! + 2
        func row(_ left: String, _ right: String) -> String {
            "  " + left + String(repeating: " ", count: max(1, width - left.count)) + right
        }
        if !command.spec.positionals.isEmpty {
            lines += ["", "arguments:"] + command.spec.positionals.map { row($0.name, $0.help) }
        }
        lines += ["", "options:"] + command.spec.options.map { row($0.synopsis, $0.help) } + [row("-h, --help", "show this help")]
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        return lines.joined(separator: "\n")
    }

    /// `healthetl`, `healthetl --help`, `healthetl help`.
    static func overview(_ commands: [any Command.Type]) -> String {
        let width = commands.map { $0.name.count }.max()! + 2
        var lines = ["healthetl \(Release.version): Apple Health exports into a SQLite store, CSV, Parquet, a workbook and a report",
                     "", "usage: healthetl COMMAND [ARGUMENTS] [OPTIONS]", "", "commands:"]
        lines += commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.abstract }
        lines += ["  help" + String(repeating: " ", count: max(1, width - 4)) + "show a command's arguments and options (healthetl help COMMAND)",
                  "", "options:", "  --version   print the version, the commit it was built from and its C libraries (--json: as JSON)", "  -h, --help  show this help", "",
                  "healthetl help COMMAND (or healthetl COMMAND --help) shows what a command takes; healthetl help --man prints the manual page."]
        return lines.joined(separator: "\n")
    }
}
