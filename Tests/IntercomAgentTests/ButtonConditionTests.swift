import CallCore
import ControlsCore
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import IntercomTestSupport
import Logging
import Testing

/// What the line guards of a button tell the call machine, and how `/health` shows them (issue #23, item 3).
@Suite struct ButtonConditionTests {
    @Test func aStuckAcceptIsReportedOnceAndWorksAgainOnRelease() {
        var condition = ButtonCondition()
        #expect(condition.events(for: .longPress, on: .accept) == [.acceptLongPress])
        #expect(condition.events(for: .stuck(afterLongPress: true), on: .accept) == [.acceptStuck(afterLongPress: true)])
        #expect(condition.isStuck && !condition.works)
        #expect(condition.events(for: .release, on: .accept) == [.acceptWorks])
        #expect(condition.works)
        #expect(condition.events(for: .press, on: .accept) == [.acceptPress])
    }

    @Test func aChatteringAcceptThatIsAlsoStuckWorksOnlyWhenBothAreOver() {
        var condition = ButtonCondition()
        #expect(condition.events(for: .chattering, on: .accept) == [.acceptChattering])
        #expect(condition.events(for: .stuck(afterLongPress: false), on: .accept) == [.acceptStuck(afterLongPress: false)])
        #expect(condition.events(for: .chatterEnded, on: .accept) == [], "still stuck")
        #expect(condition.events(for: .release, on: .accept) == [.acceptWorks])
    }

    @Test func otherButtonsOnlyChangeTheirCondition() {
        var condition = ButtonCondition()
        #expect(condition.events(for: .chattering, on: .hangup) == [])
        #expect(condition.isChattering)
        #expect(condition.events(for: .chatterEnded, on: .hangup) == [])
        #expect(condition.events(for: .press, on: .hangup) == [.hangupPress])
        #expect(condition.events(for: .stuck(afterLongPress: false), on: .call) == [])
        #expect(condition.events(for: .release, on: .call) == [])
        #expect(condition.works)
    }

    @Test func theStatusBoardWarnsAboutButtonsAndUnclaimedLines() async {
        let status = AgentStatusBoard(title: "Gate")
        #expect(await status.snapshot.warnings == [])
        await status.setControlsClaimed(false)
        await status.setButtonStuck("accept", true)
        await status.setButtonChattering("hangup", true)
        let snapshot = await status.snapshot
        #expect(snapshot.warnings == ["gpio_unclaimed", "button_stuck", "button_chattering"])
        #expect(snapshot.stuckButtons == ["accept"] && snapshot.chatteringButtons == ["hangup"])
        await status.setControlsClaimed(true)
        await status.setButtonStuck("accept", false)
        await status.setButtonChattering("hangup", false)
        #expect(await status.snapshot.warnings == [])
    }

    @Test func aLostCameraIsAWarningAndInTheStatusLine() async {
        let status = AgentStatusBoard(title: "Gate")
        await status.setRegistered(true)
        await status.setCamera(.lost)
        let snapshot = await status.snapshot
        #expect(snapshot.warnings == ["camera_lost"])
        #expect(snapshot.line.hasSuffix(", camera lost)"), "\(snapshot.line)")
        await status.setCamera(.working)
        #expect(await status.snapshot.warnings == [])
        #expect(await !status.line.contains("camera"))
    }

    @Test func aCameraThatCannotBeOpenedIsAWarningAndInTheStatusLine() async {
        let status = AgentStatusBoard(title: "Gate")
        await status.setRegistered(true)
        await status.setCamera(.failed)
        let snapshot = await status.snapshot
        #expect(snapshot.warnings == ["camera_failed"])
        #expect(snapshot.line.hasSuffix(", camera failed: test pattern)"), "\(snapshot.line)")
        await status.setCamera(.working)
        #expect(await status.snapshot.warnings == [])
    }

    @Test func doNotDisturbComingAndGoingIsLogged() async {
        let capture = LogCapture()
        let logger = Logger(label: "intercomd") { JournalLogHandler(label: $0, style: .journal, sink: capture.sink) }
        let status = AgentStatusBoard(title: "Gate", logger: logger)
        await status.setCallState("idle")
        await status.setCallState("idle" + CallStateMachine.doNotDisturbNote)
        await status.setCallState("calling Concierge" + CallStateMachine.doNotDisturbNote)
        await status.setCallState("idle")
        #expect(capture.lines.count { $0.contains("do-not-disturb is on") } == 1, "\(capture.lines)")
        #expect(capture.lines.count { $0.contains("do-not-disturb is off") } == 1, "\(capture.lines)")
    }
}

extension ButtonConditionTests {
    @Test func metricsShowClaimedLinesAndEachButtonsCondition() async {
        let status = AgentStatusBoard(title: "Gate")
        let metrics = AgentMetrics()
        let before = String(decoding: metrics.exposition(status: await status.snapshot, temperatureCelsius: nil), as: UTF8.self)
        #expect(!before.contains("intercom_gpio_claimed"), "no [gpio], no GPIO metrics")
        await status.setControlsClaimed(true)
        await status.setButtonStuck("accept", true)
        await status.setButtonChattering("hangup", true)
        let text = String(decoding: metrics.exposition(status: await status.snapshot, temperatureCelsius: nil), as: UTF8.self)
        #expect(text.contains("intercom_gpio_claimed 1"), "\(text)")
        #expect(text.contains(#"intercom_button_stuck{button="accept"} 1"#), "\(text)")
        #expect(text.contains(#"intercom_button_stuck{button="hangup"} 0"#), "\(text)")
        #expect(text.contains(#"intercom_button_chattering{button="hangup"} 1"#), "\(text)")
        #expect(text.contains(#"intercom_button_chattering{button="call"} 0"#), "\(text)")
    }
}
