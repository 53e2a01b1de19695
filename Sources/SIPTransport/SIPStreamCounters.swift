/// What became of the TCP connections phones and proxies opened to the device (the `sip` thread counts).
public struct SIPStreamCounters: Sendable, Equatable {
    public var accepted = 0
    /// Closed at once: `maxInboundConnections` were open already.
    public var refused = 0
    /// Closed for bytes that are no SIP, an oversized message or an over-long header (RFC 3261 §18.3).
    public var unframeable = 0
    /// Closed after the idle timeout.
    public var idle = 0

    public init() {}
}
