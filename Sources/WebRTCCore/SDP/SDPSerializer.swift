extension SessionDescription {
    /// SDP text with CRLF line ends (RFC 8866 §5), lines in the order §5 prescribes.
    public func serialized() -> String {
        var writer = SDPWriter()
        writer.line("v", "0")
        writer.line("o", origin.serialized)
        writer.line("s", sessionName)
        let others = SDPWriter.ordered(otherLines, rank: SDPWriter.sessionRank)
        let timingRank = SDPWriter.sessionRank("t")
        for other in others where SDPWriter.sessionRank(other.type) < timingRank { writer.line(other.type, other.value) }
        writer.line("t", timing)
        for other in others where SDPWriter.sessionRank(other.type) >= timingRank {
            writer.line(other.type, other.value)
        }
        for group in groups { writer.attribute("group", group.serialized) }
        for (name, value) in transport.attributeLines { writer.attribute(name, value) }
        if let msidSemantic { writer.attribute("msid-semantic", msidSemantic) }
        for attribute in otherAttributes { writer.attribute(attribute.name, attribute.value) }
        for section in media { section.write(to: &writer) }
        return writer.text
    }
}

extension MediaDescription {
    /// The m= format list: payload-type numbers for RTP profiles, `formats` otherwise.
    var formatList: [String] {
        isRTP ? payloads.map { String($0.payloadType) } : formats
    }

    fileprivate func write(to writer: inout SDPWriter) {
        let portField = "\(port)" + (portCount.map { "/\($0)" } ?? "")
        writer.line("m", ([kind.rawValue, portField, transportProtocol] + formatList).joined(separator: " "))
        for other in SDPWriter.ordered(otherLines, rank: SDPWriter.mediaRank) { writer.line(other.type, other.value) }
        for (name, value) in transport.attributeLines { writer.attribute(name, value) }
        if let mid { writer.attribute("mid", mid) }
        for map in headerExtensions { writer.attribute("extmap", map.serialized) }
        if let direction { writer.attribute(direction.rawValue, nil) }
        for msid in mediaStreamIDs { writer.attribute("msid", msid.serialized) }
        if rtcpMux { writer.attribute("rtcp-mux", nil) }
        if rtcpReducedSize { writer.attribute("rtcp-rsize", nil) }
        if isRTP {
            for payload in payloads {
                let pt = payload.payloadType
                if let rtpmap = payload.rtpmap { writer.attribute("rtpmap", "\(pt) \(rtpmap.serialized)") }
                for feedback in payload.feedback { writer.attribute("rtcp-fb", "\(pt) \(feedback)") }
                if let parameters = payload.parameters { writer.attribute("fmtp", "\(pt) \(parameters)") }
            }
        }
        for group in ssrcGroups { writer.attribute("ssrc-group", group.serialized) }
        for ssrc in ssrcAttributes { writer.attribute("ssrc", ssrc.serialized) }
        for attribute in otherAttributes { writer.attribute(attribute.name, attribute.value) }
        for candidate in candidates { writer.attribute("candidate", candidate) }
        if endOfCandidates { writer.attribute("end-of-candidates", nil) }
    }
}

/// Accumulates `<type>=<value>\r\n` lines.
struct SDPWriter {
    private(set) var text = ""

    mutating func line(_ type: String, _ value: String) {
        text += type + "=" + value + "\r\n"
    }

    mutating func attribute(_ name: String, _ value: String?) {
        line("a", value.map { name + ":" + $0 } ?? name)
    }

    /// RFC 8866 §5 session order `v o s i u e p c b t r z k a`; unknown types go last.
    static func sessionRank(_ type: String) -> Int {
        rank(of: type, in: "vosiuepcbtrzka")
    }

    /// RFC 8866 §5 media order `m i c b k a`; unknown types go last.
    static func mediaRank(_ type: String) -> Int {
        rank(of: type, in: "micbka")
    }

    private static func rank(of type: String, in order: String) -> Int {
        guard type.count == 1, let index = order.firstIndex(of: Character(type)) else { return order.count }
        return order.distance(from: order.startIndex, to: index)
    }

    /// A stable sort by rank, so lines of the same type keep their order.
    static func ordered(_ lines: [SDPLine], rank: (String) -> Int) -> [SDPLine] {
        lines.enumerated().sorted { lhs, rhs in
            let (left, right) = (rank(lhs.element.type), rank(rhs.element.type))
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
