import COpus

/// A failed libopus call: the function (and request, for ctl calls), its negative error code and
/// `opus_strerror`'s text.
public struct OpusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var detail: String?

    public init(call: String, code: Int32, detail: String? = nil) {
        self.call = call
        self.code = code
        self.detail = detail
    }

    public var message: String { String(cString: opus_strerror(code)) }

    public var description: String {
        "\(call): \(message) (opus error \(code))" + (detail.map { ": \($0)" } ?? "")
    }

    /// Runs a libopus call that returns a negative error code on failure; returns the result otherwise.
    @discardableResult
    static func check(_ call: String, _ result: Int32) throws(OpusError) -> Int32 {
        if result < 0 { throw OpusError(call: call, code: result) }
        return result
    }
}
