import Foundation
import Testing
import ParseWire

/// Drives a `LiveQueryClient` the way the IO layer will, recording every action.
struct LiveQueryHarness {
    var client: LiveQueryClient
    var rng = SeededRandom(seed: 11)
    var log: [LiveQueryAction] = []

    init(token: String? = "r:tok", backoff: LiveQueryReconnectBackoff = .init()) {
        client = LiveQueryClient(
            configuration: .init(applicationId: "APP", clientKey: "CK", sessionToken: token, installationId: "inst-1", backoff: backoff),
            subscriptions: [.incomingCalls(receiverID: "u1")])
    }

    @discardableResult
    mutating func send(_ input: LiveQueryInput) -> [LiveQueryAction] {
        let actions = client.handle(input, using: &rng)
        log += actions
        return actions
    }

    /// start → open → connected → subscribed.
    mutating func bringUp() -> [LiveQueryAction] {
        var actions = send(.start)
        actions += send(.socketOpened)
        actions += send(.frameReceived(Fixture.connected))
        actions += send(.frameReceived(Fixture.subscribed(1)))
        return actions
    }
}

extension LiveQueryAction {
    var deliveredId: String? {
        if case .deliver(let row, _) = self { return row.objectId }
        return nil
    }
    var reconnectDelay: Double? {
        if case .scheduleReconnect(let delay) = self { return delay }
        return nil
    }
    var sentFrame: String? {
        if case .sendFrame(let text) = self { return text }
        return nil
    }
    var isIgnored: Bool {
        if case .ignored = self { return true }
        return false
    }
}

@Suite struct LiveQueryClientTests {
    @Test func connectSubscribeAndDeliverCreate() {
        var harness = LiveQueryHarness()
        let actions = harness.bringUp()
        let frames = actions.compactMap(\.sentFrame).map { json($0) }
        #expect(actions.first == .openSocket)
        #expect(frames == [
            ["op": "connect", "applicationId": "APP", "clientKey": "CK", "sessionToken": "r:tok", "installationId": "inst-1"],
            ["op": "subscribe", "requestId": 1, "sessionToken": "r:tok", "query": ["className": "ActiveSessions", "where": ["receiverID": "u1"]]],
        ])
        #expect(actions.compactMap(\.sentFrame)[1].contains(#""requestId":1,"#))
        #expect(actions.contains(.subscribed(requestId: 1)) && actions.last == .linkChanged(up: true))
        let delivered = harness.send(.frameReceived(Fixture.liveEvent("create")))
        #expect(delivered.compactMap(\.deliveredId) == ["c4llR0w001"])
        guard case .deliver(let row, .create)? = delivered.first else { Issue.record("no create delivered"); return }
        #expect(row.publisherToken == "pub.jwt" && row.receiverID == "u1")
        #expect(harness.send(.frameReceived(Fixture.liveEvent("delete"))) == [.rowGone(objectId: "c4llR0w001", .delete)])
    }

    @Test func duplicateCreateIsDeliveredByTheCoreButAdmittedOnce() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        var dedup = CallRowDeduplicator()
        let now = Date(timeIntervalSince1970: Fixture.createdAtSeconds)
        var started: [String] = []
        for _ in 0..<3 {
            for case .deliver(let row, _) in harness.send(.frameReceived(Fixture.liveEvent("create")))
            where dedup.admit(row, now: now) == .deliver {
                started.append(row.objectId)
            }
        }
        #expect(started == ["c4llR0w001"])
    }

    @Test func errorWithoutReconnectStops() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let actions = harness.send(.frameReceived(#"{"op":"error","code":141,"error":"denied","reconnect":false,"requestId":1}"#))
        #expect(actions == [
            .serverError(code: 141, message: "denied", willReconnect: false), .closeSocket(code: 1000),
            .linkChanged(up: false), .stopped(reason: "denied"),
        ])
        #expect(harness.client.phase == .stopped)
        #expect(harness.send(.socketClosed(code: 1000)).isEmpty)
        let late = harness.send(.frameReceived(Fixture.liveEvent("create")))
        #expect(late.count == 1 && late.allSatisfy { $0.isIgnored })
    }

    @Test func errorWithReconnectSchedulesReconnect() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let actions = harness.send(.frameReceived(#"{"op":"error","code":1,"error":"Additional properties not allowed","reconnect":true}"#))
        #expect(actions.prefix(3) == [.serverError(code: 1, message: "Additional properties not allowed", willReconnect: true), .closeSocket(code: 1000), .linkChanged(up: false)])
        #expect(actions.last?.reconnectDelay != nil && harness.client.phase == .waitingToReconnect)
    }

    @Test func socketDropBacksOffReconnectsResubscribesWithoutDuplicates() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        var dedup = CallRowDeduplicator()
        let now = Date(timeIntervalSince1970: Fixture.createdAtSeconds)
        var started: [String] = []
        func intake(_ actions: [LiveQueryAction]) {
            for case .deliver(let row, _) in actions where dedup.admit(row, now: now) == .deliver { started.append(row.objectId) }
        }
        intake(harness.send(.frameReceived(Fixture.liveEvent("create"))))

        // Four drops in a row without ever getting subscribed: ceilings 1, 3, 7, 15 s (JS generateInterval).
        var delays: [Double] = []
        for attempt in 0..<4 {
            let dropped = harness.send(.socketClosed(code: 1006))
            delays += dropped.compactMap(\.reconnectDelay)
            #expect(harness.send(.reconnectDue) == [.openSocket])
            if attempt < 3 { _ = harness.send(.socketOpened) }
        }
        #expect(delays.count == 4)
        for (index, delay) in delays.enumerated() {
            #expect(delay >= 0 && delay < [1.0, 3, 7, 15][index])
        }
        // Reconnect: connect again, then the same subscription under the same requestId.
        let reopened = harness.send(.socketOpened) + harness.send(.frameReceived(Fixture.connected))
        #expect(reopened.compactMap(\.sentFrame).compactMap { json($0)?["op"] } == ["connect", "subscribe"])
        #expect(json(reopened.compactMap(\.sentFrame).last)?["requestId"] == 1)
        let confirmed = harness.send(.frameReceived(Fixture.subscribed(1)))
        #expect(confirmed == [.subscribed(requestId: 1), .linkChanged(up: true)])
        #expect(harness.client.configuration.backoff.attempt == 1)
        // The server replays the row as `create` after a resubscribe, and a poll returns it too.
        intake(harness.send(.frameReceived(Fixture.liveEvent("create"))))
        intake(harness.send(.frameReceived(Fixture.liveEvent("enter"))))
        #expect(dedup.admit(objectId: "c4llR0w001", now: now) == .duplicate)
        intake(harness.send(.frameReceived(Fixture.liveEvent("create", objectId: "n3wCallRow"))))
        #expect(started == ["c4llR0w001", "n3wCallRow"])
    }

    @Test(arguments: [1000, 1001, 1006, 1011, 4000, 4999, nil])
    func everyCloseCodeLeadsToAReconnect(_ code: Int?) {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let actions = harness.send(.socketClosed(code: code))
        #expect(actions.first == .linkChanged(up: false) && actions.count == 2)
        #expect(actions.last?.reconnectDelay.map { $0 >= 0 && $0 < 1 } == true)
    }

    @Test func unexpectedUnsubscribeIsRepairedBySubscribingAgain() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let actions = harness.send(.frameReceived(#"{"op":"unsubscribed","clientId":"c","requestId":1}"#))
        #expect(actions.prefix(2) == [.unsubscribed(requestId: 1), .linkChanged(up: false)])
        #expect(json(actions.last?.sentFrame)?["op"] == "subscribe" && json(actions.last?.sentFrame)?["requestId"] == 1)
        #expect(harness.send(.frameReceived(Fixture.subscribed(1))) == [.subscribed(requestId: 1), .linkChanged(up: true)])
    }

    @Test func subscriptionsAddedLaterAreSentNowOrOnConnect() {
        var harness = LiveQueryHarness()
        let early = harness.client.subscribe(LiveQuerySubscription(requestId: 2, className: "ActiveSessions", where: ["callerID": "u1"]))
        #expect(early.isEmpty)
        let up = harness.bringUp()
        #expect(up.compactMap(\.sentFrame).compactMap { json($0)?["requestId"] } == [1, 2])
        #expect(!harness.client.linkUp)
        #expect(harness.send(.frameReceived(Fixture.subscribed(2))) == [.subscribed(requestId: 2), .linkChanged(up: true)])
        let late = harness.client.subscribe(LiveQuerySubscription(requestId: 3, className: "ActiveSessions", where: ["receiverID": "u2"]))
        #expect(late.first == .linkChanged(up: false) && json(late.last?.sentFrame)?["requestId"] == 3)
    }

    @Test func backoffCeilingIsCappedAtThirtySeconds() {
        var backoff = LiveQueryReconnectBackoff()
        var rng = SeededRandom(seed: 5)
        var ceilings: [Double] = []
        for _ in 0..<8 {
            ceilings.append(backoff.currentCeiling)
            #expect(backoff.nextDelay(using: &rng) < ceilings.last!)
        }
        #expect(ceilings == [1, 3, 7, 15, 30, 30, 30, 30])
        backoff.reset()
        #expect(backoff.currentCeiling == 1)
    }

    /// A half-open socket is found by the WebSocket layer (a ping unanswered at the next one), which closes it
    /// without a close code: the core drops the link at once (polling takes over) and, since the last socket
    /// had confirmed its subscription, reconnects within a second and subscribes again under the same id.
    @Test func aSocketClosedByThePingTimeoutDropsTheLinkAndResubscribesWithinASecond() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        #expect(harness.client.linkUp)
        let lost = harness.send(.socketClosed(code: nil))
        #expect(lost.first == .linkChanged(up: false))
        #expect(lost.count == 2 && lost.last?.reconnectDelay.map { $0 >= 0 && $0 < 1 } == true)
        #expect(harness.send(.reconnectDue) == [.openSocket])
        let resent = harness.send(.socketOpened) + harness.send(.frameReceived(Fixture.connected))
        #expect(resent.compactMap(\.sentFrame).compactMap { json($0)?["op"] } == ["connect", "subscribe"])
        #expect(json(resent.last?.sentFrame)?["requestId"] == 1)
        #expect(harness.send(.frameReceived(Fixture.subscribed(1))) == [.subscribed(requestId: 1), .linkChanged(up: true)])
    }

    @Test func newSessionTokenReconnectsAtOnceWithIt() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let actions = harness.send(.sessionTokenChanged("r:new"))
        #expect(actions == [.closeSocket(code: 1000), .linkChanged(up: false), .scheduleReconnect(afterSeconds: 0)])
        _ = harness.send(.reconnectDue)
        let opened = harness.send(.socketOpened)
        #expect(json(opened.first?.sentFrame)?["sessionToken"] == "r:new")
        // A token change while the socket is still opening needs no extra reconnect.
        _ = harness.send(.socketClosed(code: 1006))
        _ = harness.send(.reconnectDue)
        #expect(harness.send(.sessionTokenChanged("r:newer")).isEmpty)
        #expect(json(harness.send(.socketOpened).first?.sentFrame)?["sessionToken"] == "r:newer")
    }

    @Test(arguments: [
        "not json", "[]", "{}", #"{"op":7}"#, #"{"op":"launch"}"#, #"{"op":"create","requestId":1}"#,
        #"{"op":"create","requestId":2,"object":{"objectId":"a","callerID":"a","receiverID":"u1"}}"#,
        #"{"op":"create","requestId":-1,"object":{}}"#, #"{"op":"create","requestId":1.5,"object":{}}"#,
        #"{"op":"create","requestId":"1","object":{}}"#, #"{"op":"subscribed","requestId":9}"#,
        #"{"op":"create","requestId":1,"object":{"className":"_User","objectId":"a","callerID":"a","receiverID":"u1"}}"#,
        #"{"op":"create","requestId":1,"object":{"className":"ActiveSessions","callerID":"a"}}"#,
        #"{"op":"delete","requestId":1,"object":{"className":"ActiveSessions"}}"#,
        #"{"op":"error","reconnect":"yes"}"#, #"{"op":"connected"}"#,
    ])
    func garbageFramesAreIgnored(_ frame: String) {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let actions = harness.send(.frameReceived(frame))
        #expect(actions.count == 1 && actions.allSatisfy { $0.isIgnored }, "\(actions)")
        #expect(harness.client.phase == .connected && harness.client.linkUp)
    }

    @Test func oversizedFramesAreIgnoredBeforeParsing() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        let huge = #"{"op":"create","requestId":1,"object":{"pad":""# + String(repeating: "x", count: 1 << 20) + #""}}"#
        let actions = harness.send(.frameReceived(huge))
        #expect(actions == [.ignored(reason: ParseWireError.tooLarge(bytes: huge.utf8.count, limit: 1 << 20).description)])
    }

    @Test func serverFrameDecoding() throws {
        #expect(try LiveQueryServerFrame.decode(Fixture.connected) == .connected(clientId: "7d0e5a3c-0000-4000-8000-000000000001"))
        #expect(try LiveQueryServerFrame.decode(#"{"op":"unsubscribed","requestId":3}"#) == .unsubscribed(requestId: 3))
        #expect(try LiveQueryServerFrame.decode(#"{"op":"error","error":"x","code":2,"reconnect":true,"requestId":null}"#)
            == .error(code: 2, message: "x", reconnect: true, requestId: nil))
        #expect(throws: ParseWireError.invalidValue(path: "requestId", reason: "negative")) {
            try LiveQueryServerFrame.decode(#"{"op":"subscribed","requestId":-4}"#)
        }
        #expect(throws: ParseWireError.missingField(path: "op")) { try LiveQueryServerFrame.decode(#"{"requestId":4}"#) }
        #expect(LiveQueryClientFrame.unsubscribe(requestId: 4) == #"{"op":"unsubscribe","requestId":4}"#)
    }
}
