import Foundation

/// Level and pitch of 16-bit PCM, for tests that check audio survived a codec, a device or a loss.
public enum PCMAnalysis {
    /// Root mean square as a fraction of full scale (a full-scale sine gives about 0.707).
    public static func rms(_ samples: some Collection<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for sample in samples {
            let value = Double(sample) / Double(Int16.max)
            sum += value * value
        }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// RMS in dBFS (−∞ for silence).
    public static func rmsDecibels(_ samples: some Collection<Int16>) -> Double {
        20 * log10(rms(samples))
    }

    /// The magnitude of one frequency component (Goertzel's algorithm), normalised so a full-scale sine
    /// at exactly `frequency` gives about 0.5.
    public static func goertzelMagnitude(_ samples: some Collection<Int16>, frequency: Double, sampleRate: Int) -> Double {
        guard !samples.isEmpty else { return 0 }
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var previous = 0.0
        var beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) / Double(Int16.max) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return power.squareRoot() / Double(samples.count)
    }

    /// The strongest frequency between `range` (Hz), searched in `step` Hz increments by Goertzel over at
    /// most the first `window` samples (mono). Resolution is about `step`; keep the range narrow.
    public static func dominantFrequency(
        _ samples: [Int16], sampleRate: Int, range: ClosedRange<Double> = 50...8000, step: Double = 5,
        window: Int = 9600
    ) -> Double? {
        let analysed = samples.prefix(window)
        guard analysed.count >= 16, step > 0 else { return nil }
        var best: (frequency: Double, magnitude: Double)?
        var frequency = range.lowerBound
        while frequency <= range.upperBound {
            let magnitude = goertzelMagnitude(analysed, frequency: frequency, sampleRate: sampleRate)
            if magnitude > best?.magnitude ?? 0 { best = (frequency, magnitude) }
            frequency += step
        }
        return best?.frequency
    }

    /// The one channel `channel` of interleaved PCM.
    public static func channel(_ channel: Int, of samples: [Int16], channels: Int) -> [Int16] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0] }
    }
}
