import Glibc
import IntercomTestSupport
import Media
import Testing

@Suite struct Y4MFileSourceTests {
    static func clip(width: Int, height: Int, count: Int) -> [I420Frame] {
        let pattern = TestPattern(width: width, height: height)
        return (0..<count).map { pattern.frame(index: UInt64($0), bandValue: nil, captureTime: .zero) }
    }

    @Test func framesWrittenByTheWriterReadBackIdentically() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.clip(width: 48, height: 32, count: 3)
        try Y4MWriter.write(frames, frameRate: FrameRate(30), to: directory.path("clip.y4m"))
        let source = Y4MFileSource(path: directory.path("clip.y4m"), timing: .synthetic(start: .seconds(5)))
        try source.open()
        #expect(source.format == VideoFormat(width: 48, height: 32, frameRate: FrameRate(30)))
        for (index, original) in frames.enumerated() {
            let frame = try #require(try source.nextFrame())
            #expect(frame.packedBytes() == original.packedBytes())
            #expect(frame.sequence == UInt64(index))
            #expect(frame.captureTime == .seconds(5) + FrameRate(30).frameInterval * index)
        }
        #expect(throws: VideoSourceError.endOfStream) { try source.nextFrame() }
    }

    @Test func loopingStartsAgainAfterTheLastFrame() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.clip(width: 5, height: 3, count: 2)  // odd size: chroma rounds up
        try Y4MWriter.write(frames, frameRate: FrameRate(10), to: directory.path("loop.y4m"))
        let source = Y4MFileSource(path: directory.path("loop.y4m"), loops: true, timing: .synthetic(start: .zero))
        try source.open()
        let read = try (0..<5).map { _ in try #require(try source.nextFrame()).packedBytes() }
        let expected = [0, 1, 0, 1, 0].map { frames[$0].packedBytes() }
        #expect(read == expected)
    }

    @Test func frameParametersAfterTheMarkerAreIgnored() throws {
        let directory = try TemporaryDirectory()
        let pixels = [UInt8](repeating: 77, count: 6)
        try directory.write(Array("YUV4MPEG2 W2 H2 F1:1\nFRAME Ixyz\n".utf8) + pixels, to: "params.y4m")
        let source = Y4MFileSource(path: directory.path("params.y4m"), timing: .synthetic(start: .zero))
        try source.open()
        #expect(try source.nextFrame()?.packedBytes() == pixels)
    }

    @Test func aTruncatedLastFrameIsReportedWithItsSize() throws {
        let directory = try TemporaryDirectory()
        var bytes = Y4MWriter.encode(Self.clip(width: 16, height: 16, count: 2), frameRate: FrameRate(30))
        bytes.removeLast(100)
        try directory.write(bytes, to: "short.y4m")
        let source = Y4MFileSource(path: directory.path("short.y4m"), timing: .synthetic(start: .zero))
        try source.open()
        _ = try source.nextFrame()
        #expect(throws: VideoSourceError.y4m(.truncatedFrame(expected: 384, got: 284))) { try source.nextFrame() }
    }

    @Test func brokenFilesAreRejectedWithAClearError() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, [UInt8], VideoSourceError)] = [
            ("empty", [], .y4m(.notY4M)),
            ("png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .y4m(.notY4M)),
            ("endless", [UInt8](repeating: 0x41, count: 5000), .y4m(.lineTooLong(limit: 1024))),
            ("yuv422", Array("YUV4MPEG2 W4 H4 C422\n".utf8), .y4m(.unsupportedColourspace("422"))),
        ]
        for (name, bytes, expected) in cases {
            try directory.write(bytes, to: name)
            let source = Y4MFileSource(path: directory.path(name))
            #expect(throws: expected) { try source.open() }
        }
        try directory.write(Array("YUV4MPEG2 W2 H2\nFRAMEX\n".utf8) + [UInt8](repeating: 0, count: 6), to: "marker")
        let badMarker = Y4MFileSource(path: directory.path("marker"), timing: .synthetic(start: .zero))
        try badMarker.open()
        #expect(throws: VideoSourceError.y4m(.badFrameMarker)) { try badMarker.nextFrame() }

        try directory.write(Array("YUV4MPEG2 W2 H2\n".utf8), to: "noframes")
        let noFrames = Y4MFileSource(path: directory.path("noframes"), loops: true, timing: .synthetic(start: .zero))
        try noFrames.open()
        #expect(throws: VideoSourceError.endOfStream) { try noFrames.nextFrame() }
    }

    @Test func aMissingFileIsASystemErrorWithThePath() {
        let source = Y4MFileSource(path: "/nonexistent/clip.y4m")
        let error = #expect(throws: VideoSourceError.self) { try source.open() }
        guard case .system(let system) = error else {
            Issue.record("expected a system error, got \(String(describing: error))")
            return
        }
        #expect(system.call == "open" && system.errno == ENOENT && system.path == "/nonexistent/clip.y4m")
        #expect(error?.isDeviceLost == true)  // a camera node vanishing during a reopen looks the same
        #expect(throws: VideoSourceError.notOpen) { try source.nextFrame() }
    }

    @Test func randomFilesNeverCrashTheReader() throws {
        let directory = try TemporaryDirectory()
        var generator = SplitMix64(seed: 7)
        let valid = Y4MWriter.encode(Self.clip(width: 4, height: 4, count: 2), frameRate: FrameRate(30))
        for round in 0..<40 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round.isMultiple(of: 4) { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator)) }
            try directory.write(bytes, to: "fuzz")
            let source = Y4MFileSource(path: directory.path("fuzz"), loops: round.isMultiple(of: 3), timing: .synthetic(start: .zero))
            guard (try? source.open()) != nil else { continue }
            for _ in 0..<6 {
                guard let frame = try? source.nextFrame() else { break }
                #expect(frame.width * frame.height > 0)
            }
        }
    }
}
