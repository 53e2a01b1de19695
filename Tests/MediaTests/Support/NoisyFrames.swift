import IntercomTestSupport
import Media

/// Frames full of fresh pseudo-random detail, which no bitrate satisfies: the encoder spends exactly what
/// rate control allows, so bitrate changes show up in the output size.
struct NoisyFrames {
    let width: Int
    let height: Int
    /// Noise spans `128 - amplitude ..< 128 + amplitude` (amplitude is a power of two up to 128).
    let amplitude: Int
    private var generator = SplitMix64(seed: 0x5EED)

    init(width: Int, height: Int, amplitude: Int = 64) {
        precondition(amplitude > 0 && amplitude <= 128 && amplitude & (amplitude - 1) == 0, "a power of two")
        self.width = width
        self.height = height
        self.amplitude = amplitude
    }

    mutating func frame(index: Int, frameRate: Int = 30) -> I420Frame {
        var frame = I420Frame(width: width, height: height, captureTime: .seconds(index) / frameRate, sequence: UInt64(index))
        let count = frame.lumaByteCount
        frame.withMutablePlanes { y, _, _ in
            var offset = 0
            while offset < count {
                var random = generator.next()
                for _ in 0..<min(8, count - offset) {
                    y[offset] = UInt8(128 - amplitude + Int(UInt8(truncatingIfNeeded: random)) % (2 * amplitude))
                    random >>= 8
                    offset += 1
                }
            }
        }
        return frame
    }
}
