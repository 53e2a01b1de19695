/// Peer-address checks for the master key (`masterKeyIps`) and the rate limiter's loopback exemption.
public enum PeerAddress {
    /// The address as compared: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is its IPv4 form.
    public static func normalized(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.dropFirst(7).contains(".") { return String(lowered.dropFirst(7)) }
        return lowered
    }

    public static func isLoopback(_ address: String?) -> Bool {
        guard let address else { return false }
        let normalized = normalized(address)
        return normalized == "::1" || normalized.hasPrefix("127.")
    }

    /// Whether `address` is in `allowed`: exact addresses, plus `127.0.0.1` standing for all of 127/8.
    /// An unknown peer (nil) is never allowed.
    public static func isAllowed(_ address: String?, in allowed: [String]) -> Bool {
        guard let address else { return false }
        let normalized = normalized(address)
        return allowed.contains { entry in
            let entry = Self.normalized(entry)
            return entry == normalized || (entry == "127.0.0.1" && normalized.hasPrefix("127."))
        }
    }
}
