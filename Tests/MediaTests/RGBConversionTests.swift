import Testing
import Media

@Suite("Packed RGB24/BGR24 into I420 (BT.601 limited range)")
struct RGBConversionTests {
    /// One 2x2 block of a single colour, in `order`, with `padding` unused bytes after each line.
    private func convert(_ rgb: (UInt8, UInt8, UInt8), order: PixelConversion.RGBOrder, padding: Int = 0) throws -> I420Frame {
        let pixel: [UInt8] = order == .redGreenBlue ? [rgb.0, rgb.1, rgb.2] : [rgb.2, rgb.1, rgb.0]
        let line = pixel + pixel + [UInt8](repeating: 0xEE, count: padding)
        var frame = I420Frame(width: 2, height: 2)
        try (line + line).withUnsafeBytes { bytes in
            try PixelConversion.rgb24ToI420(bytes, width: 2, height: 2, bytesPerLine: 6 + padding, order: order, into: &frame)
        }
        return frame
    }

    @Test("white, black, red, green and blue land on their BT.601 values in both byte orders", arguments: [
        ((255, 255, 255), (235, 128, 128)), ((0, 0, 0), (16, 128, 128)), ((255, 0, 0), (82, 90, 240)),
        ((0, 255, 0), (144, 54, 34)), ((0, 0, 255), (41, 240, 110)),
    ] as [((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))])
    func primaries(rgb: (UInt8, UInt8, UInt8), yuv: (UInt8, UInt8, UInt8)) throws {
        for order in [PixelConversion.RGBOrder.redGreenBlue, .blueGreenRed] {
            let frame = try convert(rgb, order: order, padding: 3)
            #expect((frame.luma(x: 1, y: 1), frame.u(x: 0, y: 0), frame.v(x: 0, y: 0)) == yuv, "\(order)")
        }
    }

    @Test("chroma is the average of the 2x2 block; an odd last column and row are used alone")
    func averagingAndOddSizes() throws {
        // 3x3: left 2x2 block half black, half white; the last column and row pure red.
        let (black, white, red): ([UInt8], [UInt8], [UInt8]) = ([0, 0, 0], [255, 255, 255], [255, 0, 0])
        let rows = [black + white + red, white + black + red, red + red + red]
        var frame = I420Frame(width: 3, height: 3)
        try rows.flatMap { $0 }.withUnsafeBytes { bytes in
            try PixelConversion.rgb24ToI420(bytes, width: 3, height: 3, bytesPerLine: 9, order: .redGreenBlue, into: &frame)
        }
        #expect(frame.luma(x: 0, y: 0) == 16 && frame.luma(x: 1, y: 0) == 235)
        #expect(frame.u(x: 0, y: 0) == 128 && frame.v(x: 0, y: 0) == 128)  // grey 127: neutral chroma
        #expect(frame.v(x: 1, y: 0) == 240 && frame.v(x: 0, y: 1) == 240 && frame.v(x: 1, y: 1) == 240)
    }

    @Test("a short buffer or a too-small line pitch is an error")
    func badBuffers() {
        var frame = I420Frame(width: 2, height: 2)
        let bytes = [UInt8](repeating: 0, count: 11)
        #expect(throws: PixelConversionError.self) {
            try bytes.withUnsafeBytes {
                try PixelConversion.rgb24ToI420($0, width: 2, height: 2, bytesPerLine: 6, order: .redGreenBlue, into: &frame)
            }
        }
        #expect(throws: PixelConversionError.self) {
            try bytes.withUnsafeBytes {
                try PixelConversion.rgb24ToI420($0, width: 2, height: 2, bytesPerLine: 5, order: .redGreenBlue, into: &frame)
            }
        }
    }
}
