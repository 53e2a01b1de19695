import WebRTCCore

/// What a `PeerConnection` reports, in order, on `PeerConnection.events`.
public enum PeerConnectionEvent: Sendable, Equatable {
    /// A local ICE candidate to trickle to the peer (`candidate:…`, mid and m-line index of the first
    /// bundled section).
    case localCandidate(candidate: String, sdpMid: String, sdpMLineIndex: Int)
    /// Local gathering finished: signal end-of-candidates (`candidate: null`).
    case localCandidatesComplete
    /// The aggregate state changed. `failed` carries the error that caused it when one is known.
    case stateChanged(PeerConnectionState, PeerConnectionError?)
    /// The encoder should produce a keyframe now: a PLI or FIR arrived, media just started, or a
    /// delta frame was skipped while waiting for one. Already rate-limited.
    case keyframeNeeded(KeyframeRequestReason)
    /// The peer's receiver estimate (REMB, bit/s) for our streams.
    case bitrateEstimate(UInt64)
    /// A reception report about one of our streams (RFC 3550 §6.4.1).
    case receptionReport(MediaKind, ReportBlock)
    /// ICE selected the pair media travels on (RFC 8445 §8.1.1), both candidates in `candidate:` syntax, the
    /// remote one `typ prflx` when it was learnt from the peer's checks rather than signalled.
    case selectedPair(local: String, remote: String)
    /// A remote candidate's mDNS `.local` name was resolved (its candidate is in), or could not be.
    case mdnsCandidate(MDNSCandidateResolution)
}

/// Why a keyframe was asked for.
public enum KeyframeRequestReason: String, Sendable, Equatable {
    /// RTCP PLI (RFC 4585 §6.3.1).
    case pictureLoss
    /// RTCP FIR (RFC 5104 §4.3.1).
    case fullIntraRequest
    /// DTLS just completed: the first video the peer gets must be a keyframe.
    case mediaStarted
    /// Deltas are being skipped until a keyframe arrives.
    case waitingForKeyframe
}

/// Media received from the peer, on `PeerConnection.receivedMedia`.
public enum ReceivedMedia: Sendable, Equatable {
    /// One RTP packet of the negotiated audio payload type (Opus, RFC 7587: one Opus packet per RTP packet),
    /// with its sender's level when the audio-level extension (RFC 6464) was negotiated and present.
    case audio(RTPPacket, level: AudioLevelIndication?)
    /// A VP8 frame reassembled from the negotiated video payload type (RFC 7741).
    case videoFrame(VP8Frame)
}

/// One encoded VP8 frame to send: the bytes libvpx produced, the 90 kHz RTP timestamp, and whether it
/// is a keyframe (`VPX_FRAME_IS_KEY`).
public struct OutgoingVideoFrame: Sendable, Equatable {
    public var bytes: [UInt8]
    public var rtpTimestamp: UInt32
    public var isKeyframe: Bool

    public init(bytes: [UInt8], rtpTimestamp: UInt32, isKeyframe: Bool) {
        self.bytes = bytes
        self.rtpTimestamp = rtpTimestamp
        self.isKeyframe = isKeyframe
    }
}
