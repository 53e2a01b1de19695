/// 201 body of `POST /classes/C` (plus fields a beforeSave added, which callers decode separately).
public struct CreateResponse: Sendable, Hashable, Decodable {
    public var objectId: String
    public var createdAt: ParseTimestamp
}

/// 201 body of a create on `ActiveSessions`: the server's beforeSave fills the call's session fields.
public struct CallCreateResponse: Sendable, Hashable, Decodable {
    public var objectId: String
    public var createdAt: ParseTimestamp
    public var sessionID: String?
    public var publisherToken: String?
    public var subscriberToken: String?
    public var signalURL: String?
    public var iceServers: [IceServer]?
    public var expiresAt: ParseDate?
}

/// 200 body of `PUT /classes/C/<id>`.
public struct UpdateResponse: Sendable, Hashable, Decodable {
    public var updatedAt: ParseTimestamp
}

/// 200 body of `DELETE /classes/C/<id>` and `POST /logout`: `{}`.
public struct EmptyResponse: Sendable, Hashable, Decodable {}

/// `{"results":[…], "count":N}`; `count` only when the query asked for it. The number of rows is bounded
/// by `QueryResults.maxRows` before any row is decoded.
public struct QueryResults<Row: Decodable & Sendable>: Sendable, Decodable {
    public static var maxRows: Int { 10_000 }

    public var results: [Row]
    public var count: Int?

    private enum CodingKeys: String, CodingKey { case results, count }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var rows = try container.nestedUnkeyedContainer(forKey: .results)
        if let total = rows.count, total > Self.maxRows {
            throw ParseWireError.tooManyResults(count: total, limit: Self.maxRows)
        }
        var decoded: [Row] = []
        while !rows.isAtEnd {
            guard decoded.count < Self.maxRows else {
                throw ParseWireError.tooManyResults(count: decoded.count + 1, limit: Self.maxRows)
            }
            decoded.append(try rows.decode(Row.self))
        }
        results = decoded
        count = try container.decodeIfPresent(Int.self, forKey: .count)
    }
}

/// The `authData` of a user: provider name to provider data. Only the anonymous provider is modelled.
public struct AuthData: Sendable, Hashable, Codable {
    public struct Anonymous: Sendable, Hashable, Codable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public var anonymous: Anonymous?

    public init(anonymous: Anonymous?) { self.anonymous = anonymous }
}

/// The user returned by signup (201: objectId, createdAt, sessionToken, username for anonymous), login,
/// anonymous re-login and `GET /users/me` (full user plus sessionToken). `sessionToken` must be a
/// non-empty string: a null or missing token is an error, never a silently logged-out user.
public struct UserResponse: Sendable, Hashable, Decodable {
    public var objectId: String
    public var sessionToken: String
    public var username: String?
    public var createdAt: ParseTimestamp?
    public var updatedAt: ParseTimestamp?
    public var authData: AuthData?

    private enum CodingKeys: String, CodingKey {
        case objectId, sessionToken, username, createdAt, updatedAt, authData
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        objectId = try container.decode(String.self, forKey: .objectId)
        sessionToken = try container.decode(String.self, forKey: .sessionToken)
        guard !objectId.isEmpty else {
            throw ParseWireError.invalidValue(path: "objectId", reason: "empty")
        }
        guard !sessionToken.isEmpty else {
            throw ParseWireError.invalidValue(path: "sessionToken", reason: "empty")
        }
        username = try container.decodeIfPresent(String.self, forKey: .username)
        createdAt = try container.decodeIfPresent(ParseTimestamp.self, forKey: .createdAt)
        updatedAt = try container.decodeIfPresent(ParseTimestamp.self, forKey: .updatedAt)
        authData = try container.decodeIfPresent(AuthData.self, forKey: .authData)
    }
}

/// `POST /functions/name` answers `{"result": …}`.
public struct FunctionResponse<Result: Decodable & Sendable>: Sendable, Decodable {
    public var result: Result
}

/// The result of the `viewerToken` Cloud function (SYSTEM.md §2): a view-only token for `sessionID`.
public struct ViewerTokenResult: Sendable, Hashable, Decodable {
    public var token: String
    public var signalURL: String?
    public var iceServers: [IceServer]?
}
