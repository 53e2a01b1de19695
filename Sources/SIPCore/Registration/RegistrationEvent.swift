/// Inputs of `RegistrationClient`.
public enum RegistrationEvent: Hashable, Sendable {
    case start
    /// Unregister (Expires: 0).
    case stop
    /// The final or provisional response of the REGISTER the client asked to send.
    case response(SIPMessage)
    /// The REGISTER's client transaction timed out (timer F).
    case timedOut
    case transportFailed
    /// The timer of `startRefreshTimer` fired: re-REGISTER (refresh, or retry after a failure).
    case refreshTimerFired
    /// Register `contact` (sent from `localHost`:`localPort`, the Via sent-by) instead of the current one, at
    /// once: the device's address changed, or the registrar sees it behind a NAT (RFC 3581, `ContactRewrite`).
    /// The old contact is removed in the same REGISTER (`;expires=0`, RFC 3261 §10.2.2).
    case rebind(contact: SIPURI, localHost: String, localPort: UInt16?)
}

/// What `RegistrationClient` asks of the IO layer, in order.
public enum RegistrationAction: Hashable, Sendable {
    /// Send in a new non-INVITE client transaction; report its outcome as `.response`/`.timedOut`.
    case send(SIPMessage)
    case startRefreshTimer(after: Duration)
    case cancelRefreshTimer
    case statusChanged(RegistrationStatus)
    /// The registrar saw us at this address (Via received/rport, RFC 3581 §4): we are behind a NAT when it
    /// differs from our socket's.
    case learnedPublicAddress(host: String, port: UInt16?)
}

/// Fresh random values for the next request; the IO layer draws them, tests fix them.
public struct FreshTokens: Hashable, Sendable {
    /// Unique per request, without the magic cookie (it is prepended).
    public var branch: String
    public var cnonce: String

    public init(branch: String, cnonce: String) {
        self.branch = branch
        self.cnonce = cnonce
    }
}
