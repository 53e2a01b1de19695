@testable import IntercomAgent
import Logging
import Media
import Synchronization
import Testing
import WebRTCCore

/// `SIPVideoStream` on the loopback against scripted peers: the shared encoder's frames go out as VP8 RTP with
/// the answer's payload type, a PLI from the phone becomes a keyframe request, the destinations latch to where
/// the phone's packets come from (RFC 4961), an SR goes out, and stopping lets go of the pipeline.
/// Serialized: `SIPAudioPeer.receive` blocks its thread while it waits, and two such waits would hold both of a
/// 2-core machine's pool threads, starving the stream's sender task.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SIPVideoStreamTests {
    final class Count: Sendable {
        let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var now: Int { value.load(ordering: .relaxed) }
    }

    final class FakeSource: SIPVideoSource {
        let keyframes = Count()
        let demand = Mutex<[Bool]>([])
        let video: EncodedFrameBroadcaster

        init() {
            let keyframes = self.keyframes
            video = EncodedFrameBroadcaster { keyframes.add() }
        }

        func requestKeyframe() { keyframes.add() }
        func setDemand(_ holder: String, wanted: Bool) { demand.withLock { $0.append(wanted) } }
    }

    static func frame(_ timestamp: UInt32, keyframe: Bool) -> EncodedFrame {
        EncodedFrame(bytes: [UInt8](repeating: keyframe ? 0x10 : 0x11, count: 3000), captureTime: .zero,
                     rtpTimestamp: timestamp, isKeyframe: keyframe)
    }

    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0 ..< 200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func sendsFramesHonoursPLILatchesAndReports() async throws {
        let phone = try SIPAudioPeer(), phoneRTCP = try SIPAudioPeer(), moved = try SIPAudioPeer()
        let offer = try SessionDescription(parsing: [
            "v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0",
            "m=audio 4000 RTP/AVP 0", "m=video \(phone.port) RTP/AVP 100", "a=rtpmap:100 VP8/90000", "",
        ].joined(separator: "\r\n"))
        let sockets = try SIPVideoStream.bindSockets(host: "127.0.0.1")
        let answer = try #require(SIPVideoAnswerer(port: sockets.rtp.local.port).answer(offer))
        let source = FakeSource()
        let stream = try SIPVideoStream(answer: answer, sockets: sockets, media: source, reportInterval: .milliseconds(200),
                                        logger: Logger(label: "test"))
        stream.start()
        #expect(source.demand.withLock { $0 } == [true])

        // A delta before any keyframe is skipped by the fan-out; the keyframe goes out in three packets.
        source.video.publish(Self.frame(900, keyframe: false))
        source.video.publish(Self.frame(1000, keyframe: true))
        let packets = phone.receive(count: 3, timeout: .seconds(2)).compactMap { try? RTPPacket(parsing: $0) }
        #expect(packets.count == 3)
        #expect(packets.allSatisfy { $0.payloadType == 100 && $0.timestamp == 1000 })
        #expect(packets.last?.marker == true && packets.dropLast().allSatisfy { !$0.marker })
        let ssrc = try #require(packets.first?.ssrc)

        // The phone's PLI (from its RTCP port): a keyframe request to the encoder; its RTCP port is latched.
        let before = source.keyframes.now
        let pli = try RTCPPacket.serializeCompound([.pictureLossIndication(PictureLossIndication(senderSSRC: 7, mediaSSRC: ssrc))])
        phoneRTCP.send(pli, to: sockets.rtcp.local.port)
        try await Self.eventually { stream.counters.keyframeRequests == 1 }
        #expect(stream.counters.keyframeRequests == 1 && source.keyframes.now == before + 1)
        let reports = phoneRTCP.receive(count: 1, timeout: .seconds(2))
        let sender = reports.first.flatMap { try? RTCPPacket.parseCompound($0) }?.compactMap { packet -> SenderReport? in
            if case .senderReport(let report) = packet { return report }
            return nil
        }.first
        #expect(sender?.ssrc == ssrc && sender?.packetCount == 3, "\(String(describing: sender))")

        // The phone's video from another port moves our destination there (symmetric RTP).
        var own = RTPPacketSequencer(ssrc: 0xCAFE, payloadType: 100, initialSequenceNumber: 1)
        let theirs = try #require(own.packets(for: [[0x10, 0, 0]], timestamp: 5, markLast: true, headerExtension: nil).first)
        moved.send(try theirs.serialized(), to: sockets.rtp.local.port)
        try await Self.eventually { stream.counters.latched }
        source.video.publish(Self.frame(4000, keyframe: false))
        let after = moved.receive(count: 3, timeout: .seconds(2)).compactMap { try? RTPPacket(parsing: $0) }
        #expect(after.count == 3 && after.allSatisfy { $0.timestamp == 4000 })
        #expect(stream.counters.packetsReceived == 1 && stream.counters.framesSent == 2)

        await stream.stop()
        #expect(source.demand.withLock { $0 } == [true, false])
        source.video.publish(Self.frame(5000, keyframe: true))
        #expect(moved.receive(count: 1, timeout: .milliseconds(200)).isEmpty)
    }

    @Test func nackedPacketsAreResentAsFirstSent() async throws {
        let phone = try SIPAudioPeer(), phoneRTCP = try SIPAudioPeer()
        let offer = try SessionDescription(parsing: [
            "v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0",
            "m=audio 4000 RTP/AVP 0", "m=video \(phone.port) RTP/AVPF 100", "a=rtpmap:100 VP8/90000",
            "a=rtcp-fb:100 nack", "a=rtcp-fb:100 nack pli", "",
        ].joined(separator: "\r\n"))
        let sockets = try SIPVideoStream.bindSockets(host: "127.0.0.1")
        let answer = try #require(SIPVideoAnswerer(port: sockets.rtp.local.port).answer(offer))
        #expect(answer.acceptsNACK)
        let source = FakeSource()
        let stream = try SIPVideoStream(answer: answer, sockets: sockets, media: source, logger: Logger(label: "test"))
        stream.start()
        source.video.publish(Self.frame(1000, keyframe: true))
        let sent = phone.receive(count: 3, timeout: .seconds(2))
        let packets = sent.compactMap { try? RTPPacket(parsing: $0) }
        #expect(packets.count == 3)
        let ssrc = try #require(packets.first?.ssrc)
        // The phone lost the second packet and one we never sent (far behind): only the first is resent.
        let lost = packets[1].sequenceNumber
        let nack = GenericNACK(senderSSRC: 7, mediaSSRC: ssrc, items: [GenericNACK.Item(packetID: lost, lostBitmask: 0),
                                                                       GenericNACK.Item(packetID: lost &- 1000, lostBitmask: 0)])
        phoneRTCP.send(try RTCPPacket.serializeCompound([.nack(nack)]), to: sockets.rtcp.local.port)
        let resent = phone.receive(count: 1, timeout: .seconds(2))
        #expect(resent == [sent[1]], "the NACKed packet again, byte for byte")
        try await Self.eventually { stream.counters.retransmissions == 1 }
        #expect(stream.counters.nackedPackets == 2 && stream.counters.retransmissions == 1)
        #expect(phone.receive(count: 1, timeout: .milliseconds(200)).isEmpty)
        await stream.stop()
    }
}
