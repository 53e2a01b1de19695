/// Answers the video section of a SIP call's offer (RFC 3264 §6) with VP8 (RFC 7741 §6.2) when the offer
/// carries VP8/90000 over plain RTP/AVP or RTP/AVPF: the offer's payload type, and `nack pli` / `ccm fir`
/// feedback only where the offer asked for it (RFC 4585 §4.2, RFC 5104 §7.1). Runs after the audio answer
/// (`SIPAudioAnswerer`), which refused every other section; `splice` puts the video section in its place.
/// An offer without usable video keeps that refusal: the call goes on with audio only.
public struct SIPVideoAnswerer: Sendable {
    /// Our video RTP port (c= is the audio answer's, the same address).
    public var port: UInt16

    public init(port: UInt16) {
        self.port = port
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
    }

    /// The first offered video section we can answer, or nil (no video, not VP8, SRTP, port 0).
    public func answer(_ offer: SessionDescription) -> Answer? {
        for (index, section) in offer.media.enumerated() where section.kind == .video && section.port != 0 {
            let transport = section.transportProtocol.uppercased()
            guard transport == "RTP/AVP" || transport == "RTP/AVPF",
                  let vp8 = section.payloads.first(where: { $0.rtpmap?.matches("VP8", clockRate: 90_000) == true }),
                  let remote = SIPAudioAnswerer.connectionAddress(section: section, session: offer)
            else { continue }
            let offeredFeedback = Set(vp8.feedback.map { $0.lowercased() })
            let feedback = ["nack pli", "ccm fir"].filter(offeredFeedback.contains)
            let direction = section.effectiveDirection.reversed
            var chosen = MediaDescription(kind: .video, port: port, transportProtocol: section.transportProtocol,
                                          direction: direction)
            chosen.payloads = [RTPPayloadFormat(payloadType: vp8.payloadType, rtpmap: RTPMap(encodingName: "VP8", clockRate: 90_000),
                                                feedback: feedback)]
            return Answer(index: index, section: chosen, payloadType: vp8.payloadType, remoteAddress: remote,
                          remotePort: section.port, direction: direction,
                          acceptsKeyframeRequests: transport == "RTP/AVPF" || !feedback.isEmpty)
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
