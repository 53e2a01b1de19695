/// What the device sends and receives, as templates for offers and answers (SYSTEM.md §5 media profile).
///
/// The payload types and header-extension ids here are used when we offer; when we answer, the offer's
/// numbers win (RFC 3264 §6.1, RFC 8285 §6) and only names, clock rates and URIs are matched.
public struct MediaCapabilities: Hashable, Sendable {
    public var audioDirection: MediaDirection
    public var videoDirection: MediaDirection
    /// Opus (RFC 7587 §7): always `opus/48000/2`, FEC requested from the peer.
    public var opus: RTPPayloadFormat
    /// VP8 (RFC 7741 §6) with the RTCP feedback Chromium honours; no RTX.
    public var vp8: RTPPayloadFormat
    /// Only these URIs are accepted in answers, each in the sections it applies to. `transport-cc` is left out
    /// on purpose so Chrome sends REMB; audio level (RFC 6464) tells the device when the caller speaks.
    public var headerExtensions: [HeaderExtensionMap]
    public var iceOptions: [String]

    public init(
        audioDirection: MediaDirection = .sendrecv,
        videoDirection: MediaDirection = .sendonly,
        opus: RTPPayloadFormat = RTPPayloadFormat(
            payloadType: 111, rtpmap: RTPMap(encodingName: "opus", clockRate: 48000, encodingParameters: "2"),
            parameters: "minptime=10;useinbandfec=1"),
        vp8: RTPPayloadFormat = RTPPayloadFormat(
            payloadType: 96, rtpmap: RTPMap(encodingName: "VP8", clockRate: 90000),
            feedback: ["nack", "nack pli", "ccm fir", "goog-remb"]),
        headerExtensions: [HeaderExtensionMap] = [
            HeaderExtensionMap(id: 1, uri: HeaderExtensionMap.audioLevelURI),
            HeaderExtensionMap(id: 3, uri: HeaderExtensionMap.absoluteSendTimeURI),
        ],
        iceOptions: [String] = ["trickle"]
    ) {
        self.audioDirection = audioDirection
        self.videoDirection = videoDirection
        self.opus = opus
        self.vp8 = vp8
        self.headerExtensions = headerExtensions
        self.iceOptions = iceOptions
    }

    /// The intercom profile: two-way audio; video sent, and received only by a kiosk with a screen.
    public static func intercom(receiveVideo: Bool = false) -> MediaCapabilities {
        MediaCapabilities(videoDirection: receiveVideo ? .sendrecv : .sendonly)
    }

    func template(for kind: MediaKind) -> (format: RTPPayloadFormat, direction: MediaDirection)? {
        switch kind {
        case .audio: (opus, audioDirection)
        case .video: (vp8, videoDirection)
        default: nil
        }
    }
}
