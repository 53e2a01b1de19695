import CallCore
import Foundation
@testable import IntercomAgent
import Media
import ParseWire
import Testing

/// The sans-IO pieces of the visitor log (issue #19): outcome words, the row, the snapshot hand-off.
@Suite struct VisitPolicyTests {
    static func summary(_ outcome: CallOutcome, ringToAnswer: Duration? = nil, total: Duration = .seconds(30))
        -> CallSummary {
        CallSummary(direction: .incoming, rowID: "r", sessionID: "s", remoteID: "caller1", remoteTitle: "Visitor",
                    outcome: outcome, ringToAnswer: ringToAnswer, setupTime: nil, talkTime: nil, totalDuration: total)
    }

    @Test func outcomesInAVisitorLogsWords() {
        #expect(CallOutcome.answered(ended: .localHangup).visitLabel == "answered")
        #expect(CallOutcome.failed(.iceFailed, ended: .mediaTimeout).visitLabel == "failed")
        #expect(CallOutcome.unanswered(.ringTimeout).visitLabel == "missed")
        #expect(CallOutcome.unanswered(.remoteLeft).visitLabel == "missed")
        #expect(CallOutcome.unanswered(.remoteBye(.hangup)).visitLabel == "missed")
        #expect(CallOutcome.unanswered(.hangupButton).visitLabel == "declined")
        #expect(CallOutcome.unanswered(.doNotDisturb).visitLabel == "declined")
        #expect(CallOutcome.unanswered(.remoteBye(.declined)).visitLabel == "declined")
        #expect(CallOutcome.unanswered(.busy).visitLabel == "busy")
        #expect(CallOutcome.unanswered(.remoteBye(.busy)).visitLabel == "busy")
        #expect(CallOutcome.unanswered(.createFailed("x")).visitLabel == "failed")
    }

    @Test func theRowCountsItsTimesBackFromTheEndAndOnlyTheOwnersRead() {
        let end = Date(timeIntervalSince1970: 1_800_000_000)
        let file = ParseFile(name: "abc_ring.jpg", url: "http://h/parse/files/intercom/abc_ring.jpg")
        let row = CallLogEntry.row(Self.summary(.answered(ended: .localHangup), ringToAnswer: .seconds(4)),
                                   endedAt: end, deviceID: "dev", owners: ["own1", "own2"], snapshot: file)
        #expect(row.startedAt.date == end.addingTimeInterval(-30))
        #expect(row.answeredAt?.date == end.addingTimeInterval(-26))
        #expect(row.endedAt.date == end)
        #expect(row.outcome == "answered" && row.route == "webrtc" && row.direction == "incoming")
        #expect(row.userID == "dev" && row.callerID == "caller1" && row.callerTitle == "Visitor")
        #expect(row.snapshot == file)
        #expect(row.ACL.canRead(userId: "own1") && !row.ACL.canWrite(userId: "own1"))
        #expect(row.ACL.canWrite(userId: "dev") && !row.ACL.canRead(userId: "stranger") && !row.ACL.canRead(userId: nil))
        let missed = CallLogEntry.row(Self.summary(.unanswered(.ringTimeout)), endedAt: end, deviceID: "dev",
                                      owners: [], snapshot: nil)
        #expect(missed.answeredAt == nil && missed.outcome == "missed")
        #expect(missed.callerSpokeSeconds == nil)
    }

    @Test func howLongTheCallerSpokeIsKeptInTenthsAndEncodedOnlyWhenMeasured() throws {
        let end = Date(timeIntervalSince1970: 1_800_000_000)
        let row = CallLogEntry.row(Self.summary(.answered(ended: .localHangup), ringToAnswer: .seconds(4)),
                                   endedAt: end, deviceID: "dev", owners: [], snapshot: nil, callerSpokeSeconds: 12.34)
        #expect(row.callerSpokeSeconds == 12.3)
        let encoded = String(decoding: try JSONEncoder().encode(row), as: UTF8.self)
        #expect(encoded.contains("\"callerSpokeSeconds\":12.3"))
        let unmeasured = CallLogEntry.row(Self.summary(.answered(ended: .localHangup), ringToAnswer: .seconds(4)),
                                          endedAt: end, deviceID: "dev", owners: [], snapshot: nil)
        #expect(!String(decoding: try JSONEncoder().encode(unmeasured), as: UTF8.self).contains("callerSpokeSeconds"))
    }

    @Test func theTapHandsTheNextFrameToEveryWaiterOnceAndTimesOut() async {
        let tap = SnapshotTap()
        tap.offer(I420Frame(width: 16, height: 16))  // nobody waits: ignored
        #expect(await tap.next(timeout: .milliseconds(50)) == nil)
        async let first = tap.next(timeout: .seconds(5))
        async let second = tap.next(timeout: .seconds(5))
        try? await Task.sleep(for: .milliseconds(100))
        tap.offer(I420Frame(width: 32, height: 16, sequence: 7))
        #expect(await first?.sequence == 7)
        #expect(await second?.width == 32)
    }
}
