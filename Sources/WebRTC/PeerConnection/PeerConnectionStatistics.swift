import WebRTCCore

/// A snapshot of one peer connection's counters (`PeerConnection.statistics`).
public struct PeerConnectionStatistics: Sendable, Equatable {
    public var state: PeerConnectionState = .new
    public var videoFramesSent: UInt64 = 0
    /// Delta frames dropped before the first keyframe, and frames offered before DTLS completed.
    public var videoFramesSkipped: UInt64 = 0
    public var videoPacketsSent: UInt64 = 0
    public var audioPacketsSent: UInt64 = 0
    /// SRTP/SRTCP bytes handed to ICE, all streams, retransmissions included.
    public var bytesSent: UInt64 = 0
    public var retransmissionsSent: UInt64 = 0
    public var nackedPackets: UInt64 = 0
    public var keyframeRequestsReceived: UInt64 = 0
    public var rtcpReportsSent: UInt64 = 0
    public var audioPacketsReceived: UInt64 = 0
    public var videoFramesReceived: UInt64 = 0
    /// Video RTP packets received, retransmissions included.
    public var videoPacketsReceived: UInt64 = 0
    /// Generic NACKs and PLIs we sent about the peer's video.
    public var nacksSent: UInt64 = 0
    public var pictureLossRequestsSent: UInt64 = 0
    public var bytesReceived: UInt64 = 0
    /// SRTP/SRTCP packets that failed to unprotect or parse.
    public var inboundErrors: UInt64 = 0
    /// Datagrams that never left: RTCP we could not build or protect, and ones ICE dropped or refused.
    public var sendErrors: UInt64 = 0
    /// The latest reception reports about our streams.
    public var lastVideoReport: ReportBlock?
    public var lastAudioReport: ReportBlock?
    /// The latest REMB, bit/s.
    public var remoteBitrateEstimate: UInt64?

    public init() {}
}
