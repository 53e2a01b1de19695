extension SessionDescription {
    /// Parses SDP text (RFC 8866). Lines may end in CRLF or LF.
    public init(parsing text: String, limits: SDPLimits = .standard) throws(SDPError) {
        let utf8 = text.utf8
        guard utf8.count <= limits.maxInputBytes else {
            throw SDPError(line: 0, reason: .inputTooLarge(bytes: utf8.count, limit: limits.maxInputBytes))
        }
        var parser = SDPParser(limits: limits)
        self = try parser.parse(Array(utf8))
    }

    /// Parses SDP bytes, rejecting input that is not UTF-8.
    public init(parsing bytes: [UInt8], limits: SDPLimits = .standard) throws(SDPError) {
        guard bytes.count <= limits.maxInputBytes else {
            throw SDPError(line: 0, reason: .inputTooLarge(bytes: bytes.count, limit: limits.maxInputBytes))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SDPError(line: 0, reason: .invalidUTF8)
        }
        try self.init(parsing: text, limits: limits)
    }
}

/// Line-by-line SDP reader. Session lines come first; each `m=` opens a media section (RFC 8866 §5).
struct SDPParser {
    let limits: SDPLimits
    private var lineNumber = 0
    private var sawVersion = false
    private var origin: SDPOrigin?
    private var sessionName: String?
    private var timing: String?
    private var session = SessionDescription(origin: SDPOrigin(sessionID: "0", sessionVersion: 0))
    private var media: [MediaDescription] = []
    private var midLines: [String: Int] = [:]
    private var groupLines: [Int] = []

    init(limits: SDPLimits) {
        self.limits = limits
    }

    mutating func parse(_ bytes: [UInt8]) throws(SDPError) -> SessionDescription {
        for line in SDPLineScanner.lines(in: bytes) {
            lineNumber += 1
            guard line.end - line.start <= limits.maxLineBytes else {
                throw fail(.lineTooLong(bytes: line.end - line.start, limit: limits.maxLineBytes))
            }
            if line.start == line.end { continue }
            guard !line.hasControlCharacter else { throw fail(.controlCharacter) }
            let type = bytes[line.start]
            guard line.end - line.start >= 2, type >= 0x61, type <= 0x7A, bytes[line.start + 1] == 0x3D else {
                throw fail(.malformedLine)
            }
            let value = Substring(String(decoding: bytes[(line.start + 2)..<line.end], as: UTF8.self))
            try handle(type: String(UnicodeScalar(type)), value: value)
        }
        return try finish()
    }

    private func fail(_ reason: SDPError.Reason) -> SDPError {
        SDPError(line: lineNumber, reason: reason)
    }

    private mutating func handle(type: String, value: Substring) throws(SDPError) {
        guard sawVersion else {
            guard type == "v" else { throw fail(.missingVersion) }
            guard value == "0" else { throw fail(.unsupportedVersion(String(value.prefix(16)))) }
            sawVersion = true
            return
        }
        if type == "m" { return try openMediaSection(value) }
        if media.isEmpty {
            try handleSessionLine(type: type, value: value)
        } else {
            try handleMediaLine(type: type, value: value)
        }
    }

    private mutating func handleSessionLine(type: String, value: Substring) throws(SDPError) {
        switch type {
        case "v":
            throw fail(.duplicateLine(type: "v"))
        case "o":
            guard origin == nil else { throw fail(.duplicateLine(type: "o")) }
            guard let parsed = SDPOrigin(parsing: value) else { throw fail(.malformedOrigin) }
            origin = parsed
        case "s":
            guard sessionName == nil else { throw fail(.duplicateLine(type: "s")) }
            sessionName = String(value)
        case "t" where timing == nil:
            timing = String(value)
        case "a":
            let (name, attributeValue) = Self.splitAttribute(value)
            do throws(SDPError.Reason) {
                try applySessionAttribute(name: name, value: attributeValue)
            } catch {
                throw fail(error)
            }
        default:
            session.otherLines.append(SDPLine(type: type, value: String(value)))
        }
    }

    private mutating func applySessionAttribute(name: Substring, value: Substring?) throws(SDPError.Reason) {
        switch name {
        case "group":
            let fields = (value ?? "").fields(separatedBy: " ", omittingEmpty: true)
            guard let semantics = fields.first else { throw .malformedAttribute(name: "group") }
            session.groups.append(SDPGroup(semantics: String(semantics), mids: fields.dropFirst().map(String.init)))
            groupLines.append(lineNumber)
        case "msid-semantic":
            guard session.msidSemantic == nil else { throw .duplicateAttribute(name: "msid-semantic") }
            session.msidSemantic = (value ?? "").trimmingSpaces
        default:
            if try session.transport.apply(name: name, value: value) { return }
            session.otherAttributes.append(SDPAttribute(name: String(name), value: value.map(String.init)))
        }
    }

    private mutating func handleMediaLine(type: String, value: Substring) throws(SDPError) {
        switch type {
        case "v", "o", "s", "t":
            throw fail(.misplacedLine(type: type))
        case "a":
            let (name, attributeValue) = Self.splitAttribute(value)
            do throws(SDPError.Reason) {
                // In place: copying the section out and back would copy its arrays on every line.
                try SDPMediaAttributeParser.apply(name: name, value: attributeValue, to: &media[media.count - 1])
                if name == "mid", let mid = media[media.count - 1].mid {
                    guard midLines[mid] == nil else { throw .duplicateMid(mid) }
                    midLines[mid] = lineNumber
                }
            } catch {
                throw fail(error)
            }
        default:
            media[media.count - 1].otherLines.append(SDPLine(type: type, value: String(value)))
        }
    }

    /// `m=<media> <port>[/<number of ports>] <proto> <fmt> ...` (RFC 8866 §5.14).
    private mutating func openMediaSection(_ value: Substring) throws(SDPError) {
        guard media.count < limits.maxMediaSections else {
            throw fail(.tooManyMediaSections(limit: limits.maxMediaSections))
        }
        let fields = value.fields(separatedBy: " ", omittingEmpty: true)
        guard fields.count >= 4 else { throw fail(.malformedMediaLine) }
        let portFields = fields[1].fields(separatedBy: "/", maxSplits: 1, omittingEmpty: false)
        guard let port = Self.parsePort(portFields[0]) else { throw fail(.invalidPort(String(fields[1].prefix(16)))) }
        var portCount: UInt16?
        if portFields.count == 2 {
            guard let count = Self.parsePort(portFields[1]) else {
                throw fail(.invalidPort(String(fields[1].prefix(16))))
            }
            portCount = count
        }
        var section = MediaDescription(
            kind: MediaKind(rawValue: String(fields[0])), port: port, portCount: portCount,
            transportProtocol: String(fields[2]))
        let formats = fields[3...]
        if section.isRTP {
            for format in formats {
                guard let payloadType = SDPMediaAttributeParser.parsePayloadType(format) else {
                    throw fail(.invalidPayloadType(String(format.prefix(16))))
                }
                guard !section.payloads.contains(where: { $0.payloadType == payloadType }) else {
                    throw fail(.duplicatePayloadType(payloadType))
                }
                section.payloads.append(RTPPayloadFormat(payloadType: payloadType))
            }
        } else {
            section.formats = formats.map(String.init)
        }
        media.append(section)
    }

    private mutating func finish() throws(SDPError) -> SessionDescription {
        guard sawVersion else { throw SDPError(line: 0, reason: .missingVersion) }
        guard let origin else { throw SDPError(line: 0, reason: .missingOrigin) }
        guard !media.isEmpty else { throw SDPError(line: 0, reason: .missingMediaSection) }
        for (group, line) in zip(session.groups, groupLines) {
            for mid in group.mids where midLines[mid] == nil {
                throw SDPError(line: line, reason: .groupNamesMissingMid(semantics: group.semantics, mid: mid))
            }
        }
        session.origin = origin
        session.sessionName = sessionName ?? "-"
        session.timing = timing ?? "0 0"
        // Keep non-attribute lines in the RFC 8866 §5 order the serializer writes, so that
        // parse(serialize(description)) == description for any input order.
        session.otherLines = SDPWriter.ordered(session.otherLines, rank: SDPWriter.sessionRank)
        for index in media.indices {
            media[index].otherLines = SDPWriter.ordered(media[index].otherLines, rank: SDPWriter.mediaRank)
        }
        session.media = media
        return session
    }

    private static func parsePort(_ text: Substring) -> UInt16? {
        parseDecimal(text, maxDigits: 5)
    }

    /// `a=<name>[:<value>]`: the name runs to the first colon (RFC 8866 §5.13).
    static func splitAttribute(_ text: Substring) -> (name: Substring, value: Substring?) {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return (text, nil) }
        return (text[..<colon], text[text.utf8.index(after: colon)...])
    }
}
