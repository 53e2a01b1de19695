import ParseWire

/// Why a REST call to the backend failed, after the retries it was allowed.
public enum ParseClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No HTTP response (refused, reset, timed out) on every attempt; `detail` is the last failure.
    case unreachable(attempts: Int, detail: String)
    /// The server answered with a Parse error (after any retry or re-login it allowed).
    case server(ParseError)
    /// The response was not what the wire type expects.
    case malformedResponse(ParseWireError)
    /// A 209 came back again right after a fresh login.
    case sessionRejected
    case cancelled

    public var description: String {
        switch self {
        case .unreachable(let attempts, let detail): "backend unreachable after \(attempts) attempt(s): \(detail)"
        case .server(let error): "backend error: \(error)"
        case .malformedResponse(let error): "malformed backend response: \(error)"
        case .sessionRejected: "the backend rejected a freshly issued session token"
        case .cancelled: "cancelled"
        }
    }
}
