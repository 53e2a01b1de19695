/// One RTCIceServer entry as WebRTC's `RTCConfiguration.iceServers` and the `ActiveSessions.iceServers`
/// field carry it: `{"urls":[…],"username":…,"credential":…}`.
public struct IceServer: Sendable, Equatable {
    public var urls: [String]
    public var username: String?
    public var credential: String?

    public init(urls: [String], username: String? = nil, credential: String? = nil) {
        self.urls = urls
        self.username = username
        self.credential = credential
    }

    public var json: JSONValue {
        var json: [String: JSONValue] = ["urls": .array(urls.map(JSONValue.string))]
        if let username { json["username"] = .string(username) }
        if let credential { json["credential"] = .string(credential) }
        return .object(json)
    }
}
