/// A deterministic 64-bit generator (Steele, Lea and Flood's SplitMix64), so every random run replays
/// from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `percent` / 100.
    mutating func chance(percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// A duration in `range`, to the microsecond.
    mutating func duration(in range: ClosedRange<Duration>) -> Duration {
        let low = range.lowerBound.microseconds, high = range.upperBound.microseconds
        return .microseconds(Int64.random(in: low...high, using: &self))
    }
}

extension Duration {
    /// Whole microseconds, rounded down.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
