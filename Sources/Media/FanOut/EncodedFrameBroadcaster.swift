import Synchronization

/// One encoder, many viewers (SYSTEM.md §5): every published frame goes to every subscriber without copying
/// its bytes (the `[UInt8]` buffer is shared) and without ever blocking the encoder thread.
///
/// Each subscriber has a small latest-wins queue (`bufferDepth`, default 1). When it is full the oldest
/// frame is discarded and counted. A VP8 stream with a hole cannot be decoded until the next keyframe, so
/// after a drop, and on joining, the subscriber skips delta frames (also counted as dropped) until a keyframe
/// arrives, and `onKeyframeRequest` asks the producer for one (the producer rate-limits such requests).
/// `publish` is meant for one producer thread.
public final class EncodedFrameBroadcaster: Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<EncodedFrame>.Continuation
        let counters: SubscriptionCounters
        var awaitingKeyframe = true
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }

    private let state = Mutex(State())
    private let onKeyframeRequest: @Sendable () -> Void

    /// `onKeyframeRequest` runs on the subscribing or publishing thread, outside the broadcaster's lock;
    /// it should only set a flag the encoder thread reads (force a keyframe on the next frame).
    public init(onKeyframeRequest: @escaping @Sendable () -> Void) {
        self.onKeyframeRequest = onKeyframeRequest
    }

    /// A new viewer. Its frames start at the next keyframe, which is requested at once. After `finish()`
    /// the subscription's stream is already finished.
    public func subscribe(bufferDepth: Int = 1) -> EncodedFrameSubscription {
        precondition(bufferDepth >= 1, "a subscriber holds at least one frame")
        let (frames, continuation) = AsyncStream.makeStream(
            of: EncodedFrame.self, bufferingPolicy: .bufferingNewest(bufferDepth))
        let counters = SubscriptionCounters()
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = Subscriber(continuation: continuation, counters: counters)
            return state.nextID
        }
        let subscription = EncodedFrameSubscription(
            id: id ?? .max, frames: frames, counters: counters, broadcaster: self)
        guard let id else {
            continuation.finish()
            return subscription
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        onKeyframeRequest()
        return subscription
    }

    /// Hands `frame` to every subscriber. Never blocks and never copies `frame.bytes`.
    public func publish(_ frame: EncodedFrame) {
        let targets = state.withLock { state in
            var targets: [(id: UInt64, subscriber: Subscriber)] = []
            targets.reserveCapacity(state.subscribers.count)
            for (id, subscriber) in state.subscribers {
                if subscriber.awaitingKeyframe && !frame.isKeyframe {
                    subscriber.counters.countDropped()
                } else {
                    state.subscribers[id]!.awaitingKeyframe = false
                    targets.append((id, subscriber))
                }
            }
            return targets
        }
        // Yield outside the lock: a consumer's cancellation runs `unsubscribe`, which takes the lock.
        var holes: [UInt64] = []
        for target in targets {
            switch target.subscriber.continuation.yield(frame) {
            case .enqueued:
                target.subscriber.counters.countEnqueued()
            case .dropped:
                // The new frame is queued and the oldest one discarded.
                target.subscriber.counters.countDropped()
                if !frame.isKeyframe { holes.append(target.id) }
            case .terminated:
                break
            @unknown default:
                break
            }
        }
        guard !holes.isEmpty else { return }
        state.withLock { state in
            for id in holes { state.subscribers[id]?.awaitingKeyframe = true }
        }
        onKeyframeRequest()
    }

    /// Ends every subscription (their streams finish after the frames already queued) and refuses new ones.
    public func finish() {
        let continuations = state.withLock { state in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in continuations { continuation.finish() }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func unsubscribe(_ id: UInt64) {
        let continuation = state.withLock { $0.subscribers.removeValue(forKey: id)?.continuation }
        continuation?.finish()
    }
}
