import Foundation
import Synchronization
import Testing
import WebRTC
import WebRTCCore

/// Two real PeerConnections (libnice + OpenSSL + libsrtp2) on 127.0.0.1, SDP exchanged directly. Every
/// wait has a deadline that fails the test; nothing sleeps to synchronise.
@Suite("PeerConnection loopback", .serialized)
struct PeerConnectionLoopbackTests {
    /// A fake VP8 frame: frame-tag P bit 0 for keyframes, 1 for deltas; `size` spans several packets.
    static func frame(_ index: Int, key: Bool, size: Int = 2500) -> OutgoingVideoFrame {
        var bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
        bytes[0] = key ? 0x10 : 0x11
        return OutgoingVideoFrame(bytes: bytes, rtpTimestamp: UInt32(index * 3000), isKeyframe: key)
    }

    @Test func dtlsCompletesAndSRTPCarriesVP8FramesAndOpusBothWays() async throws {
        let pair = try await PeerConnectionLoopback()
        try await pair.negotiate()
        try await pair.waitUntilConnected()

        // Media just started: the sender asks its encoder for a keyframe first.
        try await pair.offererEvents.wait("a keyframe request when media starts") { $0.keyframeReasons.contains(.mediaStarted) }
        let sent = [Self.frame(0, key: true)] + (1..<10).map { Self.frame($0, key: false) }
        for frame in sent { #expect(try await pair.offerer.sendVideo(frame)) }
        let opus: [[UInt8]] = (0..<20).map { [0xF8, 0xFF, 0xFE, UInt8($0)] }
        for packet in opus {
            #expect(try await pair.offerer.sendAudio(packet))
            #expect(try await pair.answerer.sendAudio(packet + [0xAA]))
        }
        try await pair.answererMedia.wait("10 VP8 frames depayloaded") { $0.videoFrames.count >= 10 }
        try await pair.answererMedia.wait("20 Opus packets at the answerer") { $0.audioPackets.count >= 20 }
        try await pair.offererMedia.wait("20 Opus packets at the offerer") { $0.audioPackets.count >= 20 }

        let frames = pair.answererMedia.elements.videoFrames
        #expect(frames.map(\.data) == sent.map(\.bytes), "every frame arrives whole and in order")
        #expect(frames.map(\.timestamp) == sent.map(\.rtpTimestamp))
        let pictureIDs = frames.compactMap(\.pictureID)
        #expect(pictureIDs.count == 10)
        #expect(zip(pictureIDs, pictureIDs.dropFirst()).allSatisfy { ($0 + 1) & 0x7FFF == $1 }, "PictureID +1 per frame")
        #expect(pair.answererMedia.elements.audioPackets.map(\.payload) == opus)
        #expect(pair.offererMedia.elements.audioPackets.map(\.payload) == opus.map { $0 + [0xAA] })
        let audio = pair.answererMedia.elements.audioPackets
        #expect(zip(audio, audio.dropFirst()).allSatisfy { $1.timestamp == $0.timestamp &+ 960 })

        // RTCP flows: the answerer reports on the video and audio it receives.
        try await pair.offererEvents.wait("receiver reports about our video and audio") { events in
            let kinds = Set(events.receptionReports.map(\.0.rawValue))
            return kinds.contains("video") && kinds.contains("audio")
        }
        // Our SRs reach the peer: its reports echo their NTP time as LSR (RFC 3550 §6.4.1).
        try await pair.offererEvents.wait("a report echoing our sender report") { events in
            events.receptionReports.contains { $0.1.lastSenderReport != 0 }
        }
        let offererStats = await pair.offerer.statistics
        #expect(offererStats.state == .connected)
        #expect(offererStats.videoFramesSent == 10 && offererStats.videoPacketsSent >= 30)
        #expect(offererStats.audioPacketsSent == 20)
        #expect(offererStats.rtcpReportsSent >= 1)
        #expect(offererStats.inboundErrors == 0)
        let answererStats = await pair.answerer.statistics
        #expect(answererStats.videoFramesReceived == 10 && answererStats.audioPacketsReceived == 20)
        #expect(answererStats.inboundErrors == 0)

        await pair.close()
        try await pair.answererEvents.wait("the peer's close_notify closes the answerer") { $0.states.last == .closed }
        #expect(await pair.offerer.connectionState == .closed)
    }

    @Test func lostVideoPacketsAreNACKedAndRetransmittedAndTheLossCostsAKeyframe() async throws {
        // The first transmission of frame 3's first two packets (of three) is lost on the way.
        let lostTimestamp = Self.frame(3, key: false).rtpTimestamp
        let lastVideoSequence = LastSequenceNumber()
        let pair = try await PeerConnectionLoopback(offererDrops: { packet in
            guard packet.payloadType == 96 else { return true }
            lastVideoSequence.record(packet.sequenceNumber)
            return !(packet.timestamp == lostTimestamp && !packet.marker)
        })
        try await pair.negotiate()
        try await pair.waitUntilConnected()
        let sent = [Self.frame(0, key: true)] + (1..<10).map { Self.frame($0, key: false) }
        for frame in sent { #expect(try await pair.offerer.sendVideo(frame)) }
        let packetsSent = await pair.offerer.statistics.videoPacketsSent
        let last = lastVideoSequence.value

        try await pair.offererEvents.wait("the receiver's PLI becomes a keyframe request") {
            $0.keyframeReasons.contains(.pictureLoss)
        }
        // The receiver counts a retransmission as received, so a report that has seen the last packet and
        // nothing lost means both holes were filled by retransmissions.
        try await pair.offererEvents.wait("a receiver report without loss up to the last packet") { events in
            events.receptionReports.contains { kind, block in
                kind == .video && block.cumulativeLost == 0
                    && UInt16(truncatingIfNeeded: block.extendedHighestSequenceNumber) == last
            }
        }
        let offererStats = await pair.offerer.statistics
        let answererStats = await pair.answerer.statistics
        #expect(answererStats.nacksSent >= 1)
        #expect(offererStats.nackedPackets >= 2)
        #expect(offererStats.retransmissionsSent >= 2, "both lost packets resent from the history")
        #expect(answererStats.videoPacketsReceived == packetsSent, "every packet arrived in the end")
        #expect(answererStats.pictureLossRequestsSent >= 1)
        #expect(offererStats.keyframeRequestsReceived >= 1)
        // Without a reorder buffer the late packets cannot rebuild frame 3; every other frame is intact.
        let frames = pair.answererMedia.elements.videoFrames
        let byTimestamp = Dictionary(uniqueKeysWithValues: sent.map { ($0.rtpTimestamp, $0.bytes) })
        #expect(frames.count >= 9)
        #expect(frames.allSatisfy { byTimestamp[$0.timestamp] == $0.data })
        await pair.close()
    }

    @Test func answerIsBundledRTCPMuxedAndActiveToAnActpassOffer() async throws {
        let pair = try await PeerConnectionLoopback()
        let offerText = try await pair.offerer.createOffer()
        let answerText = try await pair.answerer.acceptOffer(offerText)
        let offer = try SessionDescription(parsing: offerText)
        let answer = try SessionDescription(parsing: answerText)
        #expect(offer.media.allSatisfy { offer.transport(for: $0).setup == .actpass })
        #expect(answer.bundleMids == ["0", "1"])
        for section in answer.media {
            #expect(section.rtcpMux)
            #expect(answer.transport(for: section).setup == .active, "RFC 8842: answer actpass with active")
            #expect(answer.transport(for: section).fingerprints.first?.hexDigest == pair.answerer.localFingerprint)
        }
        let video = try #require(answer.media.first { $0.kind == .video })
        #expect(video.effectiveDirection == .recvonly, "the kiosk answerer only receives video")
        #expect(video.payloads.first?.feedback.contains("nack pli") == true)
        let audio = try #require(answer.media.first { $0.kind == .audio })
        #expect(audio.effectiveDirection == .sendrecv)
        #expect(audio.payloads.first?.parameters?.contains("useinbandfec=1") == true)
        // The same offer again (no new ICE credentials) restarts nothing and gets the same answer; an answerer
        // never offers.
        #expect(try await pair.answerer.acceptOffer(offerText) == answerText)
        await #expect(throws: PeerConnectionError.self) { _ = try await pair.answerer.createOffer() }
        await pair.close()
    }

    @Test func aFingerprintMismatchFailsTheConnection() async throws {
        let pair = try await PeerConnectionLoopback()
        // The offerer expects a different certificate than the answerer will present.
        let impostor = try DTLSCertificate(commonName: "impostor").fingerprint
        try await pair.negotiate { answer in
            answer.replacingOccurrences(of: pair.answerer.localFingerprint, with: impostor)
        }
        try await pair.offererEvents.wait("the offerer fails", within: .seconds(15)) { $0.states.contains(.failed) }
        let failure = pair.offererEvents.elements.failure
        guard case .dtls(.fingerprintMismatch(let expected, let actual))? = failure else {
            Issue.record("expected a fingerprint mismatch, got \(String(describing: failure))")
            await pair.close()
            return
        }
        #expect(expected == impostor && actual == pair.answerer.localFingerprint)
        #expect(!pair.offererEvents.elements.states.contains(.connected), "never connected with the wrong peer")
        #expect(try await !pair.offerer.sendVideo(Self.frame(0, key: true)), "no media to an unverified peer")
        await pair.close()
    }

    @Test func aMalformedRemoteDescriptionIsATypedError() async throws {
        let connection = try await PeerConnection(
            role: .answerer, certificate: try DTLSCertificate(),
            configuration: PeerConnectionConfiguration(localAddresses: ["127.0.0.1"]))
        await #expect {
            _ = try await connection.acceptOffer("v=0\r\nthis is not sdp\r\n")
        } throws: { error in
            guard let error = error as? PeerConnectionError, case .sdp = error else { return false }
            return true
        }
        await connection.close()
        await #expect(throws: PeerConnectionError.closed) { try await connection.addRemoteCandidate(nil) }
    }
}

/// The highest video sequence number the fault filter saw (the last one sent).
final class LastSequenceNumber: Sendable {
    private let state = Mutex<UInt16>(0)
    func record(_ sequenceNumber: UInt16) { state.withLock { $0 = sequenceNumber } }
    var value: UInt16 { state.withLock { $0 } }
}
