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

    /// Whether `format` of an offer is this codec: by rtpmap, or by static payload type without one.
    func matches(_ format: RTPPayloadFormat) -> Bool {
        if let rtpmap = format.rtpmap { return rtpmap.matches(encodingName, clockRate: clockRate) }
        return staticPayloadType == format.payloadType
    }
}
