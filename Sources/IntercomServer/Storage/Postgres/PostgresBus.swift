import Foundation
import Logging
import PostgresNIO
import Synchronization

/// What the instances of a fleet tell each other, on PostgreSQL's LISTEN/NOTIFY (one engine to run, no
/// Redis): committed changes for every instance's LiveQuery hub (`intercom_changes_<schema>`), and signaling
/// frames for the one instance that holds a socket or owns a room (`intercom_signal_<schema>_<instance>`).
/// A payload over NOTIFY's 8,000-byte limit waits in `"_ChangeSpill"` and the notification carries its id.
/// Notifications sent while a listener reconnects are lost (as with parse-server's Redis bus), so once it is
/// back every LiveQuery socket of this instance is closed: its clients subscribe again and poll for what
/// they missed, as the device does after any LiveQuery outage. Signaling sockets whose room is unreachable
/// are closed too, so their parties rejoin. Every `heartbeatInterval` the instance records
/// itself alive in `"_Instance"` and learns which others are.
final class PostgresBus: Sendable {
    enum State: Sendable, Equatable {
        case starting
        case listening
        case reconnecting(String)
    }

    /// This instance's name on the bus, new at every start.
    let instanceId = RandomText.alphanumeric(12).lowercased()
    private let settings: PostgresSettings
    private let hub: LiveQueryHub
    private let logger: Logger
    private let notifier: PostgresLane
    private let reader: PostgresLane
    private let state = Mutex(State.starting)
    private let counters = Mutex((sent: 0, received: 0, spilled: 0, failed: 0))
    private let relay = Mutex<SignalingRelay?>(nil)
    /// Signaling messages leave in the order they were queued, through one task.
    private let outgoing: AsyncStream<(channel: String, payload: String)>
    private let outgoingQueue: AsyncStream<(channel: String, payload: String)>.Continuation

    /// pg_notify refuses payloads of 8,000 bytes or more.
    static let inlineLimit = 7_900
    static let heartbeatInterval = Duration.seconds(2)
    static let outgoingLimit = 4_096

    var changesChannel: String { "intercom_changes_" + settings.schema }

    func signalChannel(_ instance: String) -> String { "intercom_signal_\(settings.schema)_\(instance)" }

    init(settings: PostgresSettings, hub: LiveQueryHub, logger: Logger) {
        self.settings = settings
        self.hub = hub
        self.logger = logger
        notifier = PostgresLane(name: "notify", mode: .write, settings: settings, logger: logger)
        reader = PostgresLane(name: "bus-reader", mode: .read, settings: settings, logger: logger)
        (outgoing, outgoingQueue) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(Self.outgoingLimit))
    }

    /// Where signaling messages for this instance go (set once, when the relay is built).
    func attach(_ relay: SignalingRelay) {
        self.relay.withLock { $0 = relay }
    }

    var currentState: State { state.withLock { $0 } }

    var figures: (sent: Int, received: Int, spilled: Int, failed: Int) { counters.withLock { $0 } }

    /// Sends a committed change to every instance (this one too); returns once it is sent.
    func publish(_ change: ObjectChange) async {
        do {
            try await notify(changesChannel, ChangeMessage(change).payload)
        } catch {
            counters.withLock { $0.failed += 1 }
            logger.error("change not published to the other instances",
                         metadata: ["class": "\(change.className)", "error": "\(error)"])
        }
    }

    /// Queues a signaling message for `instance`; false when the queue is full.
    func send(_ envelope: SignalingEnvelope, to instance: String) -> Bool {
        guard let data = try? JSONEncoder().encode(envelope) else { return false }
        if case .dropped = outgoingQueue.yield((signalChannel(instance), String(decoding: data, as: UTF8.self))) {
            return false
        }
        return true
    }

    private func notify(_ channel: String, _ payload: String) async throws {
        // Outside a transaction: one round trip for the common, inline case.
        let spilled = try await notifier.runWithoutTransaction { connection -> Bool in
            let db = PostgresTransaction(connection: connection, logger: self.logger)
            if payload.utf8.count <= Self.inlineLimit {
                try db.execute("SELECT pg_notify(?, ?)", [channel, payload])
                return false
            }
            let id = try db.value(Int64.self, #"INSERT INTO "_ChangeSpill" (payload) VALUES (?) RETURNING id"#,
                                  [payload]) ?? 0
            try db.execute("SELECT pg_notify(?, ?)", [channel, "#\(id)"])
            return true
        }
        counters.withLock { $0.sent += 1; if spilled { $0.spilled += 1 } }
    }

    // MARK: Running

    /// Listens, sends queued signaling messages and beats until cancelled; a lost listener reconnects after
    /// a second.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendQueued() }
            group.addTask { await self.beat() }
            group.addTask {
                while !Task.isCancelled {
                    do {
                        try await self.listenOnce()
                    } catch is CancellationError {
                        break
                    } catch {
                        let reason = String(describing: error)
                        if self.state.withLock({ $0 }) != .reconnecting(reason) {
                            self.logger.warning("bus lost; reconnecting", metadata: ["error": "\(reason)"])
                        }
                        self.state.withLock { $0 = .reconnecting(reason) }
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            await group.next()
            outgoingQueue.finish()
            group.cancelAll()
        }
        notifier.close()
        reader.close()
    }

    private func sendQueued() async {
        for await (channel, payload) in outgoing {
            do {
                try await notify(channel, payload)
            } catch {
                counters.withLock { $0.failed += 1 }
                logger.warning("signaling message not sent", metadata: ["error": "\(error)"])
            }
        }
    }

    private func beat() async {
        var beats = 0
        while !Task.isCancelled {
            let instance = instanceId
            let prune = beats % 30 == 0
            do {
                let alive = try await notifier.run { db in
                    let alive = try SignalRoomStore.beat(db, instance: instance)
                    if prune, try db.tryTransactionLock("intercom-bus-prune") { try SignalRoomStore.prune(db) }
                    return alive
                }
                await relay.withLock({ $0 })?.instancesAlive(alive)
            } catch {
                logger.warning("bus heartbeat failed", metadata: ["error": "\(error)"])
            }
            beats += 1
            try? await Task.sleep(for: Self.heartbeatInterval)
        }
    }

    private func listenOnce() async throws {
        let connection = try await PostgresConnection.connect(
            configuration: try settings.connectionConfiguration(applicationName: SignalRoomStore.listenerName(instanceId)),
            id: Int.random(in: 1...Int(Int32.max)),
            logger: logger)
        defer { Task { try? await connection.close() } }
        try await connection.listen(on: changesChannel) { changes in
            try await connection.listen(on: signalChannel(instanceId)) { signals in
                try await consume(changes: changes, signals: signals)
            }
        }
        throw StorageError.engine(call: "LISTEN", message: "the notification stream ended")
    }

    /// Hands each notification to the hub or the relay until either stream ends.
    private func consume(changes: PostgresNotificationSequence, signals: PostgresNotificationSequence) async throws {
        let wasLost = state.withLock { state in
            defer { state = .listening }
            if case .reconnecting = state { return true }
            return false
        }
        if wasLost {
            // Changes committed while the listener was away never reach this instance's subscribers.
            await hub.disconnectAll("the server lost its change feed for a moment; subscribe again")
        }
        logger.info("bus listening", metadata: ["instance": "\(instanceId)", "channel": "\(changesChannel)"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await notification in changes {
                    guard let message = try await self.resolve(notification.payload).flatMap(ChangeMessage.init(payload:))
                    else { self.unreadable(notification.payload); continue }
                    self.counters.withLock { $0.received += 1 }
                    await self.hub.publish(message.change)
                }
            }
            group.addTask {
                for try await notification in signals {
                    guard let text = try await self.resolve(notification.payload),
                          let envelope = try? JSONDecoder().decode(SignalingEnvelope.self, from: Data(text.utf8))
                    else { self.unreadable(notification.payload); continue }
                    self.counters.withLock { $0.received += 1 }
                    await self.relay.withLock({ $0 })?.received(envelope)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func unreadable(_ payload: String) {
        logger.warning("bus: unreadable notification ignored", metadata: ["bytes": "\(payload.utf8.count)"])
    }

    /// The payload itself, or the spilled one a `#id` notification names.
    private func resolve(_ payload: String) async throws -> String? {
        guard payload.hasPrefix("#") else { return payload }
        guard let id = Int64(payload.dropFirst()) else { return nil }
        return try await reader.run { db in
            try db.value(String.self, #"SELECT payload FROM "_ChangeSpill" WHERE id = ?"#, [id])
        }
    }
}
