import CEspeakNG

/// A failed espeak-ng call: the function, its `espeak_ng_STATUS` and the library's text for it (e.g. no
/// espeak-ng-data where the library looks, or an unknown voice).
public struct SpeechError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var status: UInt32
    public var message: String

    public init(call: String, status: UInt32, message: String) {
        self.call = call
        self.status = status
        self.message = message
    }

    public var description: String { "\(call): \(message) (espeak-ng status 0x\(String(status, radix: 16)))" }

    /// Runs an espeak-ng call; throws unless it returned `ENS_OK`.
    static func check(_ call: String, _ status: espeak_ng_STATUS) throws(SpeechError) {
        guard status != ENS_OK else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw SpeechError(call: call, status: status.rawValue, message: text.isEmpty ? "unknown error" : text)
    }
}
