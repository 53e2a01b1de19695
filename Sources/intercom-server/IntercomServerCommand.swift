import ArgumentParser
import Foundation
import IntercomBuildInfo
import IntercomPlatform
import IntercomServer
import Logging

/// `intercom-server`: the self-hosted backend. With no options and no environment it listens on
/// 127.0.0.1:1337 with application id `intercom` and keeps its data in `./intercom-server.sqlite`
/// (SYSTEM.md §10). Secrets come from the environment (see `ServerConfiguration.apply(environment:)`).
@main
struct IntercomServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intercom-server",
        abstract: "Self-hosted Intercom backend: Parse-compatible REST subset, LiveQuery, session signaling and the web caller.",
        discussion: """
            Environment: INTERCOM_SERVER_DB, INTERCOM_APP_ID, INTERCOM_CLIENT_KEY, INTERCOM_MASTER_KEY (loopback only), \
            INTERCOM_TOKEN_KEYS (kid=secret,… newest first), INTERCOM_SIGNAL_URL, INTERCOM_STUN_URLS, \
            INTERCOM_TURN_URLS, INTERCOM_TURN_SECRET, INTERCOM_HEARTBEAT_SECONDS, INTERCOM_RING_SECONDS, \
            INTERCOM_TOKEN_SECONDS, INTERCOM_RATE_LIMIT (perSecond/burst or off), INTERCOM_MAX_VIEWERS, INTERCOM_WEB_ROOT, \
            INTERCOM_PUBLIC_URL, INTERCOM_TRUSTED_PROXIES and INTERCOM_MASTER_KEY_IPS (CIDRs), INTERCOM_MAX_CONNECTIONS, \
            INTERCOM_IDLE_TIMEOUT_SECONDS, INTERCOM_TLS_CERT_FILE and INTERCOM_TLS_KEY_FILE (HTTPS; SIGHUP reloads them). \
            Limits and the proxy setup: docs/backend.md, "Security model"; HTTPS: docs/deployment.md.
            """,
        version: IntercomVersion.current
    )

    @Option(name: .long, help: "TOML configuration file (docs/backend.md); every key is optional.")
    var config: String?

    @Option(name: .long, help: "Listen address HOST:PORT (port 0 picks a free port; default 127.0.0.1:1337).")
    var listen: String?

    @Option(name: .long, help: "Directory of the web caller served at / (overrides INTERCOM_WEB_ROOT).")
    var webRoot: String?

    @Option(name: .long, help: "SQLite database file (overrides INTERCOM_SERVER_DB).")
    var database: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level: unknown level \"\(logLevel)\"")
        }
        var configuration = ServerConfiguration()
        var listenAddress = "127.0.0.1:1337"
        do {
            // The file first, then the environment, then the command line.
            if let config, let fromFile = try configuration.apply(file: config) { listenAddress = fromFile }
            try configuration.apply(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.message)
        }
        if let listen { listenAddress = listen }
        if let webRoot { configuration.webRoot = webRoot }
        let (host, port) = try Self.hostAndPort(listenAddress)
        configuration.host = host
        configuration.port = port
        if let database { configuration.databasePath = database }

        // A certificate that cannot be served is one line and exit 1, before anything starts.
        let certificate: ServerCertificate?
        do {
            certificate = try configuration.tls.map { files throws(TLSCredentialsError) in try ServerCertificate(files: files) }
        } catch {
            FileHandle.standardError.write(Data("intercom-server: TLS: \(error)\n".utf8))
            throw ExitCode.failure
        }

        LoggingBootstrap.bootstrap(level: level)
        let logger = Logger(label: "intercom-server")
        let backend = try await IntercomBackend(configuration: configuration, logger: logger)
        let application = ServerApplication.make(backend: backend, logger: logger, certificate: certificate) { boundPort in
            // One line on stdout that scripts and tests wait for (the port matters with --listen HOST:0).
            FileHandle.standardOutput.write(Data("intercom-server listening on \(host):\(boundPort ?? port)\n".utf8))
        }
        try await ServerLifecycle.run(application, logger: logger)
    }

    static func hostAndPort(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
              let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { throw ValidationError("--listen expects HOST:PORT, got \"\(text)\"") }
        return (String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
    }
}
