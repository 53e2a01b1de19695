@testable import IntercomAgent
import CallCore
import Testing
import WebRTC

/// How a failed `PeerConnection` names the call outcome's reason (`failed{reason=…}`).
@Suite struct MediaFailureReasonTests {
    @Test func iceAndDTLSFailuresAreNamedOthersAreNot() {
        #expect(WebRTCCallMedia.failureReason(.iceFailed) == .iceFailed)
        #expect(WebRTCCallMedia.failureReason(.dtls(.handshakeTimedOut)) == .dtlsFailed)
        #expect(WebRTCCallMedia.failureReason(.dtls(.handshakeFailed(reason: "fingerprint mismatch"))) == .dtlsFailed)
        #expect(WebRTCCallMedia.failureReason(.unsupportedFingerprint(hashFunctions: ["sha-1"])) == .dtlsFailed)
        #expect(WebRTCCallMedia.failureReason(.peerSilent(seconds: 15)) == nil, "a connected call that went quiet")
        #expect(WebRTCCallMedia.failureReason(.closed) == nil)
    }
}
