import Synchronization

/// Everything one async stream delivered (ICE agent events, peer connection events, received media), with waits on conditions over it (woken by each new element,
/// never polled) that fail with `ICETestTimeout` at their deadline.
final class StreamRecorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let condition: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }
    private struct State {
        var elements: [Element] = []
        var finished = false
        var waiters: [Waiter] = []
        var nextID = 0
    }
    private let state = Mutex(State())

    var elements: [Element] { state.withLock { $0.elements } }
    /// Whether the recorded stream has ended.
    var finished: Bool { state.withLock { $0.finished } }

    /// Records `stream` from a new task until it finishes; the task ends with the stream.
    @discardableResult
    func record(_ stream: AsyncStream<Element>, onEach: @escaping @Sendable (Element) async -> Void = { _ in })
        -> Task<Void, Never>
    {
        Task {
            for await element in stream {
                await onEach(element)
                append(element)
            }
            finish()
        }
    }

    private func append(_ element: Element) {
        let ready = state.withLock { state in
            state.elements.append(element)
            let elements = state.elements
            let ready = state.waiters.filter { $0.condition(elements) }
            state.waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    private func finish() {
        let all = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in all { waiter.continuation.resume() }
    }

    /// Returns once `condition` holds (or the stream finished, or the task was cancelled).
    private func until(_ condition: @escaping @Sendable ([Element]) -> Bool) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state in
                    if state.finished || condition(state.elements) || Task.isCancelled { return true }
                    state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            cancelled?.continuation.resume()
        }
    }

    /// Waits until `condition` holds over everything recorded, failing after `limit`.
    func wait(
        _ what: String, within limit: Duration = .seconds(10), _ condition: @escaping @Sendable ([Element]) -> Bool
    ) async throws {
        try await withTimeout(limit, what) { await self.until(condition) }
        guard condition(elements) else { throw ICETestTimeout(what: what + " (stream ended)") }
    }
}
