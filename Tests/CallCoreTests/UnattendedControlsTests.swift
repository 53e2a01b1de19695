import CallCore
import Testing

/// The call machine's side of buttons and lines nobody watches (issue #23, items 3 and 4): do-not-disturb
/// that ends by itself, a stuck accept that undoes its long press, answering without a working accept
/// button, the `gpio` fault that no longer refuses calls, and the call button's cooldown.
@Suite("Unattended controls")
struct UnattendedControlsTests {
    static let hour = Duration.seconds(3_600)

    @Test func doNotDisturbSwitchesItselfOffAtItsLimit() {
        var harness = Harness(CallPolicy(doNotDisturbLimit: Self.hour))
        harness.send(.longPress, at: 10)
        #expect(harness.machine.doNotDisturb)
        #expect(harness.status == "idle, do not disturb")
        harness.fire(.doNotDisturbExpiry)
        #expect(harness.now == .seconds(3_610))
        #expect(!harness.machine.doNotDisturb)
        #expect(harness.led == .idle)
        #expect(harness.status == "idle")
        harness.send(row(expiresAt: 3_700), at: 3_611)
        #expect(harness.machine.state.name == "ringing", "calls ring again")
    }

    @Test func aCallInBetweenDoesNotCancelTheLimit() {
        var harness = Harness(CallPolicy(doNotDisturbLimit: Self.hour))
        harness.send(.longPress, at: 0)
        harness.send(.call, at: 1)  // no target: nothing; an outgoing call is covered below
        harness.send(.longPress, at: 2)
        harness.send(.longPress, at: 3)
        #expect(harness.machine.doNotDisturb)
        harness.send(.backendDown, at: 100)
        harness.send(.backendUp, at: 200)
        // Any later event past the deadline handles it, even before the timer's own delivery.
        harness.send(.backendUp, at: 3_603)
        #expect(!harness.machine.doNotDisturb)
    }

    @Test func switchingItOffByHandCancelsTheLimit() {
        var harness = Harness(CallPolicy(doNotDisturbLimit: Self.hour))
        harness.send(.longPress, at: 0)
        harness.send(.longPress, at: 5)
        #expect(!harness.machine.doNotDisturb)
        #expect(harness.live.allSatisfy { $0.kind != .doNotDisturbExpiry })
    }

    @Test func theLimitOutlivesACallThatEnds() {
        let target = CallTarget.user(id: "concierge")
        var harness = Harness(CallPolicy(callTarget: target, doNotDisturbLimit: Self.hour))
        harness.send(.longPress, at: 0)
        harness.send(.call, at: 1)  // do-not-disturb refuses calls to the device, not calls from it
        #expect(harness.machine.state.name == "dialing")
        harness.send(.hangup, at: 2)
        #expect(harness.machine.state == .idle)
        #expect(harness.live.contains { $0.kind == .doNotDisturbExpiry }, "ending the call kept the limit")
        harness.drain()
        #expect(!harness.machine.doNotDisturb)
        #expect(harness.now == .seconds(3_600))
    }

    @Test func aStuckAcceptUndoesItsLongPressAndCallsAreAnsweredByPolicy() {
        var harness = Harness(CallPolicy(answerMode: .button))
        harness.send(.longPress, at: 2)  // the stuck hold's long press, 2 s in
        #expect(harness.machine.doNotDisturb)
        harness.send(.button(.acceptStuck(afterLongPress: true)), at: 30)
        #expect(!harness.machine.doNotDisturb, "do-not-disturb is not on after a stuck accept")
        #expect(harness.live.allSatisfy { $0.kind != .doNotDisturbExpiry })
        harness.send(row(expiresAt: 100), at: 40)
        #expect(harness.machine.state.name == "connecting", "button mode answers by itself without a working accept")
        #expect(harness.mediaStarts() == 0, "media waits for the caller in the room, as in auto mode")
    }

    @Test func aStuckAcceptHeldSinceStartLeavesDoNotDisturbAlone() {
        var harness = Harness(CallPolicy(answerMode: .button), doNotDisturb: true)
        harness.send(.button(.acceptStuck(afterLongPress: false)), at: 30)
        #expect(harness.machine.doNotDisturb)
    }

    @Test func anAcceptThatWorksAgainRestoresButtonMode() {
        var harness = Harness(CallPolicy(answerMode: .button))
        harness.send(.button(.acceptChattering), at: 1)
        harness.send(.button(.acceptWorks), at: 20)
        harness.send(row(expiresAt: 100), at: 21)
        #expect(harness.machine.state.name == "ringing")
    }

    @Test func aChatteringAcceptLetsCallsBeAnsweredAndAutoAfterIsUnchanged() {
        var harness = Harness(CallPolicy(answerMode: .autoAfter(.seconds(5))))
        harness.send(.button(.acceptChattering), at: 1)
        harness.send(row(expiresAt: 100), at: 2)
        #expect(harness.machine.state.name == "ringing", "auto-after keeps its delay")
        harness.fire(.autoAnswer)
        #expect(harness.machine.state.name == "connecting")
    }

    @Test func unclaimedControlsShowAFaultButCallsAreStillAnswered() {
        var harness = Harness(CallPolicy(answerMode: .button))
        harness.send(.button(.controlsUnavailable), at: 0)
        #expect(harness.machine.state == .fault)
        #expect(harness.led == .fault)
        #expect(harness.status == "fault: missing gpio")
        harness.send(row(expiresAt: 100), at: 1)
        #expect(harness.machine.state.name == "connecting", "not refused with bye error: answered without the button")
        harness.send(.hangup, at: 2)
        harness.drain()
        #expect(harness.machine.state == .fault, "back to fault after the call")
        harness.send(.button(.controlsAvailable), at: 10)
        #expect(harness.machine.state == .idle)
        #expect(harness.led == .idle)
        harness.send(row("r2", session: "s2", expiresAt: 100), at: 11)
        #expect(harness.machine.state.name == "ringing", "button mode again once the lines are claimed")
    }

    @Test func aMissingDeviceStillRefusesCallsWhileTheControlsAreMissingToo() {
        var harness = Harness()
        harness.send(.button(.controlsUnavailable), at: 0)
        harness.send(.deviceFault(device: "camera"), at: 0)
        #expect(harness.status == "fault: missing camera, gpio")
        harness.send(row(expiresAt: 100), at: 1)
        #expect(harness.outcomes() == [.unanswered(.deviceFault)])
    }

    @Test func theCallButtonRestsAfterEachCallItPlaced() {
        let target = CallTarget.user(id: "concierge")
        var harness = Harness(CallPolicy(callTarget: target, callButtonCooldown: .seconds(10)))
        harness.send(.call, at: 0)
        #expect(harness.machine.state.name == "dialing")
        harness.send(.outgoingCallFailed(request: 1, reason: "offline"), at: 1)
        #expect(harness.machine.state == .idle)
        harness.send(.call, at: 5)
        #expect(harness.machine.state == .idle, "within 10 s of the last call: ignored")
        harness.send(.call, at: 11)
        #expect(harness.machine.state.name == "dialing", "after the cooldown it calls again")
        harness.send(.hangup, at: 12)  // cancelled at 12: the button rests until 22
        harness.send(.call, at: 21)
        #expect(harness.machine.state == .idle)
        harness.send(.call, at: 22)
        #expect(harness.machine.state.name == "dialing")
    }
}
