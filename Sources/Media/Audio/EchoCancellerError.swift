/// A failed webrtc-audio-processing call (or a check of the shim in front of it): which call, and its
/// `webrtc::AudioProcessing::Error` code.
public struct EchoCancellerError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The library's name for `code` (its `AudioProcessing::Error` enum has no strerror).
    public var message: String {
        switch code {
        case -1: "unspecified error"
        case -2: "creation failed"
        case -3: "unsupported component"
        case -4: "unsupported function"
        case -5: "null pointer"
        case -6: "bad parameter"
        case -7: "bad sample rate"
        case -8: "bad data length"
        case -9: "bad number of channels"
        case -10: "file error"
        case -11: "stream parameter not set"
        case -12: "not enabled"
        default: "unknown error"
        }
    }

    public var description: String { "\(call): \(message) (audio processing error \(code))" }

    /// Runs a shim call that returns 0 or a negative code and names the failing call.
    static func check(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Int32) throws(EchoCancellerError) {
        var failedCall: UnsafePointer<CChar>?
        let result = body(&failedCall)
        if result != 0 {
            throw EchoCancellerError(call: failedCall.map { String(cString: $0) } ?? "webrtc-audio-processing", code: result)
        }
    }
}
