@testable import IntercomAgent
import ParseWire
import Testing

/// How a callee's final refusal of the device's INVITE reads in the call's outcome (RFC 3261 §21.4–21.6).
@Suite struct SIPOutgoingDialogTests {
    @Test(arguments: [
        (486, ByeReason.busy), (600, .busy), (603, .declined), (480, .timeout), (408, .timeout), (487, .timeout),
        (404, .error), (488, .error), (503, .error), (403, .error),
    ])
    func refusals(status: Int, reason: ByeReason) {
        #expect(SIPOutgoingDialog.byeReason(status: status) == reason)
    }

    @Test func callIDsAreLongRandomHex() {
        let first = SIPCalls.newCallID(), second = SIPCalls.newCallID()
        #expect(first.count == 32 && first.allSatisfy(\.isHexDigit))
        #expect(first != second)
    }
}
