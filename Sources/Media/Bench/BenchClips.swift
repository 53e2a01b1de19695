import Glibc
import IntercomPlatform

/// The inputs both sides of a comparison encode: test-pattern video as Y4M (read by `vp8bench` and by
/// `Y4MFileSource`) and a 48 kHz 16-bit WAV (read by `opusbench` and by `WAVFile`).
public enum BenchClips {
    /// `DIR/pattern_WxH.y4m`.
    public static func videoPath(directory: String, width: Int, height: Int) -> String {
        "\(directory)/pattern_\(width)x\(height).y4m"
    }

    /// `DIR/speechlike_60s_mono.wav`.
    public static func audioPath(directory: String) -> String { "\(directory)/speechlike_60s_mono.wav" }

    /// Writes `frames` test-pattern frames at 30 fps, synthetic timing (reproducible; the band shows the frame
    /// time). Streams frame by frame, so a 720p clip never sits in memory whole.
    public static func writeVideo(width: Int, height: Int, frames: Int, to path: String) throws(SystemCallError) {
        let pattern = TestPattern(width: width, height: height)
        let frameRate = FrameRate(30)
        let temporary = path + ".partial"
        guard let file = fopen(temporary, "wb") else { throw SystemCallError(call: "fopen", errno: errno, path: temporary) }
        var failed: Int32?
        func put(_ bytes: [UInt8]) {
            guard failed == nil else { return }
            if bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file) }) != bytes.count { failed = errno }
        }
        put(Y4MStreamHeader(width: width, height: height, frameRate: frameRate).serialized())
        for index in 0..<frames {
            let captureTime = frameRate.frameInterval * index
            let frame = pattern.frame(
                index: UInt64(index), bandValue: UInt64(captureTime.benchMilliseconds), captureTime: captureTime)
            put(Array("FRAME\n".utf8))
            put(frame.packedBytes())
        }
        if fclose(file) != 0, failed == nil { failed = errno }
        if let failed {
            unlink(temporary)
            throw SystemCallError(call: "fwrite", errno: failed, path: temporary)
        }
        guard rename(temporary, path) == 0 else { throw SystemCallError(call: "rename", errno: errno, path: path) }
    }

    /// A speech-like mono signal (a gliding harmonic voice with syllable-rate amplitude, plus low noise and
    /// pauses) so Opus exercises its SILK/hybrid paths as with real talk, not a trivially cheap pure tone.
    public static func speechLikeSamples(seconds: Int, sampleRate: Int = 48_000) -> [Int16] {
        var samples = [Int16]()
        samples.reserveCapacity(seconds * sampleRate)
        var noise: UInt32 = 0x1234_5678
        var phase = 0.0
        for index in 0..<seconds * sampleRate {
            let time = Double(index) / Double(sampleRate)
            let pitch = 140 + 40 * sin(2 * Double.pi * 0.7 * time)
            phase += 2 * Double.pi * pitch / Double(sampleRate)
            var voice = 0.0
            for harmonic in 1...8 { voice += sin(phase * Double(harmonic)) / Double(harmonic * harmonic) }
            let syllable = max(0, sin(2 * Double.pi * 4 * time))
            let talking = Int(time / 1.5) % 3 != 2  // a pause every third 1.5 s
            noise = noise &* 1_664_525 &+ 1_013_904_223
            let hiss = (Double(noise >> 16) / 65_536 - 0.5) * 0.02
            let value = (talking ? 0.45 * voice * syllable : 0) + hiss
            samples.append(Int16(max(-1, min(1, value)) * Double(Int16.max)))
        }
        return samples
    }

    /// Writes `seconds` of `speechLikeSamples` as a canonical 44-byte-header WAV (what `opusbench.c` expects).
    public static func writeAudio(seconds: Int, to path: String) throws(WAVError) {
        try WAVFile(sampleRate: 48_000, channels: 1, samples: speechLikeSamples(seconds: seconds)).write(to: path)
    }
}
