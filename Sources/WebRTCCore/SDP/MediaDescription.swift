/// One media section: an `m=` line (RFC 8866 §5.14) and the attributes below it, with the WebRTC
/// attributes (RFC 8829 JSEP §5.2) modelled and everything else kept verbatim.
public struct MediaDescription: Hashable, Sendable {
    public var kind: MediaKind
    /// 0 marks a rejected or disabled section (RFC 8866 §5.14, RFC 3264 §6).
    public var port: UInt16
    /// The optional `/<number of ports>` suffix of the port field.
    public var portCount: UInt16?
    /// e.g. `UDP/TLS/RTP/SAVPF` or `UDP/DTLS/SCTP`.
    public var transportProtocol: String
    /// The m= line format list when the protocol is not RTP (e.g. `webrtc-datachannel`).
    /// Empty for RTP profiles, whose format list is `payloads`.
    public var formats: [String]
    /// For RTP profiles, the payload types in m= line order with their rtpmap/fmtp/rtcp-fb.
    public var payloads: [RTPPayloadFormat]
    /// `a=mid` (RFC 5888 §4).
    public var mid: String?
    public var direction: MediaDirection?
    /// `a=rtcp-mux` (RFC 5761 §5.1.3).
    public var rtcpMux: Bool
    /// `a=rtcp-rsize` (RFC 5506 §5).
    public var rtcpReducedSize: Bool
    public var transport: SDPTransport
    public var headerExtensions: [HeaderExtensionMap]
    public var mediaStreamIDs: [MediaStreamID]
    public var ssrcGroups: [SSRCGroup]
    public var ssrcAttributes: [SSRCAttribute]
    /// Each `a=candidate` value after `candidate:` (RFC 8839 §5.1), unparsed: libnice parses them.
    public var candidates: [String]
    /// `a=end-of-candidates` (RFC 8840 §8.2).
    public var endOfCandidates: Bool
    /// Non-attribute lines such as `c=` and `b=`.
    public var otherLines: [SDPLine]
    /// Attributes this module does not model, e.g. `a=rtcp:9 IN IP4 0.0.0.0` or `a=rid:…`.
    public var otherAttributes: [SDPAttribute]

    public init(
        kind: MediaKind, port: UInt16 = 9, portCount: UInt16? = nil, transportProtocol: String = "UDP/TLS/RTP/SAVPF",
        formats: [String] = [], payloads: [RTPPayloadFormat] = [], mid: String? = nil,
        direction: MediaDirection? = nil, rtcpMux: Bool = false, rtcpReducedSize: Bool = false,
        transport: SDPTransport = SDPTransport(), headerExtensions: [HeaderExtensionMap] = [],
        mediaStreamIDs: [MediaStreamID] = [], ssrcGroups: [SSRCGroup] = [], ssrcAttributes: [SSRCAttribute] = [],
        candidates: [String] = [], endOfCandidates: Bool = false, otherLines: [SDPLine] = [],
        otherAttributes: [SDPAttribute] = []
    ) {
        self.kind = kind
        self.port = port
        self.portCount = portCount
        self.transportProtocol = transportProtocol
        self.formats = formats
        self.payloads = payloads
        self.mid = mid
        self.direction = direction
        self.rtcpMux = rtcpMux
        self.rtcpReducedSize = rtcpReducedSize
        self.transport = transport
        self.headerExtensions = headerExtensions
        self.mediaStreamIDs = mediaStreamIDs
        self.ssrcGroups = ssrcGroups
        self.ssrcAttributes = ssrcAttributes
        self.candidates = candidates
        self.endOfCandidates = endOfCandidates
        self.otherLines = otherLines
        self.otherAttributes = otherAttributes
    }

    /// RTP profiles carry payload-type numbers in the format list (RFC 8866 §5.14).
    public var isRTP: Bool { Self.isRTPProtocol(transportProtocol) }

    static func isRTPProtocol(_ proto: String) -> Bool {
        proto.fields(separatedBy: "/").contains("RTP")
    }

    /// RFC 8866 §6.7: a section without a direction attribute is `sendrecv`.
    public var effectiveDirection: MediaDirection { direction ?? .sendrecv }

    /// The first payload type whose rtpmap matches, e.g. `payload(named: "VP8", clockRate: 90000)`.
    public func payload(named name: String, clockRate: UInt32) -> RTPPayloadFormat? {
        payloads.first { $0.rtpmap?.matches(name, clockRate: clockRate) == true }
    }

    /// The SSRCs of `a=ssrc` lines, in first-seen order.
    public var ssrcs: [UInt32] {
        var seen: Set<UInt32> = []
        return ssrcAttributes.compactMap { seen.insert($0.ssrc).inserted ? $0.ssrc : nil }
    }

    /// The `cname` of an SSRC (RFC 5576 §6.1).
    public func cname(of ssrc: UInt32) -> String? {
        ssrcAttributes.first { $0.ssrc == ssrc && $0.name == "cname" }?.value
    }

    /// The header-extension id negotiated for `uri`.
    public func headerExtensionID(for uri: String) -> UInt8? {
        headerExtensions.first { $0.uri == uri }?.id
    }
}
