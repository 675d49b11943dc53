import HealthCore
/// The options more than one command takes, each declared once with its help text.
extension Option {
    static let out = Option("out", value: "DIR", help: "the output folder (default: ./out, or the pipeline's \"out\")")
    static let person = Option("person", value: "ID",
                               help: "one person's folder, OUT/people/ID (letters, digits, - and _, not starting with -; at most 64)")
    static let pipeline = Option("pipeline", value: "FILE",
                                 help: "a pipeline definition (default: pipelines/default.json where it exists)")
    static let timezone = Option("timezone", value: "ZONE",
                                 help: "the IANA zone of local days (default: the person's or the pipeline's, else the export's)")
    static let localDays = Option("local-days", value: "where-recorded|zone",
                                  help: "where-recorded (days local to where you were: the default without a zone) or zone (every day in one zone)")
    static let full = Option("full", help: "rebuild the store from this export instead of adding to it")
    static let samePerson = Option("same-person",
                                   help: "an export of the platform this store lacks is the same person's (a switch of phones), where its data cannot tell")
    static let quiet = Option("quiet", help: "print nothing but errors (for cron)")
    static let json = Option("json", help: "print the result as JSON on stdout")
    static let now = Option("now", value: "DATE",
                            help: "what today() and relative periods mean (default: the export's last complete day)")
    static let timeLimit = Option("time-limit", value: "SECONDS", help: "stop a query that runs longer, its reading and planning included")
    static let yes = Option("yes", help: "really remove (without it: list what would go, change nothing)")
}

extension ParsedArguments {
    /// `--time-limit SECONDS` (0 to 3600), or `fallback` when not given.
    func timeLimit(_ command: String, default fallback: Double?) throws -> Double? {
        guard let text = option("time-limit") else { return fallback }
        guard let limit = Double(text), limit > 0, limit <= 3600 else {
            throw HealthETLError.usage("\(command): --time-limit must be a number of seconds (0 to 3600), not '\(text)'")
        }
        return limit
    }
}
