/// Whether a connected peer has gone silent (sans-IO: instants in, a verdict out). It replaces ICE consent
/// freshness (RFC 7675), which libnice 0.1.21 gets wrong (10 s, one late response fails the pair): any
/// datagram from the peer (RTP, RTCP, DTLS) proves it alive, and browsers send RTCP at least every second.
public struct InactivityWatch: Sendable, Equatable {
    public let timeout: Duration
    public private(set) var lastHeard: Duration?

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public mutating func heard(at now: Duration) {
        lastHeard = now
    }

    /// True once `timeout` has passed since the peer was last heard; never before it was heard at all
    /// (connecting has its own deadlines).
    public func isSilent(at now: Duration) -> Bool {
        guard let lastHeard else { return false }
        return now - lastHeard > timeout
    }
}
