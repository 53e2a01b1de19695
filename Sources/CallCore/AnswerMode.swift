/// How the device answers a ringing incoming call (config `answer`, `auto_answer_delay`).
public enum AnswerMode: Equatable, Sendable {
    /// Answer at once, without ringing.
    case auto
    /// Ring until the accept button is pressed (or the ring times out).
    case button
    /// Ring, and answer by itself after the delay unless a button decided first.
    /// A delay at or beyond the ring timeout means the ring timeout wins.
    case autoAfter(Duration)
}
