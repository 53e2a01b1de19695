import Foundation

/// A sine wave as 16-bit PCM, continuous across calls (the phase carries over), for audio tests and a
/// "speaker check" sound.
public struct ToneGenerator: Sendable {
    public var frequency: Double
    /// Peak amplitude as a fraction of full scale (0…1).
    public var amplitude: Double
    public let sampleRate: Int
    public let channels: Int
    private var phase: Double = 0

    public init(frequency: Double, amplitude: Double = 0.5, sampleRate: Int = 48_000, channels: Int = 1) {
        precondition(sampleRate > 0 && channels > 0, "a tone needs a sample rate and channels")
        self.frequency = frequency
        self.amplitude = min(max(amplitude, 0), 1)
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The next `frames` sample frames, interleaved (every channel carries the same tone).
    public mutating func next(frames: Int) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(frames * channels)
        let step = 2 * Double.pi * frequency / Double(sampleRate)
        let peak = amplitude * Double(Int16.max)
        for _ in 0..<frames {
            let sample = Int16((sin(phase) * peak).rounded())
            for _ in 0..<channels { samples.append(sample) }
            phase += step
            if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
        }
        return samples
    }
}
