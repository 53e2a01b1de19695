import ParseWire
import Testing

/// Issue #14: peers carry their token's userId, so a client picks its partner by role and user; frames
/// without it (older servers) still decode.
@Suite struct SignalingPeerUserTests {
    @Test func userIdRoundTrips() throws {
        let peer = SignalingPeer(peerId: "p1", name: "Gate", role: "publisher", userId: "u1")
        let text = SignalingFrame.peerJoined(peer).text
        #expect(text == #"{"name":"Gate","op":"peer-joined","peerId":"p1","role":"publisher","userId":"u1"}"#)
        #expect(try SignalingFrame.decode(text) == .peerJoined(peer))
    }

    @Test func aPeerWithoutUserIdStillDecodes() throws {
        let frame = try SignalingFrame.decode(#"{"op":"peer-joined","peerId":"p1","role":"publisher"}"#)
        #expect(frame == .peerJoined(SignalingPeer(peerId: "p1", role: "publisher")))
    }
}
