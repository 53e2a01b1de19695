import ParseWire
import Testing
@testable import IntercomAgent

/// Issue #22 item 1, the device's half: a received text is logged in one line with the sender's name (cut to
/// 200 characters), counted in metrics, and acknowledged with its id.
@Suite struct ReceivedTextTests {
    @Test func theLogLineNamesTheSenderAndCutsLongTexts() {
        #expect(ReceivedText(id: "m1", text: "Parcel\nfor you", senderName: "Visitor").logLine
            == "message from Visitor: Parcel\nfor you")
        #expect(ReceivedText(id: "m1", text: "hi", senderName: nil).logLine == "message from the other side: hi")
        let long = String(repeating: "é", count: 450)
        let line = ReceivedText(id: "m1", text: long, senderName: "V").logLine
        #expect(line == "message from V: " + String(repeating: "é", count: ReceivedText.logLimit) + "…")
        let exact = String(repeating: "a", count: ReceivedText.logLimit)
        #expect(ReceivedText(id: "m", text: exact, senderName: "V").logLine == "message from V: " + exact)
    }

    @Test func theAcknowledgementRepeatsTheID() {
        #expect(ReceivedText(id: "t7-abc", text: "x", senderName: nil).acknowledgement == .textAck(id: "t7-abc"))
    }

    @Test func messagesAreCountedFromZero() {
        let metrics = AgentMetrics()
        func count() -> String? {
            String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self).split(separator: "\n")
                .first { $0.hasPrefix("intercom_messages_received_total ") }.map(String.init)
        }
        #expect(count() == "intercom_messages_received_total 0")
        metrics.messageReceived()
        metrics.messageReceived()
        #expect(count() == "intercom_messages_received_total 2")
    }

    /// A rate-limited or invalid text is one refused signal: the call machine hears nothing (the call goes on);
    /// other refusals still end the session.
    @Test func aRefusedTextDoesNotEndTheCall() {
        #expect(SignalTranslation.remoteSignals(.refused(.rateLimited, message: "slow down")).isEmpty)
        #expect(SignalTranslation.remoteSignals(.refused(.badSignal, message: "too long")).isEmpty)
        #expect(SignalTranslation.remoteSignals(.refused(.expired, message: "gone")).count == 1)
        #expect(SignalTranslation.remoteSignals(.signal(from: "p1", .text(id: "a", text: "b"))).isEmpty)
        #expect(SignalTranslation.payload(.text(id: "reply-1", text: "Wait")) == .text(id: "reply-1", text: "Wait"))
    }
}
