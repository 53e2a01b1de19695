import IntercomPlatform
import Testing

/// rtnetlink address messages (rtnetlink(7)): RTM_NEWADDR / RTM_DELADDR with IFA_LOCAL or IFA_ADDRESS, several
/// per datagram, other types skipped, and every truncation read without a trap.
@Suite("Netlink address events")
struct NetlinkAddressEventTests {
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }

    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        let bytes = le16(4 + value.count) + le16(type) + value
        return bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    /// nlmsghdr (16) + ifaddrmsg (8) + attributes.
    static func message(type: Int, family: UInt8, scope: UInt8, index: Int, attributes: [[UInt8]]) -> [UInt8] {
        let body: [UInt8] = [family, 24, 0, scope] + le32(index) + attributes.flatMap { $0 }
        return le32(16 + body.count) + le16(type) + le16(0) + le32(1) + le32(0) + body
    }

    @Test func anAddedAndARemovedAddressInOneDatagram() {
        let added = Self.message(type: 20, family: 2, scope: 0, index: 3,
                                 attributes: [Self.attribute(1, [192, 168, 1, 5]), Self.attribute(2, [192, 168, 1, 5])])
        let removed = Self.message(type: 21, family: 2, scope: 0, index: 3, attributes: [Self.attribute(2, [192, 168, 1, 2])])
        let events = NetlinkAddressEvent.parse(added + removed)
        #expect(events.map(\.change) == [.added, .removed])
        #expect(events.map(\.addressText) == ["192.168.1.5", "192.168.1.2"])
        #expect(events.allSatisfy { $0.interfaceIndex == 3 && $0.reachesBeyondTheLink })
    }

    @Test func ipv6LinkScopeIsNotBeyondTheLinkAndOtherTypesAreSkipped() {
        let linkLocal = Self.message(type: 20, family: 10, scope: 253, index: 2,
                                     attributes: [Self.attribute(1, [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1])])
        let route = Self.message(type: 24, family: 2, scope: 0, index: 2, attributes: [])  // RTM_NEWROUTE
        let events = NetlinkAddressEvent.parse(linkLocal + route)
        #expect(events.count == 1 && !events[0].reachesBeyondTheLink && events[0].address.count == 16)
    }

    @Test func everyTruncationIsReadWithoutATrap() {
        let whole = Self.message(type: 20, family: 2, scope: 0, index: 3, attributes: [Self.attribute(2, [10, 0, 0, 1])])
        for length in 0..<whole.count {
            #expect(NetlinkAddressEvent.parse(Array(whole.prefix(length))).isEmpty)
        }
        #expect(NetlinkAddressEvent.parse(whole).count == 1)
        // An attribute whose length runs past the message, and a zero-length message header.
        var bad = whole
        bad[24] = 200
        #expect(NetlinkAddressEvent.parse(bad).isEmpty)
        #expect(NetlinkAddressEvent.parse([UInt8](repeating: 0, count: 32)).isEmpty)
    }
}
