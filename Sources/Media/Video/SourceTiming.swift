import IntercomPlatform
/// How a file or synthetic source stamps and paces its frames.
public enum SourceTiming: Sendable, Equatable {
    /// Paced to the frame rate on the calling thread, like a camera; `captureTime` is the `CLOCK_MONOTONIC`
    /// instant each frame was due.
    case realtime
    /// As fast as the caller pulls; frame `n` is stamped `start + n × frameInterval`, so tests are
    /// deterministic and an encoder's rate control sees the nominal frame rate.
    case synthetic(start: Duration)
}

/// Stamps frames and, in real time, sleeps until each one is due (on the capture thread only).
struct FramePacer {
    let timing: SourceTiming
    let interval: Duration
    private var nextDue: Duration?
    private(set) var emitted: UInt64 = 0

    init(timing: SourceTiming, interval: Duration) {
        self.timing = timing
        self.interval = interval
    }

    /// Waits (real time only) and returns the capture time of the next frame.
    mutating func nextCaptureTime() -> Duration {
        defer { emitted += 1 }
        switch timing {
        case .synthetic(let start):
            return start + interval * Int(emitted)
        case .realtime:
            let now = MonotonicClock.now()
            guard let due = nextDue else {
                nextDue = now + interval
                return now
            }
            guard now < due else {
                // Late (a slow consumer or a suspended VM): resynchronise instead of bursting to catch up.
                nextDue = now + interval
                return now
            }
            // Stamped with the scheduled instant, like a sensor exposing on its own clock, so a late
            // wake-up does not show up as jitter in the timestamps.
            MonotonicClock.sleep(until: due)
            nextDue = due + interval
            return due
        }
    }

    mutating func reset() {
        nextDue = nil
        emitted = 0
    }
}
