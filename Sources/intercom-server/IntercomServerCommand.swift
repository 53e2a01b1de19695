import ArgumentParser
import IntercomServer
import Logging

/// `intercom-server`: the self-hosted backend (SYSTEM.md §10 defaults: 127.0.0.1:1337).
@main
struct IntercomServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intercom-server",
        abstract: "Self-hosted Intercom backend: Parse-compatible REST subset, LiveQuery, session signaling, web caller."
    )

    @Option(name: .long, help: "Listen address HOST:PORT.")
    var listen = "127.0.0.1:1337"

    func run() async throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
              (1...65535).contains(port), colon != listen.startIndex
        else { throw ValidationError("--listen expects HOST:PORT, got \"\(listen)\"") }
        let host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var logger = Logger(label: "intercom-server")
        logger.logLevel = .info
        try await ServerApplication.make(host: host, port: port, logger: logger).runService()
    }
}

import Foundation
