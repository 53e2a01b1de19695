import ArgumentParser
import Foundation
import Glibc
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import Logging

/// `intercomd demo`: the whole system on one machine for a newcomer (SYSTEM.md §10) — an `intercom-server`
/// on localhost (the executable next to `intercomd` or on PATH, run as a child process: `DemoServerProcess`)
/// and an agent that films the first camera (or the test pattern) and answers calls by itself. Prints the
/// web caller's URL; Ctrl-C stops both.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run intercom-server and a device agent on this machine, and print the web caller's URL."
    )

    @Option(help: "Port of the demo's intercom-server on 127.0.0.1 (0 picks a free one).")
    var port = 1337

    @Option(help: "The intercom-server executable (default: the one next to intercomd, else the first on PATH).")
    var server: String?

    @Option(help: "The device's title, as callers see it.")
    var title = "Intercom demo"

    @Option(help: "The device's latitude.")
    var latitude = 52.5200

    @Option(help: "The device's longitude.")
    var longitude = 13.4050

    @Option(help: "auto, button or auto-after.")
    var answer = "auto"

    @Option(help: "Video source: auto (first camera, else the test pattern) or test-pattern.")
    var video = "auto"

    @Option(help: "Directory for the demo's database and device state (default: a new temporary one).")
    var directory: String?

    @Option(help: "keyboard: the device's buttons are keys on standard input (a, h, c + Enter); none: no buttons.")
    var buttons = "keyboard"

    @Option(help: "Whom the call button calls: the nearest signed-in user with this name (e.g. Visitor).")
    var callName: String?

    @Option(help: "The microphone: tone (a 440 Hz test tone) or an ALSA capture device (default, hw:1,0, …).")
    var microphone = "tone"

    @Option(help: "Where the caller's voice plays: none, or an ALSA playback device (default, hw:0,0, …).")
    var speaker = "none"

    @Option(help: "The agent's metrics and health port (HOST:PORT).")
    var metrics = "127.0.0.1:9464"

    @Option(help: "An MQTT broker (mqtt://HOST[:PORT]) to publish Home Assistant entities to (docs/mqtt.md).")
    var mqtt: String?

    @Option(help: "The MQTT user name (with --mqtt).")
    var mqttUsername: String?

    @Option(help: "A file holding the MQTT password (with --mqtt-username).")
    var mqttPasswordFile: String?

    func validate() throws {
        guard ["auto", "button", "auto-after"].contains(answer) else { throw ValidationError("--answer: auto, button or auto-after") }
        guard ["auto", "test-pattern"].contains(video) else { throw ValidationError("--video: auto or test-pattern") }
        guard ["keyboard", "none"].contains(buttons) else { throw ValidationError("--buttons: keyboard or none") }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw ValidationError("--latitude is −90…90 and --longitude −180…180")
        }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        LoggingBootstrap.bootstrap(level: .info)
        let logger = Logger(label: "intercomd demo")
        let workDirectory = directory ?? NSTemporaryDirectory() + "intercom-demo-\(getpid())"
        try FileManager.default.createDirectory(atPath: workDirectory + "/state", withIntermediateDirectories: true)

        let environment = ProcessInfo.processInfo.environment
        // Errors below print as "Error: <description>" (no usage text: nothing is wrong with the options).
        let executable = try DemoServerProcess.locate(explicit: server, environment: environment)
        let serverProcess = try DemoServerProcess.start(
            executable: executable, port: port, database: workDirectory + "/server.sqlite", environment: environment)
        let startupSignals = serverProcess.stopOnSignals()
        defer { for source in startupSignals { source.cancel() } }
        do {
            try await runAgent(server: serverProcess, workDirectory: workDirectory, logger: logger)
        } catch {
            serverProcess.stop()
            throw error
        }
        // Said after the agent's "stopped": how long the server took (a slow stop shows here, not as a mystery).
        let outcome = serverProcess.stop()
        if case .killed = outcome { logger.warning("\(outcome)") } else { logger.info("\(outcome)") }
    }

    /// Waits for the server, writes the demo's configuration, prints the banner and runs the agent until it
    /// ends (Ctrl-C).
    private func runAgent(server serverProcess: DemoServerProcess, workDirectory: String, logger: Logger) async throws {
        let boundPort = try await serverProcess.waitUntilReady(timeout: .seconds(30))
        logger.info("intercom-server is up", metadata: ["pid": "\(serverProcess.pid)", "port": "\(boundPort)",
                                                        "executable": "\(serverProcess.executable)"])

        let configPath = workDirectory + "/intercom.toml"
        try demoConfiguration(port: boundPort, state: workDirectory + "/state")
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        let configuration: IntercomConfiguration
        switch try ConfigLoader(environment: environment).load(mainPath: configPath) {
        case .valid(let valid, _):
            configuration = valid
        case .invalid(let problems, _):
            // An option's value reached the configuration unchecked (e.g. --metrics 127.0.0.1:0): say which.
            throw ValidationError("the demo's options make an invalid configuration (\(configPath)): "
                                  + problems.map(\.description).joined(separator: "; "))
        }
        let panel = KeyboardButtonPanel(demoLogger: logger)
        Terminal.out("""

            Intercom demo is running.
              web caller:  http://127.0.0.1:\(boundPort)/
              the device:  "\(title)" at \(latitude), \(longitude), answers \(answer), \
            \(MediaService.Settings.describe(configuration.video)), \
            \(MediaService.Settings.endpoints(configuration.audio).0), \(MediaService.Settings.endpoints(configuration.audio).1)
              metrics:     http://\(metrics)/metrics and /health
            Open the web caller in a browser, sign in with a name and a location near the device, and call it.
            \(buttons == "keyboard" ? KeyboardButtonPanel.help(callName: callName) : "No buttons (--buttons none).")
            Files: \(workDirectory). Ctrl-C stops both.

            """)
        if buttons == "keyboard" { panel.readKeys() }
        serverProcess.handOverSignals()
        try await AgentRuntime(configuration: configuration, environment: environment, gpioBackend: panel.backend).run()
    }

    /// The demo's canned reply (`[call] replies`), sent by the reply key.
    static let reply = "Please leave the parcel at the door"

    /// A value for a TOML basic string (the demo's options are not meant to carry quotes).
    static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "\"", with: "'") }

    func demoConfiguration(port: Int, state: String) -> String {
        """
        [identity]
        title = "\(title.replacingOccurrences(of: "\"", with: "'"))"
        latitude = \(latitude)
        longitude = \(longitude)

        [backend]
        server_url = "http://127.0.0.1:\(port)/parse"

        [call]
        answer = "\(answer)"
        allow_door_open = true
        replies = ["\(Self.reply)"]
        \(callName.map { "[call.target]\ntitle = \"\($0.replacingOccurrences(of: "\"", with: "'"))\"\nradius_km = 50" } ?? "")

        [audio]
        capture = "\(microphone.replacingOccurrences(of: "\"", with: "'"))"
        playback = "\(speaker.replacingOccurrences(of: "\"", with: "'"))"

        [metrics]
        listen = "\(metrics)"
        \(buttons == "keyboard" ? KeyboardButtonPanel.demoWiring : "")

        [video]
        source = "\(video)"

        [state]
        directory = "\(state)"
        \(mqtt.map { "\n[mqtt]\nbroker = \"\(Self.quoted($0))\"" } ?? "")
        \(mqtt != nil ? mqttUsername.map { "username = \"\(Self.quoted($0))\"" } ?? "" : "")
        \(mqtt != nil ? mqttPasswordFile.map { "password_file = \"\(Self.quoted($0))\"" } ?? "" : "")
        """
    }
}
