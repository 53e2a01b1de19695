import Crypto

/// The digest algorithms of RFC 7616 §3.3 (MD5 kept for SIP, RFC 3261 §22.4; SHA-512-256 is not offered by
/// SIP servers in practice and is refused).
public enum DigestAlgorithm: String, Hashable, Sendable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"

    /// Case-insensitive (RFC 7616 §3.3 compares tokens case-insensitively); an absent algorithm means MD5.
    init(parsing token: String?) throws(SIPError) {
        guard let token else {
            self = .md5
            return
        }
        guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == token.lowercased() }) else {
            throw .unsupportedDigestAlgorithm(token)
        }
        self = found
    }

    var isSession: Bool { self == .md5Session || self == .sha256Session }

    /// Lower-case hex of the hash of `text` (RFC 7616 §3.4: H(data) is the hex of the digest).
    func hash(_ text: String) -> String {
        let bytes = Array(text.utf8)
        switch self {
        case .md5, .md5Session: return Self.hex(Insecure.MD5.hash(data: bytes))
        case .sha256, .sha256Session: return Self.hex(SHA256.hash(data: bytes))
        }
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
