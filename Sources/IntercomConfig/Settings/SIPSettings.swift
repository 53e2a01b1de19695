/// `[sip]`: registration with a SIP registrar (a PBX, a Fritz!Box, kamailio), docs/sip.md. Nil without the table.
public struct SIPSettings: Sendable, Equatable {
    public enum Transport: String, Sendable, CaseIterable {
        case udp, tcp
    }

    /// `srtp`: SDES-SRTP (RTP/SAVP, RFC 4568) for call audio. `off`: plain RTP only (an RTP/SAVP offer gets
    /// 488); `optional`: an RTP/SAVP offer is answered with SRTP, an RTP/AVP one plainly, our offers are plain;
    /// `mandatory`: RTP/SAVP only, both ways (an RTP/AVP offer gets 488).
    public enum SRTP: String, Sendable, CaseIterable {
        case off, optional, mandatory
    }

    /// `codecs`: the audio codecs of SIP calls, in order of preference (docs/sip.md "Audio"). Opus is
    /// RFC 7587 at 48 kHz, sent as the microphone pipeline encodes it; PCMU and PCMA are G.711 at 8 kHz.
    public enum Codec: String, Sendable, CaseIterable {
        case opus, pcmu, pcma
    }

    /// The registrar's host (name, IPv4 or bracketed IPv6) and port (5060 unless given).
    public var registrarHost: String
    public var registrarPort: Int
    /// The user part of the address-of-record `sip:user@registrar`.
    public var user: String
    /// The digest user name; the AOR's user unless set.
    public var authUser: String
    /// The password file (absolute, or found through `$CREDENTIALS_DIRECTORY`, systemd credential `sip.password`).
    public var passwordFile: String?
    public var transport = Transport.udp
    /// The local SIP port; 0 lets the kernel choose.
    public var localPort = 5060
    public var displayName: String?
    /// NAT keepalive (RFC 5626 §3.5: CRLF CRLF on TCP, OPTIONS to the registrar on UDP).
    public var keepAlive: Duration = .seconds(25)
    /// The binding lifetime asked for in REGISTER's Expires.
    public var registerExpiry: Duration = .seconds(600)
    /// Register the address the registrar saw (Via `received`/`rport`, RFC 3581) instead of the private one.
    public var contactRewrite = true
    /// Callers whose INVITE rings (a SIP URI such as `sip:reception@pbx.example`, or a user part or number
    /// such as `620`); empty: anyone who reaches the device. Others get 403.
    public var allow: [String] = []
    /// The keypad door code's file (digits and `*`, at least 4; absolute, or the systemd credential
    /// `sip.door-code`). The caller types it and `#` during a SIP call; the relay opens where
    /// `call.allow_door_open` is set. Nil: keys open nothing.
    public var doorCodeFile: String?
    public var srtp = SRTP.optional
    /// Offered (calls placed) and chosen from an offer (calls taken) in this order; G.711 only unless set,
    /// as before Opus was added.
    public var codecs: [Codec] = [.pcmu, .pcma]
    /// Keys (0–9, `*`, `#`, A–D; `,` waits a second; at most 32) sent as RFC 4733 telephone-events one second
    /// after a call the device placed is answered: an extension behind a PBX's auto attendant. Empty: none.
    public var postDialDigits = ""
    /// VP8 video beside the audio (RFC 7741): answered where offered, offered in the calls the device places.
    /// False: audio only, for a PBX that refuses a whole INVITE offering video (instead of the video section).
    public var video = true

    public static let defaultRegistrarPort = 5060

    init?(_ reader: ConfigReader?, secrets: SecretResolver) {
        guard let reader else { return nil }
        let registrar = reader.string("registrar", required: true)
        (registrarHost, registrarPort) = registrar.flatMap { text in
            let parsed = Self.hostPort(text)
            if parsed == nil {
                reader.report("registrar", "expected HOST or HOST:PORT (an IPv6 address in brackets), got \"\(text)\"")
            }
            return parsed
        } ?? ("", Self.defaultRegistrarPort)
        user = Self.userPart(reader, "user", required: true) ?? ""
        authUser = Self.userPart(reader, "auth_user") ?? user
        let passwordFile = reader.string("password_file")
        switch secrets.locate(passwordFile, credential: "sip.password", reader: reader, key: "password_file") {
        case .found(let path): self.passwordFile = path
        case .absent, .reported: self.passwordFile = nil
        }
        transport = reader.choice("transport") ?? transport
        localPort = reader.integer("port", in: 0...65_535) ?? localPort
        displayName = reader.text("display_name", maxLength: 100)
        keepAlive = reader.duration("keepalive", in: .seconds(1)...(.seconds(3600))) ?? keepAlive
        registerExpiry = reader.duration("register_expiry", in: .seconds(60)...(.seconds(86_400))) ?? registerExpiry
        contactRewrite = reader.bool("contact_rewrite") ?? contactRewrite
        allow = Self.allowList(reader)
        srtp = reader.choice("srtp") ?? srtp
        codecs = Self.codecList(reader) ?? codecs
        video = reader.bool("video") ?? video
        if let digits = reader.string("post_dial_digits") {
            if Self.isPostDialDigits(digits) {
                postDialDigits = digits
            } else {
                reader.report("post_dial_digits", "expected at most 32 of 0-9 * # A-D and , (a one-second pause), got \"\(digits.prefix(40))\"")
            }
        }
        switch secrets.locate(reader.string("door_code_file"), credential: "sip.door-code", reader: reader, key: "door_code_file") {
        case .found(let path):
            doorCodeFile = path
            if secrets.checksFiles, case .success(let bytes) = secrets.readFile(path), !Self.isDoorCode(bytes) {
                reader.report("door_code_file", "the door code in \(path) must be at least 4 digits or * on one line")
            }
        case .absent, .reported:
            doorCodeFile = nil
        }
        reader.rejectUnknownKeys()
    }

    /// `post_dial_digits`: 1 to 32 DTMF keys or `,`.
    static func isPostDialDigits(_ text: String) -> Bool {
        (1...32).contains(text.count) && text.allSatisfy { "0123456789*#ABCDabcd,".contains($0) }
    }

    /// A door code file's text: 4 to 32 digits or `*` (`#` submits it), then at most a line end.
    static func isDoorCode(_ bytes: [UInt8]) -> Bool {
        var code = bytes[...]
        while let last = code.last, last == 0x0A || last == 0x0D { code = code.dropLast() }
        return (4...32).contains(code.count) && code.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2A }
    }

    /// `codecs`: names case-insensitive, at least one, none twice; nil (the default kept) after a problem.
    private static func codecList(_ reader: ConfigReader) -> [Codec]? {
        guard let names = reader.stringArray("codecs") else { return nil }
        guard !names.isEmpty else {
            reader.report("codecs", "needs at least one of \(Self.codecNames)")
            return nil
        }
        var codecs: [Codec] = []
        var usable = true
        for (index, name) in names.enumerated() {
            guard let codec = Codec(rawValue: name.lowercased()) else {
                reader.reportElement("codecs", index, "must be one of \(Self.codecNames), got \"\(name)\"")
                usable = false
                continue
            }
            guard !codecs.contains(codec) else {
                reader.reportElement("codecs", index, "\"\(name)\" is listed twice")
                usable = false
                continue
            }
            codecs.append(codec)
        }
        return usable ? codecs : nil
    }

    private static var codecNames: String { Codec.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }

    /// `allow`: each entry a `sip:` URI or a user part; the bad ones reported by index and left out.
    private static func allowList(_ reader: ConfigReader) -> [String] {
        guard let all = reader.stringArray("allow") else { return [] }
        return all.enumerated().compactMap { index, entry in
            let usable = !entry.isEmpty && entry.utf8.count <= 200 && !entry.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
            guard usable else {
                reader.reportElement("allow", index, "expected a SIP URI (sip:user@host) or a user name, got \"\(entry)\"")
                return nil
            }
            return entry
        }
    }

    /// A SIP user part (RFC 3261 §25.1 `user`): unreserved characters and the user-unreserved marks, no escapes.
    private static func userPart(_ reader: ConfigReader, _ key: String, required: Bool = false) -> String? {
        guard let value = reader.string(key, required: required) else { return nil }
        let allowed = Set("-_.!~*'()&=+$,;?/".utf8)
        let valid = !value.isEmpty && value.utf8.count <= 100
            && value.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || allowed.contains($0) }
        guard valid else {
            reader.report(key, "expected a SIP user name (letters, digits and -_.!~*'()&=+$,;?/), got \"\(value)\"")
            return nil
        }
        return value
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`; nil when malformed.
    static func hostPort(_ text: String) -> (String, Int)? {
        var host = Substring(text)
        var port = defaultRegistrarPort
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[...close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (1...65_535).contains(number) else { return nil }
                port = number
            }
            return host.count > 2 ? (String(host), port) : nil
        }
        if let colon = host.firstIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65_535).contains(number) else { return nil }
            port = number
            host = host[..<colon]
        }
        let hostAllowed = host.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E }
        guard !host.isEmpty, host.utf8.count <= 253, hostAllowed else { return nil }
        return (String(host), port)
    }
}
