import CallCore
import Foundation
import Logging
import ParseClient
import ParseWire

/// Drives the call state machine (CallCore, sans-IO) with real inputs and carries out its actions.
///
/// Every input — call rows from the intake, buttons, room events, media reports, timers, outgoing-call
/// results — goes through one serial inbox and is handled to the end before the next, so the machine and
/// the room table never see interleaved halves of two events. What the machine does not keep about a call
/// (its route, socket, peers, media sessions and early signals) lives in one `CallRoom` per session.
public actor CallCoordinator {
    enum Input: Sendable {
        case start
        case row(ActiveSessionRow)
        case machine(CallEvent)
        case room(sessionID: String, connection: UInt64, SignalingConnection.Event)
        case media(sessionID: String, number: UInt64, MediaState)
        case mediaStopped(sessionID: String)
        case outgoing(request: UInt64, OutgoingCallPlacer.Result)
        case leaveDeadline(sessionID: String)
        case addressesChanged(reason: String)
        case sipInvite(SIPIncomingDialog)
        case sipAttached(SIPDialer)
        case shutdown
    }

    private var machine: CallStateMachine
    private let epoch = ContinuousClock.now
    private let placer: OutgoingCallPlacer
    /// Places calls to a SIP target once `[sip]` runs (`attachSIP`).
    private var sipDialer: SIPDialer?
    private let mediaFactory: any CallMediaFactory
    private let indicators: any CallIndicators
    private let status: AgentStatusBoard?
    private let deviceTitle: String
    private let allowedSignalHosts: Set<String>?
    /// The CAs a room's `wss://` signaling server is checked against (the backend's `ca_file`).
    private let trust: BackendTrust
    private let metrics: AgentMetrics?
    private let visits: VisitorLog?
    private let observer: (any CallObserver)?
    /// Says received texts on the speaker (`[audio] speak_messages`); nil when off.
    private let messageSpeaker: MessageSpeaker?
    private let logger: Logger
    /// The outcome lines of answered calls, under their own label (`<label>.calls`) and so their own log budget:
    /// only real calls reach them, so a flood of refused INVITEs or rows (whose lines spend the main label's
    /// budget) cannot drop the line of the call it interrupted.
    private let answeredCallsLogger: Logger
    /// The call in progress as the visitor log knows it: its ticket and what identifies its summary.
    private var visit: (ticket: UInt64, direction: CallDirection, remoteID: String, sessionID: String?)?
    private var visitTickets: UInt64 = 0

    private let inbox: AsyncStream<(Input, CheckedContinuation<Void, Never>?)>
    private let inboxSink: AsyncStream<(Input, CheckedContinuation<Void, Never>?)>.Continuation
    private var loop: Task<Void, Never>?
    private var rooms: [String: CallRoom] = [:]
    /// How long the caller spoke in a call whose media just stopped, until its outcome is logged (next action).
    private var callerSpoke: [String: Double] = [:]
    private var timers: [CallTimer: Task<Void, Never>] = [:]
    private var nextNumber: UInt64 = 0
    /// What `mediaFactory` was last told about the calls' need for media.
    private var mediaNeeded = false
    /// Whether calls carry the device's microphone (`[audio]` enabled), as announced to the other side.
    private let sendsAudio: Bool
    /// How long a refusal (`bye busy`) waits for the caller to arrive before the room is left anyway.
    static let refusalDeadline: Duration = .seconds(10)

    /// `allowedSignalHosts`: the hosts whose rooms the device may join (nil: any, for tools and tests that
    /// run their own server); a row naming another host is declined and logged.
    public init(policy: CallPolicy, session: BackendSession, mediaFactory: any CallMediaFactory,
                indicators: any CallIndicators = NoIndicators(), status: AgentStatusBoard?, deviceTitle: String,
                allowedSignalHosts: Set<String>? = nil, metrics: AgentMetrics? = nil, visits: VisitorLog? = nil,
                observer: (any CallObserver)? = nil, sendsAudio: Bool = true, messageSpeaker: MessageSpeaker? = nil,
                logger: Logger) {
        self.visits = visits
        self.messageSpeaker = messageSpeaker
        self.sendsAudio = sendsAudio
        self.observer = observer
        machine = CallStateMachine(policy: policy)
        trust = session.trust
        placer = OutgoingCallPlacer(session: session, deviceTitle: deviceTitle, location: status?.location)
        self.mediaFactory = mediaFactory
        self.indicators = indicators
        self.status = status
        self.deviceTitle = deviceTitle
        self.allowedSignalHosts = allowedSignalHosts
        self.metrics = metrics
        self.logger = logger
        var answeredCallsLogger = Logger(label: logger.label + ".calls")
        answeredCallsLogger.logLevel = logger.logLevel
        self.answeredCallsLogger = answeredCallsLogger
        (inbox, inboxSink) = AsyncStream.makeStream()
    }

    public var state: CallState { machine.state }

    // MARK: Inputs

    /// The backend is reachable (the intake only delivers rows after login): the machine starts.
    public func begin() async { await submit(.start) }

    /// A call row the intake took (each row once).
    public func incoming(_ row: ActiveSessionRow) async { await submit(.row(row)) }

    public func button(_ event: ButtonEvent) async { await submit(.machine(.button(event))) }

    /// The host's addresses changed (`AddressChangeService`): every media session restarts its transport.
    public func addressesChanged(_ reason: String) async { await submit(.addressesChanged(reason: reason)) }

    /// A SIP INVITE (issue #18): rings like a call row; its dialog stands in for the signaling room.
    func sipInvited(_ dialog: SIPIncomingDialog) async { await submit(.sipInvite(dialog)) }

    /// `[sip]` runs: the call button's SIP target can be called.
    func attachSIP(_ dialer: SIPDialer) async { await submit(.sipAttached(dialer)) }

    /// A required device is missing or broke (e.g. the GPIO lines): the machine shows `fault`.
    public func deviceFault(_ device: String) async { await submit(.machine(.deviceFault(device: device))) }

    /// Stops every call (a `bye` to the peers, media and rooms closed), for graceful shutdown; later inputs
    /// are ignored.
    public func shutdown() async {
        await submit(.shutdown)
        await loop?.value
    }

    /// Queues `input` and returns once it was handled.
    private func submit(_ input: Input) async {
        startLoopIfNeeded()
        await withCheckedContinuation { done in
            if case .terminated = inboxSink.yield((input, done)) { done.resume() }
        }
    }

    /// Queues `input` from a producer (a room's socket, a media session, a timer) without waiting.
    private nonisolated func post(_ input: Input) {
        inboxSink.yield((input, nil))
    }

    private func startLoopIfNeeded() {
        guard loop == nil else { return }
        loop = Task {
            var shutDown = false
            for await (input, done) in inbox {
                // After the shutdown the inbox is finished; what was queued behind it is released unhandled.
                if !shutDown {
                    await handle(input)
                    updateMediaDemand()
                    if case .shutdown = input {
                        shutDown = true
                        inboxSink.finish()
                    }
                }
                done?.resume()
            }
        }
    }

    private func handle(_ input: Input) async {
        switch input {
        case .start:
            await perform(machine.startupActions())
            await feed(.backendUp)
        case .row(let row):
            await incomingRow(row)
        case .machine(let event):
            if case .timerFired(let timer) = event { timers[timer] = nil }
            await feed(event)
        case .room(let sessionID, let connection, let event):
            await roomEvent(event, in: sessionID, connection: connection)
        case .media(let sessionID, let number, let state):
            // By number: the peer may have come back under a new id since the session started.
            guard let peer = rooms[sessionID]?.peer(ofMedia: number), let media = rooms[sessionID]?.media[peer],
                  media.carriesTheCall else { return }
            switch state {
            case .up:
                // The other side shows what the device sends (a device without a microphone: "microphone off").
                await rooms[sessionID]?.connection?.socket.send(.media(audio: sendsAudio, video: true), to: peer)
                if let cameras = (mediaFactory as? any CameraSwitching)?.cameras {
                    await rooms[sessionID]?.connection?.socket.send(.cameras(names: cameras.names, active: cameras.active), to: peer)
                }
                await feed(.mediaUp(sessionID: sessionID))
            case .down: await feed(.mediaDown(sessionID: sessionID))
            case .failed(let reason): await feed(.mediaFailed(sessionID: sessionID, reason))
            }
        case .mediaStopped(let sessionID):
            // Stopped on purpose is down: the machine need not wait out its teardown timer (a caller ringing
            // again right after hanging up would otherwise be told "busy").
            await feed(.mediaDown(sessionID: sessionID))
        case .outgoing(let request, .created(let rowID, let sessionID, let route)):
            guard route.dialog != nil || permits(route.signalURL) else {
                await feed(.outgoingCallFailed(request: request, reason: "the backend named a signaling host not allowed"))
                return
            }
            rooms[sessionID] = CallRoom(route: route)
            await feed(.outgoingCallCreated(request: request, rowID: rowID, sessionID: sessionID))
            await dropRoomIfUnused(sessionID)  // the call was cancelled while its row was being created
        case .outgoing(let request, .failed(let reason)):
            await feed(.outgoingCallFailed(request: request, reason: reason))
        case .leaveDeadline(let sessionID):
            if rooms[sessionID]?.leaveWhenFlushed == true { await leave(sessionID) }
        case .addressesChanged(let reason):
            // Each room's socket may be bound to the address that went away: rejoin first, then restart the
            // media transports once joined (`roomEvent`), so the re-offers travel on a live socket.
            for (sessionID, room) in rooms where !room.media.isEmpty {
                logger.notice("addresses changed (\(reason)): rejoining the room, then restarting ICE on \(room.media.count) media session(s)",
                              metadata: ["session": "\(sessionID)"])
                if let socket = room.connection?.socket {
                    rooms[sessionID]?.transportRestartOnJoin = reason
                    await socket.reconnectNow()
                } else {
                    restartTransports(in: sessionID, reason: reason)
                }
            }
        case .sipInvite(let dialog):
            let sessionID = dialog.sessionID
            rooms[sessionID] = CallRoom(route: .init(signalURL: "sip", publisherToken: nil, subscriberToken: nil,
                                                     iceServers: [], dialog: dialog))
            await feed(.incomingCall(dialog.incomingCall(now: now), localTime: Self.localTime()))
            // Refused without a word (the same call again): closing the dialog gives the INVITE its final answer.
            await dropRoomIfUnused(sessionID)
        case .sipAttached(let dialer):
            sipDialer = dialer
        case .shutdown:
            await feed(.shuttingDown)  // the call's outcome and visit first; then sockets and media close
            await closeEverything()
        }
    }

    private func incomingRow(_ row: ActiveSessionRow) async {
        guard let sessionID = row.sessionID, let signalURL = row.signalURL, row.publisherToken != nil else {
            logger.warning("call row without session fields (not minted by the server?)", metadata: ["row": "\(row.objectId)"])
            return
        }
        guard permits(signalURL) else {
            logger.warning("call declined: its signaling room is on a host this device does not trust", metadata: [
                "row": "\(row.objectId)", "signalURL": "\(signalURL)",
                "allowed": "\(allowedSignalHosts.map { $0.sorted().joined(separator: ", ") } ?? "-")",
            ])
            return
        }
        if rooms[sessionID] == nil {
            rooms[sessionID] = CallRoom(route: CallRoom.Route(
                signalURL: signalURL, publisherToken: row.publisherToken, subscriberToken: row.subscriberToken,
                iceServers: row.iceServers ?? []))
        }
        // The row's expiry is the server's time: compare it with the server's clock, not the device's
        // (a board without a real-time clock can be minutes off, and every row would look expired).
        let serverNow = await placer.session.client.serverClock.serverTime(at: Date())
        let remaining = row.expiresAt.map { $0.date.timeIntervalSince(serverNow) } ?? 60
        let call = IncomingCall(
            rowID: row.objectId, sessionID: sessionID, callerID: row.callerID,
            callerTitle: row.callerTitle ?? row.callerID,
            expiresAt: now + .milliseconds(Int64(max(remaining, 0) * 1000)),
            wantsVideo: row.isVideo ?? true, wantsAudio: row.isAudio ?? true)
        await feed(.incomingCall(call, localTime: Self.localTime()))
        await dropRoomIfUnused(sessionID)  // the same call again, or refused without a word
    }

    /// Media is needed while a call is in progress (ringing, either way, to ending) or any peer's media
    /// session (a viewer's too) still runs.
    private func updateMediaDemand() {
        let needed = machine.state.context != nil || rooms.values.contains { !$0.media.isEmpty }
        guard needed != mediaNeeded else { return }
        mediaNeeded = needed
        mediaFactory.callsNeedMedia(needed)
    }

    /// A room the machine neither joined nor holds as its call is forgotten; a SIP dialog is closed (an
    /// INVITE gets its final answer, an unsent one lets go of its RTP port).
    private func dropRoomIfUnused(_ sessionID: String) async {
        if let room = rooms[sessionID], room.connection == nil, machine.state.context?.sessionID != sessionID {
            rooms[sessionID] = nil
            await room.route.dialog?.close()
        }
    }

    /// Whether a room at `signalURL` may be joined (it receives the call's token).
    private func permits(_ signalURL: String) -> Bool {
        guard let allowedSignalHosts else { return true }
        guard let host = URL(string: signalURL)?.host?.lowercased() else { return false }
        return allowedSignalHosts.contains(host)
    }

    private func feed(_ event: CallEvent) async {
        let before = machine.state
        let actions = machine.handle(event, at: now)
        if let observer, machine.state != before {
            let route = machine.state.context?.sessionID.flatMap { rooms[$0]?.route.signalURL }.flatMap { URL(string: $0)?.host }
            let after = machine.state.context
            let newCall = after.map { $0.startedAt != before.context?.startedAt || $0.direction != before.context?.direction } ?? false
            observer.callStateChanged(machine.state, route: route, newCall: newCall)
        }
        await noteVisit(before: before.context, after: machine.state.context)
        await perform(actions)
    }

    /// A new call context is a call that rings (incoming or outgoing): the visitor log takes its snapshot
    /// now, in the background. Later contexts of the same call only fill in its session.
    private func noteVisit(before: CallContext?, after: CallContext?) async {
        guard let after else { return }
        if let before, before.startedAt == after.startedAt, before.direction == after.direction {
            visit?.sessionID = after.sessionID
            return
        }
        visitTickets += 1
        visit = (visitTickets, after.direction, after.remoteID, after.sessionID)
        await visits?.ringStarted(visitTickets)
    }

    /// The ticket of the call `summary` ends, if it is the one that rang (a caller refused as busy never did).
    private func visitTicket(for summary: CallSummary) -> UInt64? {
        guard let visit, visit.direction == summary.direction, visit.remoteID == summary.remoteID,
              visit.sessionID == nil || summary.sessionID == nil || visit.sessionID == summary.sessionID
        else { return nil }
        self.visit = nil
        return visit.ticket
    }

    private var now: CallInstant { CallInstant(sinceBoot: ContinuousClock.now - epoch) }

    static func localTime(_ date: Date = Date()) -> MinuteOfDay {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: date)
        return (try? MinuteOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0))
            ?? (try! MinuteOfDay(minutesSinceMidnight: 0))  // hour 0…23 and minute 0…59 always form one
    }

    private func number() -> UInt64 {
        nextNumber += 1
        return nextNumber
    }

    // MARK: Actions

    private func perform(_ actions: [CallAction]) async {
        for action in actions { await perform(action) }
    }

    private func perform(_ action: CallAction) async {
        switch action {
        case .deleteCallRow(let rowID):
            guard CallRoute(sessionID: rowID) == .webrtc else { return }  // a SIP call has no row
            let session = placer.session, logger = self.logger
            Task {
                do throws(ParseClientError) {
                    _ = try await session.deleteCallRow(rowID)  // already gone: the callee took it
                } catch {
                    logger.warning("could not delete our outgoing call row", metadata: ["row": "\(rowID)", "error": "\(error)"])
                }
            }
        case .createOutgoingCall(let request, .sip(let uri)):
            guard let sipDialer else {
                post(.outgoing(request: request, .failed(reason: "SIP is not running (yet)")))
                return
            }
            // Off the coordinator: resolving the registrar may wait for DNS.
            Task { self.post(.outgoing(request: request, sipDialer.dial(uri))) }
        case .createOutgoingCall(let request, let target):
            let placer = self.placer
            Task { self.post(.outgoing(request: request, await placer.place(target))) }
        case .joinSession(let sessionID, let role):
            join(sessionID, role: role)
        case .sendSignal(let sessionID, let to, let signal):
            guard let socket = rooms[sessionID]?.connection?.socket else { return }
            let payload = SignalTranslation.payload(signal)
            let recipients = to.map { [$0] } ?? rooms[sessionID]?.broadcast(payload) ?? []
            for peer in recipients { await socket.send(payload, to: peer) }
        case .nextCamera(let sessionID, let to):
            let switching = mediaFactory as? any CameraSwitching
            guard let socket = rooms[sessionID]?.connection?.socket, let switching, let to,
                  let next = CameraRequest.next(after: switching.cameras) else { return }
            await socket.send(CameraRequest.answer(next, switching: switching, logger: logger), to: to)
        case .leaveSession(let sessionID):
            guard let room = rooms[sessionID] else { return }
            if room.hasPendingBroadcasts, room.connection != nil {
                // A refusal (`bye busy`) is still waiting for the caller to be in the room: leave once it
                // went out, or after `refusalDeadline` if nobody comes.
                rooms[sessionID]?.leaveWhenFlushed = true
                Task {
                    try? await Task.sleep(for: Self.refusalDeadline)
                    self.post(.leaveDeadline(sessionID: sessionID))
                }
            } else {
                await leave(sessionID)
            }
        case .startMedia(let sessionID, let peer, let plan):
            await startMedia(sessionID, peer: peer, plan: plan)
        case .stopMedia(let sessionID):
            let stopping = rooms[sessionID]?.removeAllMedia() ?? []
            guard !stopping.isEmpty else { return }
            // Closed before the call's outcome is logged (the next action), so a caller who rings again as
            // soon as the outcome shows finds the device free: the machine hears `mediaStopped` next, before
            // any input queued after this one. Closing takes milliseconds, up to ~1 s with a TURN release.
            for media in stopping {
                await media.session.stop()
                // The party's figure; a viewer's media carries no audio and says nil.
                if let spoke = media.session.peerSpokeSeconds { callerSpoke[sessionID] = max(spoke, callerSpoke[sessionID] ?? 0) }
            }
            post(.mediaStopped(sessionID: sessionID))
        case .admitViewer(let sessionID, let peer):
            await startMedia(sessionID, peer: peer, plan: .viewer)
        case .refuseViewer(let sessionID, let peer):
            await rooms[sessionID]?.connection?.socket.send(.bye(.busy), to: peer)
        case .removeViewer(let sessionID, let peer):
            if let media = rooms[sessionID]?.removeMedia(peer) { Task { await media.session.stop() } }
        case .pulseDoor:
            logger.info("opening the door")
            await indicators.pulseDoor()
        case .refuseDoorOpen(let sessionID, let peer, let refusal):
            logger.info("door open refused", metadata: ["session": "\(sessionID)", "peer": "\(peer)", "why": "\(refusal)"])
        case .setLEDPattern(let pattern):
            await indicators.show(pattern)
        case .armTimer(let timer, let instant):
            timers[timer]?.cancel()
            let delay = instant - now
            timers[timer] = Task {
                try? await Task.sleep(for: max(delay, .zero))
                guard !Task.isCancelled else { return }
                self.post(.machine(.timerFired(timer)))
            }
        case .cancelTimer(let timer):
            timers.removeValue(forKey: timer)?.cancel()
        case .logCallOutcome(let summary):
            let spoke = summary.sessionID.flatMap { callerSpoke.removeValue(forKey: $0) }
            (summary.outcome.wasAnswered ? answeredCallsLogger : logger).notice(
                "call \(summary.direction) \(summary.remoteTitle): \(summary.outcome)", metadata: [
                "session": "\(summary.sessionID ?? "-")", "ringToAnswer": "\(summary.ringToAnswer.map { "\($0)" } ?? "-")",
                "setup": "\(summary.setupTime.map { "\($0)" } ?? "-")", "talk": "\(summary.talkTime.map { "\($0)" } ?? "-")",
                "callerSpoke": "\(spoke.map { String(format: "%.1f s", $0) } ?? "-")",
            ])
            metrics?.callEnded(summary)
            observer?.callEnded(summary)
            await visits?.callEnded(summary, ticket: visitTicket(for: summary), callerSpokeSeconds: spoke)
        case .reportState(let line):
            await status?.setCallState(line)
        }
    }

    // MARK: Rooms

    private func join(_ sessionID: String, role: CallCore.SessionRole) {
        if let dialog = rooms[sessionID]?.route.dialog {
            listen(to: dialog, in: sessionID)
            return
        }
        guard let route = rooms[sessionID]?.route,
              let token = role == .publisher ? route.publisherToken : route.subscriberToken
        else {
            post(.machine(.signal(sessionID: sessionID, .sessionError("no token for this call"))))
            return
        }
        listen(to: SignalingConnection(url: route.signalURL, token: token, name: deviceTitle, trust: trust, logger: logger),
               in: sessionID)
    }

    private func listen(to socket: any RoomConnection, in sessionID: String) {
        let number = number()
        rooms[sessionID]?.joined(socket, number: number)
        // The socket's events become inbox inputs, tagged with the socket's number.
        Task {
            await socket.start()
            for await event in socket.events { self.post(.room(sessionID: sessionID, connection: number, event)) }
        }
    }

    private func roomEvent(_ event: SignalingConnection.Event, in sessionID: String, connection: UInt64) async {
        // Events of a room we already left (its last `closed`, say) are not news.
        guard let socket = rooms[sessionID]?.connection?.socket, rooms[sessionID]?.isCurrent(connection: connection) == true
        else { return }
        var returned: [String: String] = [:]
        var dropped = false
        switch event {
        case .joined(_, _, let present, let iceServers):
            if !iceServers.isEmpty { rooms[sessionID]?.route.iceServers = iceServers }
            rooms[sessionID]?.socketJoined(listing: present)
            returned = comeBack(present, in: sessionID)
            rooms[sessionID]?.named(present)
            await flush(sessionID, arrivals: present.map(\.peerId), via: socket)
            if let reason = rooms[sessionID]?.transportRestartOnJoin {
                rooms[sessionID]?.transportRestartOnJoin = nil
                restartTransports(in: sessionID, reason: reason)
            }
        case .peerJoined(let peer):
            returned = comeBack([peer], in: sessionID)
            rooms[sessionID]?.named([peer])
            await flush(sessionID, arrivals: [peer.peerId], via: socket)
        case .peerLeft(let peerId, let reason):
            // The call's partner whose socket dropped (not a `left`) keeps its media session: it may rejoin.
            if reason != "left", rooms[sessionID]?.media[peerId]?.carriesTheCall == true {
                rooms[sessionID]?.setAway(peerId)
                dropped = true
                logger.notice("the other party's signaling socket dropped (\(reason ?? "no reason")); the media goes on",
                              metadata: ["session": "\(sessionID)", "peer": "\(peerId)"])
            } else if let media = rooms[sessionID]?.left(peerId) {
                Task { await media.session.stop() }
            }
        case .signal(let from, let payload):
            switch payload {
            case .offer, .answer, .candidate:
                if let media = rooms[sessionID]?.deliver(payload, from: from) { await media.session.remote(payload) }
            case .media(let audio, let video):
                logger.info("the other side's microphone is \(audio ? "on" : "off"), its camera \(video ? "on" : "off")",
                            metadata: ["session": "\(sessionID)", "peer": "\(from)"])
            case .text(let id, let text):
                let received = ReceivedText(id: id, text: text, senderName: rooms[sessionID]?.names[from])
                logger.info("\(received.logLine)", metadata: ["session": "\(sessionID)", "peer": "\(from)"])
                metrics?.messageReceived()
                messageSpeaker?.speak(received.text, id: id)
                await socket.send(received.acknowledgement, to: from)
                observer?.messageReceived(received, sessionID: sessionID)
            case .textAck(let id):
                logger.info("text message \(id) delivered", metadata: ["session": "\(sessionID)", "peer": "\(from)"])
            case .camera(let name):
                await socket.send(CameraRequest.answer(name, switching: mediaFactory as? any CameraSwitching, logger: logger), to: from)
            default:
                break
            }
        case .refused(let code, let message) where code == .rateLimited || code == .badSignal:
            logger.warning("signaling refused a signal: \(message)", metadata: ["session": "\(sessionID)"])
        case .refused, .closed:
            break
        }
        guard rooms[sessionID] != nil else { return }  // the flush may have left the room
        for signal in SignalTranslation.remoteSignals(event, returned: returned, dropped: dropped) {
            await feed(.signal(sessionID: sessionID, signal))
        }
    }

    /// Peers among `arrivals` that are someone away coming back: new `peerId` → old one.
    private func comeBack(_ arrivals: [SignalingPeer], in sessionID: String) -> [String: String] {
        var returned: [String: String] = [:]
        for peer in arrivals {
            guard let old = rooms[sessionID]?.returning(peer) else { continue }
            returned[peer.peerId] = old
            logger.notice("\(peer.name ?? "a peer") is back in the call's room", metadata: [
                "session": "\(sessionID)", "peer": "\(peer.peerId)", "was": "\(old)"])
        }
        return returned
    }

    /// Every media session of the room restarts its transport (ICE restart), each in the background.
    private func restartTransports(in sessionID: String, reason: String) {
        for media in rooms[sessionID]?.media.values ?? [:].values {
            Task { await media.session.restartTransport(reason: reason) }
        }
    }

    /// Sends what waited for someone to be in the room; leaves if that was all the room was kept for.
    private func flush(_ sessionID: String, arrivals: [String], via socket: any RoomConnection) async {
        guard let pending = rooms[sessionID]?.arrived(arrivals), let present = rooms[sessionID]?.present else { return }
        for payload in pending { for peer in present { await socket.send(payload, to: peer) } }
        if !pending.isEmpty, rooms[sessionID]?.leaveWhenFlushed == true { await leave(sessionID) }
    }

    private func leave(_ sessionID: String) async {
        guard var room = rooms.removeValue(forKey: sessionID) else { return }
        for media in room.removeAllMedia() { Task { await media.session.stop() } }
        await room.connection?.socket.close()
    }

    private func closeEverything() async {
        for (sessionID, var room) in rooms {
            if let socket = room.connection?.socket {
                for peer in room.present { await socket.send(.bye(.hangup), to: peer) }
                await socket.close()
            }
            for media in room.removeAllMedia() { await media.session.stop() }
            rooms[sessionID] = nil
        }
        for timer in timers.values { timer.cancel() }
        timers = [:]
    }

    // MARK: Media

    /// Starts `peer`'s media session with what the peer already sent. Only the call's own media tells the
    /// machine when it goes up or down: a viewer's connection ending (it left, or its network failed) is that
    /// viewer's business and must not start the call's media timeout.
    private func startMedia(_ sessionID: String, peer: String, plan: MediaPlan) async {
        guard let room = rooms[sessionID], room.connection != nil else { return }
        let carriesTheCall = !plan.viewOnly
        let number = number()
        let session = room.route.dialog?.mediaSession() ?? mediaFactory.makeSession(sessionID: sessionID, peer: peer)
        let early = rooms[sessionID]?.startMedia(.init(session: session, number: number, carriesTheCall: carriesTheCall),
                                                 for: peer) ?? []
        do {
            try await session.start(
                plan: plan, iceServers: room.route.iceServers, early: early,
                signal: { payload in await self.mediaSignal(payload, sessionID: sessionID, number: number) },
                state: { state in self.post(.media(sessionID: sessionID, number: number, state)) })
        } catch {
            logger.error("media failed to start", metadata: ["session": "\(sessionID)", "peer": "\(peer)", "error": "\(error)"])
            post(.media(sessionID: sessionID, number: number, .down))
        }
    }

    /// A media session's SDP or candidate, to its peer under the id it has now, on the room's socket.
    private func mediaSignal(_ payload: SignalPayload, sessionID: String, number: UInt64) async {
        guard let room = rooms[sessionID], let peer = room.peer(ofMedia: number), let socket = room.connection?.socket
        else { return }
        await socket.send(payload, to: peer)
    }
}
