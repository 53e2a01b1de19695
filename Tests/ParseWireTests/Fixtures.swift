import Foundation
import ParseWire

/// Bodies shaped like the examples in parse-wire.md.
enum Fixture {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let createdAt = "2024-01-01T12:23:45.678Z"
    static let createdAtSeconds = 1_704_111_825.678

    static let activeUserRow = """
        {"objectId":"Ed1nuqPvcm","createdAt":"2024-01-01T12:23:45.678Z","updatedAt":"2024-01-01T12:24:45.001Z",\
        "userID":"u1","userTitle":"Gate 3, North entrance",\
        "userLocation":{"__type":"GeoPoint","latitude":37.77,"longitude":-122.41},\
        "ACL":{"*":{"read":true},"u1":{"read":true,"write":true}}}
        """

    static let callRow = """
        {"objectId":"c4llR0w001","createdAt":"2024-01-01T12:23:45.678Z","updatedAt":"2024-01-01T12:23:45.678Z",\
        "callerID":"webUser1","callerTitle":"Alice","receiverID":"u1","isVideo":true,"isAudio":true,\
        "sessionID":"sess-1","publisherToken":"pub.jwt","subscriberToken":"sub.jwt",\
        "signalURL":"wss://example.org/signal/sess-1",\
        "iceServers":[{"urls":["turn:turn.example.org:3478?transport=udp"],"username":"1704115425:u1","credential":"c3VwZXI="}],\
        "expiresAt":{"__type":"Date","iso":"2024-01-01T12:24:45.678Z"}}
        """

    /// A row written by an unmodified LiveSessions client and server: no added fields at all.
    static let originalCallRow = """
        {"objectId":"0r1g1nal00","createdAt":"2024-01-01T12:23:45.678Z","callerID":"a","callerTitle":"A",\
        "receiverID":"u1","isVideo":false,"isAudio":true,"sessionID":"s","publisherToken":"p","subscriberToken":"t"}
        """

    static func liveEvent(_ op: String, requestId: Int = 1, objectId: String = "c4llR0w001", className: String = "ActiveSessions") -> String {
        """
        {"op":"\(op)","clientId":"7d0e5a3c-0000-4000-8000-000000000001","requestId":\(requestId),\
        "object":{"__type":"Object","className":"\(className)","objectId":"\(objectId)",\
        "createdAt":"2024-01-01T12:23:45.678Z","updatedAt":"2024-01-01T12:23:45.678Z",\
        "callerID":"webUser1","callerTitle":"Alice","receiverID":"u1","isVideo":true,"isAudio":true,\
        "sessionID":"sess-1","publisherToken":"pub.jwt","subscriberToken":"sub.jwt"}}
        """
    }

    static let connected = #"{"op":"connected","clientId":"7d0e5a3c-0000-4000-8000-000000000001"}"#
    static func subscribed(_ requestId: Int = 1) -> String {
        #"{"op":"subscribed","clientId":"7d0e5a3c-0000-4000-8000-000000000001","requestId":\#(requestId)}"#
    }
}

/// Parses JSON text for order-insensitive comparison of bodies and frames.
func json(_ text: String?) -> JSONValue? {
    guard let text else { return nil }
    return try? JSONValue.parse(text.utf8, limit: 1 << 22)
}

/// Compact JSON with sorted keys, as the module itself writes bodies.
func encodedText(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
}
