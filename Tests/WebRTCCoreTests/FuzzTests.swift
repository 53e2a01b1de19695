import IntercomTestSupport
import Testing
@testable import WebRTCCore

/// Seeded mutation fuzzing of every parser (reliability-test-matrix §(c) items 1, 3, 4, 6, 7).
/// A crash or hang fails the run; each accepted input must also survive a serialize → parse round trip,
/// and each corpus must produce both accepted and rejected inputs, so the mutations reach deep code.
@Suite("Fuzz: parsers only throw")
struct FuzzTests {
    struct Tally {
        var accepted = 0
        var rejected = 0
    }

    @Test("SDP: byte and line mutations of a Chromium offer")
    func sdp() throws {
        var mutator = Mutator(seed: 0x5D9)
        var tally = Tally()
        let local = SDPAnswerBuilderTests.local
        let original = Array(ChromiumOfferFixture.text.utf8)
        for iteration in 0..<2000 {
            let input = iteration % 2 == 0
                ? mutator.mutate(original)
                : Array((mutator.mutateLines(ChromiumOfferFixture.lines).joined(separator: "\r\n")).utf8)
            guard let parsed = try? SessionDescription(parsing: input) else {
                tally.rejected += 1
                continue
            }
            tally.accepted += 1
            #expect(try SessionDescription(parsing: parsed.serialized()) == parsed)
            if let answer = try? SDPAnswerBuilder.answer(to: parsed, local: local) {
                #expect(try SessionDescription(parsing: answer.serialized()) == answer)
                _ = try? NegotiatedSession(local: answer, remote: parsed)
            }
        }
        #expect(tally.accepted > 100)
        #expect(tally.rejected > 100)
    }

    @Test("RTP: mutations of random valid packets")
    func rtp() throws {
        var mutator = Mutator(seed: 0x272)
        var generator = SplitMix64(seed: 0x272)
        var tally = Tally()
        for _ in 0..<5000 {
            let input = mutator.mutate(try RTPPacket.random(using: &generator).serialized())
            _ = DatagramClass(classifying: input)
            guard let packet = try? RTPPacket(parsing: input) else {
                tally.rejected += 1
                continue
            }
            tally.accepted += 1
            // Mutated one-byte extensions may hold elements we refuse to write (id 15 stops parsing, so
            // none do); anything parsed must serialize and reparse to the same packet.
            #expect(try RTPPacket(parsing: packet.serialized()) == packet)
        }
        #expect(tally.accepted > 500)
        #expect(tally.rejected > 500)
    }

    @Test("RTCP: mutations of random valid compounds")
    func rtcp() throws {
        var mutator = Mutator(seed: 0x2C7C)
        var generator = SplitMix64(seed: 0x2C7C)
        var tally = Tally()
        for _ in 0..<5000 {
            let packets = (0..<Int.random(in: 1...4, using: &generator)).map { _ in RTCPPacket.random(using: &generator) }
            let input = mutator.mutate(try RTCPPacket.serializeCompound(packets))
            guard let parsed = try? RTCPPacket.parseCompound(input) else {
                tally.rejected += 1
                continue
            }
            tally.accepted += 1
            if let bytes = try? RTCPPacket.serializeCompound(parsed) {
                #expect(try RTCPPacket.parseCompound(bytes) == parsed)
            }
        }
        #expect(tally.accepted > 300)
        #expect(tally.rejected > 300)
    }

    @Test("VP8: descriptors, frame headers and a depacketizer fed mutated packet streams")
    func vp8() throws {
        var mutator = Mutator(seed: 0x798)
        var tally = Tally()
        var packetizer = try VP8Packetizer(maxPacketSize: 200, initialPictureID: 7)
        var sequencer = RTPPacketSequencer(ssrc: 1, payloadType: 96, initialSequenceNumber: 65000)
        var depacketizer = VP8Depacketizer(maxFrameSize: 64 * 1024)
        var losses = 0
        for frameIndex in 0..<600 {
            let frame = VP8FrameHeaderTests.keyFrame + VP8PacketizerTests.frame(frameIndex % 400)
            let packets = sequencer.packets(
                for: try packetizer.packetize(frame), timestamp: UInt32(frameIndex * 3000), markLast: true)
            for var packet in packets {
                if mutator.int(0...3) == 0 { packet.payload = mutator.mutate(packet.payload) }
                if mutator.int(0...20) == 0 { packet.sequenceNumber &+= UInt16(mutator.int(0...3)) }
                if mutator.int(0...30) == 0 { continue }
                do {
                    for event in try depacketizer.push(packet) {
                        switch event {
                        case let .frame(rebuilt):
                            tally.accepted += 1
                            _ = try? VP8FrameHeader(parsing: rebuilt.data[...])
                        case .frameLost:
                            losses += 1
                        }
                    }
                } catch {
                    tally.rejected += 1
                }
                if let (descriptor, _) = try? VP8PayloadDescriptor.parse(packet.payload[...]) {
                    #expect(try VP8PayloadDescriptor.parse((descriptor.serialized() + [0])[...]).descriptor == descriptor)
                }
            }
            _ = try? VP8FrameHeader(parsing: mutator.mutate(frame)[...])
        }
        #expect(tally.accepted > 100)
        #expect(tally.rejected > 0)
        #expect(losses > 10)
    }

    @Test("Opus: mutated and random packets")
    func opus() {
        var mutator = Mutator(seed: 0x0905)
        var tally = Tally()
        let seeds: [[UInt8]] = [
            [0xF8, 1, 2, 3], [0xF9, 1, 2, 3, 4], [0xFA, 3, 1, 2, 3, 4, 5], [0xFB, 0x03, 1, 2, 3, 4, 5, 6],
            [0xFB, 0xC2, 0x02, 2, 1, 2, 3, 4, 5, 0, 0], [0x83, 0x41, 0xFF, 0x01] + Array(repeating: 0, count: 256),
        ]
        for iteration in 0..<5000 {
            let input = mutator.mutate(seeds[iteration % seeds.count])
            guard let info = try? OpusPacketInfo(validating: input) else {
                tally.rejected += 1
                continue
            }
            tally.accepted += 1
            let header = info.frameCountCode >= 2 ? 1 : 0
            #expect(info.frameSizes.reduce(0, +) + info.paddingLength + 1 + header <= input.count)
            #expect(info.durationSamples <= OpusPacketInfo.maxDurationSamples)
        }
        #expect(tally.accepted > 500)
        #expect(tally.rejected > 500)
    }
}
