import Foundation
import IntercomTestSupport

/// A voice stand-in for echo tests: pseudo-random noise band-limited to about 200–3400 Hz (telephone speech)
/// under a syllable-rate envelope (about 4 Hz, never fully silent), so the canceller sees a broadband,
/// non-stationary far end rather than a tone it could model trivially.
enum SpeechLikeSignal {
    static func samples(count: Int, sampleRate: Int = 48_000, peak: Double = 0.5, seed: UInt64 = 0xEC40) -> [Int16] {
        var random = SplitMix64(seed: seed)
        let rate = Double(sampleRate)
        // One-pole high-pass at 200 Hz and two one-pole low-passes at 3400 Hz.
        let highPass = exp(-2 * Double.pi * 200 / rate)
        let lowPass = exp(-2 * Double.pi * 3400 / rate)
        var (previousInput, high, low1, low2) = (0.0, 0.0, 0.0, 0.0)
        var filtered = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let white = Double(random.next() >> 11) / Double(1 << 53) * 2 - 1
            high = highPass * (high + white - previousInput)
            previousInput = white
            low1 = lowPass * low1 + (1 - lowPass) * high
            low2 = lowPass * low2 + (1 - lowPass) * low1
            let time = Double(index) / rate
            let envelope = 0.15 + 0.85 * pow(0.5 + 0.5 * sin(2 * Double.pi * 3.7 * time), 2)
            filtered[index] = low2 * envelope
        }
        let maximum = filtered.map(abs).max() ?? 1
        return filtered.map { Int16(($0 / maximum * peak * 32767).rounded()) }
    }

    /// What a microphone hears of `far` through a room: delayed by `delay` samples, attenuated by
    /// `gainDecibels`, plus one weaker reflection 7 ms later.
    static func echo(of far: [Int16], delay: Int, gainDecibels: Double, sampleRate: Int = 48_000) -> [Double] {
        let direct = pow(10, gainDecibels / 20)
        let reflection = direct * 0.3
        let reflectionDelay = delay + sampleRate * 7 / 1000
        return (0..<far.count).map { index in
            var value = 0.0
            if index >= delay { value += Double(far[index - delay]) * direct }
            if index >= reflectionDelay { value += Double(far[index - reflectionDelay]) * reflection }
            return value
        }
    }
}
