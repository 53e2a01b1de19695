import CallCore
import Testing

/// Issue #22 item 1: the reply button sends the first canned reply into the call in progress, to the call's
/// partner, each with an id of its own; outside a call it does nothing.
@Suite("Reply button")
struct ReplyButtonTests {
    @Test func inACallTheFirstReplyGoesToThePartner() {
        var harness = Harness(CallPolicy(replies: ["Please leave the parcel at the door", "Coming"]))
        harness.run(Script.inCall)
        #expect(harness.send(.button(.replyPress), at: 3)
            == [.sendSignal(sessionID: "s1", to: "p1", .text(id: "reply-1", text: "Please leave the parcel at the door"))])
        #expect(harness.send(.button(.replyPress), at: 4)
            == [.sendSignal(sessionID: "s1", to: "p1", .text(id: "reply-2", text: "Please leave the parcel at the door"))])
    }

    @Test func withoutRepliesTheDefaultOneIsSent() {
        var harness = Harness(CallPolicy())
        harness.run(Script.inCall)
        #expect(harness.send(.button(.replyPress), at: 3)
            == [.sendSignal(sessionID: "s1", to: "p1", .text(id: "reply-1", text: CallPolicy.defaultReply))])
    }

    /// Issue #22 item 4: in a call the call button films the device's next camera; idle, it still calls.
    @Test func inACallTheCallButtonSwitchesTheCamera() {
        var harness = Harness(CallPolicy())
        harness.run(Script.inCall)
        #expect(harness.send(.button(.callPress), at: 3) == [.nextCamera(sessionID: "s1", to: "p1")])
    }

    @Test func outsideACallNothingIsSent() {
        var harness = Harness(CallPolicy(replies: ["x"]))
        #expect(harness.send(.button(.replyPress), at: 0).isEmpty)
        harness.run(Script.ringWithPartner)
        let state = harness.machine.state
        #expect(harness.send(.button(.replyPress), at: 1).isEmpty)
        #expect(harness.machine.state == state)
    }

    // `[call] reply_when_missed`: a call that rings out gets the first reply, then the bye, in that order.
    @Test func aMissedCallGetsTheFirstReplyBeforeTheBye() throws {
        var harness = Harness(CallPolicy(ringTimeout: .seconds(30), replies: ["Please leave the parcel at the door"],
                                         repliesWhenMissed: true))
        harness.run(Script.ringWithPartner)
        let fired = harness.fire(.ringTimeout)
        let actions = try #require(fired)
        let signals = actions.compactMap { action -> CallSignal? in
            if case .sendSignal(_, _, let signal) = action { return signal }
            return nil
        }
        #expect(signals == [.text(id: "missed-reply", text: "Please leave the parcel at the door"), .bye(.timeout)])
        #expect(harness.outcomes() == [.unanswered(.ringTimeout)])
    }

    @Test func withoutTheSettingAMissedCallGetsOnlyTheBye() throws {
        var harness = Harness(CallPolicy(ringTimeout: .seconds(30), replies: ["x"]))
        harness.run(Script.ringWithPartner)
        let fired = harness.fire(.ringTimeout)
        let actions = try #require(fired)
        #expect(!actions.contains { if case .sendSignal(_, _, .text) = $0 { true } else { false } })
    }

    @Test func aDeclinedCallGetsNoMissedCallReply() {
        var harness = Harness(CallPolicy(replies: ["x"], repliesWhenMissed: true))
        harness.run(Script.ringWithPartner)
        let actions = harness.send(.button(.hangupPress), at: 2)
        #expect(!actions.contains { if case .sendSignal(_, _, .text) = $0 { true } else { false } })
    }
}
