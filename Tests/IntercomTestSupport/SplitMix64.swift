/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so every random and property test
/// replays exactly from its seed. Shared by all test targets.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0 ..< bound` (Lemire's multiply-shift without rejection; the tiny bias is irrelevant here).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(percent: Int) -> Bool {
        below(100) < percent
    }

    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// Whole milliseconds in `0 ... maxSeconds` seconds.
    public mutating func duration(upTo maxSeconds: Int) -> Duration {
        .milliseconds(below(maxSeconds * 1000 + 1))
    }

    /// A duration in `range`, to the microsecond.
    public mutating func duration(in range: ClosedRange<Duration>) -> Duration {
        .microseconds(Int64.random(in: range.lowerBound.wholeMicroseconds...range.upperBound.wholeMicroseconds, using: &self))
    }
}

extension Duration {
    /// Whole microseconds, rounded down.
    public var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
