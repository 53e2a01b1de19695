import Synchronization

/// A one-shot event that any number of tasks can await: `wait()` returns once `signal()` was called,
/// before or after. Used where a callback on the GLib thread ends something async callers wait for.
final class CompletionSignal: Sendable {
    private struct State {
        var signalled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    func signal() {
        let waiters = state.withLock { state in
            state.signalled = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = state.withLock { state in
                if !state.signalled { state.waiters.append(continuation) }
                return state.signalled
            }
            if signalled { continuation.resume() }
        }
    }
}
