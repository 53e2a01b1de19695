import IntercomPlatform

/// Why a benchmark could not produce a figure.
public enum BenchError: Error, Sendable, CustomStringConvertible {
    case system(SystemCallError)
    case video(VideoSourceError)
    case vpx(VPXError)
    case opus(OpusError)
    case wav(WAVError)
    case jpeg(JPEGError)
    /// A raw baseline (`vp8bench`, `opusbench`) could not start or exited with a non-zero status.
    case baselineFailed(command: String, status: Int32, output: String)
    /// A raw baseline's output did not contain the expected figures.
    case unparsableBaselineOutput(command: String, output: String)
    /// The clip holds a different size or fewer frames than asked for.
    case clipMismatch(path: String, detail: String)
    /// The capture → encode pipeline stalled (no frame within the timeout).
    case pipelineStalled(framesEncoded: Int)

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .video(let error): "\(error)"
        case .vpx(let error): "\(error)"
        case .opus(let error): "\(error)"
        case .wav(let error): "\(error)"
        case .jpeg(let error): "\(error)"
        case .baselineFailed(let command, let status, let output):
            "`\(command)` failed with status \(status): \(output)"
        case .unparsableBaselineOutput(let command, let output):
            "could not read the figures printed by `\(command)`: \(output)"
        case .clipMismatch(let path, let detail): "\(path): \(detail)"
        case .pipelineStalled(let frames): "the capture → encode pipeline stalled after \(frames) frames"
        }
    }
}
