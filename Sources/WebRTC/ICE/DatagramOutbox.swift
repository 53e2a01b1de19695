import Synchronization

/// Datagrams on their way to `nice_agent_send`, in order, handed to the GLib thread in bursts: the first
/// datagram of a burst asks for one drain job, and the ones queued before that job runs go with it. A video
/// frame's packets (and each viewer's copy of them) so cost one wake-up of the loop thread instead of a
/// thread hop there and back per packet. Bounded: beyond `limit` the oldest is dropped (and counted), as a
/// late video packet is worth less than the next one.
final class DatagramOutbox: Sendable {
    struct Entry: Sendable {
        let bytes: [UInt8]
        /// Retried for a while when no candidate pair is selected yet (a DTLS flight can be ready first).
        let retryIfUnsent: Bool
    }

    private struct State {
        var pending: [Entry] = []
        var drainScheduled = false
    }

    let limit: Int
    private let state = Mutex(State())
    private let unsentCount = Atomic<UInt64>(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Queues `entry`; true when the caller must schedule the drain job (none is pending).
    func append(_ entry: Entry) -> Bool {
        let (dropped, schedule) = state.withLock { state in
            state.pending.append(entry)
            let dropped = state.pending.count > limit
            if dropped { state.pending.removeFirst() }
            defer { state.drainScheduled = true }
            return (dropped, !state.drainScheduled)
        }
        if dropped { countUnsent() }
        return schedule
    }

    /// Everything queued so far, oldest first; the next `append` schedules a new drain.
    func take() -> [Entry] {
        state.withLock { state in
            state.drainScheduled = false
            let taken = state.pending
            state.pending = []
            return taken
        }
    }

    /// Datagrams that never reached libnice: dropped from a full outbox, or refused by `nice_agent_send`.
    var unsent: UInt64 { unsentCount.load(ordering: .relaxed) }

    func countUnsent() { unsentCount.add(1, ordering: .relaxed) }
}
