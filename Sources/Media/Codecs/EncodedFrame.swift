/// One compressed video frame as the encoder produced it, ready for RTP packetisation. `bytes` is a
/// copy-on-write array: handing the frame to many subscribers shares one buffer.
public struct EncodedFrame: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The source frame's capture time (`CLOCK_MONOTONIC`).
    public var captureTime: Duration
    /// The RTP timestamp (90 kHz clock for video, RFC 7741 §4.1), from the capture time plus a per-stream
    /// random offset (RFC 3550 §5.1).
    public var rtpTimestamp: UInt32
    /// `VPX_FRAME_IS_KEY`: decodable on its own; send it to a new viewer first.
    public var isKeyframe: Bool

    public init(bytes: [UInt8], captureTime: Duration, rtpTimestamp: UInt32, isKeyframe: Bool) {
        self.bytes = bytes
        self.captureTime = captureTime
        self.rtpTimestamp = rtpTimestamp
        self.isKeyframe = isKeyframe
    }
}
