/// Whether a plain SIP call's audio uses SRTP with SDES keys (RTP/SAVP, RFC 4568), the `[sip] srtp` setting.
public enum SIPSRTPMode: String, Hashable, Sendable, CaseIterable {
    /// RTP/AVP only: RTP/SAVP offers are refused, our offers are RTP/AVP.
    case off
    /// RTP/SAVP offers with a usable key are answered with SRTP, RTP/AVP ones plainly; our offers are RTP/AVP
    /// (a best-effort a=crypto on an RTP/AVP line is not RFC 4568 and peers disagree on it, so we do not try).
    case optional
    /// RTP/SAVP only, both answering and offering.
    case mandatory
}

/// The SDES keys a SIP call settled (RFC 4568 §7): the suite and tag of the accepted crypto line, our
/// key||salt (in our own crypto line) and the peer's (in theirs). Each side protects what it sends with its
/// own key, so `local` protects outgoing packets and `remote` unprotects incoming ones.
public struct SIPSRTPKeys: Hashable, Sendable {
    public var suite: SDPCrypto.Suite
    public var tag: UInt32
    public var local: [UInt8]
    public var remote: [UInt8]

    public init(suite: SDPCrypto.Suite, tag: UInt32, local: [UInt8], remote: [UInt8]) {
        self.suite = suite
        self.tag = tag
        self.local = local
        self.remote = remote
    }

    /// A fresh key||salt for `suite` from the system's CSPRNG (getrandom(2) on Linux): RFC 4568 §6.1 wants
    /// a new random master key per session.
    public static func freshKeySalt(for suite: SDPCrypto.Suite) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< suite.keySaltLength).map { _ in UInt8.random(in: 0 ... .max, using: &generator) }
    }
}
