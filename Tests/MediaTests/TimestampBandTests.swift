import IntercomPlatform
@testable import Media
import Testing

@Suite struct TimestampBandTests {
    @Test(arguments: [UInt64(0), 1, 1_732_190_000_123, (UInt64(1) << 48) - 1, 0xA5A5_5A5A_A5A5] as [UInt64])
    func valuesReadBackExactly(value: UInt64) {
        var frame = I420Frame(width: 640, height: 480)
        #expect(TimestampBand.draw(value, into: &frame))
        #expect(TimestampBand.read(from: frame) == value)
    }

    @Test func narrowFramesUseMoreStrips() {
        #expect(TimestampBand.height(forWidth: 640) == 32)  // 40 cells per strip
        #expect(TimestampBand.height(forWidth: 320) == 64)  // 20 cells per strip
        var frame = I420Frame(width: 320, height: 240, lumaStride: 336, chromaStride: 176)
        #expect(TimestampBand.draw(123_456_789, into: &frame))
        #expect(TimestampBand.read(from: frame) == 123_456_789)
    }

    @Test func aDamagedCellFailsTheChecksumInsteadOfGivingAWrongTime() {
        var frame = I420Frame(width: 640, height: 480)
        TimestampBand.draw(1_000_000, into: &frame)
        let cellBits = TimestampBand.cellBits(for: 1_000_000)
        // Invert the most significant value cell: a misread must not turn into another timestamp.
        frame.withMutablePlanes { y, _, _ in
            for row in 0..<16 { for column in 0..<16 { y[row * 640 + column] = cellBits[0] ? 16 : 235 } }
        }
        #expect(TimestampBand.read(from: frame) == nil)
    }

    @Test func framesWithoutABandOrTooSmallForOneGiveNil() {
        #expect(TimestampBand.read(from: I420Frame(width: 640, height: 480)) == nil)
        var tiny = I420Frame(width: 64, height: 64)
        #expect(!TimestampBand.draw(42, into: &tiny))
        #expect(tiny == I420Frame(width: 64, height: 64))
        #expect(TimestampBand.read(from: tiny) == nil)
        #expect(TimestampBand.height(forWidth: 15) == nil)
    }

    @Test func bitsAbove48AreIgnored() {
        var frame = I420Frame(width: 640, height: 480)
        TimestampBand.draw((1 << 60) | 77, into: &frame)
        #expect(TimestampBand.read(from: frame) == 77)
    }
}

@Suite struct TestPatternTests {
    @Test func theSameIndexGivesTheSamePictureAndTheBoxMoves() {
        let pattern = TestPattern(width: 320, height: 240)
        let first = pattern.frame(index: 7, bandValue: 99, captureTime: .seconds(1))
        let again = pattern.frame(index: 7, bandValue: 99, captureTime: .seconds(1))
        let next = pattern.frame(index: 8, bandValue: 99, captureTime: .seconds(1))
        #expect(first == again)
        #expect(first.storage != next.storage)
        #expect(TimestampBand.read(from: first) == 99)
        #expect(pattern.boxOrigin(index: 7, top: 64) != pattern.boxOrigin(index: 8, top: 64))
    }

    @Test func theBoxBouncesInsideTheFrame() {
        let pattern = TestPattern(width: 320, height: 240)
        for index in UInt64(0)..<400 {
            let origin = pattern.boxOrigin(index: index, top: 64)
            #expect((0...(320 - 30)).contains(origin.x))  // the box is min(320, 240) / 8 = 30 px
            #expect((64...(240 - 30)).contains(origin.y))
        }
    }

    @Test func syntheticSourceStampsFramesAtTheNominalRate() throws {
        let source = TestPatternSource(width: 640, height: 480, frameRate: FrameRate(25), timing: .synthetic(start: .seconds(10)))
        #expect(source.format == nil)
        try source.open()
        #expect(source.format == VideoFormat(width: 640, height: 480, frameRate: FrameRate(25)))
        let frames = try (0..<3).map { _ in try #require(try source.nextFrame()) }
        #expect(frames.map(\.captureTime) == [.seconds(10), .milliseconds(10_040), .milliseconds(10_080)])
        #expect(frames.map(\.sequence) == [0, 1, 2])
        #expect(frames.map { TimestampBand.read(from: $0) } == [10_000, 10_040, 10_080])
        source.close()
        #expect(throws: VideoSourceError.notOpen) { try source.nextFrame() }
    }

    @Test func realtimeSourceIsPacedAndCarriesWallClockMilliseconds() throws {
        let source = TestPatternSource(width: 320, height: 240, frameRate: FrameRate(50))
        try source.open()
        let before = MonotonicClock.wallClockMilliseconds()
        let frames = try (0..<4).map { _ in try #require(try source.nextFrame()) }
        let after = MonotonicClock.wallClockMilliseconds()
        let spacing = frames.last!.captureTime - frames.first!.captureTime
        #expect(spacing >= .milliseconds(55))  // three 20 ms intervals, minus scheduling slack
        for frame in frames {
            let band = try #require(TimestampBand.read(from: frame))
            #expect((before...after).contains(band))
        }
    }
}
