import Foundation

/// A one-slot hand-off between two dedicated threads where only the newest value matters (capture →
/// encoder): `put` never blocks and replaces an unread value (counting it as dropped); `take` blocks the
/// consumer thread until a value arrives, the timeout passes, or the mailbox is closed.
/// Never call `take` from Swift concurrency's cooperative pool.
public final class LatestValueMailbox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is guarded by `condition`.
    private let condition = NSCondition()
    private var value: Value?
    private var closed = false
    private var dropped = 0

    public init() {}

    /// Stores `value`; returns false when it replaced an unread one. Ignored once closed.
    @discardableResult
    public func put(_ newValue: Value) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return true }
        let replaced = value != nil
        if replaced { dropped += 1 }
        value = newValue
        condition.signal()
        return !replaced
    }

    /// The newest value, waiting up to `timeout`; nil on timeout or when closed and empty.
    public func take(timeout: Duration) -> Value? {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while value == nil && !closed {
            if !condition.wait(until: deadline) { break }
        }
        defer { value = nil }
        return value
    }

    /// Wakes the consumer; later `put`s are ignored and `take` returns what is left, then nil.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Values replaced before anyone took them.
    public var droppedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }
}
