import CVPXShims
import CVPX

/// A failed libvpx call: the function, its `vpx_codec_err_t`, libvpx's text for it and the codec's
/// `vpx_codec_error_detail` (which often names the offending setting).
public struct VPXError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var message: String
    public var detail: String?

    public init(call: String, code: Int32, message: String, detail: String? = nil) {
        self.call = call
        self.code = code
        self.message = message
        self.detail = detail
    }

    /// From a non-OK result of `call` on `context` (whose detail string is read while it is still alive).
    init(call: String, result: vpx_codec_err_t, context: UnsafeMutablePointer<vpx_codec_ctx_t>?) {
        self.call = call
        code = Int32(bitPattern: result.rawValue)
        message = String(cString: vpx_codec_err_to_string(result))
        detail = context.flatMap { vpx_codec_error_detail($0) }.map { String(cString: $0) }
    }

    public var description: String {
        "\(call): \(message) (vpx error \(code))" + (detail.map { ": \($0)" } ?? "")
    }

    /// Runs a libvpx call and throws on anything but `VPX_CODEC_OK`.
    static func check(
        _ call: String, _ context: UnsafeMutablePointer<vpx_codec_ctx_t>?, _ result: vpx_codec_err_t
    ) throws(VPXError) {
        if result != VPX_CODEC_OK { throw VPXError(call: call, result: result, context: context) }
    }
}
