import Foundation

/// A participant of a signaling room.
public struct SignalingPeer: Sendable, Hashable {
    public var peerId: String
    public var name: String?
    /// `publisher` or `subscriber` (the token's role).
    public var role: String?
    /// The token's user (`sub`): with `role` it tells a client which member is the other party of its call
    /// row, so it never takes a viewer for its partner.
    public var userId: String?

    public init(peerId: String, name: String? = nil, role: String? = nil, userId: String? = nil) {
        self.peerId = peerId
        self.name = name
        self.role = role
        self.userId = userId
    }
}

/// Error codes the signaling server sends (SYSTEM.md §4): before it closes, or — `forbidden`, `rate-limited`
/// and `bad-signal` after a join — for one refused signal, never relayed, the connection kept.
public enum SignalingErrorCode: String, Sendable, Hashable, CaseIterable {
    case badToken = "bad-token"
    case expired
    case forbidden
    case full
    case badFrame = "bad-frame"
    /// Too many text messages from one connection in a short time (issue #22).
    case rateLimited = "rate-limited"
    /// A signal whose payload breaks its type's rules (an oversize text, a control character).
    case badSignal = "bad-signal"
}

/// One session-signaling WebSocket text frame (SYSTEM.md §4), both directions. `signal` appears as
/// `.signalTo` (client→server, with `to`) and `.signalFrom` (server→client, with `from`).
public enum SignalingFrame: Sendable, Hashable {
    case join(token: String, name: String?)
    case joined(peerId: String, role: String, peers: [SignalingPeer], iceServers: [IceServer])
    case peerJoined(SignalingPeer)
    case peerLeft(peerId: String, reason: String?)
    case signalTo(peerId: String, data: SignalPayload)
    case signalFrom(peerId: String, data: SignalPayload)
    case ping
    case pong
    case error(SignalingErrorCode, message: String)

    /// Signaling frames carry SDP at most; 256 KiB is ample and bounds what a hostile peer can make us parse.
    public static let maxFrameBytes = 256 << 10

    // MARK: Encoding

    public var json: JSONValue {
        switch self {
        case .join(let token, let name):
            var members: [String: JSONValue] = ["op": "join", "token": .string(token)]
            if let name { members["name"] = .string(name) }
            return .object(members)
        case .joined(let peerId, let role, let peers, let iceServers):
            return [
                "op": "joined", "peerId": .string(peerId), "role": .string(role),
                "peers": .array(peers.map(Self.peerJSON)), "iceServers": .array(iceServers.map(Self.iceJSON)),
            ]
        case .peerJoined(let peer):
            guard case .object(var members) = Self.peerJSON(peer) else { return .null }
            members["op"] = "peer-joined"
            return .object(members)
        case .peerLeft(let peerId, let reason):
            var members: [String: JSONValue] = ["op": "peer-left", "peerId": .string(peerId)]
            if let reason { members["reason"] = .string(reason) }
            return .object(members)
        case .signalTo(let peerId, let data): return ["op": "signal", "to": .string(peerId), "data": data.json]
        case .signalFrom(let peerId, let data): return ["op": "signal", "from": .string(peerId), "data": data.json]
        case .ping: return ["op": "ping"]
        case .pong: return ["op": "pong"]
        case .error(let code, let message): return ["op": "error", "code": .string(code.rawValue), "message": .string(message)]
        }
    }

    /// Compact JSON text with sorted keys.
    public var text: String { json.jsonText() }

    // MARK: Decoding

    public static func decode(_ text: String, maxBytes: Int = maxFrameBytes) throws(ParseWireError) -> SignalingFrame {
        try decode(json: JSONValue.parse(text.utf8, limit: maxBytes))
    }

    public static func decode(json value: JSONValue) throws(ParseWireError) -> SignalingFrame {
        let fields = try FrameFields(value, path: "")
        switch try fields.string("op") {
        case "join":
            return .join(token: try fields.nonEmptyString("token"), name: try fields.optionalString("name"))
        case "joined":
            var peers: [SignalingPeer] = []
            for (index, item) in try fields.array("peers").enumerated() {
                peers.append(try peer(item, path: "peers.\(index)"))
            }
            var iceServers: [IceServer] = []
            if fields.raw("iceServers") != nil {
                for (index, item) in try fields.array("iceServers").enumerated() {
                    iceServers.append(try iceServer(item, path: "iceServers.\(index)"))
                }
            }
            return .joined(peerId: try fields.nonEmptyString("peerId"), role: try fields.nonEmptyString("role"), peers: peers, iceServers: iceServers)
        case "peer-joined":
            return .peerJoined(try peer(value, path: ""))
        case "peer-left":
            return .peerLeft(peerId: try fields.nonEmptyString("peerId"), reason: try fields.optionalString("reason"))
        case "signal":
            guard let data = fields.raw("data") else { throw .missingField(path: "data") }
            let payload = try SignalPayload(json: data)
            switch (fields.raw("to"), fields.raw("from")) {
            case (.some, nil): return .signalTo(peerId: try fields.nonEmptyString("to"), data: payload)
            case (nil, .some): return .signalFrom(peerId: try fields.nonEmptyString("from"), data: payload)
            case (nil, nil): throw .missingField(path: "to")
            case (.some, .some): throw .invalidValue(path: "to", reason: "both to and from")
            }
        case "ping": return .ping
        case "pong": return .pong
        case "error":
            let raw = try fields.string("code")
            guard let code = SignalingErrorCode(rawValue: raw) else { throw .invalidValue(path: "code", reason: "unknown error code") }
            return .error(code, message: try fields.optionalString("message") ?? "")
        default:
            throw .invalidValue(path: "op", reason: "unknown op")
        }
    }

    private static func peer(_ value: JSONValue, path: String) throws(ParseWireError) -> SignalingPeer {
        let fields = try FrameFields(value, path: path)
        return SignalingPeer(
            peerId: try fields.nonEmptyString("peerId"), name: try fields.optionalString("name"), role: try fields.optionalString("role"),
            userId: try fields.optionalString("userId"))
    }

    private static func iceServer(_ value: JSONValue, path: String) throws(ParseWireError) -> IceServer {
        do {
            return try JSONDecoder().decode(IceServer.self, from: WireJSON.encode(value))
        } catch {
            throw .malformedTypedValue(path: path, expected: "iceServer")
        }
    }

    private static func peerJSON(_ peer: SignalingPeer) -> JSONValue {
        var members: [String: JSONValue] = ["peerId": .string(peer.peerId)]
        if let name = peer.name { members["name"] = .string(name) }
        if let role = peer.role { members["role"] = .string(role) }
        if let userId = peer.userId { members["userId"] = .string(userId) }
        return .object(members)
    }

    private static func iceJSON(_ server: IceServer) -> JSONValue {
        var members: [String: JSONValue] = ["urls": .array(server.urls.map(JSONValue.string))]
        if let username = server.username { members["username"] = .string(username) }
        if let credential = server.credential { members["credential"] = .string(credential) }
        return .object(members)
    }
}
