import Foundation
import IntercomPlatform
import Logging
import ParseWire

/// The LiveQuery server (parse-wire.md §8): one entry per connected WebSocket, their subscriptions, and the
/// fan-out of every committed write to the subscriptions it concerns. Transport-free: a socket hands its
/// text frames to `receive` and drains the outbox `register` returns.
actor LiveQueryHub {
    /// Classes that publish events (parse-server `liveQuery.classNames`); other subscriptions are answered
    /// `subscribed` but never get events, as parse-server does.
    static let publishedClasses: Set<String> = [ClassDescriptor.activeUsers.name, ClassDescriptor.activeSessions.name]
    /// Frames queued for one socket before it counts as stuck and is closed.
    static let outboxLimit = 1024

    typealias SessionResolver = @Sendable (_ token: String) async -> RequestAuth?

    private struct Subscription {
        let query: LiveQueryQuery
        let predicate: QueryPredicate
        let auth: RequestAuth
    }

    private struct Client {
        let outbox: AsyncStream<String>.Continuation
        /// Who the socket comes from, for the master-key rule.
        let address: ClientAddress
        var connected = false
        var installationId: String?
        var auth = RequestAuth.publicAccess
        var subscriptions: [Int: Subscription] = [:]
    }

    private let configuration: ServerConfiguration
    private let resolveSession: SessionResolver
    private let logger: Logger
    private var clients: [String: Client] = [:]

    init(configuration: ServerConfiguration, logger: Logger, resolveSession: @escaping SessionResolver) {
        self.configuration = configuration
        self.logger = logger
        self.resolveSession = resolveSession
    }

    /// A new socket: its client id and the frames to send it, in order. The stream ends when the hub drops
    /// the client (it fell `outboxLimit` frames behind).
    func register(address: ClientAddress = ClientAddress(address: nil, forwardedByUntrustedPeer: false))
        -> (clientId: String, outbox: AsyncStream<String>)
    {
        let clientId = UUID().uuidString.lowercased()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(Self.outboxLimit))
        clients[clientId] = Client(outbox: continuation, address: address)
        return (clientId, stream)
    }

    func unregister(_ clientId: String) {
        clients.removeValue(forKey: clientId)?.outbox.finish()
    }

    /// Handles one text frame from `clientId`. Callers await each frame before reading the next, so a
    /// client's frames are handled in order.
    func receive(_ text: String, from clientId: String) async {
        guard clients[clientId] != nil else { return }
        let request: LiveQueryRequest
        do {
            request = try LiveQueryRequest.parse(text)
        } catch {
            send(Self.errorFrame(code: error.code, error.message, reconnect: true, requestId: error.requestId), to: clientId)
            return
        }
        switch request {
        case .connect(let credentials): await connect(clientId, credentials)
        case .subscribe(let query, _): await subscribe(clientId, query)
        case .unsubscribe(let requestId): unsubscribe(clientId, requestId)
        }
    }

    /// Sends the events `change` causes to every subscription it concerns.
    func publish(_ change: ObjectChange) {
        guard Self.publishedClasses.contains(change.className),
              let descriptor = ClassDescriptor.named(change.className) else { return }
        let policy = AccessPolicy(descriptor: descriptor, heartbeatMilliseconds: configuration.heartbeatSeconds * 1000)
        for (clientId, client) in clients where client.connected {
            for subscription in client.subscriptions.values where subscription.query.className == change.className {
                guard let (kind, object) = LiveQueryEventSelection.event(
                    for: change, matches: { QueryMatcher.matches($0, subscription.predicate) },
                    watch: subscription.query.watch),
                    policy.mayRead(subscription.auth, object.fields)
                else { continue }
                var frame: [String: JSONValue] = [
                    "op": .string(kind.rawValue), "clientId": .string(clientId),
                    "requestId": .number(Double(subscription.query.requestId)),
                    "object": Self.objectJSON(object, className: change.className, keys: subscription.query.keys),
                ]
                if let installationId = client.installationId { frame["installationId"] = .string(installationId) }
                if kind != .create, kind != .delete, let original = change.original {
                    frame["original"] = Self.objectJSON(original, className: change.className, keys: subscription.query.keys)
                }
                send(.object(frame), to: clientId)
            }
        }
    }

    // MARK: Session revalidation (issue #14, 2)

    /// The `_Session` ids that sockets and subscriptions run on now.
    func sessionIdsInUse() -> Set<String> {
        var ids: Set<String> = []
        for client in clients.values {
            if let id = client.auth.session?.objectId { ids.insert(id) }
            for subscription in client.subscriptions.values {
                if let id = subscription.auth.session?.objectId { ids.insert(id) }
            }
        }
        return ids
    }

    /// Ends what ran on the sessions in `ended` (logged out, deleted or expired): a socket connected with
    /// one gets a 209 error frame and is closed; a subscription made with one gets a 209 error frame for
    /// its request id and is removed. Returns how many sockets and subscriptions were ended. `reconnect`
    /// is true: a client that logs in again (the agent does on its next 209) must be able to come back;
    /// one that reconnects with the dead token runs as the public and sees no one's calls.
    @discardableResult
    func endSessions(_ ended: Set<String>) -> Int {
        guard !ended.isEmpty else { return 0 }
        var count = 0
        for (clientId, client) in clients {
            if let id = client.auth.session?.objectId, ended.contains(id) {
                send(Self.errorFrame(code: ParseErrorCode.invalidSessionToken, "Invalid session token", reconnect: true,
                                     requestId: nil), to: clientId)
                unregister(clientId)
                count += 1
                continue
            }
            for (requestId, subscription) in client.subscriptions {
                guard let id = subscription.auth.session?.objectId, ended.contains(id) else { continue }
                clients[clientId]?.subscriptions.removeValue(forKey: requestId)
                send(Self.errorFrame(code: ParseErrorCode.invalidSessionToken, "Invalid session token", reconnect: true,
                                     requestId: requestId), to: clientId)
                count += 1
            }
        }
        if count > 0 { logger.info("LiveQuery: ended sockets and subscriptions of ended sessions", metadata: ["count": "\(count)"]) }
        return count
    }

    /// Closes every socket, telling each client to reconnect: on a fleet, after the bus's listener was lost and
    /// came back, the events of the gap are gone; a client that reconnects subscribes again and polls for what
    /// it missed (the device does after any LiveQuery outage). Returns how many sockets were closed.
    @discardableResult
    func disconnectAll(_ reason: String) -> Int {
        let ids = Array(clients.keys)
        for clientId in ids {
            send(Self.errorFrame(code: ParseErrorCode.connectionFailed, reason, reconnect: true, requestId: nil),
                 to: clientId)
            unregister(clientId)
        }
        if !ids.isEmpty { logger.notice("LiveQuery: closed every socket", metadata: ["count": "\(ids.count)", "reason": "\(reason)"]) }
        return ids.count
    }

    // MARK: Operations

    private func connect(_ clientId: String, _ credentials: LiveQueryCredentials) async {
        var auth = RequestAuth(installationId: credentials.installationId)
        if let masterKey = configuration.masterKey, let offered = credentials.masterKey,
           ConstantTime.equal(offered, masterKey) {
            // The REST rule (issue #14, 7): the master key only from the configured networks.
            guard clients[clientId]?.address.mayUseMasterKey(networks: configuration.masterKeyNetworks) == true else {
                send(Self.errorFrame(code: 4, "The master key is not accepted from this address", reconnect: false,
                                     requestId: nil), to: clientId)
                return
            }
            auth.isMaster = true
        } else if !configuration.clientKeys.isEmpty {
            let matches = credentials.clientKeys.contains { offered in
                configuration.clientKeys.contains { ConstantTime.equal(offered, $0) }
            }
            guard matches else {
                send(Self.errorFrame(code: 4, "Key in request is not valid", reconnect: true, requestId: nil), to: clientId)
                return
            }
        }
        if let token = credentials.sessionToken, let resolved = await resolveSession(token) {
            auth.user = resolved.user
            auth.session = resolved.session
            auth.sessionToken = token
        }
        guard clients[clientId] != nil else { return }
        clients[clientId]?.connected = true
        clients[clientId]?.auth = auth
        clients[clientId]?.installationId = credentials.installationId
        var frame: [String: JSONValue] = ["op": "connected", "clientId": .string(clientId)]
        if let installationId = credentials.installationId { frame["installationId"] = .string(installationId) }
        send(.object(frame), to: clientId)
    }

    private func subscribe(_ clientId: String, _ query: LiveQueryQuery) async {
        guard let client = clients[clientId], client.connected else {
            send(Self.errorFrame(code: 2, "Can not find this client, make sure you connect to server before subscribing",
                                 reconnect: true, requestId: query.requestId), to: clientId)
            return
        }
        if client.subscriptions[query.requestId] == nil,
           client.subscriptions.count >= configuration.queryLimits.maxSubscriptionsPerSocket {
            send(Self.errorFrame(code: ParseErrorCode.invalidQuery,
                                 "Too many subscriptions on this socket (at most \(configuration.queryLimits.maxSubscriptionsPerSocket))",
                                 reconnect: false, requestId: query.requestId), to: clientId)
            return
        }
        let predicate: QueryPredicate
        do {
            predicate = try QueryParser.parse(query.whereClause, limits: configuration.queryLimits)
        } catch {
            send(Self.errorFrame(code: error.code ?? 1, error.message, reconnect: false, requestId: query.requestId), to: clientId)
            return
        }
        var auth = client.auth
        if let token = query.sessionToken, token != client.auth.sessionToken {
            // An invalid token silently drops events (parse-server): the subscription runs as the public.
            let resolved = await resolveSession(token)
            auth = RequestAuth(isMaster: client.auth.isMaster, user: resolved?.user, session: resolved?.session,
                               sessionToken: token, installationId: client.installationId)
        }
        guard clients[clientId] != nil else { return }
        clients[clientId]?.subscriptions[query.requestId] = Subscription(query: query, predicate: predicate, auth: auth)
        send(["op": "subscribed", "clientId": .string(clientId), "requestId": .number(Double(query.requestId))],
             to: clientId)
    }

    private func unsubscribe(_ clientId: String, _ requestId: Int) {
        guard clients[clientId]?.subscriptions.removeValue(forKey: requestId) != nil else {
            send(Self.errorFrame(code: 2, "Can not find subscription with requestId \(requestId)", reconnect: true,
                                 requestId: requestId), to: clientId)
            return
        }
        send(["op": "unsubscribed", "clientId": .string(clientId), "requestId": .number(Double(requestId))], to: clientId)
    }

    // MARK: Frames

    private func send(_ frame: JSONValue, to clientId: String) {
        guard let client = clients[clientId] else { return }
        if case .dropped = client.outbox.yield(JSONCoding.encodeString(frame)) {
            logger.warning("LiveQuery client fell behind; closing it", metadata: ["client": "\(clientId)"])
            unregister(clientId)
        }
    }

    static func errorFrame(code: Int, _ message: String, reconnect: Bool, requestId: Int?) -> JSONValue {
        [
            "op": "error", "code": .number(Double(code)), "error": .string(message), "reconnect": .bool(reconnect),
            "requestId": requestId.map { .number(Double($0)) } ?? .null,
        ]
    }

    /// The event's `object`: the REST JSON plus `__type`/`className`; with `keys`, only those and the
    /// Parse-managed fields.
    static func objectJSON(_ object: StoredObject, className: String, keys: [String]?) -> JSONValue {
        var json = object.restJSON
        if let keys {
            let kept = Set(keys).union(["objectId", "createdAt", "updatedAt", "ACL"])
            json = json.filter { kept.contains($0.key) }
        }
        json["__type"] = "Object"
        json["className"] = .string(className)
        return .object(json)
    }
}
