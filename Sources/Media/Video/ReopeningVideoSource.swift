import IntercomPlatform
/// Keeps frames coming across device loss: when the wrapped source fails with a device-lost error
/// (`VideoSourceError.isDeviceLost`: unplug, USB reset), it closes it and reopens it with exponential
/// backoff. While waiting, `nextFrame()` sleeps in slices of at most `pollInterval` and returns nil, so the
/// capture thread can still stop promptly. Other errors pass through.
public final class ReopeningVideoSource: VideoSource {
    public struct Backoff: Sendable, Equatable {
        public var initial: Duration
        public var maximum: Duration
        public var multiplier: Int

        public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5), multiplier: Int = 2) {
            precondition(initial > .zero && maximum >= initial && multiplier >= 1, "invalid backoff")
            self.initial = initial
            self.maximum = maximum
            self.multiplier = multiplier
        }

        /// The wait before reopen attempt `attempt` (0-based).
        public func delay(attempt: Int) -> Duration {
            var delay = initial
            for _ in 0..<attempt {
                delay = delay * multiplier
                if delay >= maximum { return maximum }
            }
            return min(delay, maximum)
        }
    }

    /// What happened, for logs and metrics.
    public enum Event: Sendable, Equatable {
        case lost(VideoSourceError)
        case reopenFailed(VideoSourceError, attempt: Int)
        case reopened(afterAttempts: Int)
    }

    private enum State {
        case closed
        case running
        case waiting(until: Duration, attempt: Int)
    }

    public let inner: any VideoSource
    public let backoff: Backoff
    public let pollInterval: Duration
    /// Successful reopens so far.
    public private(set) var reopenCount = 0
    private let onEvent: (Event) -> Void
    private var state = State.closed

    public init(
        wrapping inner: any VideoSource, backoff: Backoff = Backoff(), pollInterval: Duration = .milliseconds(100),
        onEvent: @escaping (Event) -> Void = { _ in }
    ) {
        self.inner = inner
        self.backoff = backoff
        self.pollInterval = pollInterval
        self.onEvent = onEvent
    }

    public var format: VideoFormat? { inner.format }

    /// The first open is not retried: a wrong path or format should surface at once.
    public func open() throws(VideoSourceError) {
        try inner.open()
        state = .running
    }

    public func close() {
        inner.close()
        state = .closed
    }

    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        switch state {
        case .closed:
            throw .notOpen
        case .running:
            do {
                return try inner.nextFrame()
            } catch where error.isDeviceLost {
                inner.close()
                onEvent(.lost(error))
                state = .waiting(until: MonotonicClock.now() + backoff.delay(attempt: 0), attempt: 0)
                return nil
            }
        case .waiting(let until, let attempt):
            let now = MonotonicClock.now()
            if now < until {
                MonotonicClock.sleep(until: min(until, now + pollInterval))
                return nil
            }
            do {
                try inner.open()
                reopenCount += 1
                state = .running
                onEvent(.reopened(afterAttempts: attempt + 1))
                return try nextFrame()
            } catch {
                inner.close()
                onEvent(.reopenFailed(error, attempt: attempt + 1))
                state = .waiting(until: MonotonicClock.now() + backoff.delay(attempt: attempt + 1), attempt: attempt + 1)
                return nil
            }
        }
    }
}
