import CNice

/// One closure handed to the GLib thread through `g_main_context_invoke_full`; `run` executes it once on
/// the loop thread.
final class GLibJob: @unchecked Sendable {
    // Set on the submitting thread, read and cleared on the loop thread after GLib's hand-over.
    private var body: (@Sendable () -> Void)?

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func run() {
        let body = self.body
        self.body = nil
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
