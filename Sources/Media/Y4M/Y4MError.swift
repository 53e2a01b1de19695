/// A YUV4MPEG2 stream we cannot read, with the reason in words.
public enum Y4MError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with `YUV4MPEG2 `.
    case notY4M
    /// A header line ran past the limit without a newline (garbage, or not a Y4M file).
    case lineTooLong(limit: Int)
    /// `W` or `H` is missing.
    case missingParameter(String)
    /// A parameter's value cannot be used, e.g. `W0`, `Fabc`, `H99999`.
    case invalidParameter(name: String, value: String)
    /// A colourspace other than 8-bit 4:2:0 (`C420jpeg`, `C420`, `C420paldv`, or none).
    case unsupportedColourspace(String)
    /// A frame does not start with `FRAME`.
    case badFrameMarker
    /// The file ended inside a frame.
    case truncatedFrame(expected: Int, got: Int)

    public var description: String {
        switch self {
        case .notY4M: "not a YUV4MPEG2 stream (missing \"YUV4MPEG2 \" signature)"
        case .lineTooLong(let limit): "Y4M header line longer than \(limit) bytes"
        case .missingParameter(let name): "Y4M header has no \(name) parameter"
        case .invalidParameter(let name, let value): "Y4M parameter \(name) has unusable value \"\(value)\""
        case .unsupportedColourspace(let colourspace):
            "Y4M colourspace C\(colourspace) is not supported (only 8-bit 4:2:0: C420jpeg, C420, C420paldv)"
        case .badFrameMarker: "Y4M frame does not start with FRAME"
        case .truncatedFrame(let expected, let got): "Y4M file ends inside a frame (\(got) of \(expected) bytes)"
        }
    }
}
