import Foundation
import IntercomConfig

/// `intercom-server --config FILE`: a flat TOML file in which every key is optional (no file at all is the
/// documented default). Secrets are never inline: `*_file` keys name files that hold them. Every problem
/// is reported with `file:line:column`, all at once.
///
/// ```toml
/// listen = "0.0.0.0:1337"
/// database = "/var/lib/intercom-server/server.sqlite"
/// database_url = "postgres://intercom:secret@db.example:5432/intercom"  # PostgreSQL for a fleet (instead of `database`)
/// application_id = "intercom"
/// client_keys_file = "/etc/intercom-server/client-keys"     # one key per line
/// master_key_file = "/etc/intercom-server/master-key"
/// token_keys_file = "/etc/intercom-server/token-keys"       # kid=secret per line, newest first
/// signal_url = "wss://intercom.example.org/signal"
/// stun_urls = ["stun:stun.example.org:3478"]
/// turn_urls = ["turn:turn.example.org:3478?transport=udp"]
/// turn_secret_file = "/etc/intercom-server/turn-secret"
/// heartbeat_seconds = 60
/// ring_seconds = 60
/// token_seconds = 3600
/// rate_limit = "20/200"                                     # or "off"
/// max_viewers = 4
/// web_root = "/usr/share/intercom/web"
/// public_url = "https://intercom.example.org"               # signalURL = wss://…/signal unless signal_url
/// trusted_proxies = ["127.0.0.1/32"]                        # whose X-Forwarded-For is believed
/// master_key_ips = ["127.0.0.1", "::1"]                     # clients that may use the master key
/// max_connections = 4096                                    # default: open-file limit − 64
/// idle_timeout_seconds = 60
/// header_timeout_seconds = 10
/// body_timeout_seconds = 30
/// max_list_items = 500                                      # $in/$nin/$all/$or items
/// max_where_bytes = 65536
/// max_where_depth = 4
/// max_subscriptions = 100                                   # LiveQuery subscriptions per socket
/// query_time_budget_ms = 1000
/// files_directory = "/var/lib/intercom-server/files"        # default: <database>.files; unused with database_url
/// max_file_bytes = 2097152                                  # largest snapshot upload
/// call_log_retention_days = 30                              # 0: keep the visitor log forever
/// tls_cert_file = "/etc/intercom-server/tls/fullchain.pem"  # HTTPS: certificate (+ chain), PEM; both or neither
/// tls_key_file = "/etc/intercom-server/tls/privkey.pem"     # its private key, PEM; SIGHUP reloads both
/// ```
extension ServerConfiguration {
    static let fileKeys: Set<String> = [
        "listen", "database", "database_url", "application_id", "client_keys_file", "master_key_file", "token_keys_file",
        "signal_url", "stun_urls", "turn_urls", "turn_secret_file", "heartbeat_seconds", "ring_seconds",
        "token_seconds", "rate_limit", "max_viewers", "web_root", "public_url", "trusted_proxies", "master_key_ips",
        "max_connections", "idle_timeout_seconds", "header_timeout_seconds", "body_timeout_seconds", "max_list_items", "max_where_bytes",
        "max_where_depth", "max_subscriptions", "query_time_budget_ms", "files_directory", "max_file_bytes", "call_log_retention_days",
        "tls_cert_file", "tls_key_file",
    ]

    /// Applies `path`; returns the `listen` value, which the command line owns.
    public mutating func apply(file path: String) throws(ServerConfigurationError) -> String? {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ServerConfigurationError("\(path): cannot read: \(error.localizedDescription)")
        }
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text, file: path)
        } catch {
            throw ServerConfigurationError(error.description)
        }
        var problems: [String] = []
        func report(_ key: String, _ message: String) {
            let location = table[key]?.keyLocation ?? table[key]?.location
            problems.append("\(location.map(\.description) ?? path): \(key): \(message)")
        }
        func string(_ key: String) -> String? {
            guard let node = table[key] else { return nil }
            guard case .string(let value) = node.value, !value.isEmpty else {
                report(key, "expected a non-empty string, found \(node.value.typeName)")
                return nil
            }
            return value
        }
        func strings(_ key: String) -> [String]? {
            guard let node = table[key] else { return nil }
            guard case .array(let items) = node.value else {
                report(key, "expected an array of strings, found \(node.value.typeName)")
                return nil
            }
            var values: [String] = []
            for item in items {
                guard case .string(let value) = item.value else {
                    report(key, "expected an array of strings")
                    return nil
                }
                values.append(value)
            }
            return values
        }
        func integer(_ key: String, in range: ClosedRange<Int64>) -> Int64? {
            guard let node = table[key] else { return nil }
            guard case .integer(let value) = node.value, range.contains(value) else {
                report(key, "expected a whole number in \(range.lowerBound)…\(range.upperBound)")
                return nil
            }
            return value
        }
        func secret(_ key: String) -> String? {
            guard let file = string(key) else { return nil }
            do {
                let value = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                if value.isEmpty { report(key, "\(file) is empty") }
                return value.isEmpty ? nil : value
            } catch {
                report(key, "cannot read \(file): \(error.localizedDescription)")
                return nil
            }
        }

        for key in table.keys where !Self.fileKeys.contains(key) {
            report(key, "unknown key (known: \(Self.fileKeys.sorted().joined(separator: ", ")))")
        }
        if let value = string("database") { databasePath = value }
        if let value = string("database_url") {
            do throws(StorageError) {
                _ = try PostgresSettings(url: value)
                databaseURL = value
            } catch {
                report("database_url", error.description)
            }
        }
        if let value = string("application_id") { applicationId = value }
        if let value = secret("client_keys_file") {
            clientKeys = value.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        if let value = secret("master_key_file") { masterKey = value }
        if let value = secret("token_keys_file") {
            do {
                tokenKeys = try Self.tokenKeys(value.split(whereSeparator: \.isNewline).joined(separator: ","))
            } catch {
                report("token_keys_file", error.message)
            }
        }
        if let value = string("signal_url") {
            if value.hasPrefix("ws://") || value.hasPrefix("wss://") { signalURL = value } else {
                report("signal_url", "expected a ws:// or wss:// URL")
            }
        }
        if let value = strings("stun_urls") { stunURLs = value }
        if let value = strings("turn_urls") { turnURLs = value }
        if let value = secret("turn_secret_file") { turnSecret = value }
        if let value = integer("heartbeat_seconds", in: 1...86_400) { heartbeatSeconds = value }
        if let value = integer("ring_seconds", in: 1...3600) { ringTimeToLiveSeconds = value }
        if let value = integer("token_seconds", in: 1...Self.tokenLifetimeLimitSeconds) { tokenLifetimeSeconds = value }
        if let value = string("rate_limit") {
            do { rateLimit = try Self.rateLimit(value) } catch { report("rate_limit", error.message) }
        }
        if let value = integer("max_viewers", in: 0...64) { maxViewersPerSession = Int(value) }
        if let value = string("web_root") { webRoot = value }
        if let value = string("public_url") {
            if value.hasPrefix("http://") || value.hasPrefix("https://") { publicURL = value } else {
                report("public_url", "expected an http:// or https:// URL")
            }
        }
        if let value = strings("trusted_proxies") {
            do { trustedProxies = try Self.networks(value, key: "trusted_proxies") } catch { report("trusted_proxies", error.message) }
        }
        if let value = strings("master_key_ips") {
            do {
                _ = try Self.networks(value.filter { $0 != "127.0.0.1" }, key: "master_key_ips")
                masterKeyIPs = value
            } catch { report("master_key_ips", error.message) }
        }
        if let value = integer("max_connections", in: 16...1_000_000) { connectionLimits.maxConnections = Int(value) }
        if let value = integer("idle_timeout_seconds", in: 1...86_400) { connectionLimits.idleTimeoutSeconds = value }
        if let value = integer("header_timeout_seconds", in: 1...3600) { connectionLimits.headerTimeoutSeconds = value }
        if let value = integer("body_timeout_seconds", in: 1...3600) { connectionLimits.bodyTimeoutSeconds = value }
        if let value = integer("max_list_items", in: 1...100_000) { queryLimits.maxListItems = Int(value) }
        if let value = integer("max_where_bytes", in: 256...(1 << 20)) { queryLimits.maxWhereBytes = Int(value) }
        if let value = integer("max_where_depth", in: 1...32) { queryLimits.maxNestingDepth = Int(value) }
        if let value = integer("max_subscriptions", in: 1...100_000) { queryLimits.maxSubscriptionsPerSocket = Int(value) }
        if let value = integer("query_time_budget_ms", in: 10...60_000) { queryLimits.timeBudgetMilliseconds = value }
        if let value = string("files_directory") { filesDirectory = value }
        if let value = integer("max_file_bytes", in: 1024...(64 << 20)) { maxFileBytes = Int(value) }
        if let value = integer("call_log_retention_days", in: 0...36_500) { callLogRetentionDays = value }
        let certificateFile = string("tls_cert_file")
        let keyFile = string("tls_key_file")
        do {
            if let files = try TLSFiles.pair(certificate: certificateFile, key: keyFile,
                                             certificateName: "tls_cert_file", keyName: "tls_key_file") { tls = files }
        } catch {
            report(certificateFile == nil ? "tls_key_file" : "tls_cert_file", error.message)
        }
        let listen = string("listen")
        guard problems.isEmpty else { throw ServerConfigurationError(problems.joined(separator: "\n")) }
        return listen
    }
}
