import Foundation
import Testing
import WebRTC

/// A closed PeerConnection must be freed: a device takes thousands of calls, and anything a finished call
/// keeps (its tasks, DTLS and SRTP state, the libnice agent) is a leak per call.
@Suite("PeerConnection release", .serialized)
struct PeerConnectionReleaseTests {
    /// Weak references to both ends of a call that connected, carried media and closed.
    private static func finishedCall() async throws -> (offerer: WeakPeer, answerer: WeakPeer) {
        let pair = try await PeerConnectionLoopback()
        try await pair.negotiate()
        try await pair.waitUntilConnected()
        #expect(try await pair.offerer.sendVideo(PeerConnectionLoopbackTests.frame(0, key: true)))
        #expect(try await pair.offerer.sendAudio([0xF8, 0xFF, 0xFE]))
        try await pair.answererMedia.wait("a frame at the answerer") { !$0.videoFrames.isEmpty }
        await pair.close()
        try await pair.answererEvents.wait("both ends closed") { $0.states.last == .closed }
        return (WeakPeer(pair.offerer), WeakPeer(pair.answerer))
    }

    @Test func bothEndsOfAClosedCallAreFreed() async throws {
        let (offerer, answerer) = try await Self.finishedCall()
        let deadline = ContinuousClock.now + .seconds(5)
        while offerer.isAlive || answerer.isAlive, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!offerer.isAlive, "the offering PeerConnection is still referenced 5 s after close()")
        #expect(!answerer.isAlive, "the answering PeerConnection is still referenced 5 s after close()")
    }
}

/// A weak reference that can cross tasks.
final class WeakPeer: @unchecked Sendable {
    // Written once in init, then only read: the weak slot itself is what the test observes.
    private weak var connection: PeerConnection?
    init(_ connection: PeerConnection) { self.connection = connection }
    var isAlive: Bool { connection != nil }
}
