import ArgumentParser
import Testing

@testable import meridian

@Suite("meridian's command tree")
struct CommandNamesTests {
    /// ArgumentParser builds the whole tree on every run; a command without `commandName` has its name made from
    /// its type's name with `String(describing:)`, whose casts scan every protocol conformance in the binary
    /// (a few milliseconds of each `meridian` start, `replay` and `flyers near` included).
    @Test("every command names itself")
    func everyCommandNamed() {
        var unnamed: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: String) {
            let configuration = command.configuration
            guard let name = configuration.commandName else {
                unnamed.append("\(path) > \(command)")
                return
            }
            for subcommand in configuration.subcommands { visit(subcommand, path: "\(path) \(name)") }
        }
        visit(Meridian.self, path: "")
        #expect(unnamed.isEmpty, "give these commands a commandName: \(unnamed)")
    }
}
