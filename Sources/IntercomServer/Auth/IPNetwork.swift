#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An address block such as `10.0.0.0/8`, `::1/128` or a single address (`192.0.2.7`), for the
/// `trusted_proxies` and `master_key_ips` settings. IPv4-mapped IPv6 peers match IPv4 blocks.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.addressBytes(String(parts[0])) else { return nil }
        let maximum = bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...maximum).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = maximum
        }
        self.bytes = bytes
    }

    public var description: String { "\(Self.text(bytes))/\(prefixLength)" }

    public func contains(_ address: String?) -> Bool {
        guard let address, let candidate = Self.addressBytes(address), candidate.count == bytes.count else { return false }
        var remaining = prefixLength
        for index in bytes.indices where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if candidate[index] & mask != bytes[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// 4 bytes for IPv4 (also for an IPv4-mapped IPv6 address), 16 for IPv6; nil when not an address.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var text = text.trimmingSpaces
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }  // zone id
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    private static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}

extension [IPNetwork] {
    func containsAddress(_ address: String?) -> Bool { contains { $0.contains(address) } }
}
