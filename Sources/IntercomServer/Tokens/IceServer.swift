import ParseWire

/// One RTCIceServer entry (`{"urls":[…],"username":…,"credential":…}`): the wire type the agent reads,
/// minted here for `ActiveSessions.iceServers`, viewer tokens and `joined` frames.
public typealias IceServer = ParseWire.IceServer

extension IceServer {
    public var json: JSONValue {
        var json: [String: JSONValue] = ["urls": .array(urls.map(JSONValue.string))]
        if let username { json["username"] = .string(username) }
        if let credential { json["credential"] = .string(credential) }
        return .object(json)
    }
}
