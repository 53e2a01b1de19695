import IntercomTestSupport
import Testing
@testable import WebRTCCore

@Suite("VP8 packetizer and depacketizer (RFC 7741 §4)")
struct VP8PacketizerTests {
    static func frame(_ size: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test("splits 3000 bytes into three 1000-byte parts under a 1200-byte MTU")
    func equalSplit() throws {
        var packetizer = try VP8Packetizer(initialPictureID: 0x1234)
        let payloads = try packetizer.packetize(Self.frame(3000))
        #expect(payloads.map(\.count) == [1004, 1004, 1004])
        #expect(payloads.map { $0.prefix(4) } == [
            [0x90, 0x80, 0x92, 0x34], [0x80, 0x80, 0x92, 0x34], [0x80, 0x80, 0x92, 0x34],
        ])
        #expect(packetizer.nextPictureID == 0x1235)
    }

    @Test("sizes never exceed the MTU, differ by at most one byte, and rebuild the frame",
          arguments: [(1200, 12), (1200, 32), (17, 12), (300, 12)])
    func splitProperties(maxPacketSize: Int, overhead: Int) throws {
        var packetizer = try VP8Packetizer(maxPacketSize: maxPacketSize, headerOverhead: overhead, initialPictureID: 0)
        var generator = SplitMix64(seed: UInt64(maxPacketSize))
        for _ in 0..<40 {
            let frame = Self.frame(Int.random(in: 1...(maxPacketSize * 16), using: &generator))
            let payloads = try packetizer.packetize(frame)
            #expect(payloads.allSatisfy { $0.count + overhead <= maxPacketSize })
            let sizes = payloads.map { $0.count - 4 }
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
            #expect(payloads.count == (frame.count + packetizer.maxDataPerPacket - 1) / packetizer.maxDataPerPacket)
            #expect(payloads.flatMap { $0.dropFirst(4) } == frame)
            #expect(payloads.enumerated().allSatisfy { index, payload in (payload[0] & 0x10 != 0) == (index == 0) })
        }
    }

    @Test("boundary sizes: exactly one packet, one byte more makes two")
    func boundaries() throws {
        var packetizer = try VP8Packetizer(initialPictureID: 0)
        #expect(try packetizer.packetize(Self.frame(1184)).count == 1)
        #expect(try packetizer.packetize(Self.frame(1185)).map(\.count) == [597, 596])
    }

    @Test("PictureID wraps at 2^15")
    func pictureIDWrap() throws {
        var packetizer = try VP8Packetizer(initialPictureID: 0x7FFF)
        let first = try packetizer.packetize([1])
        let second = try packetizer.packetize([2])
        #expect(Array(first[0].prefix(4)) == [0x90, 0x80, 0xFF, 0xFF])
        #expect(Array(second[0].prefix(4)) == [0x90, 0x80, 0x80, 0x00])
    }

    @Test("rejects an MTU with no room for data and an empty frame")
    func invalidInput() throws {
        #expect(throws: VP8Error.packetSizeTooSmall(maxPacketSize: 16, headerOverhead: 12)) {
            try VP8Packetizer(maxPacketSize: 16, initialPictureID: 0)
        }
        var packetizer = try VP8Packetizer(initialPictureID: 0)
        #expect(throws: VP8Error.emptyFrame) { try packetizer.packetize([]) }
    }
}

@Suite("VP8 depacketizer")
struct VP8DepacketizerTests {
    /// RTP packets for `frames`, 3000 timestamp units apart, starting at `sequence`.
    static func packets(frames: [[UInt8]], sequence: UInt16 = 100, maxPacketSize: Int = 300) throws -> [[RTPPacket]] {
        var packetizer = try VP8Packetizer(maxPacketSize: maxPacketSize, initialPictureID: 500)
        var sequencer = RTPPacketSequencer(ssrc: 9, payloadType: 96, initialSequenceNumber: sequence)
        return try frames.enumerated().map { index, frame in
            sequencer.packets(for: try packetizer.packetize(frame), timestamp: UInt32(index * 3000), markLast: true)
        }
    }

    static func push(_ packets: [RTPPacket], into depacketizer: inout VP8Depacketizer) throws -> [VP8DepacketizerEvent] {
        var events: [VP8DepacketizerEvent] = []
        for packet in packets { events += try depacketizer.push(packet) }
        return events
    }

    let frames = [VP8PacketizerTests.frame(1000, seed: 1), VP8PacketizerTests.frame(50, seed: 2),
                  VP8PacketizerTests.frame(700, seed: 3)]

    @Test("rebuilds frames across the sequence-number wrap")
    func reassembly() throws {
        let packets = try Self.packets(frames: frames, sequence: 65530)
        var depacketizer = VP8Depacketizer()
        let events = try Self.push(packets.flatMap { $0 }, into: &depacketizer)
        #expect(events == frames.enumerated().map { index, frame in
            .frame(VP8Frame(timestamp: UInt32(index * 3000), pictureID: UInt16(500 + index), data: frame))
        })
    }

    @Test("a lost middle packet drops that frame only and reports it")
    func lossInsideFrame() throws {
        var packets = try Self.packets(frames: frames + [frames[0]])
        packets[0].remove(at: 2)
        var depacketizer = VP8Depacketizer()
        let events = try Self.push(packets.flatMap { $0 }, into: &depacketizer)
        #expect(events.first == .frameLost(missingPackets: 1))
        #expect(events.dropFirst().map { event in
            if case let .frame(frame) = event { return frame.data } else { return [] }
        } == Array(frames.dropFirst()) + [frames[0]])
    }

    @Test("a whole lost frame is reported; the next one is delivered")
    func wholeFrameLost() throws {
        var packets = try Self.packets(frames: frames)
        let lost = packets[1].count
        packets[1] = []
        var depacketizer = VP8Depacketizer()
        let events = try Self.push(packets.flatMap { $0 }, into: &depacketizer)
        #expect(events.count == 3)
        #expect(events[1] == .frameLost(missingPackets: lost))
        #expect(events[2] == .frame(VP8Frame(timestamp: 6000, pictureID: 502, data: frames[2])))
    }

    @Test("joining mid-frame reports one loss, then delivers the next whole frame")
    func joinMidFrame() throws {
        let packets = try Self.packets(frames: frames)
        var depacketizer = VP8Depacketizer()
        let events = try Self.push(Array(packets[0].dropFirst()) + packets[1], into: &depacketizer)
        #expect(events == [.frameLost(missingPackets: 0), .frame(VP8Frame(timestamp: 3000, pictureID: 501, data: frames[1]))])
    }

    @Test("duplicates and late packets are ignored")
    func duplicates() throws {
        let packets = try Self.packets(frames: frames).flatMap { $0 }
        var depacketizer = VP8Depacketizer()
        var events: [VP8DepacketizerEvent] = []
        for packet in packets {
            events += try depacketizer.push(packet)
            events += try depacketizer.push(packet)
        }
        events += try depacketizer.push(packets[0])
        #expect(events.count == 3)
        #expect(events.allSatisfy { if case .frame = $0 { true } else { false } })
    }

    @Test("a truncated descriptor throws, and the gap it leaves is reported next")
    func truncatedDescriptor() throws {
        var packets = try Self.packets(frames: frames).flatMap { $0 }
        packets[1].payload = [0x80, 0x80]
        var depacketizer = VP8Depacketizer()
        _ = try depacketizer.push(packets[0])
        #expect(throws: VP8Error.truncatedDescriptor(needed: 3, available: 2)) { try depacketizer.push(packets[1]) }
        #expect(try depacketizer.push(packets[2]) == [.frameLost(missingPackets: 1)])
    }

    @Test("a frame over the size limit is dropped with an error")
    func frameTooLarge() throws {
        let packets = try Self.packets(frames: [frames[0], frames[1]])
        #expect(packets[0].map(\.payload.count) == [254, 254, 254, 254])
        var depacketizer = VP8Depacketizer(maxFrameSize: 600)
        #expect(try depacketizer.push(packets[0][0]).isEmpty)
        #expect(try depacketizer.push(packets[0][1]).isEmpty)
        #expect(throws: VP8Error.frameTooLarge(bytes: 750, limit: 600)) { try depacketizer.push(packets[0][2]) }
        #expect(try depacketizer.push(packets[0][3]).isEmpty)
        #expect(try Self.push(packets[1], into: &depacketizer) == [
            .frame(VP8Frame(timestamp: 3000, pictureID: 501, data: frames[1])),
        ])
    }

    @Test("a missing marker is ended by the next timestamp")
    func missingMarker() throws {
        var packets = try Self.packets(frames: [frames[1], frames[1]]).flatMap { $0 }
        packets[0].marker = false
        var depacketizer = VP8Depacketizer()
        let events = try Self.push(packets, into: &depacketizer)
        #expect(events.count == 2)
        #expect(events.first == .frame(VP8Frame(timestamp: 0, pictureID: 500, data: frames[1])))
    }
}
