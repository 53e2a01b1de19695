/// What a status page shows for a registration.
public enum RegistrationStatus: Hashable, Sendable {
    case unregistered
    case registering
    /// Bound for `expires` seconds (what the registrar granted).
    case registered(expires: UInt32)
    case failed(RegistrationFailure)
}

/// Why a registration failed.
public enum RegistrationFailure: Hashable, Sendable {
    /// A second challenge for the same nonce, not stale: the registrar refused our answer (wrong password or user).
    case wrongCredentials
    /// The registrar asks for authentication and no credentials are configured.
    case noCredentials
    /// A challenge this client cannot answer (algorithm, qop).
    case unsupportedChallenge
    /// 423 again, or a Min-Expires not above what we asked for.
    case intervalTooBrief
    /// Any other final response.
    case rejected(status: Int, reason: String)
    case timedOut
    case transportFailed
}
