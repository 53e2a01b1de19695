import IntercomPlatform

/// Opening the door with a code typed on a caller's keypad (DTMF), sans-IO: keys and ticks in, actions out.
///
/// Keys accumulate for the current call; `#` submits, or the code's length does when `submitsAtLength`.
/// A pause longer than `digitTimeout` clears a half-typed code. The comparison runs in constant time.
/// Wrong codes are counted across calls and callers (a SIP From header is forged at will, so a per-caller
/// count would reset with every new identity): after `maxWrongCodes` in a row every key is ignored for
/// `lockout`. A right code yields `.openDoor` once and resets the count; the call must type it again to
/// open again.
public struct DoorCodePolicy: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// Digits and `*`, at least 4 (never `#`, which submits).
        public var code: String
        public var submitsAtLength: Bool
        public var maxWrongCodes: Int
        public var lockout: Duration
        public var digitTimeout: Duration

        public init(
            code: String, submitsAtLength: Bool = false, maxWrongCodes: Int = 3, lockout: Duration = .seconds(300),
            digitTimeout: Duration = .seconds(5)
        ) throws(DoorCodeConfigurationError) {
            guard code.count >= 4, code.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "*") }) else {
                throw .invalidCode
            }
            guard maxWrongCodes >= 1 else { throw .invalidMaxWrongCodes(maxWrongCodes) }
            guard lockout >= .zero, digitTimeout > .zero else { throw .invalidDuration }
            self.code = code
            self.submitsAtLength = submitsAtLength
            self.maxWrongCodes = maxWrongCodes
            self.lockout = lockout
            self.digitTimeout = digitTimeout
        }
    }

    public enum Action: Hashable, Sendable {
        case openDoor
        /// A submitted code was wrong; `remaining` more wrong codes lock the keypad.
        case wrongCode(remaining: Int)
        /// This wrong code locked the keypad until the instant.
        case lockedOut(until: MonotonicInstant)
        /// A half-typed code was dropped after `digitTimeout`.
        case cleared
    }

    public let configuration: Configuration
    private var typed = ""
    private var lastKeyAt: MonotonicInstant?
    private var wrongCodes = 0
    private var lockedUntil: MonotonicInstant?
    private var openedThisCall = false

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// While locked, keys are ignored.
    public func isLockedOut(at now: MonotonicInstant) -> Bool {
        lockedUntil.map { now < $0 } ?? false
    }

    /// The next instant `tick` has work: the digit timeout of a half-typed code.
    public var nextDeadline: MonotonicInstant? {
        typed.isEmpty ? nil : lastKeyAt.map { $0 + configuration.digitTimeout }
    }

    /// A new call: nothing typed, and it may open the door once.
    public mutating func callStarted() {
        typed = ""
        lastKeyAt = nil
        openedThisCall = false
    }

    /// One key (`0`–`9`, `*`, `#`, A–D) at `now`.
    public mutating func key(_ key: Character, at now: MonotonicInstant) -> [Action] {
        var actions = tick(at: now)
        if isLockedOut(at: now) { return actions }
        if lockedUntil != nil {
            lockedUntil = nil
            wrongCodes = 0
        }
        lastKeyAt = now
        if key == "#" {
            if !typed.isEmpty { actions += submit(at: now) }
            return actions
        }
        // A–D are never part of a code but still count as typing (a wrong code when submitted).
        typed.append(key)
        // Bounded: a code longer than any configured one is wrong however it ends.
        if typed.count > configuration.code.count + 1 { typed.removeFirst() }
        if configuration.submitsAtLength, typed.count == configuration.code.count { actions += submit(at: now) }
        return actions
    }

    /// Time passing: clears a half-typed code after `digitTimeout`.
    public mutating func tick(at now: MonotonicInstant) -> [Action] {
        guard let deadline = nextDeadline, now >= deadline else { return [] }
        typed = ""
        return [.cleared]
    }

    private mutating func submit(at now: MonotonicInstant) -> [Action] {
        let attempt = typed
        typed = ""
        if ConstantTime.equal(attempt, configuration.code) {
            wrongCodes = 0
            guard !openedThisCall else { return [] }
            openedThisCall = true
            return [.openDoor]
        }
        wrongCodes += 1
        if wrongCodes >= configuration.maxWrongCodes {
            let until = now + configuration.lockout
            lockedUntil = until
            return [.lockedOut(until: until)]
        }
        return [.wrongCode(remaining: configuration.maxWrongCodes - wrongCodes)]
    }
}

/// Why a door-code configuration was refused.
public enum DoorCodeConfigurationError: Error, Equatable, Sendable {
    /// Fewer than 4 characters, or characters other than digits and `*`.
    case invalidCode
    case invalidMaxWrongCodes(Int)
    /// A negative lockout or a digit timeout that is not positive.
    case invalidDuration
}
