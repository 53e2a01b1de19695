/// Collects "this part is up" reports from the agent's services; systemd hears `READY=1` only when every
/// required part has reported (SYSTEM.md §9: after backend registration and the required devices).
public actor ReadinessGate {
    public private(set) var pending: Set<String>
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(required: Set<String>) {
        self.pending = required
    }

    public func markReady(_ part: String) {
        pending.remove(part)
        if pending.isEmpty {
            for waiter in waiters { waiter.resume() }
            waiters.removeAll()
        }
    }

    public var isReady: Bool { pending.isEmpty }

    /// Returns once every required part is ready.
    public func waitUntilReady() async {
        if pending.isEmpty { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
