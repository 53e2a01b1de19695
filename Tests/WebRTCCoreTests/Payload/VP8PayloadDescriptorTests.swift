import IntercomTestSupport
import Testing
@testable import WebRTCCore

@Suite("VP8 payload descriptor (RFC 7741 §4.2)")
struct VP8PayloadDescriptorTests {
    @Test("X=1 I=1 M=1: the descriptor we send, 15-bit PictureID 0x1234")
    func longPictureID() throws {
        let (descriptor, data) = try VP8PayloadDescriptor.parse([0x90, 0x80, 0x92, 0x34, 0xAA][...])
        #expect(descriptor == VP8PayloadDescriptor(startOfPartition: true, pictureID: .long(0x1234)))
        #expect(descriptor.startsFrame)
        #expect(Array(data) == [0xAA])
        #expect(descriptor.serialized() == [0x90, 0x80, 0x92, 0x34])
    }

    @Test("M=0: 7-bit PictureID")
    func shortPictureID() throws {
        let (descriptor, _) = try VP8PayloadDescriptor.parse([0x80, 0x80, 0x12, 0x00][...])
        #expect(descriptor.pictureID == .short(0x12))
        #expect(descriptor.pictureID?.value == 0x12)
        #expect(!descriptor.startOfPartition)
        #expect(!descriptor.startsFrame)
    }

    @Test("every optional field: N, PID 2, PictureID 0x7FFF, TL0PICIDX 5, TID 2, Y, KEYIDX 17")
    func allFields() throws {
        let bytes: [UInt8] = [0xB2, 0xF0, 0xFF, 0xFF, 0x05, 0xB1, 0x01]
        let (descriptor, data) = try VP8PayloadDescriptor.parse(bytes[...])
        #expect(descriptor == VP8PayloadDescriptor(
            nonReference: true, startOfPartition: true, partitionIndex: 2, pictureID: .long(0x7FFF),
            tl0PictureIndex: 5, temporalLayerIndex: 2, layerSync: true, keyIndex: 17))
        #expect(!descriptor.startsFrame)
        #expect(Array(data) == [0x01])
        #expect(descriptor.serialized() + [0x01] == bytes)
    }

    @Test("no extension byte, and K without T drops the Y bit")
    func minimalAndKeyIndexOnly() throws {
        let (minimal, data) = try VP8PayloadDescriptor.parse([0x10, 0x9D][...])
        #expect(minimal == VP8PayloadDescriptor(startOfPartition: true))
        #expect(Array(data) == [0x9D])
        let (keyOnly, _) = try VP8PayloadDescriptor.parse([0x90, 0x10, 0x3F, 0x00][...])
        #expect(keyOnly.keyIndex == 31)
        #expect(keyOnly.temporalLayerIndex == nil)
        #expect(!keyOnly.layerSync)
    }

    @Test("truncated descriptors and missing data are errors")
    func truncated() {
        #expect(throws: VP8Error.truncatedDescriptor(needed: 1, available: 0)) { try VP8PayloadDescriptor.parse([][...]) }
        #expect(throws: VP8Error.truncatedDescriptor(needed: 2, available: 1)) { try VP8PayloadDescriptor.parse([0x90][...]) }
        #expect(throws: VP8Error.truncatedDescriptor(needed: 4, available: 3)) {
            try VP8PayloadDescriptor.parse([0x90, 0x80, 0x92][...])
        }
        #expect(throws: VP8Error.truncatedDescriptor(needed: 6, available: 5)) {
            try VP8PayloadDescriptor.parse([0x90, 0xF0, 0x92, 0x34, 0x05][...])
        }
        #expect(throws: VP8Error.emptyPayload) { try VP8PayloadDescriptor.parse([0x90, 0x80, 0x92, 0x34][...]) }
    }

    @Test("random descriptors survive serialize → parse")
    func randomRoundTrip() throws {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<500 {
            func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &generator) ? make() : nil }
            let pictureID: VP8PayloadDescriptor.PictureID? = maybe {
                Bool.random(using: &generator)
                    ? .long(UInt16.random(in: 0...0x7FFF, using: &generator))
                    : .short(UInt8.random(in: 0...0x7F, using: &generator))
            }
            let temporal = maybe { UInt8.random(in: 0...3, using: &generator) }
            let descriptor = VP8PayloadDescriptor(
                nonReference: Bool.random(using: &generator), startOfPartition: Bool.random(using: &generator),
                partitionIndex: UInt8.random(in: 0...7, using: &generator), pictureID: pictureID,
                tl0PictureIndex: maybe { UInt8.random(in: 0...255, using: &generator) },
                temporalLayerIndex: temporal, layerSync: temporal != nil && Bool.random(using: &generator),
                keyIndex: maybe { UInt8.random(in: 0...31, using: &generator) })
            let (parsed, data) = try VP8PayloadDescriptor.parse((descriptor.serialized() + [0x42])[...])
            #expect(parsed == descriptor)
            #expect(Array(data) == [0x42])
        }
    }
}
