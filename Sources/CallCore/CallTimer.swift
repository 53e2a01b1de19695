/// A timer the machine asked the IO layer to run (`armTimer`) and that comes back as `timerFired`.
///
/// Every arming gets a fresh `generation`, so a timer that fires after its phase was left (cancelled, or
/// already handled because a later event's timestamp passed its deadline) is recognised as stale and ignored.
public struct CallTimer: Hashable, Sendable {
    public let kind: CallTimerKind
    /// Unique per arming for the lifetime of one machine.
    public let generation: UInt64

    public init(kind: CallTimerKind, generation: UInt64) {
        self.kind = kind
        self.generation = generation
    }
}

/// What a `CallTimer` is for.
public enum CallTimerKind: String, Equatable, Sendable, CaseIterable {
    /// An unanswered call (incoming or outgoing) rang for `ringTimeout`.
    case ringTimeout
    /// An incoming call's row (and its ring) reached `expiresAt`.
    case rowExpiry
    /// `AnswerMode.autoAfter` delay elapsed.
    case autoAnswer
    /// No media for `mediaTimeout`.
    case mediaTimeout
    /// The call lasted `maxDuration`.
    case maxDuration
    /// `ending` gave the media layer `teardownTimeout` to report media down.
    case teardown
    /// Do-not-disturb has been on for `CallPolicy.doNotDisturbLimit`: it turns itself off.
    case doNotDisturbExpiry

    /// Whether the timer belongs to the device rather than to a call, so ending a call leaves it running.
    var outlivesCalls: Bool { self == .doNotDisturbExpiry }
}
