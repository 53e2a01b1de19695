import Foundation
import Synchronization

/// Packets and RMS level of decoded audio since the last reading (the caller's voice, decoded with libopus).
public final class AudioLevelMeter: Sendable {
    private struct Window {
        var packets = 0
        var sumOfSquares = 0.0
        var samples = 0
    }
    private let window = Mutex(Window())

    public init() {}

    public func add(_ pcm: [Int16]) {
        var sum = 0.0
        for sample in pcm { sum += Double(sample) * Double(sample) }
        window.withLock { window in
            window.packets += 1
            window.sumOfSquares += sum
            window.samples += pcm.count
        }
    }

    /// Packets and RMS level (dBFS) since the previous call.
    public func takeSecond() -> (packets: Int, level: Double) {
        let taken = window.withLock { window in
            defer { window = Window() }
            return window
        }
        guard taken.samples > 0, taken.sumOfSquares > 0 else { return (taken.packets, -120) }
        let rms = (taken.sumOfSquares / Double(taken.samples)).squareRoot() / 32768
        return (taken.packets, 20 * log10(rms))
    }
}
