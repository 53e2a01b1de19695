/// What to do next with a request.
public enum RetryDecision: Sendable, Hashable {
    /// The response is final and successful.
    case succeeded
    /// Send the same request (same `X-Parse-Request-Id`) again after this many seconds.
    case retry(afterSeconds: Double)
    /// The session is invalid (209): log in again, then resend the request with the new token.
    case relogin
    /// Give up and report the error.
    case fail
}
