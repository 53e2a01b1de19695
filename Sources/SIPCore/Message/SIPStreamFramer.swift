/// Cuts a byte stream (TCP, TLS) into messages (RFC 3261 §18.3): each head must carry Content-Length, and
/// nothing beyond `limits.maxMessageBytes` is ever buffered. CRLF keep-alives between messages (RFC 5626 §3.5.1)
/// are skipped. After an error the stream cannot be re-synchronized; the connection must be closed.
public struct SIPStreamFramer: Sendable {
    public let limits: SIPLimits
    private var buffer: [UInt8] = []
    /// Where the unread bytes start; consumed messages are dropped once per `append`, not once per message.
    private var readIndex = 0
    private var failed: SIPError?

    public init(limits: SIPLimits = .standard) {
        self.limits = limits
    }

    /// Bytes waiting for the rest of their message.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends `bytes` and returns every message they complete, in order.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(SIPError) -> [SIPMessage] {
        if let failed { throw failed }
        buffer.removeFirst(readIndex)
        readIndex = 0
        buffer.append(contentsOf: bytes)
        var messages: [SIPMessage] = []
        do {
            while let message = try nextMessage() { messages.append(message) }
        } catch {
            failed = error
            buffer = []
            readIndex = 0
            throw error
        }
        return messages
    }

    private mutating func nextMessage() throws(SIPError) -> SIPMessage? {
        while readIndex < buffer.count, buffer[readIndex] == UInt8(ascii: "\r") || buffer[readIndex] == UInt8(ascii: "\n") {
            readIndex += 1
        }
        let unread = buffer[readIndex...]
        guard !unread.isEmpty else { return nil }
        guard let (headEnd, bodyStart) = SIPHeadParser.findHeadEnd(unread).map({ ($0.headEnd, $0.bodyStart) })
        else {
            guard unread.count <= limits.maxMessageBytes else { throw .messageTooLarge }
            return nil
        }
        let (startLine, headers) = try SIPHeadParser.parse(buffer[readIndex..<headEnd], limits: limits)
        guard let length = try SIPMessage.contentLength(headers) else { throw .missingContentLength }
        guard length <= limits.maxMessageBytes - (bodyStart - readIndex) else { throw .messageTooLarge }
        guard buffer.count - bodyStart >= length else { return nil }
        let message = SIPMessage(startLine: startLine, headers: headers, body: Array(buffer[bodyStart..<(bodyStart + length)]))
        readIndex = bodyStart + length
        return message
    }
}
