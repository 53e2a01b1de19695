import CNice
import Glibc
import Synchronization

/// One GLib main loop on its own pthread, running `g_main_loop_run` on a private `GMainContext` that is
/// also the thread's default context (`nice_agent_close_async` completes on the thread-default context).
///
/// Everything that touches libnice is submitted here: libnice emits its signals on whichever thread calls
/// it, so one thread means one order of events and no locking of our own around the agent. The loop
/// blocks a dedicated thread, never Swift's cooperative pool; async callers suspend on a continuation
/// that the job resumes.
final class GLibLoopThread: @unchecked Sendable {
    private struct State {
        var accepting = true
        /// Set once the thread started; taken by `detach`.
        var thread: pthread_t?
    }

    /// Iterated only by the loop thread (and by its final drain).
    let context: OpaquePointer
    private let loop: OpaquePointer
    private let state = Mutex(State())

    private init(context: OpaquePointer, loop: OpaquePointer) {
        self.context = context
        self.loop = loop
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)  // destroys undispatched sources; their GLibJobs report `dropped`
    }

    /// The process's one GLib thread for libnice, started on first use and never stopped (agents come
    /// and go on it; see `ICEAgent`). Holds the error if it could not be started.
    static let shared: Result<GLibLoopThread, ICEError> = Result { () throws(ICEError) in
        let loopThread = try start()
        loopThread.detach()
        return loopThread
    }

    /// Creates the context and loop and starts the thread.
    static func start() throws(ICEError) -> GLibLoopThread {
        guard let context = g_main_context_new() else {
            throw .callFailed(call: "g_main_context_new", detail: "returned NULL")
        }
        guard let loop = g_main_loop_new(context, 0) else {
            g_main_context_unref(context)
            throw .callFailed(call: "g_main_loop_new", detail: "returned NULL")
        }
        let loopThread = GLibLoopThread(context: context, loop: loop)
        let argument = Unmanaged.passRetained(loopThread).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<GLibLoopThread>.fromOpaque(argument).takeRetainedValue().runUntilQuit()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<GLibLoopThread>.fromOpaque(argument).release()
            throw .callFailed(call: "pthread_create", detail: "error \(result)")
        }
        loopThread.state.withLock { $0.thread = thread }
        return loopThread
    }

    /// Runs `body` on the loop thread: at once when already there, otherwise from an idle source.
    /// Returns false (and runs nothing) once the loop has stopped accepting work.
    @discardableResult
    func submit(_ body: @escaping @Sendable () -> Void, dropped: (@Sendable () -> Void)? = nil) -> Bool {
        if g_main_context_is_owner(context) != 0 {
            body()
            return true
        }
        // Holding the lock while attaching makes "accepted" and "drained before the thread ends" one fact.
        return state.withLock { state in
            guard state.accepting else { return false }
            let job = Unmanaged.passRetained(GLibJob(body, dropped: dropped)).toOpaque()
            g_main_context_invoke_full(context, 0 /* G_PRIORITY_DEFAULT */, glibJobDispatch, job, glibJobRelease)
            return true
        }
    }

    /// Runs `body` on the loop thread and returns its result; `.closed` if the loop no longer runs.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, ICEError>) async -> Result<T, ICEError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ICEError>, Never>) in
            let accepted = submit(
                { continuation.resume(returning: body()) },
                dropped: { continuation.resume(returning: .failure(.closed)) })
            if !accepted { continuation.resume(returning: .failure(.closed)) }
        }
    }

    /// The thread is never joined: it cleans up after itself if its loop ever quits.
    func detach() {
        if let thread = state.withLock({ state in defer { state.thread = nil }; return state.thread }) {
            pthread_detach(thread)
        }
    }

    private func runUntilQuit() {
        g_main_context_push_thread_default(context)
        g_main_loop_run(loop)
        state.withLock { $0.accepting = false }
        // Jobs accepted before the loop quit still run (they find their agent closed and fail with .closed).
        var dispatched = 0
        while dispatched < 100_000, g_main_context_iteration(context, 0) != 0 { dispatched += 1 }
        g_main_context_pop_thread_default(context)
    }
}
