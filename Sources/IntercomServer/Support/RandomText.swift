/// Random identifiers in parse-server's formats (`src/cryptoUtils.js`), from the system CSPRNG.
enum RandomText {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// `randomString`: letters and digits, uniformly chosen.
    static func alphanumeric(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<count).map { _ in alphanumerics.randomElement(using: &generator)! }, as: UTF8.self)
    }

    /// An object id: 10 alphanumerics (`objectIdSize`).
    static func objectId() -> String { alphanumeric(10) }

    /// A revocable session token: `r:` + 32 hex digits (`newToken`).
    static func sessionToken() -> String { "r:" + hex(bytes(16)) }

    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
