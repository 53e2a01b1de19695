import Foundation

/// What happened to one attempt of a REST request.
public enum AttemptOutcome: Sendable, Hashable {
    /// No HTTP response: connect refused, reset, TLS failure, timeout.
    case transportError
    /// An HTTP response. `parseCode` is the body's `code` if it had one; `retryAfterSeconds` is the
    /// parsed `Retry-After` header (delta-seconds form) if present.
    case response(status: Int, parseCode: Int?, retryAfterSeconds: Double? = nil)
}

extension AttemptOutcome {
    /// The outcome of a received response: reads the Parse `code` from the body (any status, so a
    /// `{"code":209}` with HTTP 200 counts) and the `Retry-After` header.
    public static func received(status: Int, body: [UInt8], retryAfterHeader: String? = nil) -> AttemptOutcome {
        let code = ParseResponseDecoder.serverError(status: status, body: body)?.code
        return .response(status: status, parseCode: code, retryAfterSeconds: parseRetryAfterSeconds(retryAfterHeader))
    }
}

/// Parses a `Retry-After` header in its delta-seconds form (RFC 9110 §10.2.3); the HTTP-date form needs a
/// clock, so the IO layer converts it before calling.
public func parseRetryAfterSeconds(_ header: String?) -> Double? {
    guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
    return Double(seconds)
}
