import Foundation

/// What a caller writes to create an `ActiveSessions` row. Server-owned fields (session id, tokens,
/// signalURL, iceServers, expiresAt) are not part of it: the server's beforeSave fills them.
public struct NewCallRow: Sendable, Hashable, Codable {
    public var callerID: String
    public var callerTitle: String
    public var receiverID: String
    public var isVideo: Bool
    public var isAudio: Bool

    public init(callerID: String, callerTitle: String, receiverID: String, isVideo: Bool = true, isAudio: Bool = true) {
        self.callerID = callerID
        self.callerTitle = callerTitle
        self.receiverID = receiverID
        self.isVideo = isVideo
        self.isAudio = isAudio
    }
}

/// An `ActiveSessions` row (one call attempt, SYSTEM.md §2) as returned by a query, a create response merged
/// with its request, or a LiveQuery event `object`. Only the identity fields are required; everything the
/// server fills and every added field is optional so rows from an unmodified deployment decode.
public struct ActiveSessionRow: Sendable, Hashable, Decodable {
    public var objectId: String
    public var createdAt: ParseTimestamp?
    public var updatedAt: ParseTimestamp?
    public var callerID: String
    public var callerTitle: String?
    public var receiverID: String
    public var isVideo: Bool?
    public var isAudio: Bool?
    public var sessionID: String?
    public var publisherToken: String?
    public var subscriberToken: String?
    public var signalURL: String?
    public var iceServers: [IceServer]?
    public var expiresAt: ParseDate?

    public init(
        objectId: String, callerID: String, receiverID: String, callerTitle: String? = nil,
        isVideo: Bool? = nil, isAudio: Bool? = nil, sessionID: String? = nil, publisherToken: String? = nil,
        subscriberToken: String? = nil, signalURL: String? = nil, iceServers: [IceServer]? = nil,
        expiresAt: Date? = nil, createdAt: Date? = nil
    ) {
        self.objectId = objectId
        self.callerID = callerID
        self.receiverID = receiverID
        self.callerTitle = callerTitle
        self.isVideo = isVideo
        self.isAudio = isAudio
        self.sessionID = sessionID
        self.publisherToken = publisherToken
        self.subscriberToken = subscriberToken
        self.signalURL = signalURL
        self.iceServers = iceServers
        self.expiresAt = expiresAt.map(ParseDate.init)
        self.createdAt = createdAt.map(ParseTimestamp.init)
    }

    private enum CodingKeys: String, CodingKey {
        case objectId, createdAt, updatedAt, callerID, callerTitle, receiverID, isVideo, isAudio, sessionID
        case publisherToken, subscriberToken, signalURL, iceServers, expiresAt
    }

    /// Synthesized decoding plus one rule: identity strings must be non-empty (the dedup key is objectId).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        objectId = try c.decode(String.self, forKey: .objectId)
        callerID = try c.decode(String.self, forKey: .callerID)
        receiverID = try c.decode(String.self, forKey: .receiverID)
        for (key, value) in [(CodingKeys.objectId, objectId), (.callerID, callerID), (.receiverID, receiverID)] where value.isEmpty {
            throw ParseWireError.invalidValue(path: codingPathString(c.codingPath + [key]), reason: "empty")
        }
        createdAt = try c.decodeIfPresent(ParseTimestamp.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(ParseTimestamp.self, forKey: .updatedAt)
        callerTitle = try c.decodeIfPresent(String.self, forKey: .callerTitle)
        isVideo = try c.decodeIfPresent(Bool.self, forKey: .isVideo)
        isAudio = try c.decodeIfPresent(Bool.self, forKey: .isAudio)
        sessionID = try c.decodeIfPresent(String.self, forKey: .sessionID)
        publisherToken = try c.decodeIfPresent(String.self, forKey: .publisherToken)
        subscriberToken = try c.decodeIfPresent(String.self, forKey: .subscriberToken)
        signalURL = try c.decodeIfPresent(String.self, forKey: .signalURL)
        iceServers = try c.decodeIfPresent([IceServer].self, forKey: .iceServers)
        expiresAt = try c.decodeIfPresent(ParseDate.self, forKey: .expiresAt)
    }

    /// True when the row carries an expiry that is not after `now`.
    public func isExpired(at now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.date <= now
    }
}
