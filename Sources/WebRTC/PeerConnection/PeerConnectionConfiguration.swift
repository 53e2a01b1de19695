import WebRTCCore

/// Which side of the offer/answer exchange (RFC 3264) a `PeerConnection` plays. The offerer is the
/// controlling ICE agent (RFC 8445 §6.1.1) and writes `a=setup:actpass`; the answerer picks its DTLS role
/// from the offer (RFC 8842 §5.2).
public enum NegotiationRole: String, Sendable, Equatable {
    case offerer
    case answerer
}

/// How to build a `PeerConnection`.
public struct PeerConnectionConfiguration: Sendable {
    /// Codecs, directions and header extensions (SYSTEM.md §5). The default sends video, two-way audio.
    public var capabilities: MediaCapabilities
    public var stunServer: STUNServer?
    public var turnServer: TURNServer?
    /// Host-candidate addresses (`["127.0.0.1"]` in tests); empty means every interface.
    public var localAddresses: [String]
    /// Largest datagram we send (SRTP included).
    public var maxPacketSize: Int
    /// Minimum time between two keyframe requests to our encoder (PLI/FIR storms).
    public var keyframeRequestInterval: Duration
    /// Interval of our RTCP sender/receiver reports (RFC 3550 §6.2; Chrome expects about 1 s).
    public var reportInterval: Duration
    /// Video packets kept (already protected) for NACK retransmissions: about 1–2 s of video.
    public var retransmissionHistory: Int
    /// The DTLS handshake gives up after this long.
    public var handshakeTimeout: Duration
    /// How often lost video packets are NACKed again (RFC 4585 §6.2.1), when `nack` is negotiated.
    public var nackInterval: Duration
    /// A connected peer from which nothing (RTP, RTCP, DTLS) arrives for this long is gone: the connection
    /// fails. Browsers send RTCP at least every second, so 15 s is silence, not loss.
    public var inactivityTimeout: Duration
    /// Fault injection (tests, soak runs): return false to drop the first transmission of an RTP packet
    /// on the floor. The packet still enters the NACK history, so the peer can get it retransmitted.
    public var outgoingPacketFilter: (@Sendable (RTPPacket) -> Bool)?
    /// Resolves the peer's mDNS `.local` host candidates; nil leaves them to libnice, which refuses them.
    public var mdnsResolver: (any MDNSNameResolving)?

    public init(
        capabilities: MediaCapabilities = .intercom(), stunServer: STUNServer? = nil, turnServer: TURNServer? = nil,
        localAddresses: [String] = [], maxPacketSize: Int = 1200,
        keyframeRequestInterval: Duration = .milliseconds(400), reportInterval: Duration = .seconds(1),
        retransmissionHistory: Int = 1024, handshakeTimeout: Duration = DTLSEndpoint.defaultHandshakeTimeout,
        nackInterval: Duration = .milliseconds(50), inactivityTimeout: Duration = .seconds(15),
        outgoingPacketFilter: (@Sendable (RTPPacket) -> Bool)? = nil, mdnsResolver: (any MDNSNameResolving)? = MDNSResolver.shared
    ) {
        self.capabilities = capabilities
        self.stunServer = stunServer
        self.turnServer = turnServer
        self.localAddresses = localAddresses
        self.maxPacketSize = maxPacketSize
        self.keyframeRequestInterval = keyframeRequestInterval
        self.reportInterval = reportInterval
        self.retransmissionHistory = retransmissionHistory
        self.handshakeTimeout = handshakeTimeout
        self.nackInterval = nackInterval
        self.inactivityTimeout = inactivityTimeout
        self.outgoingPacketFilter = outgoingPacketFilter
        self.mdnsResolver = mdnsResolver
    }
}
