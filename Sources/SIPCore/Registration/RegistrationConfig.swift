/// What a registration client registers (RFC 3261 §10.2): the address-of-record at a registrar, the contact
/// that reaches this device, and the credentials for the registrar's challenges.
public struct RegistrationConfig: Hashable, Sendable {
    /// The Request-URI of REGISTER: the registrar's domain (§10.2).
    public var registrar: SIPURI
    /// To and From of REGISTER (the AOR).
    public var addressOfRecord: SIPURI
    /// The Contact binding.
    public var contact: SIPURI
    public var credentials: DigestCredentials?
    public var requestedExpires: UInt32
    /// Transport and sent-by for Via (the IO layer knows its socket).
    public var transport: String
    public var localHost: String
    public var localPort: UInt16?
    /// Call-ID and From tag, the same for every REGISTER of this client (§10.2.4 asks for one Call-ID).
    public var callID: String
    public var fromTag: String
    /// How long to wait before trying again after a failure.
    public var retryAfterFailure: Duration
    /// Shown with the AOR in From and To (a quoted-string is written, §25.1).
    public var displayName: String?

    public init(
        registrar: SIPURI, addressOfRecord: SIPURI, contact: SIPURI, credentials: DigestCredentials?,
        requestedExpires: UInt32 = 3600, transport: String = "UDP", localHost: String, localPort: UInt16? = nil,
        callID: String, fromTag: String, retryAfterFailure: Duration = .seconds(60), displayName: String? = nil
    ) {
        self.registrar = registrar
        self.addressOfRecord = addressOfRecord
        self.contact = contact
        self.credentials = credentials
        self.requestedExpires = requestedExpires
        self.transport = transport
        self.localHost = localHost
        self.localPort = localPort
        self.callID = callID
        self.fromTag = fromTag
        self.retryAfterFailure = retryAfterFailure
        self.displayName = displayName
    }

    /// `displayName` as a quoted-string: backslash and double quote escaped, control characters dropped.
    public var quotedDisplayName: String? {
        displayName.map { name in
            let escaped = name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map { scalar -> String in
                scalar == "\\" || scalar == "\"" ? "\\" + String(scalar) : String(scalar)
            }.joined()
            return "\"" + escaped + "\""
        }
    }
}
