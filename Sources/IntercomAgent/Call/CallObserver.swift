import CallCore

/// Hears what the call machine does, for publishers outside the call (MQTT). Called on the coordinator's
/// inbox, between two inputs: an observer must return at once and never wait for IO.
public protocol CallObserver: Sendable {
    /// The machine's state changed; `route` is the host of the call's signaling room, when known; `newCall`
    /// says the state carries a call that was not there before (an incoming one rings, even when it is
    /// answered at once and the machine never shows `ringing`).
    func callStateChanged(_ state: CallState, route: String?, newCall: Bool)
    /// A call ended (every call, including one refused as busy).
    func callEnded(_ summary: CallSummary)
    /// A text message arrived in a call (issue #22), already acknowledged to its sender.
    func messageReceived(_ message: ReceivedText, sessionID: String)
}

extension CallObserver {
    public func messageReceived(_ message: ReceivedText, sessionID: String) {}
}
