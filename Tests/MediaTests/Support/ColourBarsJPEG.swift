import CTurboJPEG

/// Eight vertical colour bars as RGB, compressed by TurboJPEG (`tjCompress2`) with any subsampling: the
/// test input for the decoder's non-4:2:0 paths, with luma and chroma values known per bar (JFIF full-range
/// BT.601, the colour space of every JPEG a webcam sends).
enum ColourBarsJPEG {
    static let colours: [(r: Double, g: Double, b: Double)] = [
        (235, 235, 235), (235, 235, 16), (16, 235, 235), (16, 235, 16),
        (235, 16, 235), (235, 16, 16), (16, 16, 235), (16, 16, 16),
    ]

    static func expectedLuma(bar: Int) -> Double {
        let c = colours[bar]
        return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b
    }

    static func expectedChroma(bar: Int) -> (u: Double, v: Double) {
        let c = colours[bar]
        return (128 - 0.168736 * c.r - 0.331264 * c.g + 0.5 * c.b, 128 + 0.5 * c.r - 0.418688 * c.g - 0.081312 * c.b)
    }

    static func bar(atColumn x: Int, width: Int) -> Int { x * colours.count / width }

    static func encode(width: Int, height: Int, subsampling: Int32, quality: Int32 = 90) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = colours[bar(atColumn: x, width: width)]
                let offset = (y * width + x) * 3
                (rgb[offset], rgb[offset + 1], rgb[offset + 2]) = (UInt8(c.r), UInt8(c.g), UInt8(c.b))
            }
        }
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(handle, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                                 &output, &size, subsampling, quality, 0)
        precondition(status == 0, "tjCompress2 failed: \(String(cString: tjGetErrorStr2(handle)))")
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
