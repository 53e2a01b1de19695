import Testing
@testable import WebRTCCore

@Suite("RFC 4733 telephone-events")
struct TelephoneEventTests {
    @Test func payloadParsesAndBuilds() throws {
        // RFC 4733 §2.3: event 5, E set, volume 10, duration 800.
        let event = try TelephoneEvent(parsing: [0x05, 0x8A, 0x03, 0x20])
        #expect(event == (try TelephoneEvent(event: 5, isEnd: true, volume: 10, duration: 800)))
        #expect(event.serialized == [0x05, 0x8A, 0x03, 0x20])
        // The R bit is ignored on receive and written as zero.
        let reserved = try TelephoneEvent(parsing: [0x0B, 0x4A, 0x00, 0xA0])
        #expect(!reserved.isEnd && reserved.volume == 10 && reserved.duration == 160)
        #expect(reserved.serialized == [0x0B, 0x0A, 0x00, 0xA0])
    }

    @Test func malformedPayloadsAreRefused() {
        #expect(throws: TelephoneEventError.wrongLength(3)) { try TelephoneEvent(parsing: [1, 2, 3]) }
        #expect(throws: TelephoneEventError.wrongLength(8)) { try TelephoneEvent(parsing: [UInt8](repeating: 0, count: 8)) }
        #expect(throws: TelephoneEventError.volumeOutOfRange(64)) { try TelephoneEvent(event: 1, volume: 64, duration: 0) }
    }

    @Test func digitsMapToEventCodes() {
        #expect(DTMFDigit("*")?.event == 10)
        #expect(DTMFDigit("#")?.event == 11)
        #expect(DTMFDigit("d")?.event == 15)
        #expect(DTMFDigit("x") == nil)
        #expect(DTMFDigit(event: 16) == nil)
        #expect(DTMFDigit(event: 9)?.key == "9")
    }

    func packet(_ event: UInt8, _ timestamp: UInt32, _ duration: UInt16, end: Bool = false) -> (UInt32, [UInt8]) {
        (timestamp, TelephoneEvent(event: event, isEnd: end, maskedVolume: 10, duration: duration).serialized)
    }

    func received(_ packets: [(UInt32, [UInt8])]) -> String {
        var receiver = DTMFReceiver()
        return String(packets.compactMap { receiver.receive(timestamp: $0.0, payload: $0.1)?.key })
    }

    @Test func senderSequenceIsStartUpdatesAndThreeEnds() throws {
        let digit = try #require(DTMFDigit("7"))
        let packets = DTMFSender().packets(for: digit, timestamp: 1000, length: .milliseconds(120))
        #expect(packets.map(\.offset) == [0, 50, 100, 120, 140, 160].map { Duration.milliseconds($0) })
        #expect(packets.map(\.marker) == [true, false, false, false, false, false])
        #expect(packets.allSatisfy { $0.timestamp == 1000 && $0.event.event == 7 })
        #expect(packets.map(\.event.duration) == [0, 400, 800, 960, 960, 960])
        #expect(packets.map(\.event.isEnd) == [false, false, false, true, true, true])
        let rtp = packets[0].rtpPacket(payloadType: 101, sequenceNumber: 9, ssrc: 42)
        #expect(try RTPPacket(parsing: rtp.serialized()) == rtp)
        var receiver = DTMFReceiver()
        #expect(packets.compactMap { receiver.receive($0.rtpPacket(payloadType: 101, sequenceNumber: 0, ssrc: 1)) } == [digit])
    }

    @Test func eachPressIsReportedOnceDespiteDuplicatesLossAndReordering() {
        let press1 = [packet(1, 100, 0), packet(1, 100, 400), packet(1, 100, 800, end: true),
                      packet(1, 100, 800, end: true), packet(1, 100, 800, end: true)]
        #expect(received(press1) == "1")
        // Start and updates lost: the first end packet reports it, the retransmissions do not.
        #expect(received(Array(press1.suffix(3))) == "1")
        // All end packets lost: still one digit.
        #expect(received(Array(press1.prefix(2))) == "1")
        // Duplicated and reordered packets of one press.
        #expect(received([press1[2], press1[0], press1[1], press1[2], press1[4], press1[3]]) == "1")
        // A late end packet of press 1 arriving during press 2 is not a new press.
        let press2 = [packet(2, 2000, 0), packet(2, 2000, 400, end: true)]
        #expect(received([press1[0], press2[0], press1[2], press2[1], press1[3]]) == "12")
    }

    @Test func theSameKeyTwiceInARowIsTwoPresses() {
        let first = [packet(5, 100, 0), packet(5, 100, 800, end: true), packet(5, 100, 800, end: true)]
        let second = [packet(5, 1500, 0), packet(5, 1500, 800, end: true), packet(5, 1500, 800, end: true)]
        #expect(received(first + second) == "55")
        // Even when the second press's start packet is lost.
        #expect(received(first + Array(second.dropFirst())) == "55")
    }

    @Test func timestampWrapAndLongEventSegments() {
        // A press just after the 32-bit timestamp wraps is newer than one just before it.
        #expect(received([packet(3, 0xFFFF_FF00, 0), packet(4, 0x0000_0100, 0), packet(3, 0xFFFF_FF00, 800, end: true)]) == "34")
        // §2.5.1.3: a press longer than 0xFFFF units continues with timestamp + 0xFFFF; that is not a new press.
        #expect(received([packet(9, 500, 0), packet(9, 500, 0xFFFF), packet(9, 500 + 0xFFFF, 100),
                          packet(9, 500 + 0xFFFF, 200, end: true)]) == "9")
    }

    @Test func nonDTMFAndMalformedPayloadsAreIgnored() {
        #expect(received([(100, [0x20, 0x0A, 0, 0]), (200, [1, 2, 3]), (300, [])]) == "")
    }
}
