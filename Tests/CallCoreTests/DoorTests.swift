import CallCore
import Testing

@Suite("Door relay")
struct DoorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let allowDoorOpen: Bool
        let setup: [Step]
        let requester: String
        let expected: CallAction
        var testDescription: String { name }
    }

    static let viewerJoins: [Step] = [.send(.remote(.viewerJoinRequest(peer: "v1")), at: 2.5)]

    static let cases: [Case] = [
        Case(
            name: "partner in call, allowed", allowDoorOpen: true, setup: Script.inCall, requester: "p1",
            expected: .pulseDoor),
        Case(
            name: "partner in call, disabled", allowDoorOpen: false, setup: Script.inCall, requester: "p1",
            expected: .refuseDoorOpen(sessionID: "s1", peer: "p1", .disabledByPolicy)),
        Case(
            name: "partner while ringing", allowDoorOpen: true, setup: Script.ringWithPartner, requester: "p1",
            expected: .refuseDoorOpen(sessionID: "s1", peer: "p1", .notInCall)),
        Case(
            name: "partner while connecting", allowDoorOpen: true, setup: Script.answered, requester: "p1",
            expected: .refuseDoorOpen(sessionID: "s1", peer: "p1", .notInCall)),
        Case(
            name: "viewer in call", allowDoorOpen: true, setup: Script.inCall + DoorTests.viewerJoins, requester: "v1",
            expected: .refuseDoorOpen(sessionID: "s1", peer: "v1", .notCallPartner)),
    ]

    @Test(arguments: cases)
    func doorOpenRequest(_ testCase: Case) {
        var harness = Harness(CallPolicy(allowDoorOpen: testCase.allowDoorOpen))
        harness.run(testCase.setup)
        let stateBefore = harness.machine.state
        let output = harness.send(.remote(.doorOpenRequest(from: testCase.requester)), at: 3)
        #expect(output == [testCase.expected])
        #expect(harness.machine.state == stateBefore)
    }

    @Test func requestsFromAnotherRoomAreIgnored() {
        var harness = Harness(CallPolicy(allowDoorOpen: true))
        harness.run(Script.inCall)
        #expect(harness.send(.remote(.doorOpenRequest(from: "p1"), session: "s9"), at: 3).isEmpty)
        harness.send(.hangup, at: 4)
        harness.drain()
        #expect(harness.send(.remote(.doorOpenRequest(from: "p1")), at: 10).isEmpty)
    }
}
