/// Whether to register the address the registrar saw instead of our own (RFC 3581 §4 `received`/`rport` in
/// the response's top Via; what baresip and pjsip's "contact rewrite" do): behind a NAT the private Contact is
/// unreachable, the mapping the REGISTER opened is not. A pure decision, one per distinct observed address,
/// so a registrar that keeps reporting something else (or alternates) cannot drive a REGISTER loop.
public struct ContactRewrite: Sendable {
    public let enabled: Bool
    /// Every address a rewrite was decided for since the last `reset`, as `host:port`.
    public private(set) var tried: Set<String> = []

    public init(enabled: Bool) { self.enabled = enabled }

    /// The Contact to register instead of `contact`, or nil: rewriting is off, the registrar sees us where the
    /// Contact already points, or this address was tried before. `port` nil means the registrar's Via named
    /// none (then the Contact's port stays: 5060 when it has none, §19.1.2).
    public mutating func decide(contact: SIPURI, observedHost: String, observedPort: UInt16?) -> SIPURI? {
        guard enabled else { return nil }
        let host = Self.uriHost(observedHost)
        let port = observedPort ?? contact.port
        guard host.lowercased() != contact.host.lowercased() || (port ?? 5060) != (contact.port ?? 5060) else { return nil }
        let key = "\(host):\(port.map(String.init) ?? "")"
        guard tried.insert(key).inserted else { return nil }
        var rewritten = contact
        rewritten.host = host
        rewritten.port = port
        return rewritten
    }

    /// A new local address (a network change): what the registrar saw before tells nothing about the new path.
    public mutating func reset() { tried = [] }

    /// `received` carries an IPv6 address bare (RFC 3261 §18.2.1 `received`); a URI host needs brackets.
    static func uriHost(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
