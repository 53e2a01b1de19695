@testable import Media
import Testing

/// Plane layouts → I420: NV12M (Y + interleaved UV in two buffers) and YUV420M (three buffers), each plane
/// with its own padded pitch, and the decoder that routes a dequeued buffer's planes to them.
@Suite struct PlanarConversionTests {
    /// `rows` rows of `width` bytes from `value(column, row)`, each padded with 0xEE to `pitch`.
    static func plane(width: Int, rows: Int, pitch: Int, _ value: (Int, Int) -> UInt8) -> [UInt8] {
        (0..<rows).flatMap { row in (0..<width).map { value($0, row) } + [UInt8](repeating: 0xEE, count: pitch - width) }
    }

    static let luma = plane(width: 6, rows: 3, pitch: 8) { UInt8(10 * $1 + $0) }
    /// Chroma of a 6x3 picture: 3x2 samples; U = 100 + 10·row + column, V = 200 + 10·row + column.
    static let expectedU: [UInt8] = [100, 101, 102, 110, 111, 112]
    static let expectedV: [UInt8] = [200, 201, 202, 210, 211, 212]

    static func expectPicture(_ frame: I420Frame) {
        let planes = PixelConversionTests.planes(frame)
        #expect((frame.width, frame.height) == (6, 3))
        #expect(planes.y == [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25])
        #expect(planes.u == expectedU)
        #expect(planes.v == expectedV)
    }

    static let interleaved = plane(width: 6, rows: 2, pitch: 10) { column, row in
        UInt8((column % 2 == 0 ? 100 : 200) + 10 * row + column / 2)
    }
    static let u = plane(width: 3, rows: 2, pitch: 4) { UInt8(100 + 10 * $1 + $0) }
    static let v = plane(width: 3, rows: 2, pitch: 5) { UInt8(200 + 10 * $1 + $0) }

    @Test func semiPlanarDeinterleavesUVFromItsOwnPaddedPlane() throws {
        var frame = I420Frame(width: 2, height: 2)
        try Self.luma.withUnsafeBytes { y in
            try Self.interleaved.withUnsafeBytes { uv in
                try PixelConversion.semiPlanarToI420(
                    luma: .init(y, bytesPerLine: 8), chroma: .init(uv, bytesPerLine: 10), width: 6, height: 3, into: &frame)
            }
        }
        Self.expectPicture(frame)
    }

    @Test func planarCopiesThreePlanesWithDifferentPitches() throws {
        var frame = I420Frame(width: 6, height: 3)
        try Self.luma.withUnsafeBytes { y in
            try Self.u.withUnsafeBytes { u in
                try Self.v.withUnsafeBytes { v in
                    try PixelConversion.planarToI420(
                        y: .init(y, bytesPerLine: 8), u: .init(u, bytesPerLine: 4), v: .init(v, bytesPerLine: 5),
                        width: 6, height: 3, into: &frame)
                }
            }
        }
        Self.expectPicture(frame)
    }

    @Test func aShortOrNarrowPlaneIsAnErrorNamingThePlane() throws {
        var frame = I420Frame(width: 6, height: 3)
        let short = Array(Self.interleaved.dropLast(5))  // 15 bytes: the last row needs 10 + 6
        let error = Self.luma.withUnsafeBytes { y in
            short.withUnsafeBytes { uv in
                #expect(throws: PixelConversionError.self) {
                    try PixelConversion.semiPlanarToI420(
                        luma: .init(y, bytesPerLine: 8), chroma: .init(uv, bytesPerLine: 10), width: 6, height: 3, into: &frame)
                }
            }
        }
        #expect(error.map { "\($0)" }?.contains("UV plane has 15 bytes, needs 16") == true)
        let narrow = Self.luma.withUnsafeBytes { y in
            Self.u.withUnsafeBytes { u in
                #expect(throws: PixelConversionError.self) {
                    try PixelConversion.planarToI420(
                        y: .init(y, bytesPerLine: 8), u: .init(u, bytesPerLine: 2), v: .init(u, bytesPerLine: 4),
                        width: 6, height: 3, into: &frame)
                }
            }
        }
        #expect(narrow.map { "\($0)" }?.contains("U bytesperline 2 < 3") == true)
    }

    static func format(_ pixelFormat: PixelFormat, _ pitches: [Int]) -> V4L2NegotiatedFormat {
        V4L2NegotiatedFormat(
            bufferType: .multiPlanar, pixelFormat: pixelFormat, width: 6, height: 3, bytesPerLine: pitches[0],
            planes: pitches.map { V4L2PlaneLayout(bytesPerLine: $0, sizeImage: 0) }, frameRate: FrameRate(30))
    }

    @Test func theDecoderTakesNV12MAndYUV420MPlaneByPlane() throws {
        var frame = I420Frame(width: 6, height: 3)
        try Self.luma.withUnsafeBytes { y in
            try Self.interleaved.withUnsafeBytes { uv in
                try V4L2FrameDecoder.decode([y, uv], format: Self.format(.nv12m, [8, 10]), into: &frame)
            }
        }
        Self.expectPicture(frame)
        frame = I420Frame(width: 6, height: 3)
        try Self.luma.withUnsafeBytes { y in
            try Self.u.withUnsafeBytes { u in
                try Self.v.withUnsafeBytes { v in
                    try V4L2FrameDecoder.decode([y, u, v], format: Self.format(.yuv420m, [8, 4, 5]), into: &frame)
                }
            }
        }
        Self.expectPicture(frame)
    }

    @Test func singleBufferNV12AndYU12OnTheMultiPlanarAPIDecodeLikeSinglePlanar() throws {
        // NV12 in one buffer: Y rows at pitch 10, then the UV rows at the same pitch.
        let nv12 = Self.plane(width: 6, rows: 3, pitch: 10) { UInt8(10 * $1 + $0) }
            + Self.plane(width: 6, rows: 2, pitch: 10) { column, row in UInt8((column % 2 == 0 ? 100 : 200) + 10 * row + column / 2) }
        var frame = I420Frame(width: 6, height: 3)
        try nv12.withUnsafeBytes { try V4L2FrameDecoder.decode([$0], format: Self.format(.nv12, [10]), into: &frame) }
        Self.expectPicture(frame)
        // YU12 in one buffer: Y at pitch 8, then U and V at pitch 4.
        let yu12 = Self.luma + Self.u + Self.plane(width: 3, rows: 2, pitch: 4) { UInt8(200 + 10 * $1 + $0) }
        frame = I420Frame(width: 6, height: 3)
        try yu12.withUnsafeBytes { try V4L2FrameDecoder.decode([$0], format: Self.format(.yuv420, [8]), into: &frame) }
        Self.expectPicture(frame)
    }

    @Test func aPlaneCountThatDoesNotMatchTheFormatIsAnError() throws {
        var frame = I420Frame(width: 6, height: 3)
        let error = Self.luma.withUnsafeBytes { y in
            #expect(throws: PixelConversionError.self) {
                try V4L2FrameDecoder.decode([y], format: Self.format(.nv12m, [8, 10]), into: &frame)
            }
        }
        #expect(error.map { "\($0)" }?.contains("1 buffer planes") == true)
    }
}
