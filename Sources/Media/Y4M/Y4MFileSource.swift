import IntercomPlatform

/// Frames from a YUV4MPEG2 file (what `ffmpeg -pix_fmt yuv420p out.y4m` writes), optionally looping, so the
/// pipeline can be fed the same frames as the raw `vp8bench` baseline.
public final class Y4MFileSource: VideoSource {
    /// Longest header or `FRAME` line accepted.
    static let lineLimit = 1024

    public let path: String
    public let loops: Bool
    public let timing: SourceTiming
    /// The stream header, once open.
    public private(set) var header: Y4MStreamHeader?
    private var reader: BufferedFileReader?
    private var dataStart: Int64 = 0
    private var pacer: FramePacer
    private var sequence: UInt64 = 0

    public init(path: String, loops: Bool = false, timing: SourceTiming = .realtime) {
        self.path = path
        self.loops = loops
        self.timing = timing
        pacer = FramePacer(timing: timing, interval: .zero)
    }

    public var format: VideoFormat? {
        header.map { VideoFormat(width: $0.width, height: $0.height, frameRate: $0.frameRate) }
    }

    public func open() throws(VideoSourceError) {
        close()
        let reader = try system { () throws(SystemCallError) in try BufferedFileReader(path: path) }
        let header: Y4MStreamHeader
        switch try system({ () throws(SystemCallError) in try reader.readLine(limit: Self.lineLimit) }) {
        case .line(let line):
            do { header = try Y4MStreamHeader(parsing: line) } catch { throw .y4m(error) }
        case .endOfFile: throw .y4m(.notY4M)
        case .tooLong: throw .y4m(.lineTooLong(limit: Self.lineLimit))
        }
        dataStart = try system { () throws(SystemCallError) in try reader.position() }
        self.reader = reader
        self.header = header
        pacer = FramePacer(timing: timing, interval: header.frameRate.frameInterval)
    }

    public func close() {
        reader = nil
        header = nil
    }

    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        guard let reader, let header else { throw .notOpen }
        var marker = try system { () throws(SystemCallError) in try reader.readLine(limit: Self.lineLimit) }
        if marker == .endOfFile {
            guard loops else { throw .endOfStream }
            marker = try system { () throws(SystemCallError) in
                try reader.seek(to: dataStart)
                return try reader.readLine(limit: Self.lineLimit)
            }
            if marker == .endOfFile { throw .endOfStream }  // a header and no frames
        }
        guard case .line(let line) = marker, Self.isFrameMarker(line) else { throw .y4m(.badFrameMarker) }
        var frame = I420Frame(width: header.width, height: header.height)
        let result = frame.withMutableStorage { storage in Result { () throws(SystemCallError) in try reader.read(into: storage) } }
        let got = try system { () throws(SystemCallError) in try result.get() }
        let expected = header.frameByteCount
        guard got == expected else { throw .y4m(.truncatedFrame(expected: expected, got: got)) }
        frame.captureTime = pacer.nextCaptureTime()
        frame.sequence = sequence
        sequence += 1
        return frame
    }

    /// `FRAME`, alone or followed by space-separated frame parameters (which we ignore).
    static func isFrameMarker(_ line: [UInt8]) -> Bool {
        let marker = Array("FRAME".utf8)
        return line.starts(with: marker) && (line.count == marker.count || line[marker.count] == UInt8(ascii: " "))
    }

    private func system<T>(_ body: () throws(SystemCallError) -> T) throws(VideoSourceError) -> T {
        do { return try body() } catch { throw .system(error) }
    }
}
