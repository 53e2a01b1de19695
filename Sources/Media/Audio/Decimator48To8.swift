/// 48 kHz → 8 kHz mono for G.711: low-pass (`LowPassFIR.telephony`) then every 6th sample, computing only
/// the kept outputs. Stateful: the filter history and the 1-in-6 phase carry across calls, so feeding 20 ms
/// frames one by one gives exactly the samples of one call with the whole signal (no clicks at frame edges).
/// Delay: 59.5 input samples (about 1.24 ms).
public struct Decimator48To8: Sendable {
    public static let factor = 6
    private let taps = LowPassFIR.telephony.taps
    /// The last `taps.count - 1` input samples, oldest first.
    private var history: [Double]
    /// Input samples still to come before the next kept output (0: the next sample yields one).
    private var phase = 0

    public init() {
        history = Array(repeating: 0, count: LowPassFIR.telephony.taps.count - 1)
    }

    /// The 8 kHz samples `input` completes (960 samples in gives 160 out).
    public mutating func process(_ input: [Int16]) -> [Int16] {
        let window = history + input.map(Double.init)
        var output: [Int16] = []
        output.reserveCapacity(input.count / Self.factor + 1)
        for index in input.indices {
            if phase == 0 {
                // window[newest - k] × taps[k]: the newest sample is at index + history.count.
                let newest = index + history.count
                var sum = 0.0
                for k in taps.indices { sum += taps[k] * window[newest - k] }
                output.append(sum.clampedSample)
            }
            phase = (phase + 1) % Self.factor
        }
        history = Array(window.suffix(history.count))
        return output
    }
}
