import Synchronization

/// One viewer's end of an `EncodedFrameBroadcaster`: iterate `frames` (from any task), read the counters,
/// `cancel()` to leave. Cancelling the iterating task also leaves.
public struct EncodedFrameSubscription: Sendable {
    let id: UInt64
    public let frames: AsyncStream<EncodedFrame>
    let counters: SubscriptionCounters
    let broadcaster: EncodedFrameBroadcaster

    /// Frames put in this subscriber's queue (and not discarded later).
    public var enqueuedCount: Int { counters.enqueued.load(ordering: .relaxed) }
    /// Frames this subscriber missed: discarded from a full queue, or skipped while waiting for a keyframe.
    public var droppedCount: Int { counters.dropped.load(ordering: .relaxed) }

    /// Stops delivery; `frames` finishes after what is already queued.
    public func cancel() { broadcaster.unsubscribe(id) }
}

/// Per-subscriber counters, shared by the broadcaster and the subscription (so they outlive unsubscribing).
final class SubscriptionCounters: Sendable {
    let enqueued = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)

    func countEnqueued() { enqueued.add(1, ordering: .relaxed) }

    /// A discard from a full queue replaces an enqueued frame; a skip never enqueued one. Either way the
    /// subscriber misses exactly one frame.
    func countDropped() { dropped.add(1, ordering: .relaxed) }
}
