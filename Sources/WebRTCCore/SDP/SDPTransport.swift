/// `a=setup` (RFC 4145 §4, RFC 8842 §5): which side opens the DTLS association.
public enum DTLSSetupRole: String, Hashable, Sendable, CaseIterable {
    case active, passive, actpass, holdconn
}

/// The ICE (RFC 8839 §5.4) and DTLS (RFC 8122, RFC 8842) attributes that may appear at session level,
/// media level, or both. `SessionDescription.transport(for:)` resolves the media-over-session value.
public struct SDPTransport: Hashable, Sendable {
    public var iceUfrag: String?
    public var icePassword: String?
    /// `a=ice-options` tokens, e.g. `["trickle"]`.
    public var iceOptions: [String]
    public var fingerprints: [SDPFingerprint]
    public var setup: DTLSSetupRole?

    public init(
        iceUfrag: String? = nil, icePassword: String? = nil, iceOptions: [String] = [],
        fingerprints: [SDPFingerprint] = [], setup: DTLSSetupRole? = nil
    ) {
        self.iceUfrag = iceUfrag
        self.icePassword = icePassword
        self.iceOptions = iceOptions
        self.fingerprints = fingerprints
        self.setup = setup
    }

    /// This transport's values, falling back to `outer` for each one that is absent.
    public func overriding(_ outer: SDPTransport) -> SDPTransport {
        SDPTransport(
            iceUfrag: iceUfrag ?? outer.iceUfrag,
            icePassword: icePassword ?? outer.icePassword,
            iceOptions: iceOptions.isEmpty ? outer.iceOptions : iceOptions,
            fingerprints: fingerprints.isEmpty ? outer.fingerprints : fingerprints,
            setup: setup ?? outer.setup)
    }

    /// Applies one attribute if it belongs to the transport; returns false when `name` is not one of ours.
    mutating func apply(name: Substring, value: Substring?) throws(SDPError.Reason) -> Bool {
        switch name {
        case "ice-ufrag":
            guard iceUfrag == nil else { throw .duplicateAttribute(name: "ice-ufrag") }
            let ufrag = try Self.iceCredential(value, attribute: "ice-ufrag")
            guard (4...256).contains(ufrag.count) else { throw .iceUfragLength(ufrag.count) }
            iceUfrag = ufrag
        case "ice-pwd":
            guard icePassword == nil else { throw .duplicateAttribute(name: "ice-pwd") }
            let password = try Self.iceCredential(value, attribute: "ice-pwd")
            guard (22...256).contains(password.count) else { throw .icePasswordLength(password.count) }
            icePassword = password
        case "ice-options":
            guard let value else { throw .malformedAttribute(name: "ice-options") }
            iceOptions += value.fields(separatedBy: " ").map(String.init)
        case "fingerprint":
            guard let value else { throw .malformedAttribute(name: "fingerprint") }
            fingerprints.append(try SDPFingerprint(parsing: value))
        case "setup":
            guard setup == nil else { throw .duplicateAttribute(name: "setup") }
            guard let value, let role = DTLSSetupRole(rawValue: String(value)) else {
                throw .invalidSetup(String(value ?? ""))
            }
            setup = role
        default:
            return false
        }
        return true
    }

    /// RFC 8839 §5.4: `ice-char = ALPHA / DIGIT / "+" / "/"`.
    private static func iceCredential(_ value: Substring?, attribute: String) throws(SDPError.Reason) -> String {
        let credential = value ?? ""
        // Count first so an over-long value is reported as a length error, not a character error.
        guard credential.utf8.count <= 256 else {
            throw attribute == "ice-ufrag" ? .iceUfragLength(credential.count) : .icePasswordLength(credential.count)
        }
        let isICEChar: (UInt8) -> Bool = { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2B || byte == 0x2F
        }
        guard credential.utf8.allSatisfy(isICEChar) else { throw .invalidICECharacter(attribute: attribute) }
        return String(credential)
    }

    var attributeLines: [(name: String, value: String)] {
        var lines: [(name: String, value: String)] = []
        if let iceUfrag { lines.append(("ice-ufrag", iceUfrag)) }
        if let icePassword { lines.append(("ice-pwd", icePassword)) }
        if !iceOptions.isEmpty { lines.append(("ice-options", iceOptions.joined(separator: " "))) }
        for fingerprint in fingerprints { lines.append(("fingerprint", fingerprint.serialized)) }
        if let setup { lines.append(("setup", setup.rawValue)) }
        return lines
    }
}
