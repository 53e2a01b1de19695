import Hummingbird
import HummingbirdWebSocket

/// Hummingbird's WebSocket request context plus the peer's IP address, so a LiveQuery `connect` with the
/// master key is held to the same client-address rule as REST (issue #14, 7).
public struct PeerWebSocketRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteIP: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteIP = source.channel.remoteAddress?.ipAddress
    }
}

/// The forwarding headers a trusted proxy sets, all lines of each joined in order.
enum ForwardingHeaders {
    static func forwardedFor(_ fields: HTTPFields) -> String? { joined(fields, "X-Forwarded-For") }
    static func forwarded(_ fields: HTTPFields) -> String? { joined(fields, "Forwarded") }

    private static func joined(_ fields: HTTPFields, _ name: String) -> String? {
        guard let fieldName = HTTPFields.Element.Name(name) else { return nil }
        let values = fields[values: fieldName]
        return values.isEmpty ? nil : values.joined(separator: ",")
    }
}
