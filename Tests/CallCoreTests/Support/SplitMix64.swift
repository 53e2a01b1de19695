/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator so random tests replay exactly.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0 ..< bound` (Lemire's multiply-shift without rejection; the tiny bias is irrelevant).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// Whole milliseconds in `0 ... maxSeconds` seconds.
    mutating func duration(upTo maxSeconds: Int) -> Duration {
        .milliseconds(below(maxSeconds * 1000 + 1))
    }
}
