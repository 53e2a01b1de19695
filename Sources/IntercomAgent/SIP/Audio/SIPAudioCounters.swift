/// What one SIP call's audio carried so far: for the call's log line and tests.
public struct SIPAudioCounters: Sendable, Equatable {
    /// "PCMU" or "PCMA".
    public var codec: String
    /// The SDES suite protecting the media (`AES_CM_128_HMAC_SHA1_80`), or "off" for plain RTP.
    public var srtp = "off"
    public var packetsSent = 0
    public var bytesSent = 0
    /// Valid packets of a negotiated payload type (audio and telephone-event).
    public var packetsReceived = 0
    public var bytesReceived = 0
    /// Garbage, foreign payload types, packets from another address after the latch.
    public var packetsDropped = 0
    /// SRTP packets (RTP port) that failed authentication or the replay check (RFC 3711 §3.3): dropped, not
    /// in `packetsDropped`, and never latched onto.
    public var srtpFailed = 0
    /// The same for SRTCP on the RTCP port (RFC 3711 §3.4); some phones send their first or last report in
    /// the clear, which lands here.
    public var srtcpFailed = 0
    public var digitsReceived = 0
    /// Key presses sent in full as RFC 4733 events (`SIPAudioCall.send(keys:)`).
    public var digitsSent = 0
    /// Compound RTCP reports sent and received (on the odd port).
    public var rtcpSent = 0
    public var rtcpReceived = 0
    /// Failed sends (each streak is logged once).
    public var sendErrors = 0
    /// Where RTP goes now: the offer's c=/m= address, then the first valid packet's source (RFC 4961).
    public var remote: String
    /// Whether `remote` is the latched source of the peer's packets.
    public var latched = false
    /// RMS level (dBFS) of the received audio over the last second of packets (−120: none yet).
    public var receivedLevel = -120.0

    public init(codec: String, remote: String) {
        self.codec = codec
        self.remote = remote
    }
}

/// The received RTP stream's condition, reported by `SIPAudioCall.start`'s `onState`.
public enum SIPAudioState: Sendable, Equatable {
    /// The first valid RTP packet arrived (again, after `.silent`).
    case flowing
    /// Nothing valid arrived for this many seconds, since the last packet or since the start (reported once per
    /// silence, after `silenceTimeout`, 30 s).
    case silent(seconds: Int)
}
