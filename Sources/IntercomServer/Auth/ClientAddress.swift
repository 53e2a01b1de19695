/// Who a request really comes from, for the master-key check and the rate limiter (issue #14, 7).
///
/// Only a peer inside `trusted_proxies` has its `X-Forwarded-For` / `Forwarded: for=` honoured: the
/// client is the right-most listed address that is not itself a trusted proxy. A request that carries a
/// forwarding header from a peer that is not trusted came through a proxy nobody configured (typically a
/// same-host TLS proxy, where every client looks like 127.0.0.1): its address is kept but it is marked
/// `forwardedByUntrustedPeer`, which denies it the master key and the loopback exemption of the rate limiter.
struct ClientAddress: Sendable, Equatable {
    /// The derived client address (nil when the transport has none).
    let address: String?
    let forwardedByUntrustedPeer: Bool

    /// Whether the request may use the master key: from one of `networks`, and not through an untrusted proxy.
    func mayUseMasterKey(networks: [IPNetwork]) -> Bool {
        !forwardedByUntrustedPeer && networks.containsAddress(address)
    }

    /// Whether the rate limiter leaves it alone (parse-server skips internal requests).
    var isLocal: Bool { !forwardedByUntrustedPeer && PeerAddress.isLoopback(address) }

    static func resolve(peer: String?, forwardedFor: String?, forwarded: String?, trustedProxies: [IPNetwork])
        -> ClientAddress
    {
        let listed = forwardedAddresses(forwardedFor: forwardedFor, forwarded: forwarded)
        guard !listed.isEmpty else { return ClientAddress(address: peer, forwardedByUntrustedPeer: false) }
        guard trustedProxies.containsAddress(peer) else {
            return ClientAddress(address: peer, forwardedByUntrustedPeer: true)
        }
        // Right to left: every hop appends the address it saw, so the right-most untrusted entry is the
        // first one a trusted proxy vouches for; anything left of it may be forged by the client.
        for candidate in listed.reversed() where !trustedProxies.containsAddress(candidate) {
            return ClientAddress(address: IPNetwork.addressBytes(candidate) == nil ? nil : candidate,
                                 forwardedByUntrustedPeer: false)
        }
        return ClientAddress(address: listed.first, forwardedByUntrustedPeer: false)
    }

    /// `X-Forwarded-For: a, b` and `Forwarded: for=a;proto=https, for="[b]:443"` in hop order.
    static func forwardedAddresses(forwardedFor: String?, forwarded: String?) -> [String] {
        var addresses: [String] = []
        if let forwarded {
            for element in forwarded.split(separator: ",") {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, String(parts[0]).trimmingSpaces.lowercased() == "for" else { continue }
                    var value = String(parts[1]).trimmingSpaces
                    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                    addresses.append(stripPort(value))
                }
            }
        }
        if let forwardedFor {
            addresses += forwardedFor.split(separator: ",").map { stripPort(String($0).trimmingSpaces) }.filter { !$0.isEmpty }
        }
        return addresses
    }

    /// `[::1]:443` → `::1`; `192.0.2.1:80` → `192.0.2.1`; bare addresses unchanged.
    private static func stripPort(_ text: String) -> String {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { return String(text[text.index(after: text.startIndex)..<close]) }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { return String(text[..<colon]) }
        return text
    }
}
