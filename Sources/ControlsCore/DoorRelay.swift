/// The door relay's pulses: sans-IO, a value. On `.accepted` the GPIO layer energizes the relay with
/// `gpiod_line_set_value` and arms a timer for the pulse end, where `isEnergized(at:)` turns false.
public struct DoorRelay: Equatable, Sendable {
    public let timing: DoorRelayTiming
    /// When the latest accepted pulse started, if any.
    public private(set) var lastPulseStart: MonotonicInstant?

    public init(timing: DoorRelayTiming = .standard) {
        self.timing = timing
    }

    /// Starts a pulse at `instant`, unless one is running or the relay is still resting after the last
    /// one. An instant before the last pulse start counts as that start.
    public mutating func requestPulse(at instant: MonotonicInstant) -> DoorPulseDecision {
        guard let start = lastPulseStart else {
            lastPulseStart = instant
            return .accepted(endsAt: instant + timing.pulseLength)
        }
        let instant = max(instant, start)
        let end = start + timing.pulseLength
        if instant < end {
            return .refused(.alreadyPulsing(endsAt: end))
        }
        let restEnd = end + timing.minimumGap
        if instant < restEnd {
            return .refused(.resting(availableAt: restEnd))
        }
        lastPulseStart = instant
        return .accepted(endsAt: instant + timing.pulseLength)
    }

    /// The GPIO layer energized the relay at `instant`, which can be a little after the pulse was accepted (its
    /// thread wakes late on a loaded board): the pulse lasts its full length from the moment the relay closed.
    public mutating func energized(at instant: MonotonicInstant) {
        guard let start = lastPulseStart, instant > start, instant < start + timing.pulseLength else { return }
        lastPulseStart = instant
    }

    /// Whether the relay is energized at `instant` (from a pulse's start, up to but not including its end).
    public func isEnergized(at instant: MonotonicInstant) -> Bool {
        guard let start = lastPulseStart else { return false }
        return instant >= start && instant < start + timing.pulseLength
    }

    /// The end of the running pulse: when the relay must be released. `nil` when none runs at `instant`.
    public func pulseEnd(after instant: MonotonicInstant) -> MonotonicInstant? {
        guard isEnergized(at: instant), let start = lastPulseStart else { return nil }
        return start + timing.pulseLength
    }
}

/// The answer to a pulse request.
public enum DoorPulseDecision: Equatable, Sendable {
    /// The relay is energized now and must be released at `endsAt`.
    case accepted(endsAt: MonotonicInstant)
    /// Nothing changes.
    case refused(DoorPulseRefusal)
}

/// Why a pulse was refused.
public enum DoorPulseRefusal: Equatable, Sendable {
    /// A pulse is running until `endsAt`.
    case alreadyPulsing(endsAt: MonotonicInstant)
    /// The relay rests after its last pulse until `availableAt`.
    case resting(availableAt: MonotonicInstant)
}
