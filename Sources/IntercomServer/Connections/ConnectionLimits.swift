/// Bounds on every TCP connection, enforced below HTTP (issue #14, 4 and 5): an attacker who opens sockets
/// and sends nothing, trickles a request head, or sends a head the parser refuses cannot keep a descriptor.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections served at once; more are answered 503 and closed. nil: derived from the open-file limit
    /// at start (`FileDescriptorLimit.connectionCap`).
    public var maxConnections: Int?
    /// A connection that sends nothing for this long is closed (WebSocket clients answer the server's
    /// 10 s pings, so a live socket always sends within it).
    public var idleTimeoutSeconds: Int64 = 60
    /// A connection's first request head must be complete within this (slow-header clients).
    public var headerTimeoutSeconds: Int64 = 10
    /// A request body must be complete within this once its head has arrived.
    public var bodyTimeoutSeconds: Int64 = 30
    /// Largest request head (request line plus headers), and largest single header field.
    public var maxHeaderBytes = 32 << 10
    public var maxHeaderCount = 100

    public init() {}
}
