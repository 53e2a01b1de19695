import Synchronization

/// The port the server actually listens on, known only once it is bound (`--listen HOST:0`); the
/// listen-derived `signalURL` needs it.
public final class BoundPort: Sendable {
    private let value = Mutex<Int?>(nil)

    public init() {}

    public var port: Int? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
