/// `a=msid:<stream id> [<track id>]` (RFC 8830 §2): which MediaStream a browser puts the track in.
public struct MediaStreamID: Hashable, Sendable {
    public var streamID: String
    public var trackID: String?

    public init(streamID: String, trackID: String? = nil) {
        self.streamID = streamID
        self.trackID = trackID
    }

    var serialized: String { streamID + (trackID.map { " \($0)" } ?? "") }
}

/// `a=ssrc:<ssrc-id> <attribute>[:<value>]` (RFC 5576 §4.1), e.g. `a=ssrc:1234 cname:abc`.
public struct SSRCAttribute: Hashable, Sendable {
    public var ssrc: UInt32
    public var name: String
    public var value: String?

    public init(ssrc: UInt32, name: String, value: String? = nil) {
        self.ssrc = ssrc
        self.name = name
        self.value = value
    }

    init(parsing text: Substring) throws(SDPError.Reason) {
        let fields = text.fields(separatedBy: " ", maxSplits: 1, omittingEmpty: true)
        guard fields.count == 2 else { throw .malformedAttribute(name: "ssrc") }
        let ssrc = try parseSSRC(fields[0])
        let attribute = fields[1].fields(separatedBy: ":", maxSplits: 1, omittingEmpty: false)
        self.init(ssrc: ssrc, name: String(attribute[0]), value: attribute.count == 2 ? String(attribute[1]) : nil)
    }

    var serialized: String { "\(ssrc) \(name)" + (value.map { ":\($0)" } ?? "") }
}

/// `a=ssrc-group:<semantics> <ssrc-id>...` (RFC 5576 §4.2), e.g. `FID` pairing a stream with its RTX.
public struct SSRCGroup: Hashable, Sendable {
    public var semantics: String
    public var ssrcs: [UInt32]

    public init(semantics: String, ssrcs: [UInt32]) {
        self.semantics = semantics
        self.ssrcs = ssrcs
    }

    init(parsing text: Substring) throws(SDPError.Reason) {
        let fields = text.fields(separatedBy: " ", omittingEmpty: true)
        guard let semantics = fields.first else { throw .malformedAttribute(name: "ssrc-group") }
        var ssrcs: [UInt32] = []
        for field in fields.dropFirst() { ssrcs.append(try parseSSRC(field)) }
        self.init(semantics: String(semantics), ssrcs: ssrcs)
    }

    var serialized: String { ([semantics] + ssrcs.map(String.init)).joined(separator: " ") }
}

private func parseSSRC(_ text: Substring) throws(SDPError.Reason) -> UInt32 {
    guard let ssrc: UInt32 = parseDecimal(text, maxDigits: 10) else {
        throw .invalidSSRC(String(text.prefix(16)))
    }
    return ssrc
}
