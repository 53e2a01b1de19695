/// How long to wait before the next REGISTER after a failure: doubling from `initial` up to `maximum`
/// (a registrar that refuses our credentials gets at least `refusedMinimum`, so a wrong password never
/// hammers it), with up to 25 % jitter so that a fleet does not come back in step. `reset` after a success.
struct RegistrationBackoff {
    var initial: Duration = .seconds(1)
    var maximum: Duration = .seconds(60)
    var refusedMinimum: Duration = .seconds(30)
    private var failures = 0

    init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60), refusedMinimum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
        self.refusedMinimum = refusedMinimum
    }

    /// The delay after one more failure; `jitter` in 0...1 (the caller draws it, tests fix it).
    mutating func nextDelay(refused: Bool, jitter: Double) -> Duration {
        let doubled = initial * (1 << min(failures, 16))
        failures += 1
        var delay = min(doubled, maximum)
        if refused { delay = max(delay, refusedMinimum) }
        return delay + delay * (0.25 * min(max(jitter, 0), 1))
    }

    mutating func reset() { failures = 0 }
}
