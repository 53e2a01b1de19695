/// Mono 16-bit PCM from one rate to another by linear interpolation, for speech (espeak-ng's 22050 Hz to
/// the speaker's 48 kHz). Upsampling needs no anti-alias filter, and interpolation's images above the
/// source's Nyquist frequency fall where speech has little energy; it is not meant for music or downsampling.
public enum LinearResampler {
    public static func resample(_ samples: [Int16], from sourceRate: Int, to targetRate: Int) -> [Int16] {
        guard sourceRate > 0, targetRate > 0, !samples.isEmpty else { return [] }
        guard sourceRate != targetRate else { return samples }
        let count = Int((Int64(samples.count) * Int64(targetRate)) / Int64(sourceRate))
        let step = Double(sourceRate) / Double(targetRate)
        var output = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            let position = Double(index) * step
            let left = min(Int(position), samples.count - 1)
            let right = min(left + 1, samples.count - 1)
            let fraction = position - Double(left)
            let value = Double(samples[left]) + (Double(samples[right]) - Double(samples[left])) * fraction
            output[index] = Int16(value.rounded())
        }
        return output
    }
}
