import ArgumentParser
import Foundation
import Glibc
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import Logging

/// `intercomd run`: the agent itself, as systemd starts it. It never starts with a partial or invalid config.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the device agent (as systemd does).",
        discussion: "Exits 1 without starting anything when the configuration has problems (see `intercomd check`)."
    )

    @Option(name: .long, help: "Configuration file (default: $INTERCOM_CONFIG or /etc/intercom/intercom.toml).")
    var config: String?

    func run() async throws {
        // A closed stdout/stderr pipe (journald restarting, a pager quitting) must not kill the agent.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let loader = ConfigLoader(environment: environment)
        let mainPath = loader.mainPath(explicit: config)
        let configuration: IntercomConfiguration
        do {
            switch try loader.load(mainPath: mainPath) {
            case .valid(let valid, _):
                configuration = valid
            case .invalid(let problems, _):
                for problem in problems { Terminal.error(problem.description) }
                Terminal.error("intercomd: \(problems.count) configuration problem(s) in \(mainPath); not starting")
                throw ExitCode(1)
            }
        } catch let error as ConfigUnreadableError {
            Terminal.error("intercomd: \(error); not starting")
            throw ExitCode(2)
        }
        LoggingBootstrap.bootstrap(
            level: .init(rawValue: configuration.logging.level.rawValue) ?? .info,
            rateLimitPerMinute: configuration.logging.rateLimitPerMinute)
        do {
            try await AgentRuntime(configuration: configuration, environment: environment).run()
        } catch let error as SystemCallError {
            Terminal.error("intercomd: \(error)")
            throw ExitCode(1)
        }
    }
}
