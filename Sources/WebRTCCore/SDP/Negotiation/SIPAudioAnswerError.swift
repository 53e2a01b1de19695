/// Why an offer (or, for a call we place, an answer) of a plain SIP call cannot be used; each maps to 488 Not
/// Acceptable Here (RFC 3261 §21.4.26) with `description` as the reason.
public enum SIPAudioAnswerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No audio m= section with a non-zero port.
    case noAudio
    /// Audio only as RTP/SAVP (SDES-SRTP, RFC 4568) while `[sip] srtp` is off.
    case srtpOff
    /// Audio only as RTP/AVP while `[sip] srtp` is mandatory.
    case srtpRequired
    /// RTP/SAVP audio with a common codec, but no a=crypto line we can use (RFC 4568 §7.1.1: suites
    /// AES_CM_128_HMAC_SHA1_80/_32, no MKI, no session parameters). `offered` are the lines' suites.
    case noUsableCrypto(offered: [String])
    /// The answer's protocol is not the one we offered (RFC 3264 §6: the answer keeps the offer's).
    case transportMismatch(offered: String, answered: String)
    /// The answer's a=crypto names no tag and suite we offered (RFC 4568 §7.1.1).
    case cryptoMismatch
    /// RTP/AVP audio, but none of our codecs.
    case noCommonCodec(offered: [String])
    /// Neither the audio section nor the session has a usable `c=IN IP4|IP6 <address>` line.
    case missingConnectionAddress

    public var description: String {
        switch self {
        case .noAudio: "no audio stream offered"
        case .srtpOff: "SRTP is off (RTP/SAVP offered, [sip] srtp = \"off\" accepts only RTP/AVP)"
        case .srtpRequired: "SRTP required (RTP/AVP offered, [sip] srtp = \"mandatory\" accepts only RTP/SAVP)"
        case let .noUsableCrypto(offered):
            "no usable a=crypto (offered: \(offered.isEmpty ? "none" : offered.joined(separator: ", ")); "
                + "AES_CM_128_HMAC_SHA1_80/32 without MKI are accepted)"
        case let .transportMismatch(offered, answered): "answered \(answered) to an \(offered) offer"
        case .cryptoMismatch: "the answer's a=crypto does not match a tag and suite we offered"
        case let .noCommonCodec(offered): "no common codec (offered: \(offered.joined(separator: ", ")))"
        case .missingConnectionAddress: "no connection address (c=) for the audio stream"
        }
    }
}
