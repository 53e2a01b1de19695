/// Applies one media-level `a=` line to a section (RFC 8866 §6, RFC 8829 §5.8 for the WebRTC set).
enum SDPMediaAttributeParser {
    static func apply(name: Substring, value: Substring?, to section: inout MediaDescription) throws(SDPError.Reason) {
        switch name {
        case "mid":
            guard section.mid == nil else { throw .duplicateAttribute(name: "mid") }
            guard let value, !value.isEmpty, !value.contains(" ") else { throw .malformedAttribute(name: "mid") }
            section.mid = String(value)
        case "sendrecv", "sendonly", "recvonly", "inactive":
            guard section.direction == nil else { throw .duplicateAttribute(name: "direction") }
            section.direction = MediaDirection(rawValue: String(name))
        case "rtcp-mux":
            section.rtcpMux = true
        case "rtcp-rsize":
            section.rtcpReducedSize = true
        case "rtpmap", "fmtp", "rtcp-fb":
            if section.isRTP, try applyPayloadAttribute(name: name, value: value, to: &section) { return }
            section.otherAttributes.append(SDPAttribute(name: String(name), value: value.map(String.init)))
        case "extmap":
            guard let value else { throw .malformedAttribute(name: "extmap") }
            let map = try HeaderExtensionMap(parsing: value)
            guard !section.headerExtensions.contains(where: { $0.id == map.id }) else {
                throw .duplicateAttribute(name: "extmap:\(map.id)")
            }
            section.headerExtensions.append(map)
        case "msid":
            let fields = (value ?? "").fields(separatedBy: " ", omittingEmpty: true)
            guard (1...2).contains(fields.count) else { throw .malformedAttribute(name: "msid") }
            section.mediaStreamIDs.append(
                MediaStreamID(streamID: String(fields[0]), trackID: fields.count == 2 ? String(fields[1]) : nil))
        case "ssrc":
            section.ssrcAttributes.append(try SSRCAttribute(parsing: value ?? ""))
        case "ssrc-group":
            section.ssrcGroups.append(try SSRCGroup(parsing: value ?? ""))
        case "candidate":
            guard let value, !value.isEmpty else { throw .malformedAttribute(name: "candidate") }
            section.candidates.append(String(value))
        case "end-of-candidates":
            section.endOfCandidates = true
        default:
            if try section.transport.apply(name: name, value: value) { return }
            section.otherAttributes.append(SDPAttribute(name: String(name), value: value.map(String.init)))
        }
    }

    /// `a=rtpmap`, `a=fmtp` and `a=rtcp-fb` start with a payload type that must be on the m= line.
    /// Returns false for the RFC 4585 §4.2 wildcard `a=rtcp-fb:*`, which the caller keeps verbatim.
    private static func applyPayloadAttribute(
        name: Substring, value: Substring?, to section: inout MediaDescription
    ) throws(SDPError.Reason) -> Bool {
        let attribute = String(name)
        let fields = (value ?? "").fields(separatedBy: " ", maxSplits: 1, omittingEmpty: true)
        guard fields.count == 2 else { throw .malformedAttribute(name: attribute) }
        if name == "rtcp-fb", fields[0] == "*" { return false }
        guard let payloadType = parsePayloadType(fields[0]) else {
            throw .invalidPayloadType(String(fields[0].prefix(16)))
        }
        guard let index = section.payloads.firstIndex(where: { $0.payloadType == payloadType }) else {
            throw .unknownPayloadType(attribute: attribute, payloadType: payloadType)
        }
        let rest = fields[1]
        switch name {
        case "rtpmap":
            guard section.payloads[index].rtpmap == nil else { throw .duplicateAttribute(name: "rtpmap:\(payloadType)") }
            section.payloads[index].rtpmap = try parseRTPMap(rest, payloadType: payloadType)
        case "fmtp":
            guard section.payloads[index].parameters == nil else {
                throw .duplicateAttribute(name: "fmtp:\(payloadType)")
            }
            section.payloads[index].parameters = String(rest)
        default:
            section.payloads[index].feedback.append(String(rest))
        }
        return true
    }

    /// `<encoding name>/<clock rate>[/<encoding parameters>]` (RFC 8866 §6.6).
    private static func parseRTPMap(_ text: Substring, payloadType: UInt8) throws(SDPError.Reason) -> RTPMap {
        let parts = text.fields(separatedBy: "/", maxSplits: 2, omittingEmpty: false)
        guard !parts[0].isEmpty, !parts[0].contains(" ") else { throw .malformedAttribute(name: "rtpmap") }
        guard parts.count >= 2, !parts[1].isEmpty else { throw .rtpmapMissingClockRate(payloadType: payloadType) }
        guard let clockRate: UInt32 = parseDecimal(parts[1], maxDigits: 10), clockRate > 0 else {
            throw .malformedAttribute(name: "rtpmap")
        }
        var parameters: String?
        if parts.count == 3 {
            guard !parts[2].isEmpty else { throw .malformedAttribute(name: "rtpmap") }
            parameters = String(parts[2])
        }
        return RTPMap(encodingName: String(parts[0]), clockRate: clockRate, encodingParameters: parameters)
    }

    /// RTP payload types are 7 bits (RFC 3550 §5.1).
    static func parsePayloadType(_ text: Substring) -> UInt8? {
        guard let value: UInt8 = parseDecimal(text, maxDigits: 3), value <= 127 else { return nil }
        return value
    }
}
