/// Pure arithmetic of the libcamera source, apart so it is tested without a camera.
enum LibcameraFrameTiming {
    /// `FrameDurationLimits` takes microseconds: the frame interval of `rate`, rounded to the nearest one.
    static func frameDurationMicroseconds(_ rate: FrameRate) -> Int64 {
        (Int64(rate.denominator) * 1_000_000 + Int64(rate.numerator) / 2) / Int64(rate.numerator)
    }

    /// Frames lost between two `FrameMetadata::sequence` numbers (0 for the first frame, a repeat or a
    /// counter that went backwards, as after a restart).
    static func droppedFrames(previous: UInt32?, current: UInt32) -> UInt64 {
        guard let previous, current &- previous > 1, current &- previous < UInt32.max / 2 else { return 0 }
        return UInt64(current &- previous - 1)
    }

    /// How long `nextFrame()` waits in one call: one frame interval, at least 5 ms and at most `limit`.
    static func pollTimeoutMilliseconds(_ rate: FrameRate, limit: Duration) -> Int32 {
        let interval = Int32(rate.frameInterval / .milliseconds(1))
        return max(5, min(interval, Int32(limit / .milliseconds(1))))
    }
}
