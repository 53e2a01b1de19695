import Testing
@testable import WebRTCCore

@Suite("RTCP rejections")
struct RTCPRejectionTests {
    let sender = RTCPPacketTests.sender
    let media = RTCPPacketTests.media

    @Test("rejects framing errors: short header, bad version, length 0, length past the end")
    func framing() {
        #expect(throws: RTCPError.truncated(needed: 4, available: 3)) { try RTCPPacket.parseCompound([0x80, 201, 0]) }
        #expect(throws: RTCPError.unsupportedVersion(1)) {
            try RTCPPacket.parseCompound([0x40, 201, 0x00, 0x01] + sender)
        }
        #expect(throws: RTCPError.zeroLength(packetType: 201)) { try RTCPPacket.parseCompound([0x80, 201, 0x00, 0x00]) }
        #expect(throws: RTCPError.lengthOverrun(declaredBytes: 12, available: 8)) {
            try RTCPPacket.parseCompound([0x80, 201, 0x00, 0x02] + sender)
        }
        #expect(throws: RTCPError.lengthOverrun(declaredBytes: 262_144, available: 8)) {
            try RTCPPacket.parseCompound([0x80, 201, 0xFF, 0xFF] + sender)
        }
    }

    @Test("rejects RC/SC larger than the payload")
    func countOverruns() {
        let rrWithOneBlock: [UInt8] = [0x82, 201, 0x00, 0x07] + sender + RTCPPacketTests.reportBlock
        #expect(throws: RTCPError.countOverrun(packetType: 201, count: 2, available: 24)) {
            try RTCPPacket.parseCompound(rrWithOneBlock)
        }
        #expect(throws: RTCPError.countOverrun(packetType: 200, count: 1, available: 0)) {
            try RTCPPacket.parseCompound([0x81, 200, 0x00, 0x06] + sender + Array(repeating: 0, count: 20))
        }
        #expect(throws: RTCPError.countOverrun(packetType: 203, count: 3, available: 8)) {
            try RTCPPacket.parseCompound([0x83, 203, 0x00, 0x02] + sender + media)
        }
        #expect(throws: RTCPError.countOverrun(packetType: 202, count: 31, available: 8)) {
            try RTCPPacket.parseCompound([0x9F, 202, 0x00, 0x02] + sender + [1, 0, 0, 0])
        }
    }

    @Test("rejects SDES without a terminator and items past the end")
    func sdes() {
        #expect(throws: RTCPError.sdesMissingTerminator) {
            try RTCPPacket.parseCompound([0x81, 202, 0x00, 0x02] + sender + [0x01, 0x02, 0x61, 0x62])
        }
        #expect(throws: RTCPError.sdesItemOverrun) {
            try RTCPPacket.parseCompound([0x81, 202, 0x00, 0x02] + sender + [0x01, 0x09, 0x61, 0x62])
        }
    }

    @Test("rejects a BYE reason past the end")
    func byeReason() {
        #expect(throws: RTCPError.byeReasonOverrun) {
            try RTCPPacket.parseCompound([0x81, 203, 0x00, 0x02] + sender + [0x08, 0x61, 0x62, 0x63])
        }
    }

    @Test("rejects empty or partial FCI for NACK and FIR, and a REMB SSRC count mismatch")
    func feedback() {
        #expect(throws: RTCPError.emptyFeedback(packetType: 205, format: 1)) {
            try RTCPPacket.parseCompound([0x81, 205, 0x00, 0x02] + sender + media)
        }
        #expect(throws: RTCPError.emptyFeedback(packetType: 206, format: 4)) {
            try RTCPPacket.parseCompound([0x84, 206, 0x00, 0x02] + sender + media)
        }
        #expect(throws: RTCPError.malformedFeedback(packetType: 206, format: 4)) {
            try RTCPPacket.parseCompound([0x84, 206, 0x00, 0x03] + sender + media + media)
        }
        #expect(throws: RTCPError.truncated(needed: 8, available: 4)) {
            try RTCPPacket.parseCompound([0x81, 206, 0x00, 0x01] + sender)
        }
        #expect(throws: RTCPError.rembSSRCCountMismatch(declared: 2, available: 4)) {
            try RTCPPacket.parseCompound([0x8F, 206, 0x00, 0x05] + sender + [0, 0, 0, 0]
                + [0x52, 0x45, 0x4D, 0x42, 0x02, 0x0B, 0xD0, 0x90] + media)
        }
    }

    @Test("rejects bad padding and padding before the last packet")
    func padding() {
        let rr: [UInt8] = [0x80, 201, 0x00, 0x01] + sender
        var paddedRR = rr
        paddedRR[0] = 0xA0
        #expect(throws: RTCPError.paddingNotLast) { try RTCPPacket.parseCompound(paddedRR + rr) }
        #expect(throws: RTCPError.invalidPadding(count: 0x44, available: 4)) { try RTCPPacket.parseCompound(paddedRR) }
        let zeroPad: [UInt8] = [0xA0, 201, 0x00, 0x02] + sender + [0, 0, 0, 0]
        #expect(throws: RTCPError.invalidPadding(count: 0, available: 8)) { try RTCPPacket.parseCompound(zeroPad) }
    }

    @Test("refuses to serialize what the header cannot express")
    func serialization() {
        let block = ReportBlock(
            ssrc: 1, fractionLost: 0, cumulativeLost: 0, extendedHighestSequenceNumber: 0, jitter: 0,
            lastSenderReport: 0, delaySinceLastSenderReport: 0)
        #expect(throws: RTCPError.tooManyItems(32)) {
            try RTCPPacket.receiverReport(ReceiverReport(ssrc: 1, reports: Array(repeating: block, count: 32))).serialized()
        }
        var lossy = block
        lossy.cumulativeLost = 0x80_0000
        #expect(throws: RTCPError.fieldOutOfRange("cumulativeLost")) {
            try RTCPPacket.receiverReport(ReceiverReport(ssrc: 1, reports: [lossy])).serialized()
        }
        #expect(throws: RTCPError.emptyFeedback(packetType: 205, format: 1)) {
            try RTCPPacket.nack(GenericNACK(senderSSRC: 1, mediaSSRC: 2, lostSequenceNumbers: [])).serialized()
        }
        #expect(throws: RTCPError.itemTooLong(256)) {
            try RTCPPacket.sourceDescription(.cname(String(repeating: "c", count: 256), ssrc: 1)).serialized()
        }
        #expect(throws: RTCPError.invalidItemType) {
            try RTCPPacket.sourceDescription(SourceDescription(chunks: [.init(ssrc: 1, items: [.init(type: 0, value: [])])])).serialized()
        }
        #expect(throws: RTCPError.fieldOutOfRange("REMB mantissa")) {
            try RTCPPacket.receiverEstimatedMaxBitrate(.init(senderSSRC: 1, exponent: 0, mantissa: 1 << 18, ssrcs: [])).serialized()
        }
        #expect(throws: RTCPError.unalignedPayload(bytes: 3)) {
            try RTCPPacket.unknown(UnknownRTCPPacket(countOrFormat: 0, packetType: 204, body: [1, 2, 3])).serialized()
        }
        #expect(throws: RTCPError.zeroLength(packetType: 203)) { try RTCPPacket.goodbye(Goodbye(ssrcs: [])).serialized() }
    }
}
