import CALSA

/// A failed ALSA call: the function name, its negative error code and `snd_strerror`'s text.
public struct ALSAError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var device: String?

    public init(call: String, code: Int32, device: String? = nil) {
        self.call = call
        self.code = code
        self.device = device
    }

    public var description: String {
        let target = device.map { "(\"\($0)\")" } ?? ""
        return "\(call)\(target): \(String(cString: snd_strerror(code))) (error \(code))"
    }

    /// Runs an ALSA call that returns a negative error code on failure.
    @discardableResult
    static func check(_ call: String, device: String? = nil, _ result: Int32) throws(ALSAError) -> Int32 {
        if result < 0 { throw ALSAError(call: call, code: result, device: device) }
        return result
    }
}
