import Foundation
import Logging
import ParseWire

/// The session signaling service (SYSTEM.md §4): verifies each join's token against the key ring and the
/// live call sessions, keeps the rooms, relays `signal` frames between peers of one room, answers pings and
/// drops peers that stay silent past `silenceLimit`. Transport-free: a socket hands over its text frames and
/// drains the outbox it gets on join; a finished outbox means "close the socket".
actor SignalingRooms {
    /// SYSTEM.md §4: clients ping every 15 s; a peer silent for 45 s is dropped.
    static let silenceLimit: Duration = .seconds(45)
    static let outboxLimit = 256

    struct Refusal: Error, Equatable {
        let code: SignalingErrorCode
        let message: String

        var frame: String { SignalingFrame.error(code, message: message).text }
    }

    private struct Connection {
        let outbox: SignalingSink
        var lastHeard: ContinuousClock.Instant
    }

    private let verifier: SessionTokenVerifier
    private let database: ServerDatabase
    private let clock: ServerClock
    private let iceServers: IceServerProvider
    private let logger: Logger
    private var table: SignalingRoomTable
    private var connections: [String: Connection] = [:]
    private var texts = SignalingTextGate()
    private let started = ContinuousClock.now

    init(verifier: SessionTokenVerifier, database: ServerDatabase, clock: ServerClock, iceServers: IceServerProvider,
         maxViewers: Int, logger: Logger) {
        self.verifier = verifier
        self.database = database
        self.clock = clock
        self.iceServers = iceServers
        self.logger = logger
        table = SignalingRoomTable(maxViewers: maxViewers)
    }

    var peerCount: Int { table.peerCount }

    /// Handles the first frame of a socket, whose frames go to `outbox`. Returns the socket's peer id, or
    /// nil after sending the refusal and finishing `outbox`.
    func join(_ text: String, outbox: AsyncStream<String>.Continuation) async -> String? {
        await join(text, sink: .local(outbox))
    }

    /// `join` for a socket on this instance or, on a fleet, on another one.
    func join(_ text: String, sink outbox: SignalingSink) async -> String? {
        switch await admit(text) {
        case .failure(let refusal):
            _ = outbox.yield(refusal.frame)
            outbox.finish()
            return nil
        case .success(let (admission, claims)):
            let peerId = admission.member.peerId
            connections[peerId] = Connection(outbox: outbox, lastHeard: .now)
            if let replaced = admission.replaced {
                connections.removeValue(forKey: replaced.peerId)?.outbox.finish()
                broadcast(.peerLeft(peerId: replaced.peerId, reason: "replaced"), to: admission.others)
            }
            let servers = iceServers.iceServers(for: claims.sub, nowSeconds: Int64(clock.now.timeIntervalSince1970))
            send(SignalingFrame.joined(peerId: peerId, role: claims.role, peers: admission.others.map(\.peer),
                                       iceServers: servers).text, to: peerId)
            broadcast(.peerJoined(admission.member.peer), to: admission.others)
            logger.info("signaling: peer joined",
                        metadata: ["peer": "\(peerId)", "session": "\(claims.sid)", "role": "\(claims.role)"])
            return peerId
        }
    }

    /// Checks a join frame: its token (signature, expiry, role), the live call session it names, and that
    /// the token's user is a party of it; then takes a place in the room.
    private func admit(_ text: String) async
        -> Result<(SignalingRoomTable.Admission, SessionTokenClaims), Refusal>
    {
        guard case .join(let token, let name)? = try? SignalingFrame.decode(text) else {
            return .failure(Refusal(code: .badFrame, message: "the first frame must be {\"op\":\"join\",\"token\":…}"))
        }
        let now = clock.now
        let claims: SessionTokenClaims
        do {
            claims = try await verifier.verify(token, now: now)
        } catch .expired {
            return .failure(Refusal(code: .expired, message: "the session token has expired"))
        } catch {
            return .failure(Refusal(code: .badToken, message: "the session token is not valid (\(error))"))
        }
        guard let role = claims.sessionRole else {
            return .failure(Refusal(code: .badToken, message: "the session token has no role"))
        }
        let session: CallSessionRecord?
        do {
            session = try await database.callSession(claims.sid, now: now)
        } catch {
            logger.error("signaling: session lookup failed", metadata: ["error": "\(error)"])
            return .failure(Refusal(code: .expired, message: "the session could not be looked up"))
        }
        guard let session else {
            return .failure(Refusal(code: .expired, message: "the call session has ended or expired"))
        }
        guard session.isParticipant(claims.sub) else {
            return .failure(Refusal(code: .forbidden, message: "this token's user is not a party of the call"))
        }
        let boundedName = name.map { String($0.prefix(120)) }
        guard let admission = table.join(sessionID: claims.sid, callerID: session.callerID, userID: claims.sub, role: role,
                                         name: boundedName)
        else {
            return .failure(Refusal(code: .full, message: "the call has its maximum number of viewers"))
        }
        return .success((admission, claims))
    }

    /// Handles one frame from a joined peer.
    func receive(_ text: String, from peerId: String) {
        guard connections[peerId] != nil else { return }
        connections[peerId]?.lastHeard = .now
        switch try? SignalingInbound.parse(text) {
        case .ping?:
            send(SignalingFrame.pong.text, to: peerId)
        case .pong?:
            break
        case .signal(let to, let data)?:
            let type = data["type"]?.stringValue ?? ""
            switch table.authorize(type: type, from: peerId, to: to) {
            case .relay:
                let elapsed = ContinuousClock.now - started
                let now = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if case .refused(let code, let message) = texts.check(type: type, data: data, from: peerId, now: now) {
                    // Answered, never relayed; the connection and the call go on.
                    send(Refusal(code: code, message: message).frame, to: peerId)
                    logger.notice("signaling: refused a text", metadata: ["peer": "\(peerId)", "reason": "\(message)"])
                    return
                }
                send(JSONValue.object(["op": "signal", "from": .string(peerId), "data": data]).jsonText(), to: to)
            case .dropped:
                // A signal to a peer that just left is a normal race, not a protocol error.
                break
            case .forbidden(let reason):
                // Answered, not relayed; the peer stays (a viewer's late candidate is not worth a drop).
                send(Refusal(code: .forbidden, message: reason).frame, to: peerId)
                logger.notice("signaling: refused a signal", metadata: ["peer": "\(peerId)", "reason": "\(reason)"])
            }
        case .unexpected(let op)?:
            refuse(peerId, Refusal(code: .badFrame, message: "unexpected op \"\(op)\" after join"))
        case nil:
            refuse(peerId, Refusal(code: .badFrame, message: "not a signaling frame"))
        }
    }

    /// The socket of `peerId` closed (or the peer was dropped): tell the room.
    func leave(_ peerId: String, reason: String) {
        connections.removeValue(forKey: peerId)?.outbox.finish()
        texts.forget(peerId)
        guard let (member, remaining) = table.leave(peerId) else { return }
        broadcast(.peerLeft(peerId: member.peerId, reason: reason), to: remaining)
        logger.info("signaling: peer left", metadata: ["peer": "\(peerId)", "reason": "\(reason)"])
    }

    /// Drops every peer silent for longer than `limit`; returns how many.
    @discardableResult
    func dropSilentPeers(limit: Duration = silenceLimit) -> Int {
        let now = ContinuousClock.now
        let silent = connections.filter { now - $0.value.lastHeard > limit }.map(\.key)
        for peerId in silent { leave(peerId, reason: "timeout") }
        return silent.count
    }

    // MARK: Frames

    private func refuse(_ peerId: String, _ refusal: Refusal) {
        send(refusal.frame, to: peerId)
        leave(peerId, reason: "error")
    }

    private func broadcast(_ frame: SignalingFrame, to members: [SignalingRoomTable.Member]) {
        let text = frame.text
        for member in members { send(text, to: member.peerId) }
    }

    private func send(_ text: String, to peerId: String) {
        guard let connection = connections[peerId] else { return }
        if !connection.outbox.yield(text) {
            logger.warning("signaling: peer fell behind; dropping it", metadata: ["peer": "\(peerId)"])
            leave(peerId, reason: "error")
        }
    }
}
