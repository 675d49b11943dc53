import Foundation
import HealthCore
import HealthPeople

/// `healthetl completions bash|zsh|fish`: the shell's completion script, generated from the
/// commands' declarations. `completions zones` and `completions people [--out DIR]` print the
/// words those scripts offer after `--timezone` and `--person`, one a line.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "print shell completions (bash, zsh, fish), or the zones and people they offer"
    static let discussion = """
        make install puts the scripts where bash-completion, zsh and fish look for them. By hand:
          healthetl completions bash > ~/.local/share/bash-completion/completions/healthetl
          healthetl completions zsh > "${fpath[1]}/_healthetl"
          healthetl completions fish > ~/.config/fish/completions/healthetl.fish
        """
    static let spec = ArgumentSpec(
        positionals: [Positional(name: "WHAT", help: "bash, zsh or fish (a script); zones or people (the words offered)",
                                 kind: .words(Completions.Shell.allCases.map(\.rawValue) + ["zones", "people"]))],
        options: [.out])

    static func run(_ args: ParsedArguments) throws {
        let what = args.positionals[0]
        if let shell = Completions.Shell(rawValue: what) {
            print(Completions.script(for: shell, Commands.all), terminator: "")
        } else if what == "zones" {
            print(TimeZone.knownTimeZoneIdentifiers.sorted().joined(separator: "\n"))
        } else if what == "people" {
            let ids = People(root: args.root).ids().map(\.rawValue)
            if !ids.isEmpty { print(ids.joined(separator: "\n")) }
        } else {
            throw HealthETLError.usage("completions: '\(what)' is none of bash, zsh, fish, zones, people" + Main.didYouMean(what, ["bash", "zsh", "fish", "zones", "people"]))
        }
    }
}
