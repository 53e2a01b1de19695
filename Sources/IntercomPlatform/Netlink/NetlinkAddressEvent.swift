/// An address added to or removed from an interface, as rtnetlink(7) reports it to a socket bound to the
/// RTMGRP_IPV4_IFADDR / RTMGRP_IPV6_IFADDR groups: `RTM_NEWADDR` / `RTM_DELADDR` messages, each an nlmsghdr,
/// an ifaddrmsg and rtattrs (IFA_LOCAL, else IFA_ADDRESS). Parsed from a datagram of the socket, without IO;
/// messages of other types and truncated ones are skipped, never trapped on.
public struct NetlinkAddressEvent: Sendable, Equatable {
    public enum Change: Sendable, Equatable { case added, removed }

    public let change: Change
    /// 4 (IPv4) or 16 (IPv6) bytes.
    public let address: [UInt8]
    public let interfaceIndex: UInt32
    /// RT_SCOPE_UNIVERSE (0) for addresses that reach beyond the link; link (253) and host (254) ones do not
    /// carry calls.
    public let scope: UInt8

    static let newAddress: UInt16 = 20  // RTM_NEWADDR
    static let deletedAddress: UInt16 = 21  // RTM_DELADDR
    static let ifaLocal: UInt16 = 2
    static let ifaAddress: UInt16 = 1

    /// Whether the address can be a host candidate that matters to a call: global scope.
    public var reachesBeyondTheLink: Bool { scope == 0 }

    public var addressText: String {
        address.count == 4 ? address.map(String.init).joined(separator: ".")
            : stride(from: 0, to: address.count, by: 2).map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }
                .joined(separator: ":")
    }

    /// Every address event in one datagram (a datagram may hold several messages).
    public static func parse(_ datagram: [UInt8]) -> [NetlinkAddressEvent] {
        var events: [NetlinkAddressEvent] = []
        var offset = 0
        while offset + 16 <= datagram.count {
            let length = Int(readUInt32(datagram, offset))
            let type = readUInt16(datagram, offset + 4)
            guard length >= 16, offset + length <= datagram.count else { break }
            if type == newAddress || type == deletedAddress,
               let event = addressEvent(datagram, body: offset + 16, end: offset + length, added: type == newAddress) {
                events.append(event)
            }
            offset += align(length)
        }
        return events
    }

    private static func addressEvent(_ bytes: [UInt8], body: Int, end: Int, added: Bool) -> NetlinkAddressEvent? {
        guard body + 8 <= end else { return nil }
        let family = bytes[body]  // AF_INET 2, AF_INET6 10
        let size = family == 2 ? 4 : family == 10 ? 16 : 0
        guard size > 0 else { return nil }
        let scope = bytes[body + 3]
        let index = readUInt32(bytes, body + 4)
        var local: [UInt8]?
        var address: [UInt8]?
        var attribute = body + 8
        while attribute + 4 <= end {
            let length = Int(readUInt16(bytes, attribute))
            let type = readUInt16(bytes, attribute + 2)
            guard length >= 4, attribute + length <= end else { break }
            if length - 4 == size {
                let value = Array(bytes[(attribute + 4)..<(attribute + length)])
                if type == ifaLocal { local = value } else if type == ifaAddress { address = value }
            }
            attribute += align(length)
        }
        guard let chosen = local ?? address else { return nil }
        return NetlinkAddressEvent(change: added ? .added : .removed, address: chosen, interfaceIndex: index, scope: scope)
    }

    /// NLMSG_ALIGN / RTA_ALIGN: 4 bytes.
    private static func align(_ length: Int) -> Int { (length + 3) & ~3 }

    /// Netlink fields are in host byte order (little-endian on every board we run on).
    private static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
