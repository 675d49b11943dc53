import Foundation
import HealthCore
import HealthMCP
import HealthPeople
import HealthQL

/// `healthetl mcp [--out DIR] [--person ID] [--now DATE] [--time-limit SECONDS]`: the store as a
/// Model Context Protocol server on stdio, for AI assistants (docs/HEALTHQL.md, "MCP").
enum MCPCommand: Command {
    static let name = "mcp"
    static let abstract = "serve the store read-only to AI assistants (Model Context Protocol on stdio)"
    static let discussion = "Register it with an MCP client as a stdio server: command healthetl, args [\"mcp\", \"--out\", \"DIR\"]."
    static let spec = ArgumentSpec(options: [
        .out, .person, .now,
        Option("time-limit", value: "SECONDS", help: Option.timeLimit.help + " (default 10)"),
    ])

    static func run(_ args: ParsedArguments) throws {
        let root = args.root
        let limit = try args.timeLimit(name, default: 10) ?? 10
        let people = People(root: root)
        // The default store must be there now: an assistant started on a wrong folder should fail loudly, at once.
        let defaultStore = try args.storePath
        guard FileManager.default.fileExists(atPath: defaultStore) else {
            if let person = try args.person, !people.exists(person) {
                throw HealthETLError.inputMissing("no person '\(person.rawValue)' in \(root) (healthetl people list)")
            }
            throw HealthETLError.inputMissing("\(defaultStore): no store here (run `healthetl import` first)")
        }
        let configuration = MCPServer.Configuration(
            defaultPerson: try args.person?.rawValue, timeLimit: limit, now: args.option("now"),
            storePath: { name in
                guard let name else { return defaultStore }
                guard let id = try? PersonID(name), people.exists(id) else {
                    let known = people.ids().map(\.rawValue)
                    throw HealthETLError.inputMissing("no person '\(name)' in \(root)"
                                                      + (known.isEmpty ? " (it has no people)" : " (people: \(known.joined(separator: ", ")))"))
                }
                return people.outputFolder(of: id).path + "/health.sqlite"
            },
            people: { people.ids().map(\.rawValue) })
        let server = MCPServer(configuration: configuration)
        do {
            try server.openDefaultStore()
        } catch let error as HealthQLError {
            throw HealthETLError.usage("mcp: " + error.message)
        }
        FileHandle.standardError.write(Data("healthetl mcp: serving \(defaultStore) read-only on stdio\n".utf8))
        server.serve()
    }
}
