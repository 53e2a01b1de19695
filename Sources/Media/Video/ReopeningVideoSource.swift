import IntercomPlatform
/// Keeps frames coming across device loss: when the wrapped source fails with a device-lost error
/// (`VideoSourceError.isDeviceLost`: unplug, USB reset), it closes it and reopens it with exponential
/// backoff. While waiting, `nextFrame()` sleeps in slices of at most `pollInterval` and returns nil, so the
/// capture thread can still stop promptly. Other errors pass through.
///
/// With a `Placeholder`, the wait is not silent: the last good frame, dimmed, goes out again every
/// `interval` (a gray frame if there was none), so a call's video track, the browser's decoder and the call
/// itself stay alive until the camera is back. With `retriesFirstOpen`, a camera that is missing when the
/// source opens is waited for the same way (for a camera that worked before: a call that starts while it
/// is unplugged).
public final class ReopeningVideoSource: VideoSource {
    /// What to send while the camera is away.
    public struct Placeholder: Sendable, Equatable {
        public var interval: Duration
        /// The size of the gray frame used when no frame arrived before the loss.
        public var width: Int
        public var height: Int

        public init(interval: Duration = .milliseconds(500), width: Int, height: Int) {
            precondition(interval > .zero && width > 0 && height > 0, "invalid placeholder")
            self.interval = interval
            self.width = width
            self.height = height
        }
    }

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
    public let placeholder: Placeholder?
    public let retriesFirstOpen: Bool
    /// Successful reopens so far.
    public private(set) var reopenCount = 0
    /// Placeholder frames sent so far.
    public private(set) var placeholderCount = 0
    private let onEvent: (Event) -> Void
    private var state = State.closed
    private var lastFrame: I420Frame?
    private var placeholderFrame: I420Frame?
    private var nextPlaceholder = Duration.zero

    public init(
        wrapping inner: any VideoSource, backoff: Backoff = Backoff(), pollInterval: Duration = .milliseconds(100),
        placeholder: Placeholder? = nil, retriesFirstOpen: Bool = false, onEvent: @escaping (Event) -> Void = { _ in }
    ) {
        self.inner = inner
        self.backoff = backoff
        self.pollInterval = pollInterval
        self.placeholder = placeholder
        self.retriesFirstOpen = retriesFirstOpen
        self.onEvent = onEvent
    }

    public var format: VideoFormat? { inner.format }

    /// The first open is not retried unless `retriesFirstOpen`: a wrong path or format should surface at once.
    public func open() throws(VideoSourceError) {
        do {
            try inner.open()
            state = .running
        } catch where retriesFirstOpen && error.isDeviceLost {
            lose(error)
        }
    }

    private func lose(_ error: VideoSourceError) {
        inner.close()
        onEvent(.lost(error))
        state = .waiting(until: MonotonicClock.now() + backoff.delay(attempt: 0), attempt: 0)
        placeholderFrame = placeholder.map { Self.dimmed(lastFrame, or: $0) }
        nextPlaceholder = MonotonicClock.now()
    }

    /// The last picture at a third of its brightness and colour: obviously not live, still the right size.
    private static func dimmed(_ frame: I420Frame?, or placeholder: Placeholder) -> I420Frame {
        guard var frame else { return I420Frame(width: placeholder.width, height: placeholder.height) }
        frame.withMutablePlanes { y, u, v in
            for index in y.indices { y[index] = UInt8(16 + (Int(y[index]) - 16) / 3) }
            for plane in [u, v] {
                for index in plane.indices { plane[index] = UInt8(128 + (Int(plane[index]) - 128) / 3) }
            }
        }
        return frame
    }

    /// The placeholder, stamped now, when its time has come.
    private func duePlaceholder(now: Duration) -> I420Frame? {
        guard let placeholder, var frame = placeholderFrame, now >= nextPlaceholder else { return nil }
        nextPlaceholder = max(nextPlaceholder + placeholder.interval, now)
        placeholderCount += 1
        frame.captureTime = now
        frame.sequence = (lastFrame?.sequence ?? 0) &+ UInt64(placeholderCount)
        return frame
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
                let frame = try inner.nextFrame()
                if placeholder != nil, let frame { lastFrame = frame }
                return frame
            } catch where error.isDeviceLost {
                lose(error)
                return duePlaceholder(now: MonotonicClock.now())
            }
        case .waiting(let until, let attempt):
            let now = MonotonicClock.now()
            if let frame = duePlaceholder(now: now) { return frame }
            if now < until {
                let wake = placeholder == nil ? until : min(until, nextPlaceholder)
                MonotonicClock.sleep(until: min(wake, now + pollInterval))
                return nil
            }
            do {
                try inner.open()
                reopenCount += 1
                state = .running
                placeholderFrame = nil
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
