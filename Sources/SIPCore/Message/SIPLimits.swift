/// Bounds on what the parser and the stream framer accept; anything larger is refused, never buffered.
public struct SIPLimits: Hashable, Sendable {
    /// A whole message, start line to the end of the body. RFC 3261 §18.1.1 keeps UDP requests under 1300
    /// bytes, but responses and TCP messages run larger, so the bound is generous.
    public var maxMessageBytes: Int
    /// Header lines after unfolding (a comma-separated Via list counts once).
    public var maxHeaderCount: Int
    /// One header line after unfolding.
    public var maxHeaderBytes: Int

    public init(maxMessageBytes: Int = 65_536, maxHeaderCount: Int = 256, maxHeaderBytes: Int = 8_192) {
        self.maxMessageBytes = maxMessageBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxHeaderBytes = maxHeaderBytes
    }

    public static let standard = SIPLimits()
}
