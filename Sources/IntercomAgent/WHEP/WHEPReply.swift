/// One WHEP HTTP response as `WHEPEndpoint` decides it, before it becomes a Hummingbird `Response`:
/// status, headers and a text body (the answer SDP, or what was wrong).
public struct WHEPReply: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: String

    public init(status: Int, headers: [String: String] = [:], body: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// 201 with the resource's URL and the answer.
    static func created(id: String, answer: String) -> WHEPReply {
        WHEPReply(status: 201, headers: ["Location": "/whep/\(id)", "Content-Type": "application/sdp"], body: answer)
    }

    /// A refusal with a one-line text body saying why.
    static func refusal(_ status: Int, _ reason: String, headers: [String: String] = [:]) -> WHEPReply {
        var headers = headers
        headers["Content-Type"] = "text/plain; charset=utf-8"
        return WHEPReply(status: status, headers: headers, body: reason + "\n")
    }

    static let unauthorized = refusal(401, "missing or wrong bearer token", headers: ["WWW-Authenticate": "Bearer"])
}
