import CNice
import Glibc
import IntercomPlatform
import Synchronization

/// One GLib main loop on its own pthread, running `g_main_loop_run` for the life of the process on a private
/// `GMainContext` that is also the thread's default context (`nice_agent_close_async` completes on the
/// thread-default context).
///
/// Everything that touches libnice is submitted here: libnice emits its signals on whichever thread calls
/// it, so one thread means one order of events and no locking of our own around the agent. The loop
/// blocks a dedicated thread, never Swift's cooperative pool; async callers suspend on a continuation
/// that the job resumes.
final class GLibLoopThread: @unchecked Sendable {
    /// Iterated only by the loop thread.
    let context: OpaquePointer
    private let loop: OpaquePointer
    /// Set once the thread started; taken by `detach`.
    private let thread = Mutex<pthread_t?>(nil)

    private init(context: OpaquePointer, loop: OpaquePointer) {
        self.context = context
        self.loop = loop
    }

    /// Only reached when `start` could not start the thread.
    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
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
            Unmanaged<GLibLoopThread>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<GLibLoopThread>.fromOpaque(argument).release()
            throw .callFailed(call: "pthread_create", detail: "error \(result)")
        }
        loopThread.thread.withLock { $0 = thread }
        return loopThread
    }

    /// Runs `body` on the loop thread: at once when already there, otherwise from an idle source.
    func submit(_ body: @escaping @Sendable () -> Void) {
        if g_main_context_is_owner(context) != 0 {
            body()
            return
        }
        let job = Unmanaged.passRetained(GLibJob(body)).toOpaque()
        g_main_context_invoke_full(context, 0 /* G_PRIORITY_DEFAULT */, glibJobDispatch, job, glibJobRelease)
    }

    /// Runs `body` on the loop thread and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, ICEError>) async -> Result<T, ICEError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ICEError>, Never>) in
            submit { continuation.resume(returning: body()) }
        }
    }

    /// The thread is never joined: it runs for the life of the process.
    func detach() {
        if let thread = thread.withLock({ thread in defer { thread = nil }; return thread }) {
            pthread_detach(thread)
        }
    }

    private func run() {
        NamedThread.nameCurrentThread("intercom-glib")
        g_main_context_push_thread_default(context)
        g_main_loop_run(loop)  // nothing quits it
    }
}
