import ParseWire

/// What a client session connects with (§3.1) and how it retries.
public struct MQTTSessionConfiguration: Sendable {
    public var clientID: String
    /// §3.1.2.10: at most this long between two packets the client sends; PINGREQ fills the gaps.
    public var keepAlive: Duration
    /// The Last Will (§3.1.2.5), e.g. a retained `offline` on the availability topic. A stop publishes it
    /// itself before DISCONNECT, which makes the broker discard it (§3.14.4).
    public var will: MQTTMessage?
    public var username: String?
    public var password: [UInt8]?
    /// Filters subscribed after every CONNACK (the session is clean, so the broker keeps none).
    public var subscriptions: [MQTTPacket.Subscription]
    /// TCP connect plus CONNACK must take less than this.
    public var connectTimeout: Duration
    /// Reconnect delays: `ceilingDelay(retry:)` with equal jitter, as everywhere else in the agent.
    public var retry: RetryPolicy

    public init(clientID: String, keepAlive: Duration = .seconds(30), will: MQTTMessage? = nil, username: String? = nil,
                password: [UInt8]? = nil, subscriptions: [MQTTPacket.Subscription] = [],
                connectTimeout: Duration = .seconds(10), retry: RetryPolicy = RetryPolicy(baseDelaySeconds: 0.5, maxDelaySeconds: 5)) {
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.will = will
        self.username = username
        self.password = password
        self.subscriptions = subscriptions
        self.connectTimeout = connectTimeout
        self.retry = retry
    }

    var keepAliveSeconds: UInt16 { UInt16(clamping: keepAlive.components.seconds) }
}
