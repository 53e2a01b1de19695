import Hummingbird

/// Hummingbird's request context plus the peer's IP address, which the master-key check
/// (`masterKeyIps`) and the rate limiter need.
public struct ParseRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// nil when the transport has no IP peer (e.g. Hummingbird's `.router` test framework).
    public let remoteIP: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteIP = source.channel.remoteAddress?.ipAddress
    }
}
