/// Reading the configuration from environment variables, so secrets stay out of command lines:
///
/// | variable | meaning |
/// |---|---|
/// | `INTERCOM_SERVER_DB` | database file |
/// | `INTERCOM_SERVER_DATABASE_URL` | `postgres://…` (PostgreSQL instead of the file) |
/// | `INTERCOM_APP_ID` | application id (default `intercom`) |
/// | `INTERCOM_CLIENT_KEY` | required client/REST key(s), comma-separated |
/// | `INTERCOM_MASTER_KEY` | master key (loopback only) |
/// | `INTERCOM_TOKEN_KEYS` | `kid=secret,kid=secret`, newest first; secrets ≥ 32 bytes |
/// | `INTERCOM_SIGNAL_URL` | `ws(s)://host/signal` advertised in `ActiveSessions.signalURL` |
/// | `INTERCOM_STUN_URLS`, `INTERCOM_TURN_URLS` | comma-separated `stun:`/`turn:` URLs |
/// | `INTERCOM_TURN_SECRET` | coturn `static-auth-secret` |
/// | `INTERCOM_HEARTBEAT_SECONDS` | presence heartbeat (rows older than 3 are removed) |
/// | `INTERCOM_RING_SECONDS` | how long a call row rings |
/// | `INTERCOM_TOKEN_SECONDS` | call token lifetime (≤ 86400) |
/// | `INTERCOM_RATE_LIMIT` | `requestsPerSecond/burst` per client IP, or `off` |
/// | `INTERCOM_MAX_VIEWERS` | view-only watchers per call (default 4) |
/// | `INTERCOM_WEB_ROOT` | directory of the web caller served at `/` |
/// | `INTERCOM_PUBLIC_URL` | public base URL (`https://host`); `signalURL` derives from it |
/// | `INTERCOM_TRUSTED_PROXIES` | comma-separated CIDRs whose `X-Forwarded-For`/`Forwarded` is believed |
/// | `INTERCOM_MASTER_KEY_IPS` | comma-separated CIDRs that may use the master key (default loopback) |
/// | `INTERCOM_MAX_CONNECTIONS` | connections served at once (default: open-file limit − 64) |
/// | `INTERCOM_IDLE_TIMEOUT_SECONDS` | a connection silent this long is closed (default 60) |
/// | `INTERCOM_TLS_CERT_FILE`, `INTERCOM_TLS_KEY_FILE` | serve HTTPS with these PEM files (both or neither) |
extension ServerConfiguration {
    public mutating func apply(environment: [String: String]) throws(ServerConfigurationError) {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        func list(_ name: String) -> [String]? {
            value(name).map { $0.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty } }
        }
        func seconds(_ name: String, in range: ClosedRange<Int64>) throws(ServerConfigurationError) -> Int64? {
            guard let text = value(name) else { return nil }
            guard let number = Int64(text), range.contains(number) else {
                throw ServerConfigurationError("\(name)=\(text): expected whole seconds in \(range)")
            }
            return number
        }

        if let path = value("INTERCOM_SERVER_DB") { databasePath = path }
        if let url = value("INTERCOM_SERVER_DATABASE_URL") { databaseURL = url }
        if let id = value("INTERCOM_APP_ID") { applicationId = id }
        if let keys = list("INTERCOM_CLIENT_KEY") { clientKeys = keys }
        if let key = value("INTERCOM_MASTER_KEY") { masterKey = key }
        if let keys = value("INTERCOM_TOKEN_KEYS") { tokenKeys = try Self.tokenKeys(keys) }
        if let url = value("INTERCOM_SIGNAL_URL") { signalURL = url }
        if let urls = list("INTERCOM_STUN_URLS") { stunURLs = urls }
        if let urls = list("INTERCOM_TURN_URLS") { turnURLs = urls }
        if let secret = value("INTERCOM_TURN_SECRET") { turnSecret = secret }
        if let heartbeat = try seconds("INTERCOM_HEARTBEAT_SECONDS", in: 1...86_400) { heartbeatSeconds = heartbeat }
        if let ring = try seconds("INTERCOM_RING_SECONDS", in: 1...3600) { ringTimeToLiveSeconds = ring }
        if let lifetime = try seconds("INTERCOM_TOKEN_SECONDS", in: 1...Self.tokenLifetimeLimitSeconds) {
            tokenLifetimeSeconds = lifetime
        }
        if let limit = value("INTERCOM_RATE_LIMIT") { rateLimit = try Self.rateLimit(limit) }
        if let viewers = try seconds("INTERCOM_MAX_VIEWERS", in: 0...64) { maxViewersPerSession = Int(viewers) }
        if let root = value("INTERCOM_WEB_ROOT") { webRoot = root }
        if let url = value("INTERCOM_PUBLIC_URL") { publicURL = url }
        if let blocks = list("INTERCOM_TRUSTED_PROXIES") { trustedProxies = try Self.networks(blocks, key: "INTERCOM_TRUSTED_PROXIES") }
        if let blocks = list("INTERCOM_MASTER_KEY_IPS") {
            _ = try Self.networks(blocks.filter { $0 != "127.0.0.1" }, key: "INTERCOM_MASTER_KEY_IPS")
            masterKeyIPs = blocks
        }
        if let cap = try seconds("INTERCOM_MAX_CONNECTIONS", in: 16...1_000_000) { connectionLimits.maxConnections = Int(cap) }
        if let idle = try seconds("INTERCOM_IDLE_TIMEOUT_SECONDS", in: 1...86_400) { connectionLimits.idleTimeoutSeconds = idle }
        if let files = try TLSFiles.pair(
            certificate: value("INTERCOM_TLS_CERT_FILE"), key: value("INTERCOM_TLS_KEY_FILE"),
            certificateName: "INTERCOM_TLS_CERT_FILE", keyName: "INTERCOM_TLS_KEY_FILE") { tls = files }
    }

    /// CIDR blocks or addresses (`10.0.0.0/8`, `::1`).
    static func networks(_ texts: [String], key: String) throws(ServerConfigurationError) -> [IPNetwork] {
        var networks: [IPNetwork] = []
        for text in texts {
            guard let network = IPNetwork(text) else {
                throw ServerConfigurationError("\(key): \"\(text)\" is not an address or CIDR block")
            }
            networks.append(network)
        }
        return networks
    }

    /// `kid=secret,kid=secret` (the first signs).
    static func tokenKeys(_ text: String) throws(ServerConfigurationError) -> [TokenKey] {
        var keys: [TokenKey] = []
        for entry in text.split(separator: ",") {
            guard let equals = entry.firstIndex(of: "=") else {
                throw ServerConfigurationError("INTERCOM_TOKEN_KEYS: \"\(entry.prefix(16))…\" is not kid=secret")
            }
            let kid = String(entry[..<equals]).trimmingSpaces
            guard !keys.contains(where: { $0.kid == kid }) else {
                throw ServerConfigurationError("INTERCOM_TOKEN_KEYS: key id \"\(kid)\" appears twice")
            }
            keys.append(try TokenKey(kid: kid, secret: Array(entry[entry.index(after: equals)...].utf8)))
        }
        guard !keys.isEmpty else { throw ServerConfigurationError("INTERCOM_TOKEN_KEYS is empty") }
        return keys
    }

    /// `20/200` (requests per second / burst) or `off`.
    static func rateLimit(_ text: String) throws(ServerConfigurationError) -> RateLimitConfiguration {
        if text == "off" { return RateLimitConfiguration(enabled: false) }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let rate = Double(parts[0]), let burst = Double(parts[1]), rate > 0, burst >= 1 else {
            throw ServerConfigurationError("INTERCOM_RATE_LIMIT=\(text): expected requestsPerSecond/burst or off")
        }
        return RateLimitConfiguration(requestsPerSecond: rate, burst: burst)
    }
}
