/// A parsed SDP document (RFC 8866 §5) with the session-level WebRTC attributes modelled.
///
/// `init(parsing:)` reads text, `serialized()` writes CRLF-terminated text; unknown attributes and line
/// types survive the round trip.
public struct SessionDescription: Hashable, Sendable {
    public var origin: SDPOrigin
    /// `s=`; WebRTC writes `-`.
    public var sessionName: String
    /// The first `t=` line; WebRTC writes `0 0`.
    public var timing: String
    public var groups: [SDPGroup]
    /// Session-level ICE/DTLS attributes; media-level values override them.
    public var transport: SDPTransport
    /// `a=msid-semantic` (e.g. `WMS` or `WMS *`), a Chromium/Firefox attribute.
    public var msidSemantic: String?
    /// Session-level non-attribute lines other than v, o, s, the first t and m.
    public var otherLines: [SDPLine]
    public var otherAttributes: [SDPAttribute]
    public var media: [MediaDescription]

    public init(
        origin: SDPOrigin, sessionName: String = "-", timing: String = "0 0", groups: [SDPGroup] = [],
        transport: SDPTransport = SDPTransport(), msidSemantic: String? = nil, otherLines: [SDPLine] = [],
        otherAttributes: [SDPAttribute] = [], media: [MediaDescription] = []
    ) {
        self.origin = origin
        self.sessionName = sessionName
        self.timing = timing
        self.groups = groups
        self.transport = transport
        self.msidSemantic = msidSemantic
        self.otherLines = otherLines
        self.otherAttributes = otherAttributes
        self.media = media
    }

    /// The mids of the first `a=group:BUNDLE` (RFC 9143 §7), or nil without one.
    public var bundleMids: [String]? {
        groups.first { $0.semantics == "BUNDLE" }?.mids
    }

    /// The ICE/DTLS parameters in force for `section`: media-level values, else session-level ones.
    public func transport(for section: MediaDescription) -> SDPTransport {
        section.transport.overriding(transport)
    }
}
