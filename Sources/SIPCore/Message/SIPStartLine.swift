/// The first line of a message (RFC 3261 §7.1 Request-Line, §7.2 Status-Line).
public enum SIPStartLine: Hashable, Sendable {
    case request(method: SIPMethod, uri: SIPURI)
    case response(status: Int, reason: String)

    /// Only SIP/2.0 exists (§7.1); the version is compared case-insensitively.
    public static let version = "SIP/2.0"

    var serialized: String {
        switch self {
        case .request(let method, let uri): "\(method.rawValue) \(uri.serialized) \(Self.version)"
        case .response(let status, let reason): "\(Self.version) \(status) \(reason)"
        }
    }
}
