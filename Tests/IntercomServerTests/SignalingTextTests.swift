import ParseWire
import Testing
@testable import IntercomServer

/// Issue #22 (1): text messages are relayed only from the call's parties; a viewer receives but never sends;
/// an invalid or oversize text and a flood are refused with an error frame and never relayed.
@Suite struct SignalingTextTests {
    private static func text(_ body: String, id: String = "m1") -> JSONValue {
        ["type": "text", "id": .string(id), "text": .string(body)]
    }

    @Test func partiesTextEachOtherAndAViewerButAViewerCannotText() throws {
        var table = SignalingRoomTable(maxViewers: 2)
        let deviceAdmission = table.join(sessionID: "S", callerID: "c", userID: "dev", role: .publisher, name: nil)
        let device = try #require(deviceAdmission).member.peerId
        let callerAdmission = table.join(sessionID: "S", callerID: "c", userID: "c", role: .publisher, name: nil)
        let caller = try #require(callerAdmission).member.peerId
        let viewerAdmission = table.join(sessionID: "S", callerID: "c", userID: "c", role: .subscriber, name: nil)
        let viewer = try #require(viewerAdmission).member.peerId
        #expect(table.authorize(type: "text", from: caller, to: device) == .relay)
        #expect(table.authorize(type: "text-ack", from: device, to: caller) == .relay)
        #expect(table.authorize(type: "text", from: device, to: viewer) == .relay)
        // The viewer is refused in the existing style, even towards a publisher that offered to it.
        #expect(table.authorize(type: "offer", from: device, to: viewer) == .relay)
        for type in ["text", "text-ack"] {
            #expect(table.authorize(type: type, from: viewer, to: device)
                == .forbidden(reason: "a view-only peer may send only answer, candidate and bye, not \"\(type)\""))
        }
    }

    @Test func invalidTextsAreRefusedAsBadSignalsAndOthersPass() {
        var gate = SignalingTextGate()
        let refusals: [JSONValue] = [
            Self.text(String(repeating: "x", count: 501)),
            Self.text("bell\u{7}"),
            Self.text(""),
            ["type": "text", "id": "m", "text": 5],
            Self.text("hi", id: String(repeating: "i", count: 65)),
            ["type": "text-ack"],
        ]
        for data in refusals {
            let type = data["type"]?.stringValue ?? ""
            guard case .refused(let code, let message) = gate.check(type: type, data: data, from: "p1", now: 0) else {
                Issue.record("relayed: \(data)")
                continue
            }
            #expect(code == .badSignal)
            #expect(message.hasPrefix("\(type) refused: ") && message.contains("data."), "\(message)")
        }
        #expect(gate.check(type: "text", data: Self.text(String(repeating: "é", count: 500)), from: "p1", now: 0) == .pass)
        #expect(gate.check(type: "text-ack", data: ["type": "text-ack", "id": "m1"], from: "p1", now: 0) == .pass)
        // Not a text: untouched (newer payload types pass the gate; the role rule decides).
        #expect(gate.check(type: "future", data: ["type": "future", "text": 5], from: "p1", now: 0) == .pass)
    }

    @Test func aFloodIsLimitedPerConnectionAndRefills() {
        var gate = SignalingTextGate()
        var passed = 0
        var limited = 0
        // 100 texts within one second: the burst of 10 and the 2 that refill during that second pass.
        for index in 0..<100 {
            switch gate.check(type: "text", data: Self.text("flood \(index)"), from: "p1", now: Double(index) / 100) {
            case .pass: passed += 1
            case .refused(let code, _):
                #expect(code == .rateLimited)
                limited += 1
            }
        }
        #expect(passed == 11 || passed == 12, "\(passed)")
        #expect(limited == 100 - passed)
        // Another connection is not affected, nor are acknowledgements.
        #expect(gate.check(type: "text", data: Self.text("hi"), from: "p2", now: 1) == .pass)
        #expect(gate.check(type: "text-ack", data: ["type": "text-ack", "id": "m1"], from: "p1", now: 1) == .pass)
        // Refilled after a pause; a peer that left starts again with a full bucket.
        #expect(gate.check(type: "text", data: Self.text("later"), from: "p1", now: 3) == .pass)
        gate.forget("p1")
        for _ in 0..<10 { #expect(gate.check(type: "text", data: Self.text("again"), from: "p1", now: 3) == .pass) }
        #expect(gate.check(type: "text", data: Self.text("again"), from: "p1", now: 3) != .pass)
    }
}
