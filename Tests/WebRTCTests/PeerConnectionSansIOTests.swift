import Testing
import WebRTC
import WebRTCCore

/// The pure parts of the peer connection: state aggregation, keyframe rate limiting, report arithmetic,
/// RTCP feedback interpretation and the outgoing stream bookkeeping. Time is an input everywhere.
@Suite("PeerConnection sans-IO parts")
struct PeerConnectionSansIOTests {
    // MARK: State

    @Test func stateAggregatesICEAndDTLSLikeW3C() {
        #expect(PeerConnectionState(ice: .new, dtls: .new) == .new)
        #expect(PeerConnectionState(ice: .checking, dtls: .new) == .connecting)
        #expect(PeerConnectionState(ice: .connected, dtls: .handshaking) == .connecting)
        #expect(PeerConnectionState(ice: .connected, dtls: .connected) == .connected)
        #expect(PeerConnectionState(ice: .completed, dtls: .connected) == .connected)
        #expect(PeerConnectionState(ice: .disconnected, dtls: .connected) == .disconnected)
        #expect(PeerConnectionState(ice: .connected, dtls: .failed) == .failed)
        #expect(PeerConnectionState(ice: .failed, dtls: .connected) == .failed)
        #expect(PeerConnectionState(ice: .closed, dtls: .failed) == .failed, "a failure is not hidden by closing")
        #expect(PeerConnectionState(ice: .connected, dtls: .closed) == .closed)
        #expect(PeerConnectionState.failed.isTerminal && PeerConnectionState.closed.isTerminal)
        #expect(!PeerConnectionState.disconnected.isTerminal)
    }

    // MARK: Inactivity (instead of libnice 0.1.21's consent freshness)

    @Test func aPeerIsSilentOnlyAfterTheTimeoutWithoutADatagram() {
        var watch = InactivityWatch(timeout: .seconds(15))
        #expect(!watch.isSilent(at: .seconds(100)), "never heard: connecting has its own deadlines")
        watch.heard(at: .seconds(10))
        #expect(!watch.isSilent(at: .seconds(25)), "exactly the timeout is not yet silence")
        #expect(watch.isSilent(at: .seconds(25) + .milliseconds(1)))
        watch.heard(at: .seconds(24))
        #expect(!watch.isSilent(at: .seconds(30)), "any datagram resets it")
        #expect(PeerConnectionError.peerSilent(seconds: 15).description == "nothing received from the peer for 15 s")
    }

    // MARK: Keyframe requests

    @Test func keyframeRequestsAreRateLimitedButNotLost() {
        var limiter = KeyframeRequestLimiter(minimumInterval: .milliseconds(400))
        let start = Duration.seconds(10)
        let granted = [
            limiter.request(now: start),
            limiter.request(now: start + .milliseconds(100)),
            limiter.request(now: start + .milliseconds(200)),
        ]
        #expect(granted == [true, false, false], "a PLI storm costs one keyframe")
        #expect(limiter.pending)
        let polled = [
            limiter.poll(now: start + .milliseconds(399)),
            limiter.poll(now: start + .milliseconds(400)),
            limiter.poll(now: .seconds(11)),
            limiter.request(now: .seconds(11)),
        ]
        #expect(polled == [false, true, false, true], "the deferred request is granted once, after the interval")
        #expect(!limiter.pending)
    }

    // MARK: Clocks

    @Test func ntpTimestampsAndReportFieldsFollowRFC3550() {
        #expect(NTPTime.timestamp(unixSeconds: 0) == NTPTime.unixEpochOffset << 32)
        #expect(NTPTime.timestamp(unixSeconds: 1.5) == (NTPTime.unixEpochOffset + 1) << 32 | 0x8000_0000)
        #expect(NTPTime.middle32(0x1122_3344_5566_7788) == 0x3344_5566)
        #expect(NTPTime.units65536(.seconds(1)) == 65536)
        #expect(NTPTime.units65536(.milliseconds(500)) == 32768)
        #expect(NTPTime.units65536(.seconds(-1)) == 0)
    }

    @Test func absoluteSendTimeIsSixDotEighteenFixedPointWrappingAt64Seconds() {
        // 1.5 s = 1 << 18 + 1 << 17 = 0x060000.
        #expect(AbsoluteSendTime.value(monotonic: .milliseconds(1500)) == [0x06, 0x00, 0x00])
        #expect(AbsoluteSendTime.value(monotonic: .seconds(65)) == AbsoluteSendTime.value(monotonic: .seconds(1)))
    }

    // MARK: Sender reports

    @Test func senderReportExtrapolatesTheRTPTimestampToTheReportTime() throws {
        var counters = SenderCounters(ssrc: 0xABCD, clockRate: 90_000)
        #expect(counters.senderReport(now: .seconds(1), ntp: 7) == nil, "no SR before the first packet")
        let packet = RTPPacket(payloadType: 96, sequenceNumber: 1, timestamp: 1000, ssrc: 0xABCD, payload: [1, 2, 3])
        counters.sent(packet, wireLength: 31, now: .seconds(1))
        counters.sent(packet, wireLength: 31, now: .seconds(1))
        counters.retransmitted(wireLength: 31)
        let report = try #require(counters.senderReport(now: .milliseconds(1500), ntp: 42))
        #expect(report.ssrc == 0xABCD)
        #expect(report.ntpTimestamp == 42)
        #expect(report.rtpTimestamp == 1000 + 45_000)
        #expect(report.packetCount == 2, "retransmissions are not new packets")
        #expect(report.octetCount == 6, "payload octets only")
        #expect(counters.wireBytes == 93)
        #expect(counters.retransmittedPackets == 1)
    }

    // MARK: Receiver statistics

    @Test func receiverStatisticsCountLossPerIntervalAndCumulatively() throws {
        var statistics = ReceiveStatistics(ssrc: 9, clockRate: 48_000)
        func receive(_ sequence: UInt16, slot: Int) {
            let packet = RTPPacket(payloadType: 111, sequenceNumber: sequence, timestamp: UInt32(slot * 960), ssrc: 9, payload: [0])
            statistics.received(packet, arrival: .milliseconds(20 * slot))
        }
        // 65534, 65535, (0 lost), 1, 2: wraps and loses one of five.
        for (sequence, slot) in [(UInt16(65534), 0), (65535, 1), (1, 3), (2, 4)] { receive(sequence, slot: slot) }
        let firstBlock = statistics.makeReportBlock(now: .seconds(1))
        let first = try #require(firstBlock)
        #expect(first.ssrc == 9)
        #expect(first.cumulativeLost == 1)
        #expect(first.fractionLost == UInt8(256 / 5))
        #expect(first.extendedHighestSequenceNumber == 65536 + 2, "the cycle count is in the high 16 bits")
        #expect(first.jitter == 0, "perfectly paced packets have no jitter")
        #expect(first.lastSenderReport == 0 && first.delaySinceLastSenderReport == 0)
        for sequence in UInt16(3)...6 { receive(sequence, slot: Int(sequence) + 2) }
        statistics.receivedSenderReport(ntpTimestamp: 0x0000_1234_5678_0000, arrival: .seconds(2))
        let secondBlock = statistics.makeReportBlock(now: .seconds(3))
        let second = try #require(secondBlock)
        #expect(second.fractionLost == 0, "nothing lost in the second interval")
        #expect(second.cumulativeLost == 1)
        #expect(second.lastSenderReport == 0x1234_5678)
        #expect(second.delaySinceLastSenderReport == 65536)
    }

    @Test func receiverStatisticsJitterFollowsTransitTimeChanges() throws {
        var statistics = ReceiveStatistics(ssrc: 1, clockRate: 48_000)
        // Every packet 20 ms apart in RTP time, alternately arriving 0 and 10 ms late: |D| = 480 ticks.
        for index in 0..<200 {
            let late = index % 2 == 0 ? 0 : 10
            let packet = RTPPacket(
                payloadType: 111, sequenceNumber: UInt16(index), timestamp: UInt32(index * 960), ssrc: 1, payload: [0])
            statistics.received(packet, arrival: .milliseconds(20 * index + late))
        }
        let blockBlock = statistics.makeReportBlock(now: .seconds(5))
        let block = try #require(blockBlock)
        #expect((470...480).contains(block.jitter), "J converges to |D| (RFC 3550 A.8), got \(block.jitter)")
    }

    // MARK: RTCP feedback

    @Test func feedbackForOurVideoAsksForRetransmissionsAndKeyframes() {
        var interpreter = RTCPFeedbackInterpreter(videoSSRC: 100, audioSSRC: 200)
        let nack = GenericNACK(senderSSRC: 5, mediaSSRC: 100, lostSequenceNumbers: [10, 12])
        let foreignNACK = GenericNACK(senderSSRC: 5, mediaSSRC: 999, lostSequenceNumbers: [1])
        let actions = interpreter.actions(for: [
            .nack(nack), .nack(foreignNACK),
            .pictureLossIndication(PictureLossIndication(senderSSRC: 5, mediaSSRC: 100)),
            .pictureLossIndication(PictureLossIndication(senderSSRC: 5, mediaSSRC: 200)),
        ])
        #expect(actions == [.retransmit([10, 12]), .keyframe(.pictureLoss)])
    }

    @Test func repeatedFIRWithTheSameSequenceNumberCostsOneKeyframe() {
        var interpreter = RTCPFeedbackInterpreter(videoSSRC: 100, audioSSRC: 200)
        let fir = { (sequence: UInt8) in
            RTCPPacket.fullIntraRequest(FullIntraRequest(senderSSRC: 5, entries: [.init(ssrc: 100, sequenceNumber: sequence)]))
        }
        #expect(interpreter.actions(for: [fir(3)]) == [.keyframe(.fullIntraRequest)])
        #expect(interpreter.actions(for: [fir(3)]).isEmpty, "a retransmitted FIR (RFC 5104 §4.3.1.1)")
        #expect(interpreter.actions(for: [fir(4)]) == [.keyframe(.fullIntraRequest)])
    }

    @Test func reportsAndREMBAreRoutedByOurSSRCs() {
        var interpreter = RTCPFeedbackInterpreter(videoSSRC: 100, audioSSRC: 200)
        let block = { (ssrc: UInt32) in
            ReportBlock(ssrc: ssrc, fractionLost: 3, cumulativeLost: 4, extendedHighestSequenceNumber: 5, jitter: 6,
                        lastSenderReport: 7, delaySinceLastSenderReport: 8)
        }
        let actions = interpreter.actions(for: [
            .receiverReport(ReceiverReport(ssrc: 5, reports: [block(100), block(200), block(300)])),
            .senderReport(SenderReport(ssrc: 5, ntpTimestamp: 77, rtpTimestamp: 0, packetCount: 0, octetCount: 0)),
            .receiverEstimatedMaxBitrate(ReceiverEstimatedMaxBitrate(senderSSRC: 5, bitrate: 1_000_000, ssrcs: [100])),
            .receiverEstimatedMaxBitrate(ReceiverEstimatedMaxBitrate(senderSSRC: 5, bitrate: 5_000, ssrcs: [999])),
            .goodbye(Goodbye(ssrcs: [5])),
        ])
        guard actions.count == 5, case let .bitrateEstimate(bitrate) = actions[3] else {
            Issue.record("unexpected actions \(actions)")
            return
        }
        #expect(actions[0] == .receptionReport(.video, block(100)))
        #expect(actions[1] == .receptionReport(.audio, block(200)))
        #expect(actions[2] == .senderReport(ssrc: 5, ntpTimestamp: 77))
        #expect((990_000...1_010_000).contains(bitrate), "REMB mantissa/exponent rounding")
        #expect(actions[4] == .goodbye(ssrcs: [5]))
    }

    // MARK: Outgoing streams

    @Test func videoStreamSkipsDeltasUntilAKeyframeThenPacketizesPerRFC7741() throws {
        var stream = try OutboundVideoStream(
            ssrc: 77, payloadType: 96, initialSequenceNumber: 65534, initialPictureID: 0x7FFF,
            absoluteSendTimeID: 3, maxPacketSize: 1200)
        let delta = OutgoingVideoFrame(bytes: [0x01] + Array(repeating: 7, count: 99), rtpTimestamp: 10, isKeyframe: false)
        #expect(try stream.packets(for: delta, now: .seconds(1)).isEmpty)
        #expect(stream.framesSkipped == 1 && stream.awaitingKeyframe)

        let key = OutgoingVideoFrame(bytes: (0..<3000).map { UInt8(truncatingIfNeeded: $0) }, rtpTimestamp: 90_000, isKeyframe: true)
        let packets = try stream.packets(for: key, now: .seconds(2))
        #expect(packets.count == 3)
        #expect(packets.map(\.sequenceNumber) == [65534, 65535, 0], "sequence numbers wrap")
        #expect(packets.map(\.marker) == [false, false, true], "marker on the last packet of the frame")
        #expect(packets.allSatisfy { $0.timestamp == 90_000 && $0.ssrc == 77 && $0.payloadType == 96 })
        #expect(packets.allSatisfy { $0.headerExtension?.data(for: 3)?.count == 3 }, "abs-send-time on every packet")
        for packet in packets {
            let wire = try packet.serialized().count + 16  // worst-case SRTP tag
            #expect(wire <= 1200)
        }
        var depacketizer = VP8Depacketizer()
        var frames: [VP8Frame] = []
        for packet in packets {
            for case let .frame(frame) in try depacketizer.push(packet) { frames.append(frame) }
        }
        #expect(frames.map(\.data) == [key.bytes])
        #expect(frames.first?.pictureID == 0x7FFF)

        let next = try stream.packets(for: delta, now: .seconds(3))
        let descriptor = try VP8PayloadDescriptor.parse(next[0].payload[...]).0
        #expect(descriptor.pictureID == .long(0), "15-bit PictureID wraps")
        #expect(stream.framesSent == 2)
    }

    @Test func audioStreamAdvancesTheClockBy960AndMarksOnlyTheFirstPacket() {
        var stream = OutboundAudioStream(
            ssrc: 5, payloadType: 111, initialSequenceNumber: 10, initialTimestamp: UInt32.max - 959, absoluteSendTimeID: nil)
        let packets = (0..<3).map { stream.packet(for: [0xF8, UInt8($0)], samples: 960, now: .seconds($0)) }
        #expect(packets.map(\.timestamp) == [UInt32.max - 959, 0, 960])
        #expect(packets.map(\.sequenceNumber) == [10, 11, 12])
        #expect(packets.map(\.marker) == [true, false, false])
        #expect(packets.allSatisfy { $0.headerExtension == nil })
    }

    @Test func videoStreamRejectsAPacketSizeThatLeavesNoRoomForData() {
        #expect(throws: PeerConnectionError.self) {
            _ = try OutboundVideoStream(
                ssrc: 1, payloadType: 96, initialSequenceNumber: 0, initialPictureID: 0, absoluteSendTimeID: 3,
                maxPacketSize: 40)
        }
    }

    // MARK: ICE servers

    @Test func iceServerURLsFollowRFC7064And7065() {
        #expect(ICEServerURL("stun:192.0.2.1") == .stun(STUNServer(host: "192.0.2.1", port: 3478)))
        #expect(ICEServerURL("stun:stun.example.org:19302") == .stun(STUNServer(host: "stun.example.org", port: 19302)))
        #expect(ICEServerURL("stun:[2001:db8::1]:3479") == .stun(STUNServer(host: "2001:db8::1", port: 3479)))
        #expect(ICEServerURL("turn:192.0.2.9:3478?transport=udp", username: "1700000000:u", credential: "c")
            == .turn(TURNServer(host: "192.0.2.9", port: 3478, username: "1700000000:u", password: "c")))
        #expect(ICEServerURL("turn:192.0.2.9") == nil, "TURN needs credentials")
        #expect(ICEServerURL("turn:192.0.2.9?transport=tcp", username: "u", credential: "c") == nil)
        #expect(ICEServerURL("turns:192.0.2.9:5349", username: "u", credential: "c") == nil)
        #expect(ICEServerURL("stun:host:notaport") == nil)
        #expect(ICEServerURL("http://192.0.2.1") == nil)

        var configuration = PeerConnectionConfiguration()
        configuration.useICEServers([
            (["turns:192.0.2.9:5349", "turn:192.0.2.9?transport=udp"], "u", "p"),
            (["stun:192.0.2.1:3478", "stun:192.0.2.2"], nil, nil),
        ])
        #expect(configuration.stunServer == STUNServer(host: "192.0.2.1", port: 3478))
        #expect(configuration.turnServer == TURNServer(host: "192.0.2.9", port: 3478, username: "u", password: "p"))
    }
}
