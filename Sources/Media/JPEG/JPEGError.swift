import CTurboJPEG

/// A TurboJPEG call that failed: the function, its message (`tjGetErrorStr2`) and whether libjpeg only
/// warned (`TJERR_WARNING`: a truncated or slightly damaged stream, which we still refuse to show).
public struct JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var message: String
    public var isWarning: Bool

    public init(call: String, message: String, isWarning: Bool = false) {
        self.call = call
        self.message = message
        self.isWarning = isWarning
    }

    /// The error TurboJPEG recorded on `handle` (nil: the last handle-less failure, e.g. of `tjInit*`).
    static func last(_ call: String, handle: tjhandle?) -> JPEGError {
        let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
        let isWarning = handle.map { tjGetErrorCode($0) == Int32(TJERR_WARNING.rawValue) } ?? false
        return JPEGError(call: call, message: message, isWarning: isWarning)
    }

    public var description: String { "\(call): \(message)\(isWarning ? " (warning)" : "")" }
}
