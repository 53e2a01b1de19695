import Media
import ParseClient

/// Why a ring's snapshot is missing: which step failed, with that step's error.
public enum SnapshotError: Error, Sendable, CustomStringConvertible {
    /// No frame reached the encoder in time (the camera is still opening, or media failed).
    case noFrame(within: Duration)
    case encode(JPEGError)
    case upload(ParseClientError)

    public var description: String {
        switch self {
        case .noFrame(let timeout): "no camera frame within \(timeout)"
        case .encode(let error): "JPEG encode: \(error)"
        case .upload(let error): "upload: \(error)"
        }
    }
}
