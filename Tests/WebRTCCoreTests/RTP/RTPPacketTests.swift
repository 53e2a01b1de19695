import IntercomTestSupport
import Testing
@testable import WebRTCCore

@Suite("RTP packet")
struct RTPPacketTests {
    /// RFC 3550 §5.1 fixed header built by hand: V=2, P=0, X=0, CC=0, M=1, PT=96, seq 0x1234,
    /// timestamp 1000, SSRC 0xDEADBEEF, then a 3-byte payload.
    static let minimal: [UInt8] = [0x80, 0xE0, 0x12, 0x34, 0x00, 0x00, 0x03, 0xE8, 0xDE, 0xAD, 0xBE, 0xEF, 1, 2, 3]

    @Test("parses the RFC 3550 fixed header")
    func fixedHeader() throws {
        let packet = try RTPPacket(parsing: Self.minimal)
        #expect(packet.marker)
        #expect(packet.payloadType == 96)
        #expect(packet.sequenceNumber == 0x1234)
        #expect(packet.timestamp == 1000)
        #expect(packet.ssrc == 0xDEAD_BEEF)
        #expect(packet.csrcs.isEmpty)
        #expect(packet.headerExtension == nil)
        #expect(packet.payload == [1, 2, 3])
        #expect(packet.paddingLength == 0)
        #expect(try packet.serialized() == Self.minimal)
    }

    @Test("parses CSRCs, padding and an RFC 8285 one-byte extension")
    func fullHeader() throws {
        let bytes: [UInt8] = [
            0xB2, 0x6F, 0xFF, 0xFF, 0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x01,  // P=1 X=1 CC=2, PT 111
            0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x0B,  // CSRCs 10, 11
            0xBE, 0xDE, 0x00, 0x03,  // one-byte profile, 3 words
            0x10, 0xAA, 0x21, 0xBB, 0xCC, 0x33, 0x01, 0x02,  // id1 L=0, id2 L=1, id3 L=3 ...
            0x03, 0x04, 0x00, 0x00,  // ... then padding
            0xF0, 0x0D,  // payload
            0x00, 0x00, 0x03,  // 3 bytes of padding
        ]
        let packet = try RTPPacket(parsing: bytes)
        #expect(!packet.marker)
        #expect(packet.payloadType == 111)
        #expect(packet.sequenceNumber == 0xFFFF)
        #expect(packet.csrcs == [10, 11])
        #expect(packet.headerExtension == .oneByte([
            RTPHeaderExtensionElement(id: 1, data: [0xAA]),
            RTPHeaderExtensionElement(id: 2, data: [0xBB, 0xCC]),
            RTPHeaderExtensionElement(id: 3, data: [0x01, 0x02, 0x03, 0x04]),
        ]))
        #expect(packet.headerExtension?.data(for: 2) == [0xBB, 0xCC])
        #expect(packet.payload == [0xF0, 0x0D])
        #expect(packet.paddingLength == 3)
        #expect(try packet.serialized() == bytes)
    }

    @Test("parses an RFC 8285 two-byte extension with padding and an empty element")
    func twoByteExtension() throws {
        let bytes: [UInt8] = [
            0x90, 0x60, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
            0x10, 0x05, 0x00, 0x02,  // profile 0x1005 (app bits 5), 2 words
            0x20, 0x00, 0x00, 0x30, 0x02, 0xAB, 0xCD, 0x00,  // id 32 empty, padding, id 48 two bytes, padding
        ]
        let packet = try RTPPacket(parsing: bytes)
        #expect(packet.headerExtension == .twoByte(appBits: 5, [
            RTPHeaderExtensionElement(id: 32, data: []), RTPHeaderExtensionElement(id: 48, data: [0xAB, 0xCD]),
        ]))
        #expect(packet.payload.isEmpty)
        let reparsed = try RTPPacket(parsing: try packet.serialized())
        #expect(reparsed == packet)
    }

    @Test("keeps extensions of other profiles opaque")
    func opaqueExtension() throws {
        let bytes: [UInt8] = [0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x12, 0x34, 0x00, 0x01, 9, 8, 7, 6, 0x55]
        let packet = try RTPPacket(parsing: bytes)
        #expect(packet.headerExtension == .opaque(profile: 0x1234, data: [9, 8, 7, 6]))
        #expect(packet.headerExtension?.elements == [])
        #expect(packet.payload == [0x55])
        #expect(try packet.serialized() == bytes)
    }

    @Test("a one-byte element with id 15 ends extension parsing (RFC 8285 §4.2)")
    func idFifteenStops() throws {
        let bytes: [UInt8] = [
            0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE, 0xDE, 0x00, 0x01, 0x10, 0x77, 0xF3, 0x10,
        ]
        let packet = try RTPPacket(parsing: bytes)
        #expect(packet.headerExtension?.elements == [RTPHeaderExtensionElement(id: 1, data: [0x77])])
    }

    @Test("a one-byte element with id 0 is a single padding byte whatever its length nibble")
    func idZeroIsPadding() throws {
        let bytes: [UInt8] = [
            0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE, 0xDE, 0x00, 0x01, 0x03, 0x20, 0xAB, 0x00,
        ]
        let packet = try RTPPacket(parsing: bytes)
        #expect(packet.headerExtension?.elements == [RTPHeaderExtensionElement(id: 2, data: [0xAB])])
    }

    @Test("random packets survive serialize → parse", arguments: [1, 2, 3] as [UInt64])
    func randomRoundTrip(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let packet = RTPPacket.random(using: &generator)
            #expect(try RTPPacket(parsing: packet.serialized()) == packet)
        }
    }

    @Test("rejects malformed packets with typed errors")
    func rejections() {
        var versionOne = Self.minimal
        versionOne[0] = 0x40
        #expect(throws: RTPError.unsupportedVersion(1)) { try RTPPacket(parsing: versionOne) }
        #expect(throws: RTPError.truncated(needed: 12, available: 11)) {
            try RTPPacket(parsing: Array(Self.minimal.prefix(11)))
        }
        var fifteenCSRCs = Self.minimal + Array(repeating: 0, count: 5)
        fifteenCSRCs[0] = 0x8F
        #expect(throws: RTPError.truncated(needed: 72, available: 20)) { try RTPPacket(parsing: fifteenCSRCs) }
        let extensionPastEnd: [UInt8] = [0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE, 0xDE, 0x00, 0x02, 0x10, 0x01]
        #expect(throws: RTPError.extensionOverrun(declaredBytes: 8, available: 2)) {
            try RTPPacket(parsing: extensionPastEnd)
        }
        let missingExtensionHeader: [UInt8] = [0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE]
        #expect(throws: RTPError.truncated(needed: 16, available: 13)) { try RTPPacket(parsing: missingExtensionHeader) }
        let elementPastEnd: [UInt8] = [0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE, 0xDE, 0x00, 0x01, 0x00, 0x00, 0x00, 0x13]
        #expect(throws: RTPError.extensionElementOverrun(id: 1)) { try RTPPacket(parsing: elementPastEnd) }
        let twoBytePastEnd: [UInt8] = [0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x10, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07]
        #expect(throws: RTPError.extensionElementOverrun(id: 7)) { try RTPPacket(parsing: twoBytePastEnd) }
        var zeroPadding = Self.minimal
        zeroPadding[0] = 0xA0
        zeroPadding[zeroPadding.count - 1] = 0
        #expect(throws: RTPError.invalidPadding(count: 0, available: 3)) { try RTPPacket(parsing: zeroPadding) }
        var paddingTooLarge = Self.minimal
        paddingTooLarge[0] = 0xA0
        paddingTooLarge[paddingTooLarge.count - 1] = 4
        #expect(throws: RTPError.invalidPadding(count: 4, available: 3)) { try RTPPacket(parsing: paddingTooLarge) }
    }

    @Test("refuses to serialize what the wire cannot carry")
    func serializationRejections() {
        let base = RTPPacket(payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3, payload: [1])
        var packet = base
        packet.payloadType = 128
        #expect(throws: RTPError.payloadTypeOutOfRange(128)) { try packet.serialized() }
        packet = base
        packet.csrcs = Array(repeating: 1, count: 16)
        #expect(throws: RTPError.tooManyCSRCs(16)) { try packet.serialized() }
        packet = base
        packet.headerExtension = .oneByte([RTPHeaderExtensionElement(id: 15, data: [1])])
        #expect(throws: RTPError.invalidExtensionElement(id: 15, length: 1)) { try packet.serialized() }
        packet.headerExtension = .oneByte([RTPHeaderExtensionElement(id: 1, data: Array(repeating: 0, count: 17))])
        #expect(throws: RTPError.invalidExtensionElement(id: 1, length: 17)) { try packet.serialized() }
        packet.headerExtension = .twoByte(appBits: 0, [RTPHeaderExtensionElement(id: 0, data: [])])
        #expect(throws: RTPError.invalidExtensionElement(id: 0, length: 0)) { try packet.serialized() }
        packet.headerExtension = .opaque(profile: 1, data: [1, 2, 3])
        #expect(throws: RTPError.invalidExtensionLength(3)) { try packet.serialized() }
    }
}

extension RTPPacket {
    /// A random valid packet covering every header feature.
    static func random(using generator: inout SplitMix64) -> RTPPacket {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let extensionKind = Int.random(in: 0...3, using: &generator)
        var headerExtension: RTPHeaderExtension?
        switch extensionKind {
        case 1:
            headerExtension = .oneByte((0..<Int.random(in: 0...4, using: &generator)).map { _ in
                RTPHeaderExtensionElement(
                    id: UInt8.random(in: 1...14, using: &generator), data: bytes(Int.random(in: 1...16, using: &generator)))
            })
        case 2:
            headerExtension = .twoByte(appBits: UInt8.random(in: 0...15, using: &generator), (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                RTPHeaderExtensionElement(
                    id: UInt8.random(in: 1...255, using: &generator), data: bytes(Int.random(in: 0...40, using: &generator)))
            })
        case 3:
            headerExtension = .opaque(profile: 0x0100, data: bytes(4 * Int.random(in: 0...3, using: &generator)))
        default:
            headerExtension = nil
        }
        return RTPPacket(
            marker: Bool.random(using: &generator), payloadType: UInt8.random(in: 0...127, using: &generator),
            sequenceNumber: UInt16.random(in: 0...UInt16.max, using: &generator),
            timestamp: UInt32.random(in: 0...UInt32.max, using: &generator),
            ssrc: UInt32.random(in: 0...UInt32.max, using: &generator),
            csrcs: (0..<Int.random(in: 0...15, using: &generator)).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) },
            headerExtension: headerExtension, payload: bytes(Int.random(in: 0...200, using: &generator)),
            paddingLength: Bool.random(using: &generator) ? UInt8.random(in: 1...255, using: &generator) : 0)
    }
}
