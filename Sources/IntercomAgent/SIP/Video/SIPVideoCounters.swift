/// What a SIP call's video did, for its log line and tests.
public struct SIPVideoCounters: Sendable, Equatable {
    public var framesSent = 0
    public var packetsSent = 0
    public var bytesSent = 0
    /// Frames not sent: deltas before the first keyframe (`OutboundVideoStream`).
    public var framesSkipped = 0
    public var sendErrors = 0
    /// The phone's own video packets (counted, never decoded: nothing on the device shows them).
    public var packetsReceived = 0
    /// PLI and FIR from the phone, each passed to the encoder as a keyframe request.
    public var keyframeRequests = 0
    /// Packets the phone NACKed (RFC 4585 §6.2.1) and those resent from the history (the rest had left it).
    public var nackedPackets = 0
    public var retransmissions = 0
    public var rtcpSent = 0
    public var rtcpReceived = 0
    /// Where the video goes: the offer's address, then the source of the phone's first packet (RFC 4961).
    public var remote = "-"
    public var latched = false
    /// The SDES suite protecting the video (`AES_CM_128_HMAC_SHA1_80`), or "off".
    public var srtp = "off"
    /// SRTP packets that failed authentication or the replay check: dropped before anything reads them.
    public var srtpFailed = 0
    /// The same for SRTCP on the RTCP port (baresip sends its last report in the clear, which lands here).
    public var srtcpFailed = 0
}
