/// Why an `a=crypto` value (RFC 4568 §9.1) was not read. The offer it came in still parses: the answerer
/// ignores such a line like any crypto line it cannot use (§7.1.1).
public enum SDPCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not `<tag> <crypto-suite> <key-params> [<session-params>]`.
    case missingFields
    /// The tag is not 1 to 9 digits (§9.1 `tag = 1*9DIGIT`).
    case invalidTag(String)
    /// A suite other than AES_CM_128_HMAC_SHA1_80 / _32 (§6.2 lists more; we implement these two).
    case unsupportedSuite(String)
    /// A key method other than `inline:` (§9.1 `key-method = "inline"`).
    case unsupportedKeyMethod(String)
    /// The key||salt is not base64 (RFC 4648 §4).
    case invalidBase64
    /// The decoded key||salt has the wrong length for the suite (§6.2.1: 30 bytes for AES_CM_128).
    case keyLength(suite: String, expected: Int, actual: Int)
    /// `|lifetime` is not `[2^]1*DIGIT` (§9.1).
    case invalidLifetime(String)
    /// `|mki` is not `<value>:<length>` with a length of 1 to 128 bytes (§9.1, §6.1).
    case invalidMKI(String)

    public var description: String {
        switch self {
        case .missingFields: "a=crypto needs <tag> <crypto-suite> inline:<key||salt>"
        case let .invalidTag(tag): "a=crypto tag '\(tag)' is not 1 to 9 digits"
        case let .unsupportedSuite(suite): "a=crypto suite '\(suite)' is not AES_CM_128_HMAC_SHA1_80 or _32"
        case let .unsupportedKeyMethod(method): "a=crypto key method '\(method)' is not inline"
        case .invalidBase64: "a=crypto inline key is not base64"
        case let .keyLength(suite, expected, actual): "a=crypto \(suite) key||salt is \(actual) bytes, expected \(expected)"
        case let .invalidLifetime(text): "a=crypto lifetime '\(text)' is not [2^]digits"
        case let .invalidMKI(text): "a=crypto MKI '\(text)' is not <value>:<length 1...128>"
        }
    }
}
