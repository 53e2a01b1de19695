/// 8 kHz → 48 kHz mono for playing G.711 through the 48 kHz pipeline: zero-stuffing by 6 then
/// `LowPassFIR.telephony` (gain 6) to remove the images, computed as 6 polyphase branches of 20 taps.
/// Stateful: the last 20 input samples carry across calls, so frame-by-frame output equals one-shot output.
public struct Interpolator8To48: Sendable {
    public static let factor = 6
    /// `branches[p][i]` = 6 × taps[p + 6i]: output phase p sees input sample j − i through it.
    private let branches: [[Double]]
    /// The last `branchLength` input samples, oldest first.
    private var history: [Double]

    public init() {
        let taps = LowPassFIR.telephony.taps
        let branchLength = taps.count / Self.factor
        branches = (0..<Self.factor).map { phase in
            (0..<branchLength).map { Double(Self.factor) * taps[phase + Self.factor * $0] }
        }
        history = Array(repeating: 0, count: branchLength - 1)
    }

    /// Six 48 kHz samples for every input sample (160 in gives 960 out).
    public mutating func process(_ input: [Int16]) -> [Int16] {
        let window = history + input.map(Double.init)
        var output: [Int16] = []
        output.reserveCapacity(input.count * Self.factor)
        for index in input.indices {
            let newest = index + history.count
            for branch in branches {
                var sum = 0.0
                for i in branch.indices { sum += branch[i] * window[newest - i] }
                output.append(sum.clampedSample)
            }
        }
        history = Array(window.suffix(history.count))
        return output
    }
}
