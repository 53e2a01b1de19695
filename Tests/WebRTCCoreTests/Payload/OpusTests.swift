import Testing
@testable import WebRTCCore

@Suite("Opus (RFC 6716 §3, RFC 7587)")
struct OpusTests {
    static func toc(config: UInt8, stereo: Bool = false, code: UInt8) -> UInt8 {
        config << 3 | (stereo ? 0x04 : 0) | code
    }

    @Test("every TOC configuration maps to RFC 6716 Table 2", arguments: 0...31)
    func configurationTable(config: Int) throws {
        let info = try OpusPacketInfo(validating: [Self.toc(config: UInt8(config), stereo: config % 2 == 0, code: 0), 0xFF])
        let modes: [OpusPacketInfo.Mode] = Array(repeating: .silk, count: 12) + Array(repeating: .hybrid, count: 4)
            + Array(repeating: .celt, count: 16)
        let bandwidths: [OpusPacketInfo.Bandwidth] = [
            .narrowband, .narrowband, .narrowband, .narrowband, .mediumband, .mediumband, .mediumband, .mediumband,
            .wideband, .wideband, .wideband, .wideband, .superWideband, .superWideband, .fullband, .fullband,
            .narrowband, .narrowband, .narrowband, .narrowband, .wideband, .wideband, .wideband, .wideband,
            .superWideband, .superWideband, .superWideband, .superWideband, .fullband, .fullband, .fullband, .fullband,
        ]
        let samples = [480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 480, 960]
            + [120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960]
        #expect(info.mode == modes[config])
        #expect(info.bandwidth == bandwidths[config])
        #expect(info.samplesPerFrame == samples[config])
        #expect(info.isStereo == (config % 2 == 0))
        #expect(info.frameSizes == [1])
    }

    @Test("codes 0, 1 and 2 (RFC 6716 §3.2.2–3.2.4)")
    func simpleCodes() throws {
        let fullband20ms = Self.toc(config: 31, code: 0)
        #expect(try OpusPacketInfo(validating: [fullband20ms, 1, 2, 3]).frameSizes == [3])
        #expect(try OpusPacketInfo(validating: [fullband20ms]).frameSizes == [0])
        let code1 = Self.toc(config: 31, code: 1)
        #expect(try OpusPacketInfo(validating: [code1, 1, 2, 3, 4]).frameSizes == [2, 2])
        #expect(try OpusPacketInfo(validating: [code1, 1, 2, 3, 4]).durationSamples == 1920)
        #expect(throws: OpusError.unequalFrames(length: 4)) { try OpusPacketInfo(validating: [code1, 1, 2, 3]) }
        let code2 = Self.toc(config: 31, code: 2)
        #expect(try OpusPacketInfo(validating: [code2, 3, 1, 2, 3, 4, 5]).frameSizes == [3, 2])
        let twoByteLength = [code2, 252, 1] + Array(repeating: 0, count: 256 + 7)
        #expect(try OpusPacketInfo(validating: twoByteLength).frameSizes == [256, 7])
        #expect(throws: OpusError.frameLengthOverrun) { try OpusPacketInfo(validating: [code2, 9, 1, 2]) }
        #expect(throws: OpusError.frameLengthOverrun) { try OpusPacketInfo(validating: [code2, 253]) }
    }

    @Test("code 3: CBR, VBR, padding, frame-count and duration limits (RFC 6716 §3.2.5)")
    func code3() throws {
        let celt2_5ms = Self.toc(config: 16, code: 3)
        let celt20ms = Self.toc(config: 31, code: 3)
        #expect(try OpusPacketInfo(validating: [celt20ms, 0x03, 1, 2, 3, 4, 5, 6]).frameSizes == [2, 2, 2])
        #expect(throws: OpusError.unevenConstantBitrate(dataLength: 5, frames: 3)) {
            try OpusPacketInfo(validating: [celt20ms, 0x03, 1, 2, 3, 4, 5])
        }
        #expect(try OpusPacketInfo(validating: [celt20ms, 0x82, 2, 1, 2, 3, 4, 5]).frameSizes == [2, 3])
        let padded = try OpusPacketInfo(validating: [celt20ms, 0x41, 0x02, 9, 9, 0, 0])
        #expect(padded.frameSizes == [2])
        #expect(padded.paddingLength == 3)
        let longPadding = [celt20ms, 0x41, 0xFF, 0x01] + [7] + Array(repeating: 0, count: 255)
        #expect(try OpusPacketInfo(validating: longPadding).frameSizes == [1])
        #expect(throws: OpusError.paddingOverflow) { try OpusPacketInfo(validating: [celt20ms, 0x41, 0xFF]) }
        #expect(throws: OpusError.paddingOverflow) { try OpusPacketInfo(validating: [celt20ms, 0x41, 0x10, 1, 2]) }
        #expect(throws: OpusError.paddingOverflow) { try OpusPacketInfo(validating: [celt20ms, 0xC2, 0x10, 1, 2]) }
        #expect(throws: OpusError.frameLengthOverrun) { try OpusPacketInfo(validating: [celt20ms, 0x82, 9, 1]) }
        #expect(throws: OpusError.invalidFrameCount(0)) { try OpusPacketInfo(validating: [celt20ms, 0x00]) }
        #expect(throws: OpusError.invalidFrameCount(49)) { try OpusPacketInfo(validating: [celt2_5ms, 0x31]) }
        #expect(try OpusPacketInfo(validating: [celt2_5ms, 0x30]).frameSizes.count == 48)
        #expect(throws: OpusError.durationTooLong(samples: 6720)) { try OpusPacketInfo(validating: [celt20ms, 0x07]) }
        #expect(throws: OpusError.frameLengthOverrun) { try OpusPacketInfo(validating: [celt20ms]) }
    }

    @Test("lengths 0 through 1276 with code 0: only the 1275-byte frame limit applies")
    func lengthSweep() {
        for length in 0...1277 {
            let packet = length == 0 ? [] : [Self.toc(config: 31, code: 0)] + Array(repeating: 0xAB, count: length - 1)
            let result = Result { () throws(OpusError) in try OpusPacketInfo(validating: packet) }
            switch length {
            case 0: #expect(throws: OpusError.emptyPacket) { try result.get() }
            case 1...1276: #expect((try? result.get())?.frameSizes == [length - 1])
            default: #expect(throws: OpusError.frameTooLarge(1276)) { try result.get() }
            }
        }
    }

    @Test("RTP: +960 per 20 ms, sequence wrap, marker on a talkspurt, DTX skips")
    func packetizer() {
        var packetizer = OpusPacketizer(ssrc: 5, initialSequenceNumber: 65535, initialTimestamp: UInt32.max - 959)
        let first = packetizer.packetize([1, 2])
        let second = packetizer.packetize([3], startsTalkspurt: true)
        packetizer.skip(samples: 960 * 3)
        let third = packetizer.packetize([4], samples: 1920)
        #expect(first.timestamp == UInt32.max - 959)
        #expect(second.timestamp == 0)
        #expect(third.timestamp == 960 * 4)
        #expect(packetizer.nextTimestamp == 960 * 4 + 1920)
        #expect([first, second, third].map(\.sequenceNumber) == [65535, 0, 1])
        #expect([first, second, third].map(\.marker) == [false, true, false])
        #expect(first.payloadType == 111 && first.ssrc == 5 && first.payload == [1, 2])
    }
}
