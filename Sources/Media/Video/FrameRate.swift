/// A frame rate as the rational number cameras and Y4M headers use (e.g. 30000:1001).
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(numerator > 0 && denominator > 0, "a frame rate is positive")
        self.numerator = numerator
        self.denominator = denominator
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
    /// Time between two frames.
    public var frameInterval: Duration { .seconds(denominator) / numerator }
    public var description: String { "\(numerator):\(denominator)" }
}

/// What a video source delivers.
public struct VideoFormat: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var frameRate: FrameRate

    public init(width: Int, height: Int, frameRate: FrameRate) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}
