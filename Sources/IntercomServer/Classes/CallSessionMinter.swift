/// The server side of `ActiveSessions` create, i.e. the original Cloud Code `beforeSave` (parse-wire.md §6):
/// a fresh `sessionID`, a `publisherToken` for the receiver and a `subscriberToken` for the caller (both
/// role `publisher`: in a 1:1 call both sides send and receive, SYSTEM.md §2), the `signalURL`, ICE servers
/// with TURN credentials, and the ring expiry.
struct CallSessionMinter: Sendable {
    let issuer: SessionTokenIssuer
    let iceServers: IceServerProvider
    let ringTimeToLiveMilliseconds: Int64

    struct Minted: Sendable {
        /// The server-owned fields to store and echo.
        let fields: [String: JSONValue]
        let record: CallSessionRecord
    }

    func mint(callerID: String, receiverID: String, signalURL: String, now: Int64) async throws -> Minted {
        let sessionID = RandomText.alphanumeric(24)
        let nowSeconds = now / 1000
        let publisher = try await issuer.issue(sessionID: sessionID, userID: receiverID, role: .publisher,
                                               nowSeconds: nowSeconds)
        let subscriber = try await issuer.issue(sessionID: sessionID, userID: callerID, role: .publisher,
                                                nowSeconds: nowSeconds)
        let fields: [String: JSONValue] = [
            "sessionID": .string(sessionID),
            "publisherToken": .string(publisher.token),
            "subscriberToken": .string(subscriber.token),
            "signalURL": .string(signalURL),
            "iceServers": .array(iceServers.iceServers(for: callerID, nowSeconds: nowSeconds).map(\.json)),
            "expiresAt": ParseTimestamp.typedDate(milliseconds: now + ringTimeToLiveMilliseconds),
        ]
        let record = CallSessionRecord(sessionID: sessionID, callerID: callerID, receiverID: receiverID, createdAt: now,
                                       expiresAt: publisher.claims.exp * 1000)
        return Minted(fields: fields, record: record)
    }
}
