/// The `o=` line (RFC 8866 §5.2): `<username> <sess-id> <sess-version> <nettype> <addrtype> <address>`.
public struct SDPOrigin: Hashable, Sendable {
    public var username: String
    /// Digits only; kept as text because RFC 8866 does not bound its size.
    public var sessionID: String
    public var sessionVersion: UInt64
    public var networkType: String
    public var addressType: String
    public var address: String

    public init(
        username: String = "-", sessionID: String, sessionVersion: UInt64,
        networkType: String = "IN", addressType: String = "IP4", address: String = "127.0.0.1"
    ) {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    init?(parsing value: Substring) {
        let fields = value.fields(separatedBy: " ", omittingEmpty: true)
        guard fields.count == 6,
            fields[1].isASCIIDigits, fields[1].utf8.count <= 64,
            let version: UInt64 = parseDecimal(fields[2], maxDigits: 20)
        else { return nil }
        self.init(
            username: String(fields[0]), sessionID: String(fields[1]), sessionVersion: version,
            networkType: String(fields[3]), addressType: String(fields[4]), address: String(fields[5]))
    }

    var serialized: String {
        "\(username) \(sessionID) \(sessionVersion) \(networkType) \(addressType) \(address)"
    }
}
