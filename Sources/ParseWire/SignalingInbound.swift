/// A client→server signaling frame after the join, as the server reads it (SYSTEM.md §4). `data` is relayed untouched, so a newer
/// caller's payload types pass through; it must be an object with a string `type`.
public enum SignalingInbound: Sendable, Equatable {
    case signal(to: String, data: JSONValue)
    case ping
    case pong
    /// A second join on the same socket, or a server→client op: a protocol error.
    case unexpected(op: String)

    public static func parse(_ text: String) throws(ParseWireError) -> SignalingInbound {
        let value = try JSONValue.parse(text.utf8, limit: SignalingFrame.maxFrameBytes)
        guard let members = value.objectValue else { throw .wrongType(path: "", expected: "object") }
        guard let op = members["op"]?.stringValue else { throw .missingField(path: "op") }
        switch op {
        case "signal":
            guard let to = members["to"]?.stringValue, !to.isEmpty else { throw .missingField(path: "to") }
            guard let data = members["data"], data["type"]?.stringValue != nil else {
                throw .missingField(path: "data.type")
            }
            return .signal(to: to, data: data)
        case "ping": return .ping
        case "pong": return .pong
        default: return .unexpected(op: op)
        }
    }
}
