/// T1, T2 and T4 of RFC 3261 §17.1.1.1 and table 4; every transaction timer derives from them.
public struct SIPTimerValues: Hashable, Sendable {
    /// Round-trip estimate: first retransmission interval.
    public var t1: Duration
    /// Cap on non-INVITE and response retransmission intervals.
    public var t2: Duration
    /// How long a message can stay in the network.
    public var t4: Duration

    public init(t1: Duration = .milliseconds(500), t2: Duration = .seconds(4), t4: Duration = .seconds(5)) {
        self.t1 = t1
        self.t2 = t2
        self.t4 = t4
    }

    public static let standard = SIPTimerValues()

    /// Timers B, F, H and J: 64*T1, how long a transaction waits before giving up.
    public var transactionTimeout: Duration { t1 * 64 }
}
