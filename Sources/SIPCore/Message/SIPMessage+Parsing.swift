/// Whole-message parsing (RFC 3261 §7.4, §7.5, §18.3).
extension SIPMessage {
    /// A message that arrived in one datagram. The body is Content-Length bytes: fewer is an error, extra bytes
    /// are dropped (§18.3); without Content-Length the body runs to the end of the datagram.
    public init(datagram: [UInt8], limits: SIPLimits = .standard) throws(SIPError) {
        guard datagram.count <= limits.maxMessageBytes else { throw .messageTooLarge }
        let bytes = datagram[...]
        let (headEnd, bodyStart) = SIPHeadParser.findHeadEnd(bytes) ?? (bytes.endIndex, bytes.endIndex)
        let (startLine, headers) = try SIPHeadParser.parse(bytes[..<headEnd], limits: limits)
        let available = bytes.endIndex - bodyStart
        let length = try Self.contentLength(headers) ?? available
        guard length <= available else { throw .bodyShorterThanContentLength }
        self.init(startLine: startLine, headers: headers, body: Array(bytes[bodyStart..<(bodyStart + length)]))
    }

    public init(_ text: String, limits: SIPLimits = .standard) throws(SIPError) {
        try self.init(datagram: Array(text.utf8), limits: limits)
    }

    /// The one Content-Length value, if any (§20.14: a non-negative decimal; several values are an error).
    static func contentLength(_ headers: [SIPHeader]) throws(SIPError) -> Int? {
        let values = headers.filter { $0.name == SIPHeaderName.contentLength }
        guard values.count <= 1 else { throw .malformedContentLength }
        guard let value = values.first?.value else { return nil }
        guard let length: Int = parseDecimal(Substring(value)) else { throw .malformedContentLength }
        return length
    }
}
