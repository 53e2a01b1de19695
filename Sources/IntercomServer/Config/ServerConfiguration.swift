/// Everything `intercom-server` can be told. The defaults need no configuration at all (SYSTEM.md §10):
/// 127.0.0.1:1337, application id `intercom`, no client key, no master key, `./intercom-server.sqlite`,
/// a random token key created in the database on first start.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 1337
    public var databasePath = "./intercom-server.sqlite"
    /// `postgres://…`: keep the rows in PostgreSQL, shared by every instance given the same URL (a fleet
    /// behind a load balancer); nil: the SQLite file at `databasePath`.
    public var databaseURL: String?
    /// Serve HTTPS (and WSS) with these PEM files; nil: plain HTTP (behind a TLS proxy, or on loopback).
    public var tls: TLSFiles?

    // ── Parse headers (parse-wire.md §1) ──
    public var applicationId = "intercom"
    /// When non-empty, every request must carry one of these as a REST/client/JavaScript/Windows key.
    public var clientKeys: [String] = []
    /// nil: the master key is disabled.
    public var masterKey: String?
    /// Clients allowed to use the master key (parse-server `masterKeyIps`): addresses or CIDR blocks;
    /// `127.0.0.1` stands for all of 127/8. The client is the peer, or what a trusted proxy says it is.
    public var masterKeyIPs: [String] = ["127.0.0.1", "::1"]
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` headers are believed (CIDR blocks or
    /// addresses). Empty: none; a forwarding header from any peer then denies the master key and the
    /// rate limiter's loopback exemption.
    public var trustedProxies: [IPNetwork] = []

    // ── Queries and users ──
    public var defaultLimit = 100
    /// nil: no cap (parse-server default); otherwise larger limits are silently reduced.
    public var maxLimit: Int?
    /// `_Session.expiresAt = now + sessionLength` (parse-server default: one year).
    public var sessionLengthSeconds: Int64 = 31_536_000
    public var allowAnonymousUsers = true
    public var passwordIterations = PasswordHasher.defaultIterations

    // ── Calls (SYSTEM.md §2, §4) ──
    /// Signing keys, newest first: the first signs, all verify. Empty: use the key stored in the database,
    /// creating one on first start.
    public var tokenKeys: [TokenKey] = []
    /// Lifetime of publisher/subscriber/viewer tokens (SYSTEM.md §4: default 1 h, at most 24 h).
    public var tokenLifetimeSeconds: Int64 = 3600
    /// How long an `ActiveSessions` row rings before it disappears.
    public var ringTimeToLiveSeconds: Int64 = 60
    /// `ws(s)://host/signal` advertised in `ActiveSessions.signalURL`; nil derives it from `publicURL`, or
    /// else from the listen address. Never from request headers (a Host header is the client's to choose).
    public var signalURL: String?
    /// The server's public base URL (`https://intercom.example.org`), e.g. behind a TLS proxy.
    public var publicURL: String?
    public var stunURLs: [String] = []
    public var turnURLs: [String] = []
    /// The coturn `static-auth-secret`; without it no TURN credentials are issued.
    public var turnSecret: String?
    /// View-only watchers a call's signaling room admits besides its two parties (`call.max_viewers`).
    public var maxViewersPerSession = 4

    // ── Web caller ──
    /// Directory served at `/` (the web caller); nil: look in the installed and build locations
    /// (`WebCallerLocation`).
    public var webRoot: String?

    // ── Files and the visitor log (issue #19) ──
    /// Where Parse Files live; nil: `<database>.files` beside the database.
    public var filesDirectory: String?
    /// The largest file `POST /parse/files/<name>` accepts (a 1280x720 snapshot is ~100–200 kB).
    public var maxFileBytes = 2 << 20
    /// `CallLog` rows (and the snapshots they point at) older than this are swept; 0 keeps them forever.
    public var callLogRetentionDays: Int64 = 30

    /// `filesDirectory`, or the default beside the database.
    public var resolvedFilesDirectory: String { filesDirectory ?? databasePath + ".files" }

    // ── Presence and housekeeping ──
    /// Devices re-save their `ActiveUsers` row this often; rows older than 3 heartbeats are removed.
    public var heartbeatSeconds: Int64 = 60
    public var sweepIntervalSeconds: Int64 = 10

    // ── Abuse limits ──
    public var rateLimit = RateLimitConfiguration()
    /// `X-Parse-Request-Id` records are kept this long (parse-server `idempotencyOptions.ttl`); 0 disables.
    public var idempotencyTTLSeconds: Int64 = 300
    public var maxBodyBytes = 1 << 20
    public var connectionLimits = ConnectionLimits()
    public var queryLimits = QueryLimits()

    public init() {}

    /// `masterKeyIPs` as networks (an entry that does not parse matches nothing).
    var masterKeyNetworks: [IPNetwork] {
        masterKeyIPs.compactMap { entry in entry == "127.0.0.1" ? IPNetwork("127.0.0.0/8") : IPNetwork(entry) }
    }

    /// The `signalURL` every call row and viewer token carries: `signalURL`, else `publicURL` with
    /// http→ws, else the listen address (a wildcard listen address stands for loopback), `wss://` when
    /// the server itself serves TLS.
    func advertisedSignalURL(boundPort: Int?) -> String {
        if let signalURL { return signalURL }
        if let publicURL {
            var base = publicURL
            while base.hasSuffix("/") { base.removeLast() }
            if base.hasPrefix("https://") { return "wss://" + base.dropFirst(8) + "/signal" }
            if base.hasPrefix("http://") { return "ws://" + base.dropFirst(7) + "/signal" }
            return base + "/signal"
        }
        let host = switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") ? "[\(host)]" : host
        }
        return "\(tls == nil ? "ws" : "wss")://\(host):\(boundPort ?? port)/signal"
    }

    public static let tokenLifetimeLimitSeconds: Int64 = 86_400
}

/// A token bucket per client IP (parse-wire.md §7: 429 `{"code":100,"error":"Too many requests."}`).
public struct RateLimitConfiguration: Sendable {
    public var requestsPerSecond: Double = 20
    public var burst: Double = 200
    /// parse-server skips requests from 127.0.0.1 unless `includeInternalRequests`; so does this server
    /// unless this is set (set it when a reverse proxy is not in front).
    public var includeLoopback = false
    public var enabled = true

    public init(requestsPerSecond: Double = 20, burst: Double = 200, includeLoopback: Bool = false, enabled: Bool = true) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.includeLoopback = includeLoopback
        self.enabled = enabled
    }
}
