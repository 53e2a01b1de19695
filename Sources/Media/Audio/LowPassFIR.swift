import Foundation

/// A linear-phase windowed-sinc low-pass (Blackman window, about 74 dB stop-band rejection), the
/// anti-aliasing and anti-imaging filter of `Decimator48To8` and `Interpolator8To48`.
struct LowPassFIR: Sendable {
    /// Taps in time order; they sum to 1 (unity gain at DC).
    let taps: [Double]

    /// `cutoff` is the −6 dB point in Hz; the transition band is about 5.5 × `sampleRate` / `count` wide.
    init(count: Int, cutoff: Double, sampleRate: Double) {
        let centre = Double(count - 1) / 2
        let normalised = cutoff / sampleRate
        var taps = (0..<count).map { index -> Double in
            let x = Double(index) - centre
            let sinc = x == 0 ? 2 * normalised : sin(2 * Double.pi * normalised * x) / (Double.pi * x)
            let phase = 2 * Double.pi * Double(index) / Double(count - 1)
            return sinc * (0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase))
        }
        let sum = taps.reduce(0, +)
        for index in taps.indices { taps[index] /= sum }
        self.taps = taps
    }

    /// The filter the 48 kHz ↔ 8 kHz converters share: 120 taps at 48 kHz (20 per polyphase branch),
    /// −6 dB at 3.5 kHz, stop band from about 4.6 kHz, so 4–8 kHz cannot fold into the 0–4 kHz band.
    static let telephony = LowPassFIR(count: 120, cutoff: 3500, sampleRate: 48000)
}

extension Double {
    /// Rounded and clamped to a 16-bit sample.
    var clampedSample: Int16 {
        Int16(Swift.max(Double(Int16.min), Swift.min(Double(Int16.max), rounded())))
    }
}
