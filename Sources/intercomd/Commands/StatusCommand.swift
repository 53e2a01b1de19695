import ArgumentParser
import Foundation
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import ParseClient
import ParseWire

/// `intercomd status`: what the running agent says about itself, read from its `/health` (the address
/// `[metrics]` configures): backend and LiveQuery, the SIP registration, the call, warnings. For an installer
/// at the board and for scripts (`--json`, and the exit status).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the running agent's state: backend, SIP registration, call, warnings.",
        discussion: """
            Reads http://HOST:PORT/health of the agent that runs with the same configuration ([metrics] listen). \
            Exit status 0 when the agent is registered with the backend (and with the SIP registrar when [sip] \
            is configured); 4 when it runs but is not; 3 when nothing answers; 1 or 2 when the configuration \
            is invalid or unreadable.
            """
    )

    @Option(name: .long, help: "Configuration file (default: $INTERCOM_CONFIG or /etc/intercom/intercom.toml).")
    var config: String?

    @Flag(help: "Print /health's JSON as the agent sent it.")
    var json = false

    func run() async throws {
        let configuration = try AgentConfigurationLoading.load(
            explicit: config, environment: ProcessInfo.processInfo.environment, action: "asking")
        guard configuration.metrics.enabled else {
            Terminal.error("intercomd: [metrics] enabled = false, so the agent serves no /health to ask; not asking")
            throw ExitCode(2)
        }
        let baseURL = StatusReport.baseURL(host: configuration.metrics.host, port: configuration.metrics.port)
        let response: ParseHTTPResponse
        do {
            response = try await AsyncHTTPParseTransport().execute(
                ParseRequest(method: .get, path: "/health"), baseURL: baseURL, timeout: .seconds(3))
        } catch {
            Terminal.error("intercomd: not running (nothing answers at \(baseURL)/health: \(error))")
            throw ExitCode(3)
        }
        let report: HealthReport
        do {
            report = try JSONDecoder().decode(HealthReport.self, from: Data(response.body))
        } catch {
            Terminal.error("intercomd: \(baseURL)/health answered HTTP \(response.status) with something that is not the agent's health report (\(error)); is another program on [metrics] listen?")
            throw ExitCode(3)
        }
        if json {
            Terminal.out(String(decoding: response.body, as: UTF8.self))
        } else {
            Terminal.out(StatusReport.text(report, baseURL: baseURL))
        }
        if !StatusReport.isHealthy(report) { throw ExitCode(4) }
    }
}
