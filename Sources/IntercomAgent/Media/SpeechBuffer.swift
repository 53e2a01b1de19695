/// Speech waiting to be mixed into the speaker's frames (mono, 48 kHz): appended whole, taken a frame at a
/// time; the read position moves instead of shifting the array, which is compacted when half is read.
struct SpeechBuffer: Sendable {
    private var samples: [Int16] = []
    private var read = 0

    var waiting: Int { samples.count - read }

    mutating func append(_ pcm: [Int16]) {
        samples += pcm
    }

    /// Up to `count` samples, oldest first.
    mutating func take(_ count: Int) -> ArraySlice<Int16> {
        guard read < samples.count else { return [] }
        let end = min(read + count, samples.count)
        let chunk = samples[read..<end]
        read = end
        if read == samples.count {
            samples = []
            read = 0
        } else if read > samples.count / 2 {
            samples.removeFirst(read)
            read = 0
        }
        return chunk
    }

    /// Adds `speech` to the start of `frame`, saturating at full scale.
    static func mix(_ speech: ArraySlice<Int16>, into frame: inout [Int16]) {
        for (offset, sample) in speech.enumerated() where offset < frame.count {
            let sum = Int32(frame[offset]) + Int32(sample)
            frame[offset] = Int16(clamping: sum)
        }
    }
}
