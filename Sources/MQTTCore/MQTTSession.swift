/// An MQTT 3.1.1 client session as a state machine: events in, actions out, time as a `Duration` since an
/// epoch the IO layer chooses (tests drive it on simulated time).
///
/// Clean sessions only: every connection subscribes again, and every retained message published so far is
/// published again (latest per topic), because a broker restarted without persistence forgot them.
/// Non-retained messages published while disconnected are dropped and counted: an event that is old news
/// by the time the broker is back is worth less than the state that is re-published anyway.
public struct MQTTSession: Sendable {
    public enum State: Equatable, Sendable {
        case idle
        case connecting(since: Duration)
        case awaitingConnack(since: Duration)
        case connected
        case waitingToRetry
        case stopped
    }

    public private(set) var state: State = .idle
    public private(set) var droppedWhileDisconnected = 0
    /// How many connections in a row failed (0 once connected): the backoff's retry number.
    public private(set) var failures = 0
    public let configuration: MQTTSessionConfiguration
    /// Equal jitter's random half in 0…1 (fixed in tests).
    private let jitter: @Sendable () -> Double
    private var framer: MQTTFramer
    private var retainedTopics: [String] = []
    private var retained: [String: MQTTMessage] = [:]
    private var lastSent: Duration = .zero
    private var pingSentAt: Duration?
    private var nextPacketID: UInt16 = 0

    public init(configuration: MQTTSessionConfiguration, maximumPacketSize: Int = 256 * 1024,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.configuration = configuration
        self.jitter = jitter
        framer = MQTTFramer(maximumPacketSize: maximumPacketSize)
    }

    public mutating func handle(_ event: MQTTSessionEvent, at now: Duration) -> [MQTTSessionAction] {
        if state == .stopped { return [] }
        switch event {
        case .start:
            guard state == .idle else { return [] }
            state = .connecting(since: now)
            return [.openConnection]
        case .transportUp:
            // The connect timeout covers TCP and CONNACK together: it runs from the connect attempt.
            guard case .connecting(let since) = state else { return [] }
            state = .awaitingConnack(since: since)
            framer.reset()
            pingSentAt = nil
            return [send(connectPacket, at: now)]
        case .transportFailed(let reason), .transportClosed(let reason):
            guard state != .idle, state != .waitingToRetry else { return [] }
            return lost(reason, closing: false, at: now)
        case .received(let bytes):
            return received(bytes, at: now)
        case .tick:
            return tick(at: now)
        case .retryDue:
            guard state == .waitingToRetry else { return [] }
            state = .connecting(since: now)
            return [.openConnection]
        case .publish(let message):
            if message.retain {
                if retained[message.topic] == nil { retainedTopics.append(message.topic) }
                retained[message.topic] = message
            }
            guard state == .connected else {
                if !message.retain { droppedWhileDisconnected += 1 }
                return []
            }
            return [send(publishPacket(message), at: now)]
        case .stop:
            let wasConnected = state == .connected
            state = .stopped
            guard wasConnected else { return [.closeConnection] }
            var actions: [MQTTSessionAction] = []
            if let will = configuration.will { actions.append(send(publishPacket(will), at: now)) }
            actions.append(send(.disconnect, at: now))
            return actions + [.closeConnection]
        }
    }

    private var connectPacket: MQTTPacket {
        .connect(MQTTPacket.Connect(clientID: configuration.clientID, keepAliveSeconds: configuration.keepAliveSeconds,
                                    cleanSession: true, will: configuration.will, username: configuration.username,
                                    password: configuration.password))
    }

    private mutating func publishPacket(_ message: MQTTMessage) -> MQTTPacket {
        .publish(message, packetID: message.qos > .atMostOnce ? packetID() : nil, duplicate: false)
    }

    /// §2.3.1: non-zero, unique among unacknowledged packets (QoS 1 publishes are fire-and-forget here, so a
    /// wrapping counter is enough).
    private mutating func packetID() -> UInt16 {
        nextPacketID = nextPacketID == UInt16.max ? 1 : nextPacketID + 1
        return nextPacketID
    }

    private mutating func send(_ packet: MQTTPacket, at now: Duration) -> MQTTSessionAction {
        lastSent = now
        return .send(packet.encoded())
    }

    private mutating func received(_ bytes: [UInt8], at now: Duration) -> [MQTTSessionAction] {
        switch state {
        case .awaitingConnack, .connected: break
        default: return []
        }
        let packets: [MQTTPacket]
        do throws(MQTTPacketError) {
            packets = try framer.append(bytes)
        } catch {
            return lost("malformed packet from the broker: \(error)", closing: true, at: now)
        }
        var actions: [MQTTSessionAction] = []
        for packet in packets {
            actions += handle(packet, at: now)
            if state == .waitingToRetry { break }  // the rest of the stream is moot
        }
        return actions
    }

    private mutating func handle(_ packet: MQTTPacket, at now: Duration) -> [MQTTSessionAction] {
        switch (state, packet) {
        case (.awaitingConnack, .connack(_, .accepted)):
            state = .connected
            failures = 0
            var actions: [MQTTSessionAction] = [.connected]
            if !configuration.subscriptions.isEmpty {
                actions.append(send(.subscribe(packetID: packetID(), configuration.subscriptions), at: now))
            }
            for topic in retainedTopics { if let message = retained[topic] { actions.append(send(publishPacket(message), at: now)) } }
            return actions
        case (.awaitingConnack, .connack(_, let code)):
            return lost("the broker refused the connection: \(code)", closing: true, at: now)
        case (.awaitingConnack, _):
            // §3.2: the first packet from the server must be CONNACK.
            return lost("the broker sent \(packet.typeCode) before CONNACK", closing: true, at: now)
        case (.connected, .publish(let message, let packetID, _)):
            var actions: [MQTTSessionAction] = [.deliver(message)]
            if message.qos == .atLeastOnce, let packetID { actions.insert(send(.puback(packetID: packetID), at: now), at: 0) }
            return actions
        case (.connected, .pingresp):
            pingSentAt = nil
            return []
        case (.connected, .suback(_, let codes)):
            // §3.9.3: 0x80 is a refused filter; the connection stays up for publishing.
            return codes.contains(0x80) ? [.warning("the broker refused the subscription to \(configuration.subscriptions.map(\.topicFilter))")] : []
        case (.connected, .puback):
            return []
        default:
            return lost("unexpected packet type \(packet.typeCode) from the broker", closing: true, at: now)
        }
    }

    private mutating func tick(at now: Duration) -> [MQTTSessionAction] {
        switch state {
        case .connecting(let since), .awaitingConnack(let since):
            guard now - since >= configuration.connectTimeout else { return [] }
            return lost("no CONNACK within \(configuration.connectTimeout)", closing: true, at: now)
        case .connected:
            // §3.1.2.10: a PINGRESP should come back within a reasonable time; a keep-alive period is ours.
            if let pingSentAt, now - pingSentAt >= configuration.keepAlive {
                return lost("no PINGRESP within \(configuration.keepAlive)", closing: true, at: now)
            }
            if pingSentAt == nil, now - lastSent >= configuration.keepAlive / 2 {
                pingSentAt = now
                return [send(.pingreq, at: now)]
            }
            return []
        default:
            return []
        }
    }

    private mutating func lost(_ reason: String, closing: Bool, at now: Duration) -> [MQTTSessionAction] {
        failures += 1
        state = .waitingToRetry
        framer.reset()
        pingSentAt = nil
        let ceiling = configuration.retry.ceilingDelay(retry: failures)
        let seconds = ceiling / 2 + min(max(jitter(), 0), 1) * ceiling / 2
        let delay = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        return (closing ? [.closeConnection] : []) + [.disconnected(reason: reason), .scheduleRetry(after: delay)]
    }
}
