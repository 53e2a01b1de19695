import IntercomPlatform
import SIPCore

/// Why a SIP socket could not be opened or used: the failing call with its errno, a name that did not
/// resolve, or a TCP stream that could not be framed (it is then closed, RFC 3261 §18.3).
public enum SIPTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    case resolve(host: String, reason: String)
    case system(SystemCallError)
    case framing(SIPError)
    case closedByPeer

    public var description: String {
        switch self {
        case .resolve(let host, let reason): "getaddrinfo(\"\(host)\"): \(reason)"
        case .system(let error): "\(error)"
        case .framing(let error): "unframeable SIP stream: \(error)"
        case .closedByPeer: "the peer closed the connection"
        }
    }
}
