import Media
import Testing

@Suite struct PixelConversionTests {
    /// Packed YUYV rows from (Y0, U, Y1, V) groups.
    static func yuyv(_ rows: [[UInt8]], padding: Int = 0) -> [UInt8] {
        rows.flatMap { $0 + [UInt8](repeating: 0xEE, count: padding) }
    }

    static func planes(_ frame: I420Frame) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        var y: [UInt8] = []
        var u: [UInt8] = []
        var v: [UInt8] = []
        for row in 0..<frame.height { for column in 0..<frame.width { y.append(frame.luma(x: column, y: row)) } }
        for row in 0..<frame.chromaHeight {
            for column in 0..<frame.chromaWidth {
                u.append(frame.u(x: column, y: row))
                v.append(frame.v(x: column, y: row))
            }
        }
        return (y, u, v)
    }

    @Test func yuyvCopiesLumaAndAveragesChromaRowPairsWithRounding() throws {
        let source = Self.yuyv([
            [10, 20, 30, 40, 50, 60, 70, 80],
            [11, 21, 31, 41, 51, 62, 71, 83],
        ], padding: 4)
        var frame = I420Frame(width: 2, height: 2)
        try source.withUnsafeBytes { bytes in
            try PixelConversion.yuyvToI420(bytes, width: 4, height: 2, bytesPerLine: 12, into: &frame)
        }
        let planes = Self.planes(frame)
        #expect((frame.width, frame.height) == (4, 2))
        #expect(planes.y == [10, 30, 50, 70, 11, 31, 51, 71])
        #expect(planes.u == [21, 61])  // (20+21+1)/2, (60+62+1)/2
        #expect(planes.v == [41, 82])  // (40+41+1)/2, (80+83+1)/2
    }

    @Test func yuyvWithAnOddHeightUsesTheLastRowAlone() throws {
        let source = Self.yuyv([
            [1, 100, 2, 200],
            [3, 102, 4, 202],
            [5, 7, 6, 9],
        ])
        var frame = I420Frame(width: 2, height: 3, lumaStride: 8, chromaStride: 4)
        try source.withUnsafeBytes { bytes in
            try PixelConversion.yuyvToI420(bytes, width: 2, height: 3, bytesPerLine: 4, into: &frame)
        }
        let planes = Self.planes(frame)
        #expect(frame.lumaStride == 8)  // the frame's own padded layout is kept
        #expect(planes.y == [1, 2, 3, 4, 5, 6])
        #expect(planes.u == [101, 7])
        #expect(planes.v == [201, 9])
    }

    @Test func nv12DeinterleavesChromaExactly() throws {
        let bytesPerLine = 6
        var source: [UInt8] = []
        source += [1, 2, 3, 4, 0xEE, 0xEE]
        source += [5, 6, 7, 8, 0xEE, 0xEE]
        source += [9, 10, 11, 12, 0xEE, 0xEE]
        source += [13, 14, 15, 16, 0xEE, 0xEE]
        source += [100, 200, 101, 201, 0xEE, 0xEE]  // U V U V
        source += [102, 202, 103, 203]  // the last line may omit its padding
        var frame = I420Frame(width: 4, height: 4)
        try source.withUnsafeBytes { bytes in
            try PixelConversion.nv12ToI420(bytes, width: 4, height: 4, bytesPerLine: bytesPerLine, into: &frame)
        }
        let planes = Self.planes(frame)
        #expect(planes.y == Array(1...16))
        #expect(planes.u == [100, 101, 102, 103])
        #expect(planes.v == [200, 201, 202, 203])
    }

    @Test func nv12WithOddSizeRoundsChromaUp() throws {
        // 3x3: chroma is 2x2.
        let source: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0, 50, 60, 51, 61, 52, 62, 53, 63]
        var frame = I420Frame(width: 1, height: 1)
        try source.withUnsafeBytes { bytes in
            try PixelConversion.nv12ToI420(bytes, width: 3, height: 3, bytesPerLine: 4, into: &frame)
        }
        let planes = Self.planes(frame)
        #expect(planes.y == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(planes.u == [50, 51, 52, 53])
        #expect(planes.v == [60, 61, 62, 63])
    }

    @Test func shortOrMisshapenBuffersThrowInsteadOfReadingOutOfBounds() {
        var frame = I420Frame(width: 4, height: 2)
        let tooShort = [UInt8](repeating: 0, count: 15)
        tooShort.withUnsafeBytes { bytes in
            #expect(throws: PixelConversionError.self) {
                try PixelConversion.yuyvToI420(bytes, width: 4, height: 2, bytesPerLine: 8, into: &frame)
            }
            #expect(throws: PixelConversionError.self) {
                try PixelConversion.nv12ToI420(bytes, width: 4, height: 4, bytesPerLine: 4, into: &frame)
            }
        }
        let enough = [UInt8](repeating: 0, count: 64)
        enough.withUnsafeBytes { bytes in
            #expect(throws: PixelConversionError.self) {
                try PixelConversion.yuyvToI420(bytes, width: 3, height: 2, bytesPerLine: 8, into: &frame)
            }
            #expect(throws: PixelConversionError.self) {
                try PixelConversion.yuyvToI420(bytes, width: 4, height: 2, bytesPerLine: 6, into: &frame)
            }
        }
    }
}
