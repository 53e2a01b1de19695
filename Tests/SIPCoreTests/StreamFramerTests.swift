import SIPCore
import Testing

@Suite("SIP stream framer")
struct StreamFramerTests {
    let invite = wire(sampleInvite.replacingOccurrences("Content-Length: 0", "Content-Length: 4") + "body")

    @Test func messagesSplitAcrossAndWithinSegments() throws {
        var framer = SIPStreamFramer()
        let stream = invite + wire("\n\n") + invite
        var messages: [SIPMessage] = []
        // Feed in 7-byte segments: heads and bodies arrive in pieces.
        var index = 0
        while index < stream.count {
            messages += try framer.append(stream[index..<min(index + 7, stream.count)])
            index += 7
        }
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.body == Array("body".utf8) })
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func twoMessagesInOneSegment() throws {
        var framer = SIPStreamFramer()
        let messages = try framer.append(invite + invite)
        #expect(messages.count == 2)
    }

    @Test func manyMessagesInOneSegmentAreAllCut() throws {
        var framer = SIPStreamFramer()
        let messages = try framer.append(Array([[UInt8]](repeating: invite, count: 500).joined()))
        #expect(messages.count == 500)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func missingContentLengthIsAnError() {
        var framer = SIPStreamFramer()
        #expect(throws: SIPError.missingContentLength) {
            try framer.append(wire(sampleInvite.replacingOccurrences("Content-Length: 0\n", "")))
        }
    }

    @Test func oversizedHeadOrBodyIsRefusedWithoutBuffering() {
        var framer = SIPStreamFramer(limits: SIPLimits(maxMessageBytes: 1024))
        #expect(throws: SIPError.messageTooLarge) {
            try framer.append(Array(repeating: UInt8(ascii: "a"), count: 2000))
        }
        var bodyFramer = SIPStreamFramer(limits: SIPLimits(maxMessageBytes: 1024))
        #expect(throws: SIPError.messageTooLarge) {
            try bodyFramer.append(wire(sampleInvite.replacingOccurrences("Content-Length: 0", "Content-Length: 100000")))
        }
    }

    @Test func anErrorIsFinal() {
        var framer = SIPStreamFramer()
        _ = try? framer.append(wire("garbage\n\n"))
        #expect(throws: SIPError.self) { try framer.append(invite) }
    }
}
