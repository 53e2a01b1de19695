/// One `iceServers` entry of an `ActiveSessions` row or a `joined` frame: `{urls:[…], username, credential}`
/// (the RTCIceServer dictionary; `urls` may also be a single string there, which is accepted).
public struct IceServer: Sendable, Hashable, Codable {
    public var urls: [String]
    public var username: String?
    public var credential: String?

    public init(urls: [String], username: String? = nil, credential: String? = nil) {
        self.urls = urls
        self.username = username
        self.credential = credential
    }

    private enum CodingKeys: String, CodingKey { case urls, username, credential }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let single = try? container.decode(String.self, forKey: .urls) {
            urls = [single]
        } else {
            urls = try container.decode([String].self, forKey: .urls)
        }
        guard !urls.isEmpty else {
            throw ParseWireError.invalidValue(path: codingPathString(container.codingPath + [CodingKeys.urls]), reason: "empty urls")
        }
        username = try container.decodeIfPresent(String.self, forKey: .username)
        credential = try container.decodeIfPresent(String.self, forKey: .credential)
    }
}
