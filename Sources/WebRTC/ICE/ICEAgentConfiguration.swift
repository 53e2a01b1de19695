/// How to build an `ICEAgent`.
public struct ICEAgentConfiguration: Sendable, Equatable {
    /// The controlling agent nominates the pair (RFC 8445 §6.1.1): the offerer is controlling.
    public var controlling: Bool
    public var stunServer: STUNServer?
    public var turnServer: TURNServer?
    /// Local IP addresses to gather host candidates on (`nice_agent_add_local_address`), e.g.
    /// `["127.0.0.1"]` for deterministic tests. Empty means every non-loopback interface (libnice's default).
    public var localAddresses: [String]
    /// Received datagrams kept for a slow reader of `ICEAgent.datagrams`; the oldest are dropped beyond it.
    public var receiveQueueLimit: Int
    /// Datagrams queued by `ICEAgent.enqueue` and not yet handed to libnice; the oldest are dropped beyond it.
    public var sendQueueLimit: Int

    public init(
        controlling: Bool,
        stunServer: STUNServer? = nil,
        turnServer: TURNServer? = nil,
        localAddresses: [String] = [],
        receiveQueueLimit: Int = 4096,
        sendQueueLimit: Int = 4096
    ) {
        self.controlling = controlling
        self.stunServer = stunServer
        self.turnServer = turnServer
        self.localAddresses = localAddresses
        self.receiveQueueLimit = receiveQueueLimit
        self.sendQueueLimit = sendQueueLimit
    }
}
