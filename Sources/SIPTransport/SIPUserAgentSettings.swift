import SIPCore

/// What the SIP user agent registers and how it reaches the registrar (the agent fills it from `[sip]`).
public struct SIPUserAgentSettings: Sendable, Equatable {
    public enum Transport: String, Sendable {
        case udp = "UDP", tcp = "TCP"
    }

    /// Name or numeric address (IPv6 in brackets).
    public var registrarHost: String
    public var registrarPort: Int
    public var user: String
    public var authUser: String
    /// nil: REGISTER without credentials (a challenge is then reported as `authFailed`).
    public var password: String?
    public var transport: Transport
    /// The UDP port requests reach us on (0: the kernel chooses); over TCP also the listening port.
    public var localPort: Int
    public var displayName: String?
    public var keepAlive: Duration
    public var registerExpiry: Duration
    /// Register the address the registrar saw (Via `received`/`rport`, RFC 3581) when it differs from ours.
    public var contactRewrite = true
    /// T1/T2/T4 of calls (the 2xx retransmission, timer H, BYE); tests shorten them.
    var callTimers: SIPTimerValues = .standard
    /// Over TCP: connections phones and proxies may hold open to us at once (more are closed on accept), and
    /// how long one may stay silent with no call or transaction on it. Tests lower them.
    var maxInboundConnections = 32
    var inboundIdleTimeout: Duration = .seconds(180)

    public init(registrarHost: String, registrarPort: Int, user: String, authUser: String, password: String?,
                transport: Transport, localPort: Int, displayName: String?, keepAlive: Duration, registerExpiry: Duration) {
        self.registrarHost = registrarHost
        self.registrarPort = registrarPort
        self.user = user
        self.authUser = authUser
        self.password = password
        self.transport = transport
        self.localPort = localPort
        self.displayName = displayName
        self.keepAlive = keepAlive
        self.registerExpiry = registerExpiry
    }
}

/// The registration as a status page shows it.
public enum SIPRegistrationState: Sendable, Equatable, CustomStringConvertible {
    case registering
    case registered(expires: UInt32)
    /// The registrar refused our credentials (or asked for some and none are configured).
    case authFailed(String)
    /// No answer, or the transport failed.
    case unreachable(String)
    /// Any other refusal (e.g. 404 for an unknown AOR, 423 again).
    case refused(String)

    public var isRegistered: Bool {
        if case .registered = self { return true }
        return false
    }

    /// `registered`, `registering`, `auth failed`, `unreachable`, `refused`.
    public var word: String {
        switch self {
        case .registering: "registering"
        case .registered: "registered"
        case .authFailed: "auth failed"
        case .unreachable: "unreachable"
        case .refused: "refused"
        }
    }

    public var description: String {
        switch self {
        case .registering: "registering"
        case .registered(let expires): "registered for \(expires) s"
        case .authFailed(let why): "auth failed: \(why)"
        case .unreachable(let why): "unreachable: \(why)"
        case .refused(let why): "refused: \(why)"
        }
    }
}
