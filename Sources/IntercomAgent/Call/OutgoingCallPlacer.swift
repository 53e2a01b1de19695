import CallCore
import ParseClient
import ParseWire

/// Places the device's outgoing calls through the backend (SYSTEM.md §3): resolves a target by title with a
/// geo query around the device, then saves the `ActiveSessions` row, which the server fills with the
/// room and its tokens.
struct OutgoingCallPlacer: Sendable {
    enum Result: Sendable {
        case created(rowID: String, sessionID: String, route: CallRoom.Route)
        case failed(reason: String)
    }

    let session: BackendSession
    let deviceTitle: String
    let location: GeoPoint?

    func place(_ target: CallTarget) async -> Result {
        do throws(ParseClientError) {
            let callerID = try await session.ensureLoggedIn()
            let receiverID: String
            switch target {
            case .user(let id):
                receiverID = id
            case .nearest(let title, let radiusMeters):
                guard let location else { return .failed(reason: "the device has no geopoint to search from") }
                let found = try await session.client.send(QueryResults<ActiveUserRow>.self) {
                    $0.nearbyActiveUsers(center: location, withinKilometers: radiusMeters / 1000, userTitle: title,
                                         limit: 1, requestId: $1)
                }
                guard let nearest = found.results.first(where: { $0.userID != callerID }) else {
                    return .failed(reason: "nobody called \"\(title)\" is online nearby")
                }
                receiverID = nearest.userID
            case .sip(let uri):
                return .failed(reason: "\(uri) is called over SIP, not through the backend")  // the coordinator's SIPDialer
            }
            let row = NewCallRow(callerID: callerID, callerTitle: deviceTitle, receiverID: receiverID)
            let created = try await session.client.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
            guard let sessionID = created.sessionID, let signalURL = created.signalURL else {
                return .failed(reason: "the backend did not mint a session")
            }
            let route = CallRoom.Route(signalURL: signalURL, publisherToken: created.publisherToken,
                                       subscriberToken: created.subscriberToken, iceServers: created.iceServers ?? [])
            return .created(rowID: created.objectId, sessionID: sessionID, route: route)
        } catch {
            return .failed(reason: "\(error)")
        }
    }
}
