/// Why an offer of a plain SIP call cannot be answered; each maps to 488 Not Acceptable Here
/// (RFC 3261 §21.4.26) with `description` as the reason.
public enum SIPAudioAnswerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No audio m= section with a non-zero port.
    case noAudio
    /// Audio is offered only as RTP/SAVP (SDES-SRTP, RFC 4568), which we do not implement yet.
    case sdesNotSupported
    /// RTP/AVP audio, but none of our codecs.
    case noCommonCodec(offered: [String])
    /// Neither the audio section nor the session has a usable `c=IN IP4|IP6 <address>` line.
    case missingConnectionAddress

    public var description: String {
        switch self {
        case .noAudio: "no audio stream offered"
        case .sdesNotSupported: "SDES not supported yet (RTP/SAVP offered, only RTP/AVP accepted)"
        case let .noCommonCodec(offered): "no common codec (offered: \(offered.joined(separator: ", ")))"
        case .missingConnectionAddress: "no connection address (c=) for the audio stream"
        }
    }
}
