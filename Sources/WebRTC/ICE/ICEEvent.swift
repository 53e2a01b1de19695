/// What an `ICEAgent` reports, in the order libnice emitted it on the GLib thread.
public enum ICEEvent: Sendable, Equatable {
    /// A local candidate to trickle to the peer (RFC 8838), as `candidate:<foundation> <component> …`
    /// (the SDP attribute without the `a=` prefix, which is what browsers' `RTCIceCandidate.candidate` holds).
    case localCandidate(String)
    /// Local gathering finished: signal end-of-candidates to the peer (RFC 8838 §8.2).
    case gatheringDone
    /// The connection state changed (consecutive duplicates are not reported).
    case stateChanged(ICEConnectionState)
    /// The pair datagrams now travel on (RFC 8445 §8.1.1, the "selected pair"), both in candidate syntax.
    case selectedPair(local: String, remote: String)
}
