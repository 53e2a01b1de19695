import IntercomTestSupport
import Testing
@testable import WebRTCCore

@Suite("RTCP packets")
struct RTCPPacketTests {
    static let sender: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    static let media: [UInt8] = [0xAA, 0xBB, 0xCC, 0xDD]
    /// A report block: SSRC media, 25% lost, cumulative -1 (0xFFFFFF), highest 0x00010005, jitter 7,
    /// LSR 0x12345678, DLSR 0x00010000.
    static let reportBlock: [UInt8] = media + [0x40, 0xFF, 0xFF, 0xFF, 0x00, 0x01, 0x00, 0x05, 0, 0, 0, 7,
                                               0x12, 0x34, 0x56, 0x78, 0x00, 0x01, 0x00, 0x00]

    @Test("parses a hand-built RFC 3550 §6.4.1 sender report with one block")
    func senderReport() throws {
        let bytes: [UInt8] = [0x81, 200, 0x00, 0x0C] + Self.sender
            + [0xE8, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00]  // NTP 0xE8000000.80000000
            + [0x00, 0x01, 0x5F, 0x90, 0, 0, 0, 10, 0, 0, 0x04, 0x00] + Self.reportBlock
        let packets = try RTCPPacket.parseCompound(bytes)
        let block = ReportBlock(
            ssrc: 0xAABB_CCDD, fractionLost: 64, cumulativeLost: -1, extendedHighestSequenceNumber: 0x0001_0005,
            jitter: 7, lastSenderReport: 0x1234_5678, delaySinceLastSenderReport: 0x10000)
        #expect(packets == [.senderReport(SenderReport(
            ssrc: 0x1122_3344, ntpTimestamp: 0xE800_0000_8000_0000, rtpTimestamp: 90000, packetCount: 10,
            octetCount: 1024, reports: [block]))])
        #expect(try RTCPPacket.serializeCompound(packets) == bytes)
    }

    @Test("parses a receiver report, an SDES CNAME and a BYE with a reason")
    func receiverReportSDESAndBye() throws {
        let rr: [UInt8] = [0x81, 201, 0x00, 0x07] + Self.sender + Self.reportBlock
        let sdes: [UInt8] = [0x81, 202, 0x00, 0x03] + Self.sender + [0x01, 0x04, 0x61, 0x62, 0x63, 0x64, 0x00, 0x00]
        let bye: [UInt8] = [0x81, 203, 0x00, 0x03] + Self.sender + [0x05, 0x62, 0x79, 0x65, 0x21, 0x21, 0x00, 0x00]
        let packets = try RTCPPacket.parseCompound(rr + sdes + bye)
        #expect(packets.count == 3)
        guard case let .receiverReport(report) = packets[0] else { Issue.record("not RR"); return }
        #expect(report.ssrc == 0x1122_3344)
        #expect(report.reports.first?.cumulativeLost == -1)
        #expect(report.reports.first?.fractionLost == 64)
        guard case let .sourceDescription(description) = packets[1] else { Issue.record("not SDES"); return }
        #expect(description.cname(of: 0x1122_3344) == "abcd")
        #expect(description == .cname("abcd", ssrc: 0x1122_3344))
        #expect(packets[2] == .goodbye(Goodbye(ssrcs: [0x1122_3344], reason: "bye!!")))
        #expect(try RTCPPacket.serializeCompound(packets) == rr + sdes + bye)
    }

    @Test("SDES chunk that ends on a word boundary still gets a full null word")
    func sdesAlignment() throws {
        let description = SourceDescription.cname("ab", ssrc: 1)  // 4 + 2 + 2 = 8 bytes, then 4 null bytes
        let bytes = try RTCPPacket.sourceDescription(description).serialized()
        #expect(bytes == [0x81, 202, 0x00, 0x03, 0, 0, 0, 1, 0x01, 0x02, 0x61, 0x62, 0, 0, 0, 0])
        #expect(try RTCPPacket.parseCompound(bytes) == [.sourceDescription(description)])
    }

    @Test("NACK PID+BLP (RFC 4585 §6.2.1) expands to sequence numbers and back")
    func nack() throws {
        let bytes: [UInt8] = [0x81, 205, 0x00, 0x03] + Self.sender + Self.media + [0x00, 0x64, 0x00, 0x05]
        let packets = try RTCPPacket.parseCompound(bytes)
        guard case let .nack(nack) = packets.first else { Issue.record("not NACK"); return }
        #expect(nack.lostSequenceNumbers == [100, 101, 103])
        let rebuilt = GenericNACK(senderSSRC: 0x1122_3344, mediaSSRC: 0xAABB_CCDD, lostSequenceNumbers: [100, 101, 103])
        #expect(rebuilt == nack)
        #expect(try RTCPPacket.nack(rebuilt).serialized() == bytes)
    }

    @Test("NACK packing spans the sequence wrap and starts new items past 16")
    func nackPacking() {
        let nack = GenericNACK(senderSSRC: 1, mediaSSRC: 2, lostSequenceNumbers: [65535, 0, 0, 5, 15, 16, 40])
        #expect(nack.items == [
            GenericNACK.Item(packetID: 65535, lostBitmask: 0b1000_0000_0010_0001),
            GenericNACK.Item(packetID: 16, lostBitmask: 0),
            GenericNACK.Item(packetID: 40, lostBitmask: 0),
        ])
        #expect(nack.lostSequenceNumbers == [65535, 0, 5, 15, 16, 40])
    }

    @Test("parses PLI (206/1) and FIR (206/4, RFC 5104 §4.3.1)")
    func pliAndFIR() throws {
        let pli: [UInt8] = [0x81, 206, 0x00, 0x02] + Self.sender + Self.media
        let fir: [UInt8] = [0x84, 206, 0x00, 0x04] + Self.sender + [0, 0, 0, 0] + Self.media + [0x07, 0, 0, 0]
        let packets = try RTCPPacket.parseCompound(pli + fir)
        #expect(packets == [
            .pictureLossIndication(PictureLossIndication(senderSSRC: 0x1122_3344, mediaSSRC: 0xAABB_CCDD)),
            .fullIntraRequest(FullIntraRequest(
                senderSSRC: 0x1122_3344, entries: [.init(ssrc: 0xAABB_CCDD, sequenceNumber: 7)])),
        ])
        #expect(try RTCPPacket.serializeCompound(packets) == pli + fir)
    }

    @Test("parses REMB (206/15): 1 Mbit/s is exponent 2, mantissa 250000")
    func remb() throws {
        let bytes: [UInt8] = [0x8F, 206, 0x00, 0x05] + Self.sender + [0, 0, 0, 0]
            + [0x52, 0x45, 0x4D, 0x42, 0x01, 0x0B, 0xD0, 0x90] + Self.media
        let packets = try RTCPPacket.parseCompound(bytes)
        let expected = ReceiverEstimatedMaxBitrate(
            senderSSRC: 0x1122_3344, exponent: 2, mantissa: 250_000, ssrcs: [0xAABB_CCDD])
        #expect(packets == [.receiverEstimatedMaxBitrate(expected)])
        #expect(expected.bitrate == 1_000_000)
        #expect(ReceiverEstimatedMaxBitrate(senderSSRC: 0x1122_3344, bitrate: 1_000_000, ssrcs: [0xAABB_CCDD]) == expected)
        #expect(try RTCPPacket.serializeCompound(packets) == bytes)
    }

    @Test("REMB bitrate saturates at exponent 63 and encodes large rates by rounding down")
    func rembExtremes() {
        #expect(ReceiverEstimatedMaxBitrate(senderSSRC: 0, exponent: 63, mantissa: 0x3FFFF, ssrcs: []).bitrate == .max)
        #expect(ReceiverEstimatedMaxBitrate(senderSSRC: 0, exponent: 63, mantissa: 1, ssrcs: []).bitrate == 1 << 63)
        let large = ReceiverEstimatedMaxBitrate(senderSSRC: 0, bitrate: 123_456_789_012, ssrcs: [])
        #expect(large.mantissa <= 0x3FFFF)
        #expect(large.bitrate <= 123_456_789_012)
        #expect(large.bitrate > 123_456_789_012 - (1 << UInt64(large.exponent)))
    }

    @Test("keeps APP, XR, TWCC and non-REMB application feedback as unknown packets")
    func unknownPackets() throws {
        let app: [UInt8] = [0x80, 204, 0x00, 0x02] + Self.sender + [0x6E, 0x61, 0x6D, 0x65]
        let xr: [UInt8] = [0x80, 207, 0x00, 0x01] + Self.sender
        let twcc: [UInt8] = [0x8F, 205, 0x00, 0x03] + Self.sender + Self.media + [0x00, 0x01, 0x00, 0x00]
        let afb: [UInt8] = [0x8F, 206, 0x00, 0x03] + Self.sender + Self.media + [0x41, 0x42, 0x43, 0x44]
        let packets = try RTCPPacket.parseCompound(app + xr + twcc + afb)
        #expect(packets.map(\.packetType) == [204, 207, 205, 206])
        #expect(packets.first == .unknown(UnknownRTCPPacket(countOrFormat: 0, packetType: 204, body: Self.sender + [0x6E, 0x61, 0x6D, 0x65])))
        #expect(try RTCPPacket.serializeCompound(packets) == app + xr + twcc + afb)
    }

    @Test("strips padding from the last packet of a compound")
    func padding() throws {
        let rr: [UInt8] = [0x80, 201, 0x00, 0x01] + Self.sender
        let paddedPLI: [UInt8] = [0xA1, 206, 0x00, 0x03] + Self.sender + Self.media + [0, 0, 0, 4]
        let packets = try RTCPPacket.parseCompound(rr + paddedPLI)
        #expect(packets.last == .pictureLossIndication(PictureLossIndication(senderSSRC: 0x1122_3344, mediaSSRC: 0xAABB_CCDD)))
    }

    @Test("random compounds survive serialize → parse", arguments: [11, 12] as [UInt64])
    func randomRoundTrip(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let packets = (0..<Int.random(in: 1...5, using: &generator)).map { _ in RTCPPacket.random(using: &generator) }
            #expect(try RTCPPacket.parseCompound(RTCPPacket.serializeCompound(packets)) == packets)
        }
    }
}

extension RTCPPacket {
    static func random(using generator: inout SplitMix64) -> RTCPPacket {
        func u32() -> UInt32 { UInt32.random(in: 0...UInt32.max, using: &generator) }
        func block() -> ReportBlock {
            ReportBlock(
                ssrc: u32(), fractionLost: UInt8.random(in: 0...255, using: &generator),
                cumulativeLost: Int32.random(in: ReportBlock.cumulativeLostRange, using: &generator),
                extendedHighestSequenceNumber: u32(), jitter: u32(), lastSenderReport: u32(),
                delaySinceLastSenderReport: u32())
        }
        func blocks() -> [ReportBlock] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in block() } }
        switch Int.random(in: 0...8, using: &generator) {
        case 0:
            return .senderReport(SenderReport(
                ssrc: u32(), ntpTimestamp: UInt64.random(in: 0...UInt64.max, using: &generator), rtpTimestamp: u32(),
                packetCount: u32(), octetCount: u32(), reports: blocks()))
        case 1:
            return .receiverReport(ReceiverReport(ssrc: u32(), reports: blocks()))
        case 2:
            let text = String(repeating: "x", count: Int.random(in: 0...40, using: &generator))
            return .sourceDescription(SourceDescription(chunks: [
                .init(ssrc: u32(), items: [.init(type: 1, value: Array(text.utf8)), .init(type: 6, value: [1, 2])]),
                .init(ssrc: u32(), items: []),
            ]))
        case 3:
            return .goodbye(Goodbye(ssrcs: [u32(), u32()], reason: Bool.random(using: &generator) ? "gone" : nil))
        case 4:
            let base = UInt16.random(in: 0...UInt16.max, using: &generator)
            let lost = (0..<Int.random(in: 1...40, using: &generator)).map { base &+ UInt16($0 * Int.random(in: 1...3, using: &generator)) }
            return .nack(GenericNACK(senderSSRC: u32(), mediaSSRC: u32(), lostSequenceNumbers: lost))
        case 5:
            return .pictureLossIndication(PictureLossIndication(senderSSRC: u32(), mediaSSRC: u32()))
        case 6:
            return .fullIntraRequest(FullIntraRequest(senderSSRC: u32(), entries: [.init(ssrc: u32(), sequenceNumber: 9)]))
        case 7:
            return .receiverEstimatedMaxBitrate(ReceiverEstimatedMaxBitrate(
                senderSSRC: u32(), bitrate: UInt64.random(in: 0...10_000_000_000, using: &generator), ssrcs: [u32()]))
        default:
            return .unknown(UnknownRTCPPacket(countOrFormat: 3, packetType: 204, body: [1, 2, 3, 4, 5, 6, 7, 8]))
        }
    }
}
