import Foundation
import Logging
import ParseWire
import Synchronization

/// The signaling endpoint's one way into the rooms. On one instance every room is here. On a fleet a
/// call's room lives on the instance that first had a party join it (`SignalRoomStore`); a socket that
/// reaches another instance is proxied: its frames travel to the owner over the bus, and the room's frames
/// for it travel back. If the owner dies, the proxies close their sockets, the parties reconnect, and the
/// next join moves the room to a live instance (media is peer to peer: the call goes on meanwhile).
final class SignalingRelay: Sendable {
    /// A joined socket: its peer id in a room here, or its name in a room on another instance.
    enum Handle: Sendable, Equatable {
        case local(peerId: String)
        case proxied(owner: String, connection: String)
    }

    private struct Proxy {
        let owner: String
        let outbox: AsyncStream<String>.Continuation
    }

    let rooms: SignalingRooms
    private let fleet: Fleet?
    private let logger: Logger
    /// Proxy side: sockets here whose rooms are elsewhere, by connection name.
    private let proxies = Mutex<[String: Proxy]>([:])
    /// Owner side: peers of rooms here whose sockets are elsewhere, by "instance/connection".
    private let remotePeers = Mutex<[String: String]>([:])

    /// What a fleet needs: this instance's id, the bus, and the database that records room owners.
    struct Fleet: Sendable {
        let bus: PostgresBus
        let database: ServerDatabase
        let verifier: SessionTokenVerifier
    }

    init(rooms: SignalingRooms, fleet: Fleet?, logger: Logger) {
        self.rooms = rooms
        self.fleet = fleet
        self.logger = logger
    }

    // MARK: Sockets on this instance

    /// Handles a socket's first frame; nil when it was refused here (the outbox then holds the error and
    /// is finished). A proxied join is refused, if at all, by the owner, through the outbox.
    func join(_ text: String, outbox: AsyncStream<String>.Continuation) async -> Handle? {
        guard let fleet, let owner = await owner(of: text, fleet), owner != fleet.bus.instanceId else {
            return await rooms.join(text, outbox: outbox).map { .local(peerId: $0) }
        }
        let connection = RandomText.alphanumeric(20)
        proxies.withLock { $0[connection] = Proxy(owner: owner, outbox: outbox) }
        guard send(.join(connection: connection, text: text), to: owner) else {
            proxies.withLock { $0[connection] = nil }
            outbox.finish()
            return nil
        }
        return .proxied(owner: owner, connection: connection)
    }

    func receive(_ text: String, from handle: Handle) async {
        switch handle {
        case .local(let peerId): await rooms.receive(text, from: peerId)
        case .proxied(let owner, let connection): _ = send(.frame(connection: connection, text: text), to: owner)
        }
    }

    func leave(_ handle: Handle, reason: String) async {
        switch handle {
        case .local(let peerId):
            await rooms.leave(peerId, reason: reason)
        case .proxied(let owner, let connection):
            if proxies.withLock({ $0.removeValue(forKey: connection) }) != nil {
                _ = send(.leave(connection: connection, reason: reason), to: owner)
            }
        }
    }

    /// The room's owner for a join frame's session, claiming it when it has none (or a dead one). nil when
    /// the frame or token is not usable (the local rooms then refuse it with the right error) or the
    /// database cannot say (the join is then served here, as on one instance).
    private func owner(of text: String, _ fleet: Fleet) async -> String? {
        guard case .join(let token, _)? = try? SignalingFrame.decode(text),
              let claims = try? await fleet.verifier.verify(token, now: Date())
        else { return nil }
        let instance = fleet.bus.instanceId
        do {
            return try await fleet.database.write { db in
                try SignalRoomStore.claim(db, sessionID: claims.sid, instance: instance)
            }
        } catch {
            logger.warning("signaling: room owner unknown; serving the join here",
                           metadata: ["session": "\(claims.sid)", "error": "\(error)"])
            return nil
        }
    }

    // MARK: The bus

    /// Sends `message` to `instance` (queued in order on the bus); false when the bus is not there or its
    /// queue is full.
    func send(_ message: SignalingRelayMessage, to instance: String) -> Bool {
        guard let fleet else { return false }
        return fleet.bus.send(SignalingEnvelope(from: fleet.bus.instanceId, message: message), to: instance)
    }

    /// A message from another instance (or from this one, for a room it owns and a socket it holds).
    func received(_ envelope: SignalingEnvelope) async {
        let key = envelope.from + "/"
        switch envelope.message {
        case .join(let connection, let text):
            let peer = SignalingRemotePeer(instance: envelope.from, connection: connection, relay: self)
            if let peerId = await rooms.join(text, sink: .remote(peer)) {
                remotePeers.withLock { $0[key + connection] = peerId }
            }
        case .frame(let connection, let text):
            if let peerId = remotePeers.withLock({ $0[key + connection] }) {
                await rooms.receive(text, from: peerId)
            }
        case .leave(let connection, let reason):
            if let peerId = remotePeers.withLock({ $0.removeValue(forKey: key + connection) }) {
                await rooms.leave(peerId, reason: reason)
            }
        case .out(let connection, let text):
            let outbox = proxies.withLock { $0[connection]?.outbox }
            if case .dropped? = outbox?.yield(text) { await closeProxy(connection) }
        case .close(let connection):
            await closeProxy(connection)
        }
    }

    /// The instances alive now: sockets proxied to a dead owner are closed (their parties reconnect and
    /// the room moves), and peers whose sockets were on a dead instance leave their rooms.
    func instancesAlive(_ alive: Set<String>) async {
        let orphaned = proxies.withLock { proxies in proxies.filter { !alive.contains($0.value.owner) }.map(\.key) }
        for connection in orphaned {
            logger.notice("signaling: the room's instance is gone; closing the socket so it rejoins",
                          metadata: ["connection": "\(connection)"])
            await closeProxy(connection)
        }
        let stranded = remotePeers.withLock { peers in
            let gone = peers.filter { key, _ in !alive.contains(String(key.prefix(while: { $0 != "/" }))) }
            for key in gone.keys { peers[key] = nil }
            return Array(gone.values)
        }
        for peerId in stranded { await rooms.leave(peerId, reason: "timeout") }
    }

    private func closeProxy(_ connection: String) async {
        proxies.withLock { $0.removeValue(forKey: connection) }?.outbox.finish()
    }
}
