import ArgumentParser
import Foundation
import IntercomConfig
import IntercomPlatform

/// `intercomd check`: validates a configuration and prints every problem with its key path and file:line.
/// Exit status: 0 valid, 1 invalid, 2 unreadable.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a configuration; print every problem with its key path and file:line.",
        discussion: "Reads the file and every conf.d/*.toml beside it, in name order. Exit status: 0 valid, 1 invalid, 2 unreadable."
    )

    @Option(name: .long, help: "Configuration file (default: $INTERCOM_CONFIG or /etc/intercom/intercom.toml).")
    var config: String?

    @Argument(help: "Configuration file, as an alternative to --config.")
    var path: String?

    @Option(name: .long, help: "Extra overlay file applied after conf.d (repeatable), e.g. a device file of a fleet.")
    var overlay: [String] = []

    @Flag(name: .long, help: "Do not require secret files to exist here (checking a configuration for another machine).")
    var skipSecrets = false

    func validate() throws {
        if config != nil, path != nil { throw ValidationError("give the file either as an argument or with --config, not both") }
    }

    func run() throws {
        let loader = ConfigLoader(environment: ProcessInfo.processInfo.environment, checksSecretFiles: !skipSecrets)
        let mainPath = loader.mainPath(explicit: config ?? path)
        let result: ConfigLoadResult
        do {
            var sources = try loader.readSources(mainPath: mainPath)
            for extra in overlay { sources.append(try ConfigLoader.readSource(extra)) }
            result = loader.load(sources)
        } catch {
            Terminal.error("intercomd check: \(error)")
            throw ExitCode(2)
        }
        switch result {
        case .valid(let configuration, let files):
            print("\(mainPath): valid (\(files.count) file\(files.count == 1 ? "" : "s"): \(files.joined(separator: ", ")))")
            print(ConfigSummary.lines(configuration).map { "  " + $0 }.joined(separator: "\n"))
        case .invalid(let problems, let files):
            for problem in problems { Terminal.error(problem.description) }
            Terminal.error("\(mainPath): \(problems.count) problem\(problems.count == 1 ? "" : "s") in "
                + "\(files.count) file\(files.count == 1 ? "" : "s"); the agent will not start with this configuration")
            throw ExitCode(1)
        }
    }
}
