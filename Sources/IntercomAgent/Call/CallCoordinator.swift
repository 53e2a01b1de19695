import CallCore
import Foundation
import Logging
import ParseClient
import ParseWire

/// Drives the call state machine (CallCore, sans-IO) with real inputs and performs its actions: call rows
/// from the intake, the signaling room (SignalingConnection), media sessions, buttons and timers in; room
/// joins, `ringing`/`bye`, media start/stop, LED patterns, the door relay and one log line per call out.
public actor CallCoordinator {
    private var machine: CallStateMachine
    private let epoch = ContinuousClock.now
    private let session: BackendSession
    private let mediaFactory: any CallMediaFactory
    private let indicators: any CallIndicators
    private let status: AgentStatusBoard?
    private let deviceTitle: String
    private let metrics: AgentMetrics?
    private let logger: Logger

    /// What the machine does not keep: the rows' tokens and URLs, the open rooms, their peers and media.
    private var calls: [String: CallRoute] = [:]
    private var rooms: [String: SignalingConnection] = [:]
    private var peers: [String: [String]] = [:]
    private var media: [String: [String: any CallMediaSession]] = [:]
    private var earlySignals: [String: [String: [SignalPayload]]] = [:]
    /// Signals for "everyone in the room" asked for before anyone else was there (`ringing` right after
    /// the join): sent as soon as the room has a peer.
    private var pendingBroadcasts: [String: [SignalPayload]] = [:]
    /// Rooms to leave as soon as their pending broadcasts went out.
    private var leavingRooms: Set<String> = []
    static let refusalDeadline: Duration = .seconds(10)
    private var timers: [CallTimer: Task<Void, Never>] = [:]
    private var nextRequest: UInt64 = 0

    /// Where a call's room is and which tokens open it.
    struct CallRoute: Sendable {
        var signalURL: String
        var publisherToken: String?
        var subscriberToken: String?
        var iceServers: [IceServer]
    }

    public init(policy: CallPolicy, session: BackendSession, mediaFactory: any CallMediaFactory,
                indicators: any CallIndicators = NoIndicators(), status: AgentStatusBoard?, deviceTitle: String,
                metrics: AgentMetrics? = nil, logger: Logger) {
        machine = CallStateMachine(policy: policy)
        self.session = session
        self.mediaFactory = mediaFactory
        self.indicators = indicators
        self.status = status
        self.deviceTitle = deviceTitle
        self.metrics = metrics
        self.logger = logger
    }

    public var state: CallState { machine.state }

    /// The backend is reachable (the intake only delivers rows after login).
    public func begin() async {
        await perform(machine.startupActions())
        await feed(.backendUp)
    }

    /// Stops every call (a `bye` to the peers, media and rooms closed), for graceful shutdown.
    public func shutdown() async {
        for (sessionID, connection) in rooms {
            for peer in peers[sessionID] ?? [] { await connection.send(.bye(.hangup), to: peer) }
            await connection.close()
        }
        for sessions in media.values { for media in sessions.values { await media.stop() } }
        for timer in timers.values { timer.cancel() }
        rooms = [:]
        media = [:]
        timers = [:]
    }

    // MARK: Inputs

    public func incoming(_ row: ActiveSessionRow) async {
        guard let sessionID = row.sessionID, let signalURL = row.signalURL, row.publisherToken != nil else {
            logger.warning("call row without session fields (not minted by the server?)", metadata: ["row": "\(row.objectId)"])
            return
        }
        calls[sessionID] = CallRoute(signalURL: signalURL, publisherToken: row.publisherToken,
                                     subscriberToken: row.subscriberToken, iceServers: row.iceServers ?? [])
        let now = self.now
        let remaining = row.expiresAt.map { $0.date.timeIntervalSinceNow } ?? 60
        let call = IncomingCall(
            rowID: row.objectId, sessionID: sessionID, callerID: row.callerID,
            callerTitle: row.callerTitle ?? row.callerID,
            expiresAt: now + .milliseconds(Int64(max(remaining, 0) * 1000)),
            wantsVideo: row.isVideo ?? true, wantsAudio: row.isAudio ?? true)
        await feed(.incomingCall(call, localTime: Self.localTime()))
    }

    public func button(_ event: ButtonEvent) async {
        await feed(.button(event))
    }

    /// A required device is missing or broke (e.g. the GPIO lines): the machine shows `fault`.
    public func deviceFault(_ device: String) async {
        await feed(.deviceFault(device: device))
    }

    private func feed(_ event: CallEvent) async {
        await perform(machine.handle(event, at: now))
    }

    private var now: CallInstant { CallInstant(sinceBoot: ContinuousClock.now - epoch) }

    static func localTime(_ date: Date = Date()) -> MinuteOfDay {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: date)
        return (try? MinuteOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0))
            ?? (try! MinuteOfDay(minutesSinceMidnight: 0))  // hour 0…23 and minute 0…59 always form one
    }

    // MARK: Actions

    private func perform(_ actions: [CallAction]) async {
        for action in actions { await perform(action) }
    }

    private func perform(_ action: CallAction) async {
        switch action {
        case .deleteCallRow:
            break  // The intake deletes each row as it takes it (so a row never rings twice).
        case .createOutgoingCall(let request, let target):
            Task { await self.placeCall(request: request, target: target) }
        case .joinSession(let sessionID, let role):
            join(sessionID, role: role)
        case .sendSignal(let sessionID, let to, let signal):
            guard let connection = rooms[sessionID] else { return }
            let payload = SignalTranslation.payload(signal)
            if let to {
                await connection.send(payload, to: to)
            } else if let present = peers[sessionID], !present.isEmpty {
                for peer in present { await connection.send(payload, to: peer) }
            } else {
                pendingBroadcasts[sessionID, default: []].append(payload)
            }
        case .leaveSession(let sessionID):
            if pendingBroadcasts[sessionID]?.isEmpty == false, rooms[sessionID] != nil {
                // A refusal (`bye busy`) is still waiting for the caller to be in the room: leave once it
                // went out, or after `refusalDeadline` if nobody comes.
                leavingRooms.insert(sessionID)
                Task {
                    try? await Task.sleep(for: Self.refusalDeadline)
                    await self.leave(sessionID)
                }
            } else {
                await leave(sessionID)
            }
        case .startMedia(let sessionID, let peer, let plan):
            startMedia(sessionID, peer: peer, plan: plan)
        case .stopMedia(let sessionID):
            let stopped = media.removeValue(forKey: sessionID) ?? [:]
            for media in stopped.values { await media.stop() }
            // Stopped on purpose is down: tell the machine now rather than let it wait out its teardown timer
            // (a caller ringing again right after hanging up would otherwise be told "busy").
            if !stopped.isEmpty { Task { await self.feed(.mediaDown(sessionID: sessionID)) } }
        case .admitViewer(let sessionID, let peer):
            startMedia(sessionID, peer: peer, plan: .viewer)
        case .refuseViewer(let sessionID, let peer):
            await rooms[sessionID]?.send(.bye(.busy), to: peer)
        case .removeViewer(let sessionID, let peer):
            await media[sessionID]?.removeValue(forKey: peer)?.stop()
        case .pulseDoor:
            logger.info("opening the door")
            await indicators.pulseDoor()
        case .refuseDoorOpen(let sessionID, let peer, let refusal):
            logger.info("door open refused", metadata: ["session": "\(sessionID)", "peer": "\(peer)", "why": "\(refusal)"])
        case .setLEDPattern:
            // What the machine shows now, not what it showed when the action was made: the actor is
            // reentrant, and a later event (media down while `stopMedia` awaited) may already have moved on.
            await indicators.show(machine.ledPattern)
        case .armTimer(let timer, let instant):
            timers[timer]?.cancel()
            let delay = instant - now
            timers[timer] = Task {
                try? await Task.sleep(for: max(delay, .zero))
                guard !Task.isCancelled else { return }
                await self.timerFired(timer)
            }
        case .cancelTimer(let timer):
            timers.removeValue(forKey: timer)?.cancel()
        case .logCallOutcome(let summary):
            logger.notice("call \(summary.direction) \(summary.remoteTitle): \(summary.outcome)", metadata: [
                "session": "\(summary.sessionID ?? "-")", "ringToAnswer": "\(summary.ringToAnswer.map { "\($0)" } ?? "-")",
                "setup": "\(summary.setupTime.map { "\($0)" } ?? "-")", "talk": "\(summary.talkTime.map { "\($0)" } ?? "-")",
            ])
            metrics?.callEnded(summary)
        case .reportState:
            await status?.setCallState(machine.statusText)  // the current state, for the same reason
        }
    }

    private func timerFired(_ timer: CallTimer) async {
        timers[timer] = nil
        await feed(.timerFired(timer))
    }

    // MARK: Rooms

    private func join(_ sessionID: String, role: CallCore.SessionRole) {
        guard let route = calls[sessionID],
              let token = role == .publisher ? route.publisherToken : route.subscriberToken
        else {
            Task { await self.feed(.signal(sessionID: sessionID, .sessionError("no token for this call"))) }
            return
        }
        let connection = SignalingConnection(url: route.signalURL, token: token, name: deviceTitle, logger: logger)
        rooms[sessionID] = connection
        Task {
            await connection.start()
            for await event in connection.events { await self.roomEvent(event, in: sessionID, from: connection) }
        }
    }

    private func roomEvent(_ event: SignalingConnection.Event, in sessionID: String, from connection: SignalingConnection) async {
        // Events of a room we already left (its last `closed`, say) are not news.
        guard rooms[sessionID] === connection else { return }
        switch event {
        case .joined(_, _, let present, let iceServers):
            peers[sessionID] = present.map(\.peerId)
            if !iceServers.isEmpty { calls[sessionID]?.iceServers = iceServers }
            await flushBroadcasts(sessionID, via: connection)
        case .peerJoined(let peer):
            peers[sessionID, default: []].append(peer.peerId)
            await flushBroadcasts(sessionID, via: connection)
        case .peerLeft(let peerId, _):
            peers[sessionID]?.removeAll { $0 == peerId }
            await media[sessionID]?.removeValue(forKey: peerId)?.stop()
        case .signal(let from, let payload):
            switch payload {
            case .offer, .answer, .candidate:
                if let session = media[sessionID]?[from] {
                    await session.remote(payload)
                } else {
                    earlySignals[sessionID, default: [:]][from, default: []].append(payload)
                }
            default:
                break
            }
        case .refused, .closed:
            break
        }
        for signal in SignalTranslation.remoteSignals(event) { await feed(.signal(sessionID: sessionID, signal)) }
    }

    private func flushBroadcasts(_ sessionID: String, via connection: SignalingConnection) async {
        guard let present = peers[sessionID], !present.isEmpty,
              let pending = pendingBroadcasts.removeValue(forKey: sessionID) else { return }
        for payload in pending { for peer in present { await connection.send(payload, to: peer) } }
        if leavingRooms.contains(sessionID) { await leave(sessionID) }
    }

    private func leave(_ sessionID: String) async {
        leavingRooms.remove(sessionID)
        await rooms.removeValue(forKey: sessionID)?.close()
        peers[sessionID] = nil
        calls[sessionID] = nil
        earlySignals[sessionID] = nil
        pendingBroadcasts[sessionID] = nil
    }

    // MARK: Media

    /// Starts `peer`'s media session. Only the call's own media tells the machine when it goes up or down: a
    /// viewer's connection ending (it left, or its network failed) is that viewer's business and must not
    /// start the call's media timeout.
    private func startMedia(_ sessionID: String, peer: String, plan: MediaPlan) {
        guard let connection = rooms[sessionID] else { return }
        let carriesTheCall = !plan.viewOnly
        let session = mediaFactory.makeSession(sessionID: sessionID, peer: peer)
        media[sessionID, default: [:]][peer] = session
        let early = earlySignals[sessionID]?.removeValue(forKey: peer) ?? []
        let iceServers = calls[sessionID]?.iceServers ?? []
        Task {
            for payload in early { await session.remote(payload) }
            do {
                try await session.start(
                    plan: plan, iceServers: iceServers,
                    signal: { payload in await connection.send(payload, to: peer) },
                    state: { up in
                        guard carriesTheCall else { return }
                        await self.feed(up ? .mediaUp(sessionID: sessionID) : .mediaDown(sessionID: sessionID))
                    })
            } catch {
                self.logger.error("media failed to start", metadata: [
                    "session": "\(sessionID)", "peer": "\(peer)", "error": "\(error)"])
                if carriesTheCall { await self.feed(.mediaDown(sessionID: sessionID)) }
            }
        }
    }

    // MARK: Outgoing calls

    private func placeCall(request: UInt64, target: CallTarget) async {
        do throws(ParseClientError) {
            let callerID = try await session.ensureLoggedIn()
            let receiverID: String
            switch target {
            case .user(let id):
                receiverID = id
            case .nearest(let title, let radiusMeters):
                guard let here = status?.location else {
                    await feed(.outgoingCallFailed(request: request, reason: "the device has no geopoint to search from"))
                    return
                }
                let found = try await session.client.send(QueryResults<ActiveUserRow>.self) {
                    $0.nearbyActiveUsers(center: here, withinKilometers: radiusMeters / 1000, userTitle: title,
                                         limit: 1, requestId: $1)
                }
                guard let nearest = found.results.first(where: { $0.userID != callerID }) else {
                    await feed(.outgoingCallFailed(request: request, reason: "nobody called \"\(title)\" is online nearby"))
                    return
                }
                receiverID = nearest.userID
            }
            let row = NewCallRow(callerID: callerID, callerTitle: deviceTitle, receiverID: receiverID)
            let created = try await session.client.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
            guard let sessionID = created.sessionID, let signalURL = created.signalURL else {
                await feed(.outgoingCallFailed(request: request, reason: "the backend did not mint a session"))
                return
            }
            calls[sessionID] = CallRoute(signalURL: signalURL, publisherToken: created.publisherToken,
                                         subscriberToken: created.subscriberToken, iceServers: created.iceServers ?? [])
            await feed(.outgoingCallCreated(request: request, rowID: created.objectId, sessionID: sessionID))
        } catch {
            await feed(.outgoingCallFailed(request: request, reason: "\(error)"))
        }
    }
}
