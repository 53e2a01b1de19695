/// Answers the video section of a SIP call's offer (RFC 3264 §6) with VP8 (RFC 7741 §6.2) when the offer
/// carries VP8/90000 over RTP/AVP or RTP/AVPF, or over RTP/SAVP or RTP/SAVPF with an SDES key (RFC 4568) as
/// `srtp` allows (as for audio: `off` plain only, `optional` either, secure first, `mandatory` secure only):
/// the offer's payload type, and `nack`, `nack pli` and `ccm fir` feedback only where the offer asked for it
/// (RFC 4585 §4.2, RFC 5104 §7.1). Runs after the audio answer (`SIPAudioAnswerer`), which refused every
/// other section; `splice` puts the video section in its place. An offer without usable video keeps that
/// refusal: the call goes on with audio only.
public struct SIPVideoAnswerer: Sendable {
    /// Our video RTP port (c= is the audio answer's, the same address).
    public var port: UInt16
    public var srtp: SIPSRTPMode

    public init(port: UInt16, srtp: SIPSRTPMode = .off) {
        self.port = port
        self.srtp = srtp
    }

    /// The answered video section and where its RTP goes.
    public struct Answer: Hashable, Sendable {
        /// The offer's m= line index the section answers.
        public var index: Int
        public var section: MediaDescription
        public var payloadType: UInt8
        public var remoteAddress: String
        public var remotePort: UInt16
        /// Our direction (the offer's, reversed): `sendonly` when the phone only receives, `inactive`…
        public var direction: MediaDirection
        /// The phone asked for picture loss indications (PLI) or full intra requests (FIR): it says when it
        /// needs a keyframe, and we honour it.
        public var acceptsKeyframeRequests: Bool
        /// The phone sends generic NACKs (RFC 4585 §6.2.1) for lost packets, and we retransmit them.
        public var acceptsNACK: Bool { section.payloads.first?.feedback.contains("nack") == true }
        /// The SDES keys when the section is RTP/SAVP(F); nil for plain RTP.
        public var srtp: SIPSRTPKeys?

        public init(index: Int, section: MediaDescription, payloadType: UInt8, remoteAddress: String, remotePort: UInt16,
                    direction: MediaDirection, acceptsKeyframeRequests: Bool, srtp: SIPSRTPKeys? = nil) {
            self.index = index
            self.section = section
            self.payloadType = payloadType
            self.remoteAddress = remoteAddress
            self.remotePort = remotePort
            self.direction = direction
            self.acceptsKeyframeRequests = acceptsKeyframeRequests
            self.srtp = srtp
        }
    }

    static let plainTransports: Set = ["RTP/AVP", "RTP/AVPF"]
    static let secureTransports: Set = ["RTP/SAVP", "RTP/SAVPF"]

    /// The first offered video section we can answer (secure ones first unless `srtp` is off), or nil (no
    /// video, not VP8, a transport `srtp` does not allow, no usable key, port 0).
    public func answer(_ offer: SessionDescription) -> Answer? {
        let video = offer.media.indices.filter { offer.media[$0].kind == .video && offer.media[$0].port != 0 }
        let secure = video.filter { Self.secureTransports.contains(offer.media[$0].transportProtocol.uppercased()) }
        let plain = video.filter { Self.plainTransports.contains(offer.media[$0].transportProtocol.uppercased()) }
        for index in (srtp == .off ? [] : secure) + (srtp == .mandatory ? [] : plain) {
            let section = offer.media[index]
            let transport = section.transportProtocol.uppercased()
            guard let vp8 = section.payloads.first(where: { $0.rtpmap?.matches("VP8", clockRate: 90_000) == true }),
                  let remote = SIPAudioAnswerer.connectionAddress(section: section, session: offer)
            else { continue }
            var keys: SIPSRTPKeys?
            if Self.secureTransports.contains(transport) {
                guard let crypto = section.cryptos.first(where: \.isUsableForOneKey) else { continue }
                keys = SIPSRTPKeys(suite: crypto.suite, tag: crypto.tag, local: SIPSRTPKeys.freshKeySalt(for: crypto.suite),
                                   remote: crypto.keySalt)
            }
            let offeredFeedback = Set(vp8.feedback.map { $0.lowercased() })
            let feedback = ["nack", "nack pli", "ccm fir"].filter(offeredFeedback.contains)
            let direction = section.effectiveDirection.reversed
            var chosen = MediaDescription(kind: .video, port: port, transportProtocol: section.transportProtocol,
                                          direction: direction)
            chosen.payloads = [RTPPayloadFormat(payloadType: vp8.payloadType, rtpmap: RTPMap(encodingName: "VP8", clockRate: 90_000),
                                                feedback: feedback)]
            // RFC 4568 §7.1.1: one crypto line, the accepted tag and suite with our own key.
            chosen.otherAttributes = keys.map { [SDPCrypto(tag: $0.tag, suite: $0.suite, keySalt: $0.local).attribute] } ?? []
            return Answer(index: index, section: chosen, payloadType: vp8.payloadType, remoteAddress: remote,
                          remotePort: section.port, direction: direction,
                          acceptsKeyframeRequests: transport.hasSuffix("F") || !feedback.isEmpty, srtp: keys)
        }
        return nil
    }

    /// `session` (an answer whose sections follow the offer's order) with the video section answered.
    public static func splice(_ answer: Answer, into session: SessionDescription) -> SessionDescription {
        var spliced = session
        guard spliced.media.indices.contains(answer.index), spliced.media[answer.index].kind == .video else { return session }
        spliced.media[answer.index] = answer.section
        return spliced
    }
}
