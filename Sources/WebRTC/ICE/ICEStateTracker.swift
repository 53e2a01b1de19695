import CNice

/// Turns libnice's `component-state-changed` values into `ICEConnectionState` changes.
///
/// libnice reports "disconnected" both before anything happened and after connectivity was lost; only the
/// second is W3C `disconnected`. "gathering" is still `new`; "ready" (nomination done) is `completed`.
struct ICEStateTracker {
    private(set) var current = ICEConnectionState.new
    private var hasConnected = false

    /// The new state for a `NiceComponentState` raw value, or nil when nothing visible changed.
    mutating func componentStateChanged(_ niceState: UInt32) -> ICEConnectionState? {
        let next: ICEConnectionState
        switch niceState {
        case NICE_COMPONENT_STATE_DISCONNECTED.rawValue: next = hasConnected ? .disconnected : .new
        case NICE_COMPONENT_STATE_GATHERING.rawValue: next = .new
        case NICE_COMPONENT_STATE_CONNECTING.rawValue: next = .checking
        case NICE_COMPONENT_STATE_CONNECTED.rawValue: next = .connected
        case NICE_COMPONENT_STATE_READY.rawValue: next = .completed
        case NICE_COMPONENT_STATE_FAILED.rawValue: next = .failed
        default: return nil
        }
        if next.isConnected { hasConnected = true }
        return transition(to: next)
    }

    /// `close()`: the final state.
    mutating func closed() -> ICEConnectionState? { transition(to: .closed) }

    private mutating func transition(to next: ICEConnectionState) -> ICEConnectionState? {
        guard next != current, current != .closed else { return nil }
        current = next
        return next
    }
}
