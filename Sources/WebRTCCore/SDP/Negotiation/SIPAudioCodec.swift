/// The audio codecs a plain SIP call can use, with their RFC 3551 static payload types where they have one
/// (an offer may list 0 or 8 without an `a=rtpmap`, RFC 3551 §6).
public enum SIPAudioCodec: String, Hashable, Sendable, CaseIterable {
    case pcmu, pcma, opus

    public var encodingName: String {
        switch self {
        case .pcmu: "PCMU"
        case .pcma: "PCMA"
        case .opus: "opus"
        }
    }

    public var clockRate: UInt32 { self == .opus ? 48000 : 8000 }

    public var staticPayloadType: UInt8? {
        switch self {
        case .pcmu: 0
        case .pcma: 8
        case .opus: nil
        }
    }

    /// The rtpmap this codec is answered with (RFC 7587 §7: opus is always `opus/48000/2`).
    public var rtpmap: RTPMap {
        RTPMap(encodingName: encodingName, clockRate: clockRate, encodingParameters: self == .opus ? "2" : nil)
    }

    /// The `a=fmtp` we write for this codec (offer and answer). Opus (RFC 7587 §6.1): `useinbandfec=1`
    /// because the speaker decodes the in-band FEC of the packet after a loss (`SpeakerDecoder`); the rest
    /// stay at their defaults: mono preferred (`stereo=0`), no DTX, variable bitrate. G.711 has none.
    public var formatParameters: String? { self == .opus ? "useinbandfec=1" : nil }

    /// The payload type we offer this codec with: the static one, or 111 for Opus (dynamic, RFC 3551 §6:
    /// 96–127, clear of telephone-event's 101; the number WebRTC stacks use, so traces read alike).
    public var offeredPayloadType: UInt8 { staticPayloadType ?? 111 }

    /// Whether `format` of an offer is this codec: by rtpmap, or by static payload type without one.
    func matches(_ format: RTPPayloadFormat) -> Bool {
        if let rtpmap = format.rtpmap { return rtpmap.matches(encodingName, clockRate: clockRate) }
        return staticPayloadType == format.payloadType
    }
}
