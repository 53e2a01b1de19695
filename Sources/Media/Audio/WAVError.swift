import IntercomPlatform

/// A WAV file we cannot read, with the reason in words.
public enum WAVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `RIFF….WAVE`.
    case notRIFFWAVE
    /// A chunk header or body runs past the end of the file.
    case truncatedChunk(id: String, declared: Int, available: Int)
    /// No `fmt ` chunk before `data`.
    case missingFormatChunk
    case missingDataChunk
    /// The `fmt ` chunk is shorter than 16 bytes.
    case malformedFormatChunk(size: Int)
    /// Anything but 16-bit integer PCM, mono or stereo.
    case unsupportedFormat(String)
    /// `data` is not a whole number of sample frames.
    case partialSampleFrame(dataBytes: Int, blockAlign: Int)
    /// Reading or writing the file failed.
    case system(SystemCallError)

    public var description: String {
        switch self {
        case .notRIFFWAVE: "not a WAV file (missing RIFF/WAVE signature)"
        case .truncatedChunk(let id, let declared, let available):
            "WAV chunk \"\(id)\" declares \(declared) bytes but only \(available) remain"
        case .missingFormatChunk: "WAV file has no fmt chunk before its data"
        case .missingDataChunk: "WAV file has no data chunk"
        case .malformedFormatChunk(let size): "WAV fmt chunk is \(size) bytes, needs at least 16"
        case .unsupportedFormat(let what): "unsupported WAV format: \(what) (only 16-bit PCM, mono or stereo)"
        case .partialSampleFrame(let dataBytes, let blockAlign):
            "WAV data of \(dataBytes) bytes is not a multiple of the \(blockAlign)-byte sample frame"
        case .system(let error): "\(error)"
        }
    }
}
