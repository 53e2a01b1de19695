/// `[metrics]`: the local Prometheus endpoint.
public struct MetricsSettings: Sendable, Equatable {
    public var enabled = true
    public var host = "127.0.0.1"
    public var port = 9464

    public init(enabled: Bool = true, host: String = "127.0.0.1", port: Int = 9464) {
        self.enabled = enabled
        self.host = host
        self.port = port
    }

    init(_ reader: ConfigReader?) {
        guard let reader else { return }
        enabled = reader.bool("enabled") ?? enabled
        if let listen = reader.string("listen") {
            if let (host, port) = Self.hostAndPort(listen) {
                self.host = host
                self.port = port
            } else {
                reader.report("listen", "expected \"HOST:PORT\" with a port from 1 to 65535, got \"\(listen)\"")
            }
        }
        reader.rejectUnknownKeys()
    }

    /// `127.0.0.1:9464`, `[::1]:9464`, `localhost:9464`.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) }) else { return nil }
        return (host, port)
    }
}

/// `[logging]`: level and a per-minute budget so a fault loop cannot flood the journal.
public struct LoggingSettings: Sendable, Equatable {
    public enum Level: String, Sendable, CaseIterable { case trace, debug, info, notice, warning, error, critical }

    public var level: Level = .info
    public var rateLimitPerMinute = 120

    init(_ reader: ConfigReader?) {
        guard let reader else { return }
        level = reader.choice("level") ?? level
        rateLimitPerMinute = reader.integer("rate_limit_per_minute", in: 1...100_000) ?? rateLimitPerMinute
        reader.rejectUnknownKeys()
    }
}

/// `[state]`: where the device keeps its identity between restarts.
public struct StateSettings: Sendable, Equatable {
    public static let defaultDirectory = "/var/lib/intercom"
    public var directory: String

    init(_ reader: ConfigReader?, environment: [String: String]) {
        // Precedence: explicit override > config > systemd's StateDirectory= > default.
        let configured = reader?.string("directory")
        if let configured, !configured.hasPrefix("/") {
            reader?.report("directory", "must be an absolute path, got \"\(configured)\"")
        }
        directory = environment["INTERCOM_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? configured.flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["STATE_DIRECTORY"].flatMap { $0.split(separator: ":").first.map(String.init) }
            ?? Self.defaultDirectory
        reader?.rejectUnknownKeys()
    }
}
