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

    @Flag(name: .long, help: "Simulate the [gpio] buttons: type a (accept), A (long accept), h (hangup), c (call) or r (reply) and Enter on standard input. For a bench test of a device without buttons wired; the LEDs and the door relay are logged.")
    var keys = false

    func run() async throws {
        // A closed stdout/stderr pipe (journald restarting, a pager quitting) must not kill the agent.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let configuration = try AgentConfigurationLoading.load(explicit: config, environment: environment, action: "starting")
        LoggingBootstrap.bootstrap(
            level: .init(rawValue: configuration.logging.level.rawValue) ?? .info,
            rateLimitPerMinute: configuration.logging.rateLimitPerMinute)
        do {
            guard keys else {
                try await AgentRuntime(configuration: configuration, environment: environment).run()
                return
            }
            guard let gpio = configuration.gpio,
                  let panel = KeyboardButtonPanel(gpio: gpio, logger: Logger(label: "intercomd.keys")) else {
                Terminal.error("intercomd: --keys simulates the [gpio] buttons, and the configuration wires none")
                throw ExitCode(1)
            }
            Terminal.out("Buttons from standard input: \(panel.keyList), then Enter.")
            panel.readKeys()
            try await AgentRuntime(configuration: configuration, environment: environment, gpioBackend: panel.backend).run()
        } catch let error as SystemCallError {
            Terminal.error("intercomd: \(error)")
            throw ExitCode(1)
        }
    }
}
