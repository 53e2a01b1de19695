import MQTTCore
import ParseWire
import Testing

@Suite("Client session on simulated time")
struct SessionTests {
    static let will = MQTTMessage(topic: "dev/availability", text: "offline", qos: .atLeastOnce, retain: true)
    static let command = MQTTPacket.Subscription(topicFilter: "dev/door/set", qos: .atLeastOnce)

    func session() -> MQTTSession {
        MQTTSession(configuration: MQTTSessionConfiguration(
            clientID: "dev", keepAlive: .seconds(20), will: Self.will, username: "u", password: [1, 2],
            subscriptions: [Self.command], connectTimeout: .seconds(10),
            retry: RetryPolicy(baseDelaySeconds: 0.5, maxDelaySeconds: 5)), jitter: { 1 })
    }

    /// The packets among `actions`' sends, decoded.
    func sent(_ actions: [MQTTSessionAction]) throws -> [MQTTPacket] {
        var framer = MQTTFramer()
        return try actions.flatMap { action -> [MQTTPacket] in
            guard case .send(let bytes) = action else { return [] }
            return try framer.append(bytes)
        }
    }

    func connected() throws -> MQTTSession {
        var session = session()
        #expect(session.handle(.start, at: .zero) == [.openConnection])
        _ = session.handle(.transportUp, at: .zero)
        _ = session.handle(.received(MQTTPacket.connack(sessionPresent: false, returnCode: .accepted).encoded()), at: .zero)
        #expect(session.state == .connected)
        return session
    }

    @Test func connectsWithWillAndCredentialsThenSubscribes() throws {
        var session = session()
        _ = session.handle(.start, at: .zero)
        let connect = try sent(session.handle(.transportUp, at: .milliseconds(5)))
        #expect(connect == [.connect(.init(clientID: "dev", keepAliveSeconds: 20, will: Self.will, username: "u", password: [1, 2]))])
        let actions = session.handle(.received(MQTTPacket.connack(sessionPresent: false, returnCode: .accepted).encoded()), at: .seconds(1))
        #expect(actions.first == .connected)
        #expect(try sent(actions) == [.subscribe(packetID: 1, [Self.command])])
    }

    @Test func retainedStateIsRepublishedAfterEveryConnectAndEventsAreDroppedWhileDown() throws {
        var session = session()
        let stateOn = MQTTMessage(topic: "dev/state", text: "ringing", retain: true)
        let stateOff = MQTTMessage(topic: "dev/state", text: "idle", retain: true)
        let ring = MQTTMessage(topic: "dev/ring", text: "{}")
        #expect(session.handle(.publish(stateOn), at: .zero).isEmpty)
        #expect(session.handle(.publish(ring), at: .zero).isEmpty)
        #expect(session.handle(.publish(stateOff), at: .zero).isEmpty)
        #expect(session.droppedWhileDisconnected == 1)
        _ = session.handle(.start, at: .zero)
        _ = session.handle(.transportUp, at: .zero)
        let first = try sent(session.handle(.received(MQTTPacket.connack(sessionPresent: false, returnCode: .accepted).encoded()), at: .zero))
        #expect(first.dropFirst() == [.publish(stateOff, packetID: nil, duplicate: false)])
        // Connected: an event goes out at once. The broker restarts: the latest state goes out again.
        #expect(try sent(session.handle(.publish(ring), at: .seconds(1))) == [.publish(ring, packetID: nil, duplicate: false)])
        let lost = session.handle(.transportClosed("reset"), at: .seconds(2))
        #expect(lost == [.disconnected(reason: "reset"), .scheduleRetry(after: .milliseconds(500))])
        #expect(session.handle(.retryDue, at: .seconds(3)) == [.openConnection])
        _ = session.handle(.transportUp, at: .seconds(3))
        let again = try sent(session.handle(.received(MQTTPacket.connack(sessionPresent: false, returnCode: .accepted).encoded()), at: .seconds(3)))
        #expect(again.dropFirst() == [.publish(stateOff, packetID: nil, duplicate: false)])
    }

    @Test func keepAlivePingsAndASilentBrokerIsDropped() throws {
        var session = try connected()
        #expect(session.handle(.tick, at: .seconds(9)).isEmpty)
        #expect(try sent(session.handle(.tick, at: .seconds(10))) == [.pingreq])
        #expect(session.handle(.received([0xD0, 0x00]), at: .seconds(11)).isEmpty)
        #expect(try sent(session.handle(.tick, at: .seconds(20))) == [.pingreq])
        #expect(session.handle(.tick, at: .seconds(39)).isEmpty)
        let actions = session.handle(.tick, at: .seconds(40))
        #expect(actions.first == .closeConnection)
        #expect(actions.contains(.scheduleRetry(after: .milliseconds(500))))
        #expect(session.state == .waitingToRetry)
    }

    @Test func backoffGrowsToItsCapAndResetsOnConnect() throws {
        var session = session()
        _ = session.handle(.start, at: .zero)
        var delays: [Duration] = []
        for second in 0..<6 {
            for action in session.handle(.transportFailed("connect: Connection refused (errno 111)"), at: .seconds(second)) {
                if case .scheduleRetry(let delay) = action { delays.append(delay) }
            }
            #expect(session.handle(.retryDue, at: .seconds(second)) == [.openConnection])
        }
        #expect(delays == [0.5, 1, 2, 4, 5, 5].map { .milliseconds(Int64($0 * 1000)) })
        _ = session.handle(.transportUp, at: .seconds(7))
        _ = session.handle(.received(MQTTPacket.connack(sessionPresent: false, returnCode: .accepted).encoded()), at: .seconds(7))
        #expect(session.failures == 0)
    }

    @Test func aMissingConnackTimesOut() {
        var session = session()
        _ = session.handle(.start, at: .zero)
        _ = session.handle(.transportUp, at: .seconds(1))
        #expect(session.handle(.tick, at: .seconds(9)).isEmpty)
        #expect(session.handle(.tick, at: .seconds(10)).first == .closeConnection)
    }

    @Test func aRefusedConnectionRetries() {
        var session = session()
        _ = session.handle(.start, at: .zero)
        _ = session.handle(.transportUp, at: .zero)
        let actions = session.handle(.received(MQTTPacket.connack(sessionPresent: false, returnCode: .badUsernameOrPassword).encoded()), at: .zero)
        #expect(actions == [.closeConnection, .disconnected(reason: "the broker refused the connection: bad user name or password"),
                            .scheduleRetry(after: .milliseconds(500))])
    }

    @Test func incomingQoS1IsAcknowledgedAndDelivered() throws {
        var session = try connected()
        let press = MQTTMessage(topic: "dev/door/set", text: "PRESS", qos: .atLeastOnce)
        let actions = session.handle(.received(MQTTPacket.publish(press, packetID: 42, duplicate: false).encoded()), at: .seconds(1))
        #expect(try sent(actions) == [.puback(packetID: 42)])
        #expect(actions.last == .deliver(press))
    }

    @Test func garbageFromTheBrokerClosesTheConnection() throws {
        var session = try connected()
        let actions = session.handle(.received([0xF0, 0x00]), at: .seconds(1))
        #expect(actions.first == .closeConnection)
        #expect(session.state == .waitingToRetry)
    }

    @Test func stopPublishesTheWillThenDisconnects() throws {
        var session = try connected()
        let actions = session.handle(.stop, at: .seconds(1))
        #expect(try sent(actions) == [.publish(Self.will, packetID: 2, duplicate: false), .disconnect])
        #expect(actions.last == .closeConnection)
        #expect(session.handle(.publish(Self.will), at: .seconds(2)).isEmpty)
    }
}
