import Foundation

/// Inputs to the LiveQuery core. The core has no clock and no liveness timer: dead sockets are the WebSocket
/// layer's to find (its pings; `LiveQueryConnection`), and reach the core as `socketClosed`.
public enum LiveQueryInput: Sendable, Hashable {
    /// Begin: the core answers `.openSocket`.
    case start
    case socketOpened
    case frameReceived(String)
    /// The socket closed or failed (1006, 1011, 4000+, or the WebSocket layer's ping timeout on a half-open
    /// socket …); the core reconnects unless stopped.
    case socketClosed(code: Int?)
    /// The delay of an earlier `.scheduleReconnect` has passed.
    case reconnectDue
    /// A re-login produced a new token: reconnect at once so `connect` carries it.
    case sessionTokenChanged(String?)
    case stop
}

/// Outputs of the LiveQuery core; the IO layer performs them in order.
public enum LiveQueryAction: Sendable, Hashable {
    case openSocket
    case sendFrame(String)
    case closeSocket(code: Int)
    case scheduleReconnect(afterSeconds: Double)
    /// LiveQuery is usable (all subscriptions confirmed) or not; drives the polling fallback.
    case linkChanged(up: Bool)
    case connected(clientId: String?)
    case subscribed(requestId: Int)
    case unsubscribed(requestId: Int)
    /// A row that appeared or changed (create/enter/update).
    case deliver(ActiveSessionRow, LiveQueryEventKind)
    /// A row that left the query or was deleted (the caller cancelled).
    case rowGone(objectId: String, LiveQueryEventKind)
    /// The server reported an error; `willReconnect` says what the core does about it.
    case serverError(code: Int?, message: String, willReconnect: Bool)
    /// The server said not to reconnect; the core stays stopped (polling continues without it).
    case stopped(reason: String)
    /// A frame that was malformed or unexpected; log it and carry on.
    case ignored(reason: String)
}

/// A LiveQuery subscription this client keeps alive across reconnects.
public struct LiveQuerySubscription: Sendable, Hashable {
    public var requestId: Int
    public var className: String
    public var whereClause: JSONValue

    public init(requestId: Int, className: String, where whereClause: JSONValue) {
        self.requestId = requestId
        self.className = className
        self.whereClause = whereClause
    }

    /// The agent's only subscription: `ActiveSessions where receiverID == me` (SYSTEM.md §3).
    public static func incomingCalls(receiverID: String, requestId: Int = 1) -> LiveQuerySubscription {
        LiveQuerySubscription(requestId: requestId, className: "ActiveSessions", where: ["receiverID": .string(receiverID)])
    }
}

/// The sans-IO LiveQuery client (parse-wire §8): connect, subscribe, decode events, reconnect with the JS SDK
/// backoff and resubscribe every subscription under its original requestId. Finding a dead (half-open) socket
/// is not its job: LiveQuery has no application-level ping, and only the WebSocket layer sees ping and pong
/// frames, so that layer pings and closes a socket whose pong is missing (`LiveQueryConnection.pingInterval`).
public struct LiveQueryClient: Sendable {
    public struct Configuration: Sendable, Hashable {
        public var applicationId: String
        public var clientKey: String?
        public var sessionToken: String?
        public var installationId: String?
        public var maxFrameBytes: Int
        public var backoff: LiveQueryReconnectBackoff

        public init(
            applicationId: String, clientKey: String? = nil, sessionToken: String? = nil, installationId: String? = nil,
            maxFrameBytes: Int = LiveQueryServerFrame.maxFrameBytes, backoff: LiveQueryReconnectBackoff = .init()
        ) {
            self.applicationId = applicationId
            self.clientKey = clientKey
            self.sessionToken = sessionToken
            self.installationId = installationId
            self.maxFrameBytes = maxFrameBytes
            self.backoff = backoff
        }
    }

    public enum Phase: Sendable, Hashable {
        case idle
        /// `.openSocket` was emitted; waiting for `socketOpened`.
        case opening
        /// `connect` was sent; waiting for `connected`.
        case handshaking
        /// `connected` arrived; subscriptions are sent (some may await confirmation).
        case connected
        /// The socket is gone; a reconnect is scheduled.
        case waitingToReconnect
        case stopped
    }

    public private(set) var configuration: Configuration
    public private(set) var phase: Phase = .idle
    public private(set) var subscriptions: [Int: LiveQuerySubscription] = [:]
    /// requestIds confirmed by `subscribed` on the current socket.
    public private(set) var confirmed: Set<Int> = []
    public private(set) var linkUp = false
    private var reconnectImmediately = false

    public init(configuration: Configuration, subscriptions: [LiveQuerySubscription]) {
        self.configuration = configuration
        for subscription in subscriptions { self.subscriptions[subscription.requestId] = subscription }
    }

    public mutating func handle(_ input: LiveQueryInput, using rng: inout some RandomNumberGenerator) -> [LiveQueryAction] {
        switch input {
        case .start:
            guard phase == .idle || phase == .stopped else { return [] }
            phase = .opening
            return [.openSocket]
        case .socketOpened:
            guard phase == .opening else { return [.ignored(reason: "socketOpened in phase \(phase)")] }
            phase = .handshaking
            return [.sendFrame(connectFrame())]
        case .frameReceived(let text):
            guard phase == .handshaking || phase == .connected else {
                return [.ignored(reason: "frame in phase \(phase)")]
            }
            return handleFrame(text, rng: &rng)
        case .socketClosed:
            switch phase {
            case .opening, .handshaking, .connected: return socketLost(rng: &rng)
            case .idle, .waitingToReconnect, .stopped: return []
            }
        case .reconnectDue:
            guard phase == .waitingToReconnect else { return [] }
            phase = .opening
            return [.openSocket]
        case .sessionTokenChanged(let token):
            configuration.sessionToken = token
            // While opening or waiting, the next `connect` frame picks the new token up by itself.
            guard phase == .handshaking || phase == .connected else { return [] }
            reconnectImmediately = true
            return [.closeSocket(code: 1000)] + socketLost(rng: &rng)
        case .stop:
            let wasOpen = phase == .opening || phase == .handshaking || phase == .connected
            phase = .stopped
            var actions: [LiveQueryAction] = wasOpen ? [.closeSocket(code: 1000)] : []
            actions += setLink(false)
            return actions
        }
    }

    /// Adds a subscription; sends it at once when connected, else with the next (re)connect.
    public mutating func subscribe(_ subscription: LiveQuerySubscription) -> [LiveQueryAction] {
        subscriptions[subscription.requestId] = subscription
        confirmed.remove(subscription.requestId)
        var actions = setLink(false)
        if phase == .connected { actions.append(.sendFrame(subscribeFrame(subscription))) }
        return actions
    }

    // MARK: Private

    private func connectFrame() -> String {
        LiveQueryClientFrame.connect(
            applicationId: configuration.applicationId, clientKey: configuration.clientKey,
            sessionToken: configuration.sessionToken, installationId: configuration.installationId)
    }

    private func subscribeFrame(_ subscription: LiveQuerySubscription) -> String {
        LiveQueryClientFrame.subscribe(
            requestId: subscription.requestId, className: subscription.className, where: subscription.whereClause,
            sessionToken: configuration.sessionToken)
    }

    private mutating func setLink(_ up: Bool) -> [LiveQueryAction] {
        guard linkUp != up else { return [] }
        linkUp = up
        return [.linkChanged(up: up)]
    }

    private mutating func socketLost(rng: inout some RandomNumberGenerator) -> [LiveQueryAction] {
        phase = .waitingToReconnect
        confirmed = []
        var actions = setLink(false)
        if reconnectImmediately {
            reconnectImmediately = false
            actions.append(.scheduleReconnect(afterSeconds: 0))
        } else {
            actions.append(.scheduleReconnect(afterSeconds: configuration.backoff.nextDelay(using: &rng)))
        }
        return actions
    }

    private mutating func handleFrame(_ text: String, rng: inout some RandomNumberGenerator) -> [LiveQueryAction] {
        let frame: LiveQueryServerFrame
        do {
            frame = try LiveQueryServerFrame.decode(text, maxBytes: configuration.maxFrameBytes)
        } catch {
            return [.ignored(reason: error.description)]
        }
        switch frame {
        case .connected(let clientId):
            guard phase == .handshaking else { return [.ignored(reason: "duplicate connected")] }
            phase = .connected
            // Re-subscribe everything under the original requestIds, as the JS SDK does after a reconnect.
            return [.connected(clientId: clientId)]
                + subscriptions.keys.sorted().compactMap { subscriptions[$0].map { .sendFrame(subscribeFrame($0)) } }
        case .subscribed(let requestId):
            guard phase == .connected, subscriptions[requestId] != nil else {
                return [.ignored(reason: "subscribed for unknown requestId \(requestId)")]
            }
            confirmed.insert(requestId)
            configuration.backoff.reset()
            var actions: [LiveQueryAction] = [.subscribed(requestId: requestId)]
            if confirmed.isSuperset(of: subscriptions.keys) { actions += setLink(true) }
            return actions
        case .unsubscribed(let requestId):
            guard subscriptions[requestId] != nil else { return [.ignored(reason: "unsubscribed for unknown requestId \(requestId)")] }
            confirmed.remove(requestId)
            // This client never unsubscribes, so the server dropped it: subscribe again under the same id.
            var actions: [LiveQueryAction] = [.unsubscribed(requestId: requestId)] + setLink(false)
            if phase == .connected, let subscription = subscriptions[requestId] {
                actions.append(.sendFrame(subscribeFrame(subscription)))
            }
            return actions
        case .error(let code, let message, let reconnect, _):
            if reconnect {
                return [.serverError(code: code, message: message, willReconnect: true), .closeSocket(code: 1000)]
                    + socketLost(rng: &rng)
            }
            phase = .stopped
            return [.serverError(code: code, message: message, willReconnect: false), .closeSocket(code: 1000)]
                + setLink(false) + [.stopped(reason: message)]
        case .event(let kind, let requestId, let object):
            return handleEvent(kind, requestId: requestId, object: object)
        }
    }

    private func handleEvent(_ kind: LiveQueryEventKind, requestId: Int, object: JSONValue) -> [LiveQueryAction] {
        guard phase == .connected, let subscription = subscriptions[requestId] else {
            return [.ignored(reason: "\(kind) for unknown requestId \(requestId)")]
        }
        if let className = object["className"], className != .string(subscription.className) {
            return [.ignored(reason: "\(kind) for another class")]
        }
        switch kind {
        case .create, .enter, .update:
            do {
                let row = try JSONDecoder().decode(ActiveSessionRow.self, from: WireJSON.encode(object))
                return [.deliver(row, kind)]
            } catch {
                return [.ignored(reason: "\(kind) with a bad row: \(ParseWireError.from(error))")]
            }
        case .leave, .delete:
            guard let objectId = object["objectId"]?.stringValue, !objectId.isEmpty else {
                return [.ignored(reason: "\(kind) without objectId")]
            }
            return [.rowGone(objectId: objectId, kind)]
        }
    }
}
