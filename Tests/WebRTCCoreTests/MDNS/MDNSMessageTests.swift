import Testing
@testable import WebRTCCore

/// The mDNS query we send and the answers we read (RFC 6762, RFC 1035 §4.1), including the hostile shapes a
/// datagram off port 5353 can take: truncation, compression loops and forward pointers, odd label types.
@Suite("mDNS messages")
struct MDNSMessageTests {
    static let name = try! MDNSHostName("5B2E7E8A-1C4F-4A59-9B9E-0F3C2D1E6A7B.local")

    /// A response as Chromium's responder sends it: no question, one A record with the cache-flush bit,
    /// then an AAAA record for the same name by compression pointer to the first.
    static func response(name: MDNSHostName = Self.name, ttl: UInt32 = 120) -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 0x84, 0x00, 0, 0, 0, 2, 0, 0, 0, 0]
        for label in name.labels {
            bytes.append(UInt8(label.utf8.count))
            bytes.append(contentsOf: label.utf8)
        }
        bytes.append(0)
        let ttlBytes: [UInt8] = [UInt8(ttl >> 24), UInt8(ttl >> 16 & 0xFF), UInt8(ttl >> 8 & 0xFF), UInt8(ttl & 0xFF)]
        bytes.append(contentsOf: [0, 1, 0x80, 1] + ttlBytes + [0, 4, 192, 168, 7, 23])
        bytes.append(contentsOf: [0xC0, 12, 0, 28, 0x80, 1] + ttlBytes + [0, 16])
        bytes.append(contentsOf: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        return bytes
    }

    @Test func theQueryAsksForAAndAAAAOfTheLowercasedNameWithTheUnicastBit() {
        let query = MDNSQuery.encode(Self.name)
        #expect(Array(query.prefix(12)) == [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0])
        let label = "5b2e7e8a-1c4f-4a59-9b9e-0f3c2d1e6a7b"
        #expect(Array(query[12...]) == [UInt8(label.utf8.count)] + Array(label.utf8) + [5] + Array("local".utf8)
            + [0, 0, 1, 0x80, 1, 0xC0, 12, 0, 28, 0x80, 1])
    }

    @Test func ourQueryIsNotAnAnswer() throws {
        #expect(try MDNSResponse.addressRecords(in: MDNSQuery.encode(Self.name)).isEmpty)
    }

    @Test func aResponseGivesBothRecordsWithCompressionAndIgnoresTheCacheFlushBit() throws {
        let records = try MDNSResponse.addressRecords(in: Self.response())
        #expect(records.map(\.name) == [Self.name, Self.name])
        #expect(records.map(\.addressText) == ["192.168.7.23", "2001:db8::1"])
        #expect(records.map(\.timeToLive) == [120, 120])
    }

    @Test func namesCompareCaseInsensitivelyAndTheRootDotIsOptional() throws {
        #expect(try MDNSHostName("Abc-1.LOCAL.") == MDNSHostName("abc-1.local"))
    }

    @Test(arguments: ["", "local", "host.example", "a..local", "under_score.local", "sp ace.local",
                      String(repeating: "a", count: 64) + ".local", "é.local"])
    func notALocalHostName(_ text: String) {
        #expect(throws: MDNSError.notALocalName(text)) { try MDNSHostName(text) }
    }

    @Test func everyTruncationThrowsAndNeverTraps() {
        let whole = Self.response()
        for length in 0..<whole.count {
            let prefix = Array(whole.prefix(length))
            #expect(throws: MDNSError.self) { try MDNSResponse.addressRecords(in: prefix) }
        }
    }

    @Test func aPointerToItselfOrForwardIsRefused() {
        // Header claiming one answer whose name is a pointer to offset 12 (itself), then to offset 40 (forward).
        let header: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        #expect(throws: MDNSError.badCompression(offset: 12)) {
            try MDNSResponse.addressRecords(in: header + [0xC0, 12] + [UInt8](repeating: 0, count: 30))
        }
        #expect(throws: MDNSError.badCompression(offset: 12)) {
            try MDNSResponse.addressRecords(in: header + [0xC0, 40] + [UInt8](repeating: 0, count: 30))
        }
        // Two names pointing at each other: the second points back to the first, which points forward.
        #expect(throws: MDNSError.self) {
            try MDNSResponse.addressRecords(in: header + [1, 0x61, 0xC0, 16, 0xC0, 12] + [UInt8](repeating: 0, count: 30))
        }
    }

    @Test func reservedLabelTypesAndOverlongNamesAreRefused() {
        let header: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        #expect(throws: MDNSError.unsupportedLabelType(0x40)) {
            try MDNSResponse.addressRecords(in: header + [0x41, 0] + [UInt8](repeating: 0, count: 20))
        }
        let label: [UInt8] = [63] + [UInt8](repeating: 0x61, count: 63)
        let longName: [UInt8] = Array([[UInt8]](repeating: label, count: 5).joined()) + [0]
        #expect(throws: MDNSError.nameTooLong) {
            try MDNSResponse.addressRecords(in: header + longName + [UInt8](repeating: 0, count: 20))
        }
    }

    @Test func recordsOfOtherTypesClassesOrLengthsAreSkipped() throws {
        var bytes = Self.response()
        bytes[bytes.count - 23] = 3  // the AAAA record's class (low byte, after the cache-flush bit): IN → CH
        let records = try MDNSResponse.addressRecords(in: bytes)
        #expect(records.map(\.addressText) == ["192.168.7.23"])
    }

    @Test(arguments: [
        ([UInt8](repeating: 0, count: 16), "::"),
        ([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], "2001:db8::1:0:0:1"),
        ([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x1a, 0x2b, 0xff, 0xfe, 0x3c, 0x4d, 0x5e], "fe80::21a:2bff:fe3c:4d5e"),
        ([0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], "2001:db8:1:1:1:1:1:1"),
    ] as [([UInt8], String)])
    func ipv6TextFollowsRFC5952(_ bytes: [UInt8], _ text: String) {
        #expect(IPv6Text.format(bytes) == text)
    }
}
