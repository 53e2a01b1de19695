/// Our identity in SDP: ICE credentials (RFC 8839 §5.4), DTLS fingerprint (RFC 8122), RTP sources and
/// stream ids (RFC 5576, RFC 8830), and the `o=` session id/version (RFC 8866 §5.2).
public struct SDPLocalEndpoint: Hashable, Sendable {
    public var iceUfrag: String
    public var icePassword: String
    public var fingerprint: SDPFingerprint
    /// RTCP CNAME shared by our audio and video so the browser lip-syncs them (RFC 3550 §6.5.1).
    public var cname: String
    public var streamID: String
    public var audioTrackID: String
    public var videoTrackID: String
    public var audioSSRC: UInt32
    public var videoSSRC: UInt32
    public var sessionID: String
    public var sessionVersion: UInt64

    public init(
        iceUfrag: String, icePassword: String, fingerprint: SDPFingerprint, cname: String, streamID: String,
        audioTrackID: String, videoTrackID: String, audioSSRC: UInt32, videoSSRC: UInt32,
        sessionID: String, sessionVersion: UInt64 = 2
    ) {
        self.iceUfrag = iceUfrag
        self.icePassword = icePassword
        self.fingerprint = fingerprint
        self.cname = cname
        self.streamID = streamID
        self.audioTrackID = audioTrackID
        self.videoTrackID = videoTrackID
        self.audioSSRC = audioSSRC
        self.videoSSRC = videoSSRC
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }

    /// Fresh random identifiers; the generator is injected so tests stay deterministic.
    public static func random(
        fingerprint: SDPFingerprint, using generator: inout some RandomNumberGenerator
    ) -> SDPLocalEndpoint {
        let iceAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        func token(_ length: Int) -> String {
            String((0..<length).map { _ in iceAlphabet[Int.random(in: 0..<62, using: &generator)] })
        }
        let audioSSRC = UInt32.random(in: 1...UInt32.max, using: &generator)
        var videoSSRC = UInt32.random(in: 1...UInt32.max, using: &generator)
        if videoSSRC == audioSSRC { videoSSRC &+= 1 }
        return SDPLocalEndpoint(
            iceUfrag: token(8), icePassword: token(24), fingerprint: fingerprint, cname: token(16),
            streamID: "intercom-" + token(8), audioTrackID: "audio-" + token(8), videoTrackID: "video-" + token(8),
            audioSSRC: audioSSRC, videoSSRC: videoSSRC,
            sessionID: String(UInt64.random(in: 1...(UInt64(Int64.max)), using: &generator)))
    }

    var origin: SDPOrigin { SDPOrigin(sessionID: sessionID, sessionVersion: sessionVersion) }

    func ssrc(for kind: MediaKind) -> UInt32 { kind == .audio ? audioSSRC : videoSSRC }
    func trackID(for kind: MediaKind) -> String { kind == .audio ? audioTrackID : videoTrackID }

    /// ICE and DTLS attributes for one of our media sections.
    func transport(setup: DTLSSetupRole, iceOptions: [String]) -> SDPTransport {
        SDPTransport(
            iceUfrag: iceUfrag, icePassword: icePassword, iceOptions: iceOptions, fingerprints: [fingerprint],
            setup: setup)
    }

    /// An accepted section we author: transport, mid, direction, rtcp-mux, and msid/ssrc when we send.
    func section(
        kind: MediaKind, mid: String, format: RTPPayloadFormat, direction: MediaDirection,
        transport: SDPTransport, headerExtensions: [HeaderExtensionMap], reducedSize: Bool
    ) -> MediaDescription {
        var section = MediaDescription(
            kind: kind, port: 9, payloads: [format], mid: mid, direction: direction, rtcpMux: true,
            rtcpReducedSize: reducedSize, transport: transport, headerExtensions: headerExtensions,
            otherLines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")])
        if direction.sends {
            let msid = MediaStreamID(streamID: streamID, trackID: trackID(for: kind))
            section.mediaStreamIDs = [msid]
            section.ssrcAttributes = [
                SSRCAttribute(ssrc: ssrc(for: kind), name: "cname", value: cname),
                SSRCAttribute(ssrc: ssrc(for: kind), name: "msid", value: msid.serialized),
            ]
        }
        return section
    }
}
