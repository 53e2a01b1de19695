/// Wire form (RFC 3261 §7): CRLF line ends, one header per line, and one Content-Length that is true — at the
/// place of the first received one, or last.
extension SIPMessage {
    public func serialized() -> [UInt8] {
        let length = "\(SIPHeaderName.contentLength): \(body.count)\r\n"
        var text = startLine.serialized + "\r\n"
        var wroteLength = false
        for header in headers {
            if header.name == SIPHeaderName.contentLength {
                if !wroteLength { text += length }
                wroteLength = true
            } else {
                text += "\(header.name): \(header.value)\r\n"
            }
        }
        if !wroteLength { text += length }
        return Array((text + "\r\n").utf8) + body
    }

    public var serializedText: String { String(decoding: serialized(), as: UTF8.self) }
}
