/// `a=fingerprint:<hash-func> <hex:pairs>` (RFC 8122 §5): the digest of the peer's DTLS certificate.
public struct SDPFingerprint: Hashable, Sendable {
    public var hashFunction: HashFunction
    public var digest: [UInt8]

    public init(hashFunction: HashFunction, digest: [UInt8]) {
        self.hashFunction = hashFunction
        self.digest = digest
    }

    /// The hash functions of the IANA "Hash Function Textual Names" registry that RFC 8122 allows.
    public enum HashFunction: String, Hashable, Sendable, CaseIterable {
        case md2, md5
        case sha1 = "sha-1"
        case sha224 = "sha-224"
        case sha256 = "sha-256"
        case sha384 = "sha-384"
        case sha512 = "sha-512"

        public var digestLength: Int {
            switch self {
            case .md2, .md5: 16
            case .sha1: 20
            case .sha224: 28
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }
    }

    /// Upper-case colon-separated hex, as browsers write it (`AB:CD:…`).
    public var hexDigest: String {
        digest.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    init(parsing value: Substring) throws(SDPError.Reason) {
        let fields = value.fields(separatedBy: " ", omittingEmpty: true)
        guard fields.count == 2 else { throw .malformedAttribute(name: "fingerprint") }
        guard let function = HashFunction(rawValue: fields[0].lowercased()) else {
            throw .unsupportedHashFunction(String(fields[0]))
        }
        let pairs = fields[1].fields(separatedBy: ":", omittingEmpty: false)
        // Checked before decoding so a huge value cannot allocate a huge digest.
        guard pairs.count == function.digestLength else {
            guard pairs.allSatisfy({ $0.utf8.count == 2 && $0.isASCIIHexDigits }) else {
                throw .malformedFingerprint
            }
            throw .fingerprintLength(
                hashFunction: function.rawValue, expectedBytes: function.digestLength, actualBytes: pairs.count)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(pairs.count)
        for pair in pairs {
            guard pair.utf8.count == 2, pair.isASCIIHexDigits, let byte = UInt8(pair, radix: 16) else {
                throw .malformedFingerprint
            }
            digest.append(byte)
        }
        self.init(hashFunction: function, digest: digest)
    }

    var serialized: String { "\(hashFunction.rawValue) \(hexDigest)" }
}
