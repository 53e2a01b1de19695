import CNice

/// One closure handed to the GLib thread through `g_main_context_invoke_full`: `run` executes it on the
/// loop thread; if GLib destroys the idle source without dispatching it (the context went away), `dropped`
/// runs instead, so an awaiting continuation is always resumed exactly once.
final class GLibJob: @unchecked Sendable {
    private var body: (@Sendable () -> Void)?
    private var dropped: (@Sendable () -> Void)?

    init(_ body: @escaping @Sendable () -> Void, dropped: (@Sendable () -> Void)? = nil) {
        self.body = body
        self.dropped = dropped
    }

    deinit { dropped?() }

    func run() {
        let body = self.body
        self.body = nil
        dropped = nil
        body?()
    }
}

/// `GSourceFunc` for `g_main_context_invoke_full`: runs the job once.
func glibJobDispatch(_ data: gpointer?) -> gboolean {
    guard let data else { return 0 }
    Unmanaged<GLibJob>.fromOpaque(data).takeUnretainedValue().run()
    return 0  // G_SOURCE_REMOVE
}

/// `GDestroyNotify` for `g_main_context_invoke_full`: balances `passRetained`.
func glibJobRelease(_ data: gpointer?) {
    guard let data else { return }
    Unmanaged<GLibJob>.fromOpaque(data).release()
}
