import Testing
@testable import WebRTCCore

@Suite("VP8 frame header (RFC 6386 §9.1)")
struct VP8FrameHeaderTests {
    /// Key frame tag: P=0, version 0, show_frame=1, first partition 10 bytes → 0x000150 little-endian;
    /// start code; 640 (×5/4 scale code 1) by 480.
    static let keyFrame: [UInt8] = [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x42, 0xE0, 0x01]
        + Array(repeating: 0, count: 10)
    /// Inter frame tag: P=1, show_frame=1, first partition 5 bytes.
    static let interFrame: [UInt8] = [0xB1, 0x00, 0x00, 1, 2, 3, 4, 5]

    @Test("reads a key frame's size and scale")
    func keyFrameHeader() throws {
        let header = try VP8FrameHeader(parsing: Self.keyFrame[...])
        #expect(header.isKeyFrame)
        #expect(header.showFrame)
        #expect(header.version == 0)
        #expect(header.firstPartitionSize == 10)
        #expect(header.width == 640)
        #expect(header.height == 480)
        #expect(header.horizontalScale == 1)
        #expect(header.verticalScale == 0)
        #expect(VP8Frame(timestamp: 0, pictureID: nil, data: Self.keyFrame).isKeyFrame)
    }

    @Test("reads an inter frame")
    func interFrameHeader() throws {
        let header = try VP8FrameHeader(parsing: Self.interFrame[...])
        #expect(!header.isKeyFrame)
        #expect(header.firstPartitionSize == 5)
        #expect(header.width == nil)
        #expect(!VP8Frame(timestamp: 0, pictureID: nil, data: Self.interFrame).isKeyFrame)
    }

    @Test("accepts the largest dimensions, 16383")
    func maximumSize() throws {
        var frame = Self.keyFrame
        frame[6...9] = [0xFF, 0x3F, 0xFF, 0x3F]
        let header = try VP8FrameHeader(parsing: frame[...])
        #expect(header.width == 16383 && header.height == 16383)
    }

    @Test("rejects a bad start code, zero size, truncation and partition overrun")
    func rejections() {
        var badCode = Self.keyFrame
        badCode[5] = 0x2B
        #expect(throws: VP8Error.invalidStartCode) { try VP8FrameHeader(parsing: badCode[...]) }
        var zeroWidth = Self.keyFrame
        zeroWidth[6...7] = [0x00, 0xC0]
        #expect(throws: VP8Error.zeroDimension(width: 0, height: 480)) { try VP8FrameHeader(parsing: zeroWidth[...]) }
        #expect(throws: VP8Error.truncatedFrameHeader(needed: 10, available: 6)) {
            try VP8FrameHeader(parsing: Self.keyFrame.prefix(6))
        }
        #expect(throws: VP8Error.truncatedFrameHeader(needed: 3, available: 2)) {
            try VP8FrameHeader(parsing: Self.interFrame.prefix(2))
        }
        #expect(throws: VP8Error.partitionOverrun(size: 10, available: 4)) {
            try VP8FrameHeader(parsing: Self.keyFrame.prefix(14))
        }
        #expect((try? VP8FrameHeader(parsing: Self.keyFrame.prefix(14), requireWholePartition: false))?.width == 640)
    }
}
