import Testing
import WebRTC
import WebRTCCore

/// An ICE restart with a new gathering (issue #20: the device's address changed): the offerer re-offers with new
/// ICE credentials over a new libnice stream, the answerer follows with new credentials of its own, and media
/// flows again on the same DTLS-SRTP session and SSRCs.
@Suite("PeerConnection: ICE restart", .serialized)
struct ICERestartTests {
    @Test func aRestartRegathersAndMediaFlowsAgainOnTheSameSession() async throws {
        let pair = try await PeerConnectionLoopback()
        try await pair.negotiate()
        try await pair.waitUntilConnected()
        _ = try await pair.offerer.sendVideo(PeerConnectionLoopbackTests.frame(0, key: true))
        try await pair.answererMedia.wait("a frame before the restart") { $0.videoFrames.count >= 1 }
        let candidatesBefore = pair.offererEvents.elements.localCandidates.count
        let statesBefore = (pair.offererEvents.elements.states.count, pair.answererEvents.elements.states.count)

        let reoffer = try await pair.offerer.restartICE()
        let answer = try await pair.answerer.acceptOffer(reoffer)
        try await pair.offerer.acceptAnswer(answer)
        // New credentials on both sides (RFC 8445 §9), the same fingerprint and SSRCs (the DTLS-SRTP session goes on).
        #expect(Self.attribute("ice-ufrag", reoffer) != Self.attribute("ice-ufrag", pair.firstOffer))
        #expect(Self.attribute("ice-ufrag", answer) != Self.attribute("ice-ufrag", pair.firstAnswer))
        #expect(Self.attribute("fingerprint", reoffer) == Self.attribute("fingerprint", pair.firstOffer))
        #expect(Self.attribute("ssrc", reoffer) == Self.attribute("ssrc", pair.firstOffer))

        // The new stream gathers again: at least one new candidate after the restart.
        try await pair.offererEvents.wait("candidates of the new gathering") { $0.localCandidates.count > candidatesBefore }
        // Checking again, then connected again, on both sides.
        try await pair.offererEvents.wait("the offerer connected again") { events in
            events.states.count > statesBefore.0 + 1 && events.states.last == .connected
        }
        try await pair.answererEvents.wait("the answerer connected again") { events in
            events.states.count > statesBefore.1 + 1 && events.states.last == .connected
        }
        for index in 1...5 { #expect(try await pair.offerer.sendVideo(PeerConnectionLoopbackTests.frame(index, key: index == 1))) }
        try await pair.answererMedia.wait("frames after the restart", within: .seconds(10)) { $0.videoFrames.count >= 6 }
        let states = pair.offererEvents.elements.states + pair.answererEvents.elements.states
        #expect(!states.contains(.failed) && !states.contains(.closed))
        await pair.close()
    }

    @Test func onlyAnOffererInASessionCanRestart() async throws {
        let pair = try await PeerConnectionLoopback()
        await #expect(throws: PeerConnectionError.self) { try await pair.offerer.restartICE() }
        try await pair.negotiate()
        await #expect(throws: PeerConnectionError.self) { try await pair.answerer.restartICE() }
        await pair.close()
    }
}

extension ICERestartTests {
    static func attribute(_ name: String, _ sdp: String?) -> String? {
        sdp?.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=\(name):") }.map(String.init)
    }
}

extension [PeerConnectionEvent] {
    var localCandidates: [String] {
        compactMap { if case .localCandidate(let candidate, _, _) = $0 { candidate } else { nil } }
    }
}
