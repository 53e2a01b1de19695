/// `a=crypto:<tag> <crypto-suite> inline:<key||salt>[|<lifetime>][|<MKI>:<length>] [<session-params>]`
/// (SDES, RFC 4568 §9.1): the master key and salt one side uses to protect what it sends. Only one
/// key-param is modelled; a line with several (only meaningful with MKIs, §6.1) is read with the first.
public struct SDPCrypto: Hashable, Sendable {
    /// The two SRTP suites of RFC 4568 §6.2 we implement; both use a 128-bit key and a 112-bit salt.
    public enum Suite: String, Hashable, Sendable, CaseIterable {
        case aesCM128HMACSHA1_80 = "AES_CM_128_HMAC_SHA1_80"
        case aesCM128HMACSHA1_32 = "AES_CM_128_HMAC_SHA1_32"

        /// key (16) + salt (14) bytes (§6.2.1, §6.2.2).
        public var keySaltLength: Int { 30 }
    }

    /// `<MKI>:<length>` (§6.1): the master key identifier value and its length in bytes on the wire.
    public struct MKI: Hashable, Sendable {
        public var value: String
        public var length: Int
    }

    /// Names the line: the answer's crypto line repeats the tag of the offered one it accepts (§7.1.1).
    public var tag: UInt32
    public var suite: Suite
    public var keySalt: [UInt8]
    /// As written (`2^31`, `1048576`); nil: the suite's default maximum (§6.1).
    public var lifetime: String?
    public var mki: MKI?
    /// Session parameters such as `UNENCRYPTED_SRTCP` or `KDR=…` (§6.3), verbatim.
    public var sessionParameters: [String]

    public init(tag: UInt32, suite: Suite, keySalt: [UInt8], lifetime: String? = nil, mki: MKI? = nil,
                sessionParameters: [String] = []) {
        self.tag = tag
        self.suite = suite
        self.keySalt = keySalt
        self.lifetime = lifetime
        self.mki = mki
        self.sessionParameters = sessionParameters
    }

    /// Reads the value after `a=crypto:`.
    public init(parsing value: String) throws(SDPCryptoError) {
        let fields = Substring(value).fields(separatedBy: " ", omittingEmpty: true)
        guard fields.count >= 3 else { throw .missingFields }
        let tagText = fields[0]
        guard (1...9).contains(tagText.utf8.count), tagText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let tag = UInt32(tagText) else { throw .invalidTag(String(tagText)) }
        guard let suite = Suite(rawValue: String(fields[1])) else { throw .unsupportedSuite(String(fields[1])) }
        // key-params = key-param *(";" key-param); only the first key is read.
        let keyParam = fields[2].fields(separatedBy: ";", omittingEmpty: false)[0]
        guard keyParam.hasPrefix("inline:") else {
            throw .unsupportedKeyMethod(String(keyParam.prefix { $0 != ":" }))
        }
        let parts = keyParam.dropFirst("inline:".count).fields(separatedBy: "|", omittingEmpty: false)
        guard parts.count <= 3, let keySalt = SDPBase64.decode(parts[0]) else { throw .invalidBase64 }
        guard keySalt.count == suite.keySaltLength else {
            throw .keyLength(suite: suite.rawValue, expected: suite.keySaltLength, actual: keySalt.count)
        }
        var lifetime: String?
        var mki: MKI?
        for part in parts.dropFirst() {
            // §9.1: lifetime comes before the MKI; an MKI always has a colon, a lifetime never.
            if part.contains(":") {
                guard mki == nil else { throw .invalidMKI(String(part)) }
                mki = try Self.mki(part)
            } else {
                guard lifetime == nil, mki == nil, Self.isLifetime(part) else { throw .invalidLifetime(String(part)) }
                lifetime = String(part)
            }
        }
        self.init(tag: tag, suite: suite, keySalt: keySalt, lifetime: lifetime, mki: mki,
                  sessionParameters: fields.dropFirst(3).map(String.init))
    }

    /// The value after `a=crypto:`.
    public var value: String {
        var key = "inline:" + SDPBase64.encode(keySalt)
        if let lifetime { key += "|" + lifetime }
        if let mki { key += "|\(mki.value):\(mki.length)" }
        return ([String(tag), suite.rawValue, key] + sessionParameters).joined(separator: " ")
    }

    public var attribute: SDPAttribute { SDPAttribute(name: "crypto", value: value) }

    /// Whether one SRTP session with this key lasts a whole call: no MKI (we run one key per direction, no
    /// re-keying, §6.1), no session parameters (§6.3: an answerer must understand them or refuse the line),
    /// and no lifetime below 2^31 packets (some 500 days of 20 ms packets; shorter ones would need re-keying).
    public var isUsableForOneKey: Bool {
        guard mki == nil, sessionParameters.isEmpty else { return false }
        guard let lifetime else { return true }
        if lifetime.hasPrefix("2^") { return Int(lifetime.dropFirst(2)).map { $0 >= 31 } ?? false }
        return lifetime.utf8.count > 10 || (UInt64(lifetime).map { $0 >= 1 << 31 } ?? false)
    }

    private static func isLifetime(_ text: Substring) -> Bool {
        let digits = text.hasPrefix("2^") ? text.dropFirst(2) : text
        return !digits.isEmpty && digits.utf8.count <= 20 && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func mki(_ text: Substring) throws(SDPCryptoError) -> MKI {
        let pieces = text.fields(separatedBy: ":", omittingEmpty: false)
        guard pieces.count == 2, !pieces[0].isEmpty, pieces[0].utf8.count <= 40,
              pieces[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              pieces[1].utf8.count <= 3, let length = Int(pieces[1]), (1...128).contains(length) else {
            throw .invalidMKI(String(text))
        }
        return MKI(value: String(pieces[0]), length: length)
    }
}

extension MediaDescription {
    /// The section's `a=crypto` lines that parse, in order (the offerer's preference, RFC 4568 §7.1.1);
    /// malformed ones are left out here and kept verbatim in `otherAttributes`.
    public var cryptos: [SDPCrypto] {
        otherAttributes.compactMap { attribute in
            guard attribute.name == "crypto", let value = attribute.value else { return nil }
            return try? SDPCrypto(parsing: value)
        }
    }
}
