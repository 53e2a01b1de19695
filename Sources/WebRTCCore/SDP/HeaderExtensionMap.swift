/// `a=extmap:<id>[/<direction>] <URI> [<attributes>]` (RFC 8285 §8): a header-extension id for this m= line.
public struct HeaderExtensionMap: Hashable, Sendable {
    public var id: UInt8
    public var direction: MediaDirection?
    public var uri: String
    public var attributes: String?

    public init(id: UInt8, direction: MediaDirection? = nil, uri: String, attributes: String? = nil) {
        self.id = id
        self.direction = direction
        self.uri = uri
        self.attributes = attributes
    }

    /// Absolute send time, 6.18 fixed-point seconds; what Chrome's REMB estimator needs.
    public static let absoluteSendTimeURI = "http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time"

    /// Client-to-mixer audio level (RFC 6464): the sender's level of each audio packet, so the receiver can
    /// tell speech from silence without decoding. Audio sections only.
    public static let audioLevelURI = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"

    /// Whether this extension belongs in a section of `kind` (audio level describes audio packets only).
    public func applies(to kind: MediaKind) -> Bool {
        uri != Self.audioLevelURI || kind == .audio
    }

    /// The one-byte form (RFC 8285 §4.2) allows 1...14; 15 is reserved. We negotiate only that form.
    public static let allowedIDs: ClosedRange<UInt8> = 1...14

    init(parsing value: Substring) throws(SDPError.Reason) {
        let fields = value.fields(separatedBy: " ", maxSplits: 2, omittingEmpty: true)
        guard fields.count >= 2 else { throw .malformedAttribute(name: "extmap") }
        let idAndDirection = fields[0].fields(separatedBy: "/", maxSplits: 1, omittingEmpty: false)
        let idText = idAndDirection[0]
        guard let id: UInt8 = parseDecimal(idText, maxDigits: 3), Self.allowedIDs.contains(id) else {
            throw .invalidExtensionID(String(idText.prefix(16)))
        }
        var direction: MediaDirection?
        if idAndDirection.count == 2 {
            guard let parsed = MediaDirection(rawValue: String(idAndDirection[1])) else {
                throw .malformedAttribute(name: "extmap")
            }
            direction = parsed
        }
        self.init(
            id: id, direction: direction, uri: String(fields[1]),
            attributes: fields.count == 3 ? String(fields[2]) : nil)
    }

    var serialized: String {
        var text = "\(id)"
        if let direction { text += "/\(direction.rawValue)" }
        text += " \(uri)"
        if let attributes { text += " \(attributes)" }
        return text
    }
}
