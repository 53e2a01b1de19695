/// What the IO layer must do for the session (sans-IO: the session never touches a socket or a clock).
public enum MQTTSessionAction: Equatable, Sendable {
    /// Open a TCP connection to the broker; report `.transportUp` or `.transportFailed`.
    case openConnection
    /// Write these bytes to the open connection.
    case send([UInt8])
    /// Close the connection (no `.transportClosed` needs to follow).
    case closeConnection
    /// Feed `.retryDue` after this long.
    case scheduleRetry(after: Duration)
    /// A message arrived on a subscription.
    case deliver(MQTTMessage)
    /// The broker accepted the connection.
    case connected
    /// Worth a log line, nothing to do: e.g. the broker refused a subscription (its ACL).
    case warning(String)
    /// The connection is gone (or never came up) for `reason`; a retry is scheduled unless stopped.
    case disconnected(reason: String)
}

/// What happens to the session: IO results, time, and the owner's requests.
public enum MQTTSessionEvent: Equatable, Sendable {
    /// Start connecting (once).
    case start
    case transportUp
    case transportFailed(String)
    case transportClosed(String)
    case received([UInt8])
    /// Time passed: keep-alive and timeouts are judged (the IO layer ticks about once a second).
    case tick
    case retryDue
    /// Publish a message: retained ones are also kept and re-published after every reconnect.
    case publish(MQTTMessage)
    /// Publish the will, DISCONNECT, close; later events are ignored.
    case stop
}
