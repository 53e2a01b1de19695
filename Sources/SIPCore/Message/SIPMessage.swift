/// A SIP request or response (RFC 3261 §7): start line, header lines in received order, opaque body.
/// Typed views of single headers (`cseq`, `vias`, `from`…) parse on access and throw `SIPError`.
public struct SIPMessage: Hashable, Sendable {
    public var startLine: SIPStartLine
    public var headers: [SIPHeader]
    public var body: [UInt8]

    public init(startLine: SIPStartLine, headers: [SIPHeader], body: [UInt8] = []) {
        self.startLine = startLine
        self.headers = headers
        self.body = body
    }

    public var isRequest: Bool {
        if case .request = startLine { return true }
        return false
    }

    public var method: SIPMethod? {
        if case .request(let method, _) = startLine { return method }
        return nil
    }

    public var requestURI: SIPURI? {
        if case .request(_, let uri) = startLine { return uri }
        return nil
    }

    public var statusCode: Int? {
        if case .response(let status, _) = startLine { return status }
        return nil
    }

    /// Every value of header `name`, in order, each line once (lists are not split here).
    public func values(_ name: String) -> [String] {
        let wanted = SIPHeaderName.normalized(name)
        return headers.filter { $0.name == wanted }.map(\.value)
    }

    /// Every element of a comma-separated list header (§7.3.1), across repeated lines.
    public func listValues(_ name: String) -> [String] {
        values(name).flatMap { splitOutsideQuotes(Substring($0), separator: ",") }
            .map { String($0.trimmingLWS) }.filter { !$0.isEmpty }
    }

    /// The single value of `name`; nil when absent, `.duplicateHeader` when there are several.
    public func singleValue(_ name: String) throws(SIPError) -> String? {
        let found = values(name)
        guard found.count <= 1 else { throw .duplicateHeader(SIPHeaderName.normalized(name)) }
        return found.first
    }

    /// The single value of a header the message must have.
    public func requiredValue(_ name: String) throws(SIPError) -> String {
        guard let value = try singleValue(name) else { throw .missingHeader(SIPHeaderName.normalized(name)) }
        return value
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        let header = SIPHeader(name, value)
        var result: [SIPHeader] = []
        var placed = false
        for existing in headers {
            if existing.name != header.name {
                result.append(existing)
            } else if !placed {
                result.append(header)
                placed = true
            }
        }
        if !placed { result.append(header) }
        headers = result
    }

    public mutating func removeHeaders(_ name: String) {
        let wanted = SIPHeaderName.normalized(name)
        headers.removeAll { $0.name == wanted }
    }

    public mutating func addHeader(_ name: String, _ value: String) {
        headers.append(SIPHeader(name, value))
    }
}
