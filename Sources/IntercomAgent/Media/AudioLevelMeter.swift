import Foundation
import Media
import Synchronization

/// Packets and RMS level of decoded audio since the last reading (the caller's voice, decoded with libopus),
/// and its dominant frequency over the last half second (a tone test's proof that the right sound arrived);
/// and, from the levels the sender put in its packets (RFC 6464, no decoding needed), how long it spoke.
public final class AudioLevelMeter: Sendable {
    private struct Window {
        var packets = 0
        var sumOfSquares = 0.0
        var samples = 0
        var recent: [Int16] = []
    }
    static let recentSamples = 24_000
    private let window = Mutex(Window())
    private let speechActivity = Mutex(SpeechActivity())

    public init() {}

    /// A packet that nobody decoded (no speaker): counted, not measured.
    public func countPacket() {
        window.withLock { $0.packets += 1 }
    }

    public func add(_ pcm: [Int16]) {
        var sum = 0.0
        for sample in pcm { sum += Double(sample) * Double(sample) }
        window.withLock { window in
            window.packets += 1
            window.sumOfSquares += sum
            window.samples += pcm.count
            window.recent += pcm
            if window.recent.count > Self.recentSamples { window.recent.removeFirst(window.recent.count - Self.recentSamples) }
        }
    }

    /// A packet's level as its sender indicated it (dBov), with its RTP timestamp.
    public func addIndicated(_ decibels: Int, timestamp: UInt32) {
        speechActivity.withLock { $0.add(timestamp: timestamp, decibels: decibels) }
    }

    /// The speech measured from indicated levels so far.
    public var speech: SpeechActivity { speechActivity.withLock { $0 } }

    /// The strongest frequency (100 Hz…4 kHz, 10 Hz steps) in the last half second of 48 kHz audio.
    public func dominantFrequency() -> Double? {
        let recent = window.withLock { $0.recent }
        guard PCMAnalysis.rmsDecibels(recent) > -60 else { return nil }
        return PCMAnalysis.dominantFrequency(recent, sampleRate: 48_000, range: 100...4000, step: 10, window: recent.count)
    }

    /// Packets and RMS level (dBFS) since the previous call.
    public func takeSecond() -> (packets: Int, level: Double) {
        let taken = window.withLock { window in
            defer { window = Window(recent: window.recent) }
            return window
        }
        guard taken.samples > 0, taken.sumOfSquares > 0 else { return (taken.packets, -120) }
        let rms = (taken.sumOfSquares / Double(taken.samples)).squareRoot() / 32768
        return (taken.packets, 20 * log10(rms))
    }
}
